/* BR1 lifting on the device, one block per element (or a few for low N); each thread owns P nodes
 * of its element (P = passes, a template parameter so that their values stay in registers):
 *   1. the lifting variables w = (u, v, w, T) and the metrics of the element are staged in shared
 *      memory;
 *   2. each thread forms the gradients of its nodes: volume term along the three lines (weak,
 *      strong or strong conservative form) plus the gathered face values of the six sides, times
 *      1/J; writes them for the face kernel and keeps them in registers;
 *   3. after a barrier (other threads' gradients read every node's metrics), each thread turns
 *      its nodes' metric slots into the contravariant viscous fluxes g^d = Fv . Ja^d: a node's
 *      slots are now read and overwritten only by its owner, so this phase needs no barrier
 *      between reading Ja and writing g;
 *   4. each thread sums the viscous volume integral of its nodes into Ut (VolInt adds the
 *      advective part afterwards). Same arithmetic as src/dg/lifting.c. */
#include "gpu/gpu_internal.cuh"

extern "C" {
#include "dg/faceops.h"
#include "physics/eos.h"
#include "physics/navierstokes.h"
}

#define LIFT_THREADS 256
#define LIFT_MAX_PASSES 4
#define LIFT_MAX_SHARED (200 * 1024)
/* per node: w, then a region used first for the metrics Ja[dir][comp] (gradients) and then for the
 * contravariant viscous fluxes g[dir][var] (viscous volume integral) */
#define LIFT_CACHE (HX_NLIFT + 3 * HX_NVAR)

__device__ static void node_prim(const DevData &d, const PhysParams &pp, int e, int n,
                                 double *prim) {
  const double *Ue = d.U + (size_t)e * d.nvar * d.n3;
  double u[HX_NVAR];
  for (int v = 0; v < HX_NVAR; v++) u[v] = Ue[v * d.n3 + n];
  cons_to_prim(&pp, u, prim);
}

/* Gradients of node n: volume term, face values, 1/J. Ja: the element's metrics in shared memory;
 * Dm: Dhat (weak form) or D (strong forms). The strong non-conservative form derives w along the
 * three lines and applies the node's own metrics: 4 instead of 7 shared loads per line point. */
template <int FORM>
__device__ static void node_gradient(const DevData &d, const double *Dm, const double *wc,
                                     const double *Ja, int e, int n, double q[3][HX_NLIFT]) {
  const int np = d.np, n3 = d.n3;
  int idx[3] = {n % np, (n / np) % np, n / (np * np)};
  for (int c = 0; c < 3; c++)
    for (int v = 0; v < HX_NLIFT; v++) q[c][v] = 0.0;
  for (int dir = 0; dir < 3; dir++) {
    int stride = dir == 0 ? 1 : dir == 1 ? np : np * np, base = n - idx[dir] * stride;
    if (FORM == LIFT_STRONG) {
      double dw[HX_NLIFT];
      for (int v = 0; v < HX_NLIFT; v++) dw[v] = 0.0;
      for (int l = 0; l < np; l++) {
        int nl = base + l * stride;
        double w = Dm[idx[dir] * np + l];
        for (int v = 0; v < HX_NLIFT; v++) dw[v] += w * wc[v * n3 + nl];
      }
      for (int c = 0; c < 3; c++) {
        double jc = Ja[(dir * 3 + c) * n3 + n];
        for (int v = 0; v < HX_NLIFT; v++) q[c][v] += jc * dw[v];
      }
    } else {
      for (int l = 0; l < np; l++) {
        int nl = base + l * stride;
        double w = Dm[idx[dir] * np + l];
        for (int c = 0; c < 3; c++) {
          double wm = w * Ja[(dir * 3 + c) * n3 + nl];
          for (int v = 0; v < HX_NLIFT; v++) q[c][v] += wm * wc[v * n3 + nl];
        }
      }
    }
  }
  for (int ls = 0; ls < 6; ls++) {
    double w = surface_weight(d.disc, ls, idx[side_normal_dir(ls)]);
    if (w == 0.0) continue;
    int side = d.elem_sides[2 * (6 * e + ls)], flip = d.elem_sides[2 * (6 * e + ls) + 1];
    int ps, qs, p, qq;
    volume_to_side(d.N, ls, idx[0], idx[1], idx[2], &ps, &qs);
    flip_master_to_slave(flip, d.N, ps, qs, &p, &qq);
    double sw = flip == 0 || FORM != LIFT_WEAK ? w : -w; /* strong forms: same sign on both sides */
    const double *L = d.lift_flux + (size_t)side * HX_NGRAD * d.n2 + qq * np + p;
    for (int c = 0; c < 3; c++)
      for (int v = 0; v < HX_NLIFT; v++) q[c][v] += sw * L[(c * HX_NLIFT + v) * d.n2];
  }
  double sJ = d.sJ[(size_t)e * n3 + n];
  for (int c = 0; c < 3; c++)
    for (int v = 0; v < HX_NLIFT; v++) q[c][v] *= sJ;
}

/* Contravariant viscous fluxes of node n into its own slots of the metrics region (read first). */
__device__ static void node_viscous_fluxes(const DevData &d, const PhysParams &pp, int e, int n,
                                           const double q[3][HX_NLIFT], double *gc) {
  const int n3 = d.n3;
  double Ja[9], prim[HX_NPRIM], tau[9], cond[3];
  for (int c = 0; c < 9; c++) Ja[c] = gc[c * n3 + n];
  node_prim(d, pp, e, n, prim);
  viscous_stress(&pp, prim, q[0], q[1], q[2], tau, cond);
  for (int dir = 0; dir < 3; dir++) {
    double F[HX_NVAR];
    viscous_flux_from_stress(prim, tau, cond, &Ja[3 * dir], F);
    for (int v = 0; v < HX_NVAR; v++) gc[(dir * HX_NVAR + v) * n3 + n] = F[v];
  }
}

/* Ut(n) = - sum_d sum_l Dvol[i][l] G_il, G = g_l (weak) or (g_n + g_l)/2 (split). */
template <bool SPLIT>
__device__ static void node_viscous_volume(const DevData &d, const double *Dv, const double *gc,
                                           int e, int n) {
  const int np = d.np, n3 = d.n3;
  int idx[3] = {n % np, (n / np) % np, n / (np * np)};
  double acc[HX_NVAR];
  for (int v = 0; v < HX_NVAR; v++) acc[v] = 0.0;
  for (int dir = 0; dir < 3; dir++) {
    int stride = dir == 0 ? 1 : dir == 1 ? np : np * np, base = n - idx[dir] * stride;
    const double *g = gc + dir * HX_NVAR * n3;
    double gn[HX_NVAR];
    for (int v = 0; v < HX_NVAR; v++) gn[v] = SPLIT ? g[v * n3 + n] : 0.0;
    for (int l = 0; l < np; l++) {
      double D = Dv[idx[dir] * np + l];
      int nl = base + l * stride;
      for (int v = 0; v < HX_NVAR; v++) {
        double G = SPLIT ? 0.5 * (gn[v] + g[v * n3 + nl]) : g[v * n3 + nl];
        acc[v] += D * G;
      }
    }
  }
  double *ut = d.Ut + (size_t)e * d.nvar * n3 + n;
  for (int v = 0; v < HX_NVAR; v++) ut[v * n3] = -acc[v];
}

template <bool SPLIT, int P, int FORM>
__global__ static void __launch_bounds__(LIFT_THREADS, 2)
    lifting_kernel(DevData d, DevPhysics ph, int elems_per_block, int threads_per_elem) {
  extern __shared__ double smem[];
  const int np = d.np, n3 = d.n3;
  double *Dm = smem, *Dv = smem + np * np; /* Dm: Dhat (weak lifting) or D (strong forms) */
  int le = threadIdx.x / threads_per_elem, lt = threadIdx.x - le * threads_per_elem;
  int e = blockIdx.x * elems_per_block + le;
  bool active = le < elems_per_block && e < d.n_elems && !(d.sc->dt < 0.0); /* dt < 0: inadmissible state; dt = 0: analysis before the first step */
  double *wc = smem + 2 * np * np + (size_t)le * LIFT_CACHE * n3, *gc = wc + HX_NLIFT * n3;
  for (int t = threadIdx.x; t < np * np; t += blockDim.x) {
    Dm[t] = FORM == LIFT_WEAK ? d.disc->Dhat[t] : d.disc->D[t];
    Dv[t] = d.disc->Dvol[t];
  }
  if (active)
    for (int n = lt; n < n3; n += threads_per_elem) {
      double prim[HX_NPRIM], w[HX_NLIFT];
      node_prim(d, ph.pp, e, n, prim);
      lifting_variables(prim, w);
      for (int v = 0; v < HX_NLIFT; v++) wc[v * n3 + n] = w[v];
      const double *Ja = d.metrics + (size_t)e * 9 * n3;
      for (int c = 0; c < 9; c++) gc[c * n3 + n] = __ldg(&Ja[c * n3 + n]);
    }
  __syncthreads();
  double q[P][3][HX_NLIFT];
  if (active) {
#pragma unroll
    for (int p = 0; p < P; p++) {
      int n = lt + p * threads_per_elem;
      if (n >= n3) break;
      node_gradient<FORM>(d, Dm, wc, gc, e, n, q[p]);
      double *qg = d.grad + (size_t)e * HX_NGRAD * n3 + n;
      for (int c = 0; c < 3; c++)
        for (int v = 0; v < HX_NLIFT; v++) qg[(c * HX_NLIFT + v) * n3] = q[p][c][v];
    }
  }
  __syncthreads(); /* every gradient is done: the metrics region now receives the viscous fluxes */
  if (active) {
#pragma unroll
    for (int p = 0; p < P; p++) {
      int n = lt + p * threads_per_elem;
      if (n >= n3) break;
      node_viscous_fluxes(d, ph.pp, e, n, q[p], gc);
    }
  }
  __syncthreads();
  if (!active) return;
  for (int n = lt; n < n3; n += threads_per_elem) node_viscous_volume<SPLIT>(d, Dv, gc, e, n);
}

typedef struct {
  int elems_per_block, threads_per_elem, passes;
  size_t shared_bytes;
} LiftConfig;

static LiftConfig lift_config(const DevData *d) {
  LiftConfig c;
  int n3 = d->n3;
  c.elems_per_block = n3 >= 128 ? 1 : 128 / n3;
  c.shared_bytes = sizeof(double) * (2 * d->np * d->np + (size_t)LIFT_CACHE * n3 * c.elems_per_block);
  int max_threads = LIFT_THREADS / c.elems_per_block;
  int passes = (n3 + max_threads - 1) / max_threads;
  c.threads_per_elem = (n3 + passes - 1) / passes;
  if (passes > 1) c.threads_per_elem = (c.threads_per_elem + 31) / 32 * 32;
  c.passes = (n3 + c.threads_per_elem - 1) / c.threads_per_elem;
  return c;
}

template <int P> static int set_shared_size(size_t bytes) {
#define HX_LIFT_ATTR(S, F)                                                                    \
  CU_CHECK(cudaFuncSetAttribute(lifting_kernel<S, P, F>,                                      \
                                cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes))
  HX_LIFT_ATTR(true, LIFT_WEAK);
  HX_LIFT_ATTR(true, LIFT_STRONG);
  HX_LIFT_ATTR(true, LIFT_STRONG_CONS);
  HX_LIFT_ATTR(false, LIFT_WEAK);
  HX_LIFT_ATTR(false, LIFT_STRONG);
  HX_LIFT_ATTR(false, LIFT_STRONG_CONS);
#undef HX_LIFT_ATTR
  return HX_OK;
}

int lifting_configure(const DevData *d) {
  LiftConfig c = lift_config(d);
  if (c.shared_bytes > LIFT_MAX_SHARED)
    return HX_ERROR(HX_ERR_INPUT,
                    "Navier-Stokes on the GPU supports N <= 9 (the lifting kernel keeps an "
                    "element in shared memory; N = %d needs %zu bytes); use Backend = cpu",
                    d->N, c.shared_bytes);
  if (c.passes > LIFT_MAX_PASSES)
    return HX_ERROR(HX_ERR_INPUT, "lifting kernel: N = %d needs %d passes (at most %d)", d->N,
                    c.passes, LIFT_MAX_PASSES);
  HX_CHECK(set_shared_size<1>(c.shared_bytes));
  HX_CHECK(set_shared_size<2>(c.shared_bytes));
  HX_CHECK(set_shared_size<3>(c.shared_bytes));
  HX_CHECK(set_shared_size<4>(c.shared_bytes));
  return HX_OK;
}

template <int P, int FORM>
static void launch_form(const DevData *d, const DevPhysics *ph, LiftConfig c, int blocks,
                        int threads, cudaStream_t s) {
  if (d->split != SPLIT_NONE)
    lifting_kernel<true, P, FORM><<<blocks, threads, c.shared_bytes, s>>>(
        *d, *ph, c.elems_per_block, c.threads_per_elem);
  else
    lifting_kernel<false, P, FORM><<<blocks, threads, c.shared_bytes, s>>>(
        *d, *ph, c.elems_per_block, c.threads_per_elem);
}

template <int P> static void launch_passes(const DevData *d, const DevPhysics *ph, LiftConfig c,
                                           int blocks, int threads, cudaStream_t s) {
  switch (d->lifting_form) {
  case LIFT_WEAK: launch_form<P, LIFT_WEAK>(d, ph, c, blocks, threads, s); break;
  case LIFT_STRONG_CONS: launch_form<P, LIFT_STRONG_CONS>(d, ph, c, blocks, threads, s); break;
  default: launch_form<P, LIFT_STRONG>(d, ph, c, blocks, threads, s); break;
  }
}

int launch_lifting(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  LiftConfig c = lift_config(d);
  int blocks = (d->n_elems + c.elems_per_block - 1) / c.elems_per_block;
  int threads = c.elems_per_block * c.threads_per_elem;
  switch (c.passes) {
  case 1: launch_passes<1>(d, ph, c, blocks, threads, s); break;
  case 2: launch_passes<2>(d, ph, c, blocks, threads, s); break;
  case 3: launch_passes<3>(d, ph, c, blocks, threads, s); break;
  default: launch_passes<4>(d, ph, c, blocks, threads, s); break;
  }
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}
