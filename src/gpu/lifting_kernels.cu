/* BR1 lifting on the device: gradients of the lifting variables and the viscous volume term, in
 * two kernels. The line kernels serve FLEXI's default, the strong non-conservative form, for
 * N = 1..7: on Gauss-Lobatto nodes the one below, on Gauss nodes lifting_gauss_kernels.cu; the
 * node kernel every form and degree.
 *
 * Node kernel: one block per element (or a few for low N); each thread owns P nodes of its
 * element (P = passes, a template parameter so that their values stay in registers):
 *   1. the lifting variables w = (u, v, w, T) and the metrics of the element are staged in shared
 *      memory;
 *   2. each thread forms the gradients of its nodes: volume term along the three lines (weak,
 *      strong or strong conservative form) plus the gathered face values of the six sides, times
 *      1/J; writes them for the face kernel and keeps them in registers;
 *   3. after a barrier (other threads' gradients read every node's metrics), each thread turns
 *      its nodes' metric slots into the contravariant viscous fluxes g^d = Fv . Ja^d: a node's
 *      slots are now read and overwritten only by its owner, so this phase needs no barrier
 *      between reading Ja and writing g;
 *   4. each thread sums the viscous volume integral of its nodes into Ut_visc (VolInt writes the
 *      advective part to Ut, the surface update adds both). Same arithmetic as src/dg/lifting.c. */
#include <stdlib.h>

#include "gpu/lifting_line.cuh"

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

/* Surface part of the gradients of the node with indices idx: the gathered face values w* n s of
 * the element's sides (Gauss-Lobatto nodes: only the sides the node lies on). */
template <int FORM>
__device__ static void node_surface_lift(const DevData &d, int e, const int idx[3],
                                         double q[3][HX_NLIFT]) {
  const int np = d.np;
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
}

/* Face data of the node with indices idx (Gauss-Lobatto) at each side it lies on, at the face
 * point f in the master's orientation (flip 0: the master): store(side, flip, f). */
template <class Store>
__device__ static void node_faces(const DevData &d, int e, const int idx[3], Store store) {
  for (int ls = 0; ls < 6; ls++) {
    if (idx[side_normal_dir(ls)] != (side_is_plus(ls) ? d.N : 0)) continue;
    int side = d.elem_sides[2 * (6 * e + ls)], flip = d.elem_sides[2 * (6 * e + ls) + 1];
    int ps, qs, p, qq;
    volume_to_side(d.N, ls, idx[0], idx[1], idx[2], &ps, &qs);
    flip_master_to_slave(flip, d.N, ps, qs, &p, &qq);
    store(side, flip, qq * d.np + p);
  }
}

/* The gradients q of the node into grad_face, the master's or the slave's half, for the face
 * kernel. */
__device__ static void node_face_grad_store(const DevData &d, int e, const int idx[3],
                                            const double q[3][HX_NLIFT]) {
  node_faces(d, e, idx, [&](int side, int flip, int f) {
    double *o = d.grad_face + ((size_t)side * 2 + (flip != 0)) * HX_NGRAD * d.n2 + f;
    for (int c = 0; c < 3; c++)
      for (int v = 0; v < HX_NLIFT; v++) o[(c * HX_NLIFT + v) * d.n2] = q[c][v];
  });
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
      /* strong conservative: D (Ja (w - w_n)), see lifting.c */
      double w0[HX_NLIFT];
      for (int v = 0; v < HX_NLIFT; v++) w0[v] = FORM == LIFT_STRONG_CONS ? wc[v * n3 + n] : 0.0;
      for (int l = 0; l < np; l++) {
        int nl = base + l * stride;
        double w = Dm[idx[dir] * np + l];
        for (int c = 0; c < 3; c++) {
          double wm = w * Ja[(dir * 3 + c) * n3 + nl];
          for (int v = 0; v < HX_NLIFT; v++) q[c][v] += wm * (wc[v * n3 + nl] - w0[v]);
        }
      }
    }
  }
  node_surface_lift<FORM>(d, e, idx, q);
  double sJ = node_sJ(d, e, n);
  for (int c = 0; c < 3; c++)
    for (int v = 0; v < HX_NLIFT; v++) q[c][v] *= sJ;
}

/* Contravariant viscous fluxes of node n into its own slots of the metrics region (read first). */
template <bool LES>
__device__ static void node_viscous_fluxes(const DevData &d, const PhysParams &pp, int e, int n,
                                           const double q[3][HX_NLIFT], double *gc) {
  const int n3 = d.n3;
  double Ja[9], prim[HX_NPRIM], tau[9], cond[3];
  for (int c = 0; c < 9; c++) Ja[c] = gc[c * n3 + n];
  node_prim(d, pp, e, n, prim);
  sgs_node_stress<LES>(d, pp, e, n, prim, q, tau, cond);
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
  double *ut = d.Ut_visc + (size_t)e * d.nvar * n3 + n;
  for (int v = 0; v < HX_NVAR; v++) ut[v * n3] = -acc[v];
}

template <bool SPLIT, int P, int FORM, bool LES>
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
      double Ja[9];
      node_metrics(d, e, n, Ja);
      for (int c = 0; c < 9; c++) gc[c * n3 + n] = Ja[c];
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
      node_viscous_fluxes<LES>(d, ph.pp, e, n, q[p], gc);
    }
  }
  __syncthreads();
  if (!active) return;
  for (int n = lt; n < n3; n += threads_per_elem) node_viscous_volume<SPLIT>(d, Dv, gc, e, n);
}

/* Line kernel on Gauss-Lobatto nodes for N = 1..7 (H100, N = 7, 4.1e6 DOF: 0.55 ms per stage
 * against 0.90 ms for the node kernel, docs/performance.md; layout and shared phases:
 * gpu/lifting_line.cuh). The derivatives along the element's lines (of w, and the viscous volume
 * integral of the contravariant fluxes) are done by one thread per line: it reads the line's NP
 * values from shared memory once and forms all NP outputs, instead of NP loads per output and a
 * matrix in shared memory. Phases, separated by barriers:
 *   0. node: w = (u, v, w, T) of the node into slots 0..3;
 *   1. line: reference derivatives D w along each direction into slots 4..15 (4 + 4 dir + v);
 *   2. node: gradients from the node's own metrics, the face values and 1/J (written for the face
 *      kernel: into grad_face at the face points when set, else the volume array grad), then
 *      the contravariant viscous fluxes g[dir][var] into slots 0..14 (a node's slots are only
 *      read by its owner in this phase);
 *   3. line: the 1-D viscous volume integral of g[dir] along each dir-line, in place (a dir-line's
 *      g[dir] values are read by that line only);
 *   4. node: Ut = -(sum of the three directions). */
template <int NP> struct LineMats {
  double D[NP * NP];  /* strong-form derivative */
  double Dv[NP * NP]; /* volume operator Dvol */
  double Dvs[NP];     /* row sums of Dvol (split form: the node's own half of the mean) */
};

template <int NP, bool SPLIT, bool LES>
__global__ static void __launch_bounds__(LINE_THREADS, HEXDG_LINE_MIN_BLOCKS)
    lifting_line_kernel(DevData d, DevPhysics ph, LineMats<NP> M, int volume_grad) {
  extern __shared__ double smem[];
  constexpr int N2 = NP * NP, N3 = NP * N2, S = line_slot_size(NP);
  constexpr int EPB = line_elems_per_block(N3);
  if (d.sc->dt < 0.0) return; /* inadmissible state; dt = 0: analysis before the first step */
  const int e0 = blockIdx.x * EPB;
  const int ne = min(EPB, d.n_elems - e0);
  line_stage_lifting_variables<NP>(d, ph.pp, e0, ne, smem);
  __syncthreads();
  for (int t = threadIdx.x; t < ne * 3 * N2; t += blockDim.x) {
    int dir, base, stride, le = line_task<NP>(t, &dir, &base, &stride);
    line_derive_lifting_variables<NP>(M.D, smem + (size_t)le * LINE_SLOTS * S + base, dir, stride);
  }
  __syncthreads();
  pdl_wait(); /* the face values of the face lifting kernel (dependent launch) */
  pdl_trigger();
  for (int t = threadIdx.x; t < ne * N3; t += blockDim.x) {
    int le = t / N3, n = t - le * N3, e = e0 + le;
    int idx[3] = {n % NP, (n / NP) % NP, n / N2};
    double *sl = smem + (size_t)le * LINE_SLOTS * S + line_pad<NP>(n);
    /* global loads first: metrics, state, 1/J */
    const double *Ue = d.U + (size_t)e * d.nvar * N3 + n;
    double Ja[9], u[HX_NVAR], q[3][HX_NLIFT];
    node_metrics<N3>(d, e, n, Ja);
#pragma unroll
    for (int v = 0; v < HX_NVAR; v++) u[v] = Ue[v * N3];
    double sJ = node_sJ<N3>(d, e, n);
    node_gradient_from_slots<NP>(Ja, sl, q);
    node_surface_lift<LIFT_STRONG>(d, e, idx, q);
#pragma unroll
    for (int c = 0; c < 3; c++)
#pragma unroll
      for (int v = 0; v < HX_NLIFT; v++) q[c][v] *= sJ;
    if (d.grad_face) node_face_grad_store(d, e, idx, q);
    if (!d.grad_face || volume_grad) {
      double *qg = d.grad + (size_t)e * HX_NGRAD * N3 + n;
#pragma unroll
      for (int c = 0; c < 3; c++)
#pragma unroll
        for (int v = 0; v < HX_NLIFT; v++) qg[(c * HX_NLIFT + v) * N3] = q[c][v];
    }
    node_store_viscous_fluxes<NP, LES>(d, ph.pp, e, n, u, Ja, q, sl);
  }
  __syncthreads();
  for (int t = threadIdx.x; t < ne * 3 * N2; t += blockDim.x) {
    int dir, base, stride, le = line_task<NP>(t, &dir, &base, &stride);
    line_viscous_volume<NP, SPLIT>(M.Dv, M.Dvs,
                                   smem + (size_t)le * LINE_SLOTS * S + base + dir * HX_NVAR * S,
                                   stride);
  }
  __syncthreads();
  for (int t = threadIdx.x; t < ne * N3; t += blockDim.x)
    node_store_viscous_volume<NP>(d, e0, t, smem);
}

static size_t line_shared_bytes(int np) {
  return sizeof(double) * LINE_SLOTS * line_slot_size(np) * line_elems_per_block(np * np * np);
}

/* HEXDG_GAUSS_LINE_LIFTING = F (or 0) in the environment: Gauss nodes take the node kernel, and
 * the face kernels prolong the gradients and the states themselves, as before the Gauss line
 * kernel (to measure both with one build). */
static bool gauss_line_lifting_enabled(void) {
  return gpu_env_flag("HEXDG_GAUSS_LINE_LIFTING", true);
}

/* The line kernels serve the strong non-conservative form for NP = 2 .. 8 (N = 1 .. 7). */
static bool use_line_kernel(const DevData *d) {
  return d->lifting_form == LIFT_STRONG && d->np >= LINE_NP_MIN && d->np <= LINE_NP_MAX &&
         d->disc_host != NULL &&
         (d->node_type == NODE_GAUSS_LOBATTO || gauss_line_lifting_enabled());
}

template <int NP> static int line_configure(void) {
  int bytes = (int)line_shared_bytes(NP);
  CU_CHECK(cudaFuncSetAttribute(lifting_line_kernel<NP, true, false>,
                                cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  CU_CHECK(cudaFuncSetAttribute(lifting_line_kernel<NP, false, false>,
                                cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  CU_CHECK(cudaFuncSetAttribute(lifting_line_kernel<NP, true, true>,
                                cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  CU_CHECK(cudaFuncSetAttribute(lifting_line_kernel<NP, false, true>,
                                cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  return HX_OK;
}

template <int NP>
static int line_launch(const DevData *d, const DevPhysics *ph, int volume_grad, cudaStream_t s,
                       bool dependent) {
  LineMats<NP> M;
  const Disc *h = d->disc_host;
  for (int i = 0; i < NP; i++) {
    M.Dvs[i] = 0.0;
    for (int l = 0; l < NP; l++) {
      M.D[i * NP + l] = h->D[i * NP + l];
      M.Dv[i * NP + l] = h->Dvol[i * NP + l];
      M.Dvs[i] += h->Dvol[i * NP + l];
    }
  }
  int epb = line_elems_per_block(NP * NP * NP);
  int blocks = (d->n_elems + epb - 1) / epb;
  size_t bytes = line_shared_bytes(NP);
  const bool split = d->split != SPLIT_NONE, les = d->sgs_model != SGS_NONE;
  void (*k)(DevData, DevPhysics, LineMats<NP>, int) =
      split ? (les ? lifting_line_kernel<NP, true, true> : lifting_line_kernel<NP, true, false>)
            : (les ? lifting_line_kernel<NP, false, true> : lifting_line_kernel<NP, false, false>);
  CU_CHECK(launch_kernel(dependent, k, dim3(blocks), dim3(LINE_THREADS), bytes, s, *d, *ph, M,
                         volume_grad));
  return HX_OK;
}

static int line_configure_np(int np) {
  switch (np) {
    LINE_NP_CASES(line_configure, ());
  }
  return HX_OK;
}

static int line_launch_np(const DevData *d, const DevPhysics *ph, int volume_grad,
                          cudaStream_t s, bool dependent) {
  switch (d->np) {
    LINE_NP_CASES(line_launch, (d, ph, volume_grad, s, dependent));
  }
  return HX_ERROR(HX_ERR_INTERNAL, "lifting line kernel: no instance for np = %d", d->np);
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
  CU_CHECK(cudaFuncSetAttribute(lifting_kernel<S, P, F, false>,                               \
                                cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));    \
  CU_CHECK(cudaFuncSetAttribute(lifting_kernel<S, P, F, true>,                                \
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
  if (use_line_kernel(d))
    return d->node_type == NODE_GAUSS ? gauss_line_configure(d->np) : line_configure_np(d->np);
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
  const bool split = d->split != SPLIT_NONE, les = d->sgs_model != SGS_NONE;
  if (split && les)
    lifting_kernel<true, P, FORM, true><<<blocks, threads, c.shared_bytes, s>>>(
        *d, *ph, c.elems_per_block, c.threads_per_elem);
  else if (split)
    lifting_kernel<true, P, FORM, false><<<blocks, threads, c.shared_bytes, s>>>(
        *d, *ph, c.elems_per_block, c.threads_per_elem);
  else if (les)
    lifting_kernel<false, P, FORM, true><<<blocks, threads, c.shared_bytes, s>>>(
        *d, *ph, c.elems_per_block, c.threads_per_elem);
  else
    lifting_kernel<false, P, FORM, false><<<blocks, threads, c.shared_bytes, s>>>(
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

bool lifting_face_gradients(const DevData *d, int n_ranks) {
  /* several ranks: Gauss-Lobatto nodes (the "yours" sides' slave halves are packed from it);
     HEXDG_MPI_FACE_GRAD = F keeps the volume gradients there */
  return use_line_kernel(d) &&
         (n_ranks == 1 ||
          (d->node_type == NODE_GAUSS_LOBATTO && gpu_env_flag("HEXDG_MPI_FACE_GRAD", true)));
}

bool lifting_face_states(const DevData *d, int n_ranks) {
  return lifting_face_gradients(d, n_ranks) && d->node_type == NODE_GAUSS;
}

int launch_lifting(const DevData *d, const DevPhysics *ph, int volume_grad, cudaStream_t s,
                   bool dependent) {
  if (use_line_kernel(d))
    return d->node_type == NODE_GAUSS ? gauss_line_launch(d, ph, volume_grad, s, dependent)
                                      : line_launch_np(d, ph, volume_grad, s, dependent);
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
