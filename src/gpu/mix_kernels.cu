/* Reacting flow on the device: the DG operator of the thermally perfect mixture (nVar = 5 + ns),
 * the twin of the CPU's mixture path (src/dg/volint.c, fillflux.c, fv.c, indicator.c). The air
 * kernels are not touched: the mixture has its own launches, so the air path keeps its code and
 * its speed. Every formula is a shared HD function of src/physics (mixture.h, mixture_bc.h,
 * riemann_mix.h, splitflux.h, fvblend_mix.h).
 *
 * The mixture's equation of state needs a Newton iteration for T, so the node states are computed
 * once per change of U into P (prim kernel: rho, u, v, w, p, Y_k, T, c per node; T is also the
 * next Newton guess) and every other kernel reads them:
 *   timestep      one block per element, the CFL maxima from P;
 *   face flux     one thread per face point: on Gauss-Lobatto nodes the inner faces read both
 *                 states from P (the face points are nodes); otherwise both states prolonged, the
 *                 Newton guess from the master's adjacent node, mix_face_flux;
 *   FV volume     (blended elements) per direction one thread per subcell line,
 *                 fv_mix_line_residual into fv_res; three launches so that no two threads write
 *                 one node;
 *   volume        one block per element (U and P in shared memory), one thread per node: the
 *                 split form sums D_il F#(u_i, u_l) over the node's
 *                 three lines (each pair computed from both ends), the weak form D_il f(u_l) . Ja;
 *                 Ut = (1 - alpha) R_DG + alpha R_FV;
 *   post-update   P of the new U (marking elements with an inadmissible node), the Zhang-Shu
 *                 limiter (fv_mix_limit_element, one thread per marked element, which then
 *                 refreshes its P), the indicator from P (one block per element). */
#include "gpu/gpu_internal.cuh"

extern "C" {
#include "dg/faceops.h"
#include "dg/indicator.h"
#include "physics/fvblend_mix.h"
#include "physics/mixture_bc.h"
#include "physics/splitflux.h"
}

#define MIX_THREADS 128

/* The nv values of a node stored at stride n3 from src (U in global or shared memory). */
__device__ static inline void mix_read_vars(const double *src, int n3, int nv, double *u) {
  for (int v = 0; v < nv; v++) u[v] = src[(size_t)v * n3];
}

/* The primitive state (rho, u, v, w, p, T) and, unless Y is NULL, the mass fractions of a node
 * whose P slots start at p (stride n3). */
__device__ static inline void mix_read_prim(const double *p, int n3, int ns, double *pr,
                                            double *Y) {
  for (int v = 0; v < 5; v++) pr[v] = p[(size_t)v * n3];
  pr[TEMP] = p[(size_t)MIX_T(ns) * n3];
  if (Y)
    for (int k = 0; k < ns; k++) Y[k] = p[(size_t)(5 + k) * n3];
}

/* U, the primitive state and the mass fractions of node q of element e from global memory (NS as
 * in the kernels: a compile-time species count, or 0). */
template <int NS>
__device__ static inline void mix_node_load(const DevData &d, int e, int q, double *u, double *pr,
                                            double *Y) {
  const int ns = NS ? NS : d.n_species, n3 = d.n3;
  mix_read_vars(d.U + (size_t)e * (HX_NVAR + ns) * n3 + q, n3, HX_NVAR + ns, u);
  mix_read_prim(d.P + (size_t)e * MIX_NP(ns) * n3 + q, n3, ns, pr, Y);
}

/* P of one node from its U; check: return whether the node fails the positivity limiter's test
 * (fv_mix_node_admissible), else false. */
__device__ static bool mix_prim_node(const DevData &d, int e, int q, bool check) {
  const int ns = d.n_species, n3 = d.n3;
  double u[HX_NVAR_MAX], pr[HX_NPRIM], Y[HX_MAX_SPECIES], c;
  double *Pe = d.P + (size_t)e * MIX_NP(ns) * n3 + q;
  mix_read_vars(d.U + (size_t)e * d.nvar * n3 + q, n3, d.nvar, u);
  pr[TEMP] = Pe[(size_t)MIX_T(ns) * n3];
  int rc = mix_cons_to_prim(d.mech, u, pr, Y, &c);
  for (int v = 0; v < 5; v++) Pe[(size_t)v * n3] = pr[v];
  for (int k = 0; k < ns; k++) Pe[(size_t)(5 + k) * n3] = Y[k];
  if (rc == 0) Pe[(size_t)MIX_T(ns) * n3] = pr[TEMP];
  Pe[(size_t)MIX_C(ns) * n3] = c;
  return check && !fv_mix_node_admissible(d.mech, u);
}

__global__ static void mix_prim_kernel(DevData d, bool flag_bad) {
  size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (size_t)d.n_elems * d.n3) return;
  const int e = (int)(gid / d.n3), q = (int)(gid % d.n3);
  if (mix_prim_node(d, e, q, flag_bad)) d.elem_bad[e] = 1;
}

int launch_mix_prim(const DevData *d, bool flag_bad, cudaStream_t s) {
  size_t n = (size_t)d->n_elems * d->n3;
  if (n == 0) return HX_OK;
  mix_prim_kernel<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(*d, flag_bad);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

/* One block per element: per-direction maxima of the contravariant spectral radii (the arithmetic
 * of src/time/timedisc.c with the mixture's c), summed; order-independent max over elements. */
__global__ static void mix_lambda_kernel(DevData d) {
  __shared__ double red[3][MIX_THREADS];
  const int e = blockIdx.x, ns = d.n_species;
  double m[3] = {0.0, 0.0, 0.0};
  const double *Pe = d.P + (size_t)e * MIX_NP(ns) * d.n3;
  for (int q = threadIdx.x; q < d.n3; q += blockDim.x) {
    const double rho = Pe[q], p = Pe[(size_t)PRES * d.n3 + q], c = Pe[(size_t)MIX_C(ns) * d.n3 + q];
    if (!(rho > 0.0) || !(p > 0.0) || !(c > 0.0)) {
      atomicOr(&d.sc->bad, 1);
      continue;
    }
    const double sJ = d.sJ[(size_t)e * d.n3 + q];
    for (int dir = 0; dir < 3; dir++) {
      const double *Ja = d.metrics + ((size_t)e * 9 + dir * 3) * d.n3 + q;
      const double m0 = Ja[0], m1 = Ja[d.n3], m2 = Ja[2 * d.n3];
      const double vn = Pe[(size_t)VEL1 * d.n3 + q] * m0 + Pe[(size_t)VEL2 * d.n3 + q] * m1 +
                        Pe[(size_t)VEL3 * d.n3 + q] * m2;
      const double lam = sJ * (fabs(vn) + c * sqrt(m0 * m0 + m1 * m1 + m2 * m2));
      m[dir] = lam == lam ? fmax(m[dir], lam) : 1e300;
    }
  }
  for (int k = 0; k < 3; k++) red[k][threadIdx.x] = m[k];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      for (int k = 0; k < 3; k++) red[k][threadIdx.x] = fmax(red[k][threadIdx.x], red[k][threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    const double lsum = red[0][0] + red[1][0] + red[2][0];
    atomicMax(&d.sc->lmax_bits, (unsigned long long)__double_as_longlong(lsum));
  }
}

int launch_mix_lambda_max(const DevData *d, cudaStream_t s) {
  if (d->n_elems > 0) mix_lambda_kernel<<<d->n_elems, MIX_THREADS, 0, s>>>(*d);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_mix_timestep(const DevData *d, cudaStream_t s) {
  HX_CHECK(launch_mix_lambda_max(d, s));
  return launch_dt_finalize(d, s);
}

/* State of element elem (nvar variables) at the face point whose face-adjacent node is node0. */
__device__ static void mix_prolong_point(const DevData &d, int elem, int locside, int node0,
                                         double *u) {
  const double *Ue = d.U + (size_t)elem * d.nvar * d.n3;
  for (int v = 0; v < d.nvar; v++)
    u[v] = prolong_to_face_point(d.disc, Ue + (size_t)v * d.n3, node0, locside);
}

/* NS: the species count as a compile-time constant (0: d.n_species, arrays for HX_MAX_SPECIES),
 * so that the species loops unroll and the node states stay in registers. */
template <int NS>
__global__ static void mix_face_flux_kernel(DevData d, DevPhysics ph, double c_stage, int first,
                                            int last) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (last - first) * d.n2 || !(d.sc->dt > 0.0)) return;
  constexpr int NSA = NS ? NS : HX_MAX_SPECIES, NVA = HX_NVAR + NSA;
  const int side = first + gid / d.n2, f = gid % d.n2, ns = NS ? NS : d.n_species;
  const int *info = d.side_info + 6 * side;
  double uL[NVA], uR[NVA], F[NVA], n[3], t1[3], t2[3];
  for (int c = 0; c < 3; c++) {
    const size_t at = ((size_t)side * 3 + c) * d.n2 + f;
    n[c] = d.face_nvec[at];
    t1[c] = d.face_t1[at];
    t2[c] = d.face_t2[at];
  }
  const int node0 = d.s2v[info[1] * d.n2 + f], bc = info[5];
  if (d.node_type == NODE_GAUSS_LOBATTO && bc < 0 && info[2] >= 0) {
    /* the face points are nodes: both states as P holds them, no Newton iteration */
    const int node1 = d.s2v[(info[4] * 6 + info[3]) * d.n2 + f];
    double pL[HX_NPRIM], pR[HX_NPRIM], YL[NSA], YR[NSA];
    mix_node_load<NS>(d, info[0], node0, uL, pL, YL);
    mix_node_load<NS>(d, info[2], node1, uR, pR, YR);
    const double cL = d.P[((size_t)info[0] * MIX_NP(ns) + MIX_C(ns)) * d.n3 + node0];
    const double cR = d.P[((size_t)info[2] * MIX_NP(ns) + MIX_C(ns)) * d.n3 + node1];
    riemann_mix_flux(d.riemann, d.split, &ph.pp, ns, uL, pL, YL, cL, uR, pR, YR, cR, n, t1, t2, F);
  } else {
    mix_prolong_point(d, info[0], info[1], node0, uL);
    /* the Newton guess of both sides: the last temperature of the master's adjacent node */
    const double T_guess = d.P[((size_t)info[0] * MIX_NP(ns) + MIX_T(ns)) * d.n3 + node0];
    if (bc < 0) {
      if (info[2] >= 0) {
        mix_prolong_point(d, info[2], info[3], d.s2v[(info[4] * 6 + info[3]) * d.n2 + f], uR);
      } else {
        const double *r = d.mpi_U_recv + (size_t)(side - d.first_mpi) * d.nvar * d.n2 + f;
        for (int v = 0; v < d.nvar; v++) uR[v] = r[(size_t)v * d.n2];
      }
    } else {
      double x[3];
      for (int c = 0; c < 3; c++) x[c] = d.face_x[((size_t)side * 3 + c) * d.n2 + f];
      mix_bc_outer_state(d.mech, &ph.ef, d.ref_U, d.bc_info[2 * bc], d.bc_info[2 * bc + 1],
                         T_guess, uL, n, x, d.sc->t + c_stage * d.sc->dt, uR);
    }
    if (bc < 0)
      mix_face_flux(d.riemann, d.split, &ph.pp, d.mech, T_guess, uL, uR, n, t1, t2, F);
    else
      mix_bc_advective_flux(d.bc_info[2 * bc], d.riemann_bc, d.split, &ph.pp, d.mech, T_guess, uL,
                            uR, n, t1, t2, F);
  }
  const double sf = d.face_surf[(size_t)side * d.n2 + f];
  double *out = d.flux + (size_t)side * d.nvar * d.n2 + f;
  for (int v = 0; v < HX_NVAR + ns; v++) out[(size_t)v * d.n2] = F[v] * sf;
}

int launch_mix_face_flux(const DevData *d, const DevPhysics *ph, double c_stage, int first,
                         int last, cudaStream_t s) {
  const int n = (last - first) * d->n2;
  if (n <= 0) return HX_OK;
  const unsigned blocks = (n + MIX_THREADS - 1) / MIX_THREADS;
#define MIX_FACE(NS) mix_face_flux_kernel<NS><<<blocks, MIX_THREADS, 0, s>>>(*d, *ph, c_stage, first, last)
  MIX_DISPATCH(d->n_species, MIX_FACE);
#undef MIX_FACE
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

/* One block per element, one thread per node: the element's U and P are staged in shared memory
 * (every node reads its 3 np neighbours from there), then the DG volume operator of the mixture,
 * blended with the FV residual. */
template <bool SPLIT, int NS>
__global__ static void __launch_bounds__(512) mix_volint_kernel(DevData d, DevPhysics ph) {
  extern __shared__ double smem[];
  constexpr int NSA = NS ? NS : HX_MAX_SPECIES, NVA = HX_NVAR + NSA;
  const int ns = NS ? NS : d.n_species, nv = HX_NVAR + ns, nprim = MIX_NP(ns);
  const int e = blockIdx.x, q = threadIdx.x, np = d.np, n3 = d.n3;
  double *sU = smem, *sP = smem + (size_t)nv * n3;
  const double *Ue = d.U + (size_t)e * nv * n3, *Pe = d.P + (size_t)e * nprim * n3;
  for (int t = q; t < nv * n3; t += blockDim.x) sU[t] = Ue[t];
  for (int t = q; t < nprim * n3; t += blockDim.x) sP[t] = Pe[t];
  __syncthreads();
  if (q >= n3) return;
  const int ijk[3] = {q % np, (q / np) % np, q / (np * np)};
  const double *Dv = d.disc->Dvol;
  double ui[NVA], pi[HX_NPRIM], Yi[NSA], acc[NVA];
  for (int v = 0; v < nv; v++) acc[v] = 0.0;
  double aux_i = 0.0;
  if (SPLIT) {
    mix_read_vars(sU + q, n3, nv, ui);
    mix_read_prim(sP + q, n3, ns, pi, Yi);
    aux_i = split_node_aux(d.split, ui, pi);
  }
  for (int dir = 0; dir < 3; dir++) {
    const int stride = dir == 0 ? 1 : dir == 1 ? np : np * np, idx = ijk[dir];
    const int base = q - idx * stride;
    const double *Ja = d.metrics + ((size_t)e * 9 + dir * 3) * n3;
    const double mi[3] = {Ja[q], Ja[n3 + q], Ja[2 * n3 + q]};
    for (int l = 0; l < np; l++) {
      const double D = Dv[idx * np + l];
      if (D == 0.0) continue;
      const int ql = base + l * stride;
      double ul[NVA], pl[HX_NPRIM], Yl[NSA], F[NVA];
      const double ml[3] = {Ja[ql], Ja[n3 + ql], Ja[2 * n3 + ql]};
      mix_read_vars(sU + ql, n3, nv, ul);
      mix_read_prim(sP + ql, n3, ns, pl, Yl);
      if (SPLIT) {
        split_volume_flux_aux(d.split, &ph.pp, ui, pi, aux_i, ul, pl, split_node_aux(d.split, ul, pl),
                              mi, ml, F);
        mix_split_species_flux(d.split, ns, ui, pi, Yi, ul, pl, Yl, mi, ml, F);
      } else {
        mix_flux_normal(ns, ul, pl, Yl, ml, F);
      }
      for (int v = 0; v < nv; v++) acc[v] += D * F[v];
    }
  }
  const double alpha = d.alpha ? d.alpha[e] : 0.0;
  double *ut = d.Ut + (size_t)e * nv * n3 + q;
  if (alpha > 0.0) {
    const double *r = d.fv_res + (size_t)e * nv * n3 + q;
    for (int v = 0; v < nv; v++) ut[(size_t)v * n3] = (1.0 - alpha) * acc[v] + alpha * r[(size_t)v * n3];
  } else {
    for (int v = 0; v < nv; v++) ut[(size_t)v * n3] = acc[v];
  }
}

static size_t mix_volint_shared(const DevData *d) {
  return sizeof(double) * (size_t)(d->nvar + MIX_NP(d->n_species)) * d->n3;
}

int launch_mix_volume_integral(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  if (d->n_elems == 0) return HX_OK;
  const int threads = (d->n3 + 31) / 32 * 32;
  const size_t shared = mix_volint_shared(d);
#define MIX_VOL(NS)                                                                                \
  (d->split == SPLIT_NONE                                                                          \
       ? mix_volint_kernel<false, NS><<<d->n_elems, threads, shared, s>>>(*d, *ph)                 \
       : mix_volint_kernel<true, NS><<<d->n_elems, threads, shared, s>>>(*d, *ph))
  MIX_DISPATCH(d->n_species, MIX_VOL);
#undef MIX_VOL
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int mix_configure(const DevData *d) {
  const size_t shared = mix_volint_shared(d);
  if (shared > 227 * 1024)
    return HX_ERROR(HX_ERR_INPUT, "reacting flow on the GPU: N = %d with %d species needs %zu "
                                  "bytes of shared memory per element (at most 227 KiB); use a "
                                  "lower N or Backend = cpu", d->N, d->n_species, shared);
#define MIX_ATTR(NS)                                                                               \
  do {                                                                                             \
    CU_CHECK(cudaFuncSetAttribute(mix_volint_kernel<false, NS>,                                    \
                                  cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));      \
    CU_CHECK(cudaFuncSetAttribute(mix_volint_kernel<true, NS>,                                     \
                                  cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));      \
  } while (0)
  MIX_DISPATCH(d->n_species, MIX_ATTR);
#undef MIX_ATTR
  return HX_OK;
}

/* One thread per subcell line of direction dir of a blended element (the CPU's line order,
 * src/dg/fv.c: line (a, b), metrics [elem][dir][a][b][interface][3]). */
__global__ static void mix_fv_line_kernel(DevData d, DevPhysics ph, int dir) {
  const size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int np = d.np, N = d.N, n3 = d.n3, lines = np * np;
  if (gid >= (size_t)d.n_elems * lines) return;
  const int e = (int)(gid / lines), ab = (int)(gid % lines), a = ab / np, b = ab % np;
  if (!(d.alpha[e] > 0.0)) return;
  const int stride = dir == 0 ? 1 : dir == 1 ? np : np * np;
  const int base = dir == 0 ? (b * np + a) * np : dir == 1 ? b * np * np + a : b * np + a;
  const double *mv = d.fv_metrics + (((size_t)e * 3 + dir) * lines + ab) * N * 3;
  fv_mix_line_residual(d.riemann, d.split, d.fv_limiter, &ph.pp, d.mech, np, d.fv_line,
                       d.P + (size_t)e * MIX_NP(d.n_species) * n3, n3,
                       d.fv_res + (size_t)e * d.nvar * n3, n3, base, stride, mv, dir > 0);
}

int launch_mix_fv_volume(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  const size_t n = (size_t)d->n_elems * d->np * d->np;
  if (n == 0 || !d->alpha) return HX_OK;
  for (int dir = 0; dir < 3; dir++) {
    mix_fv_line_kernel<<<(unsigned)((n + 63) / 64), 64, 0, s>>>(*d, *ph, dir);
    CU_CHECK(cudaGetLastError());
  }
  return HX_OK;
}

/* One thread per element marked by the prim kernel: limit, then refresh the element's P. */
__global__ static void mix_limit_kernel(DevData d) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= d.n_elems || !d.elem_bad[e]) return;
  d.elem_bad[e] = 0;
  if (!(d.sc->dt > 0.0)) return;
  if (fv_mix_limit_element(d.mech, d.U + (size_t)e * d.nvar * d.n3, d.np, d.disc->w,
                           d.sJ + (size_t)e * d.n3))
    for (int q = 0; q < d.n3; q++) mix_prim_node(d, e, q, false);
}

/* One block per element: alpha from the modal energy of the indicator quantity of P
 * (Hennemann et al. 2021, Sec. 4; as fv_element_energy with a mechanism). */
__global__ static void mix_indicator_kernel(DevData d) {
  extern __shared__ double smem[];
  __shared__ double red[3][MIX_THREADS];
  const int e = blockIdx.x, np = d.np, n3 = d.n3, ns = d.n_species;
  if (d.fv_indicator == FV_INDICATOR_FIXED) {
    if (threadIdx.x == 0) d.alpha[e] = d.fv_alpha_fix;
    return;
  }
  double *Vinv = smem, *a = smem + np * np, *b = a + n3;
  for (int t = threadIdx.x; t < np * np; t += blockDim.x) Vinv[t] = d.fv_vinv[t];
  const double *Pe = d.P + (size_t)e * MIX_NP(ns) * n3;
  for (int q = threadIdx.x; q < n3; q += blockDim.x) {
    double pr[HX_NPRIM];
    mix_read_prim(Pe + q, n3, ns, pr, NULL);
    a[q] = fv_indicator_quantity_prim(d.fv_ind_var, pr);
  }
  __syncthreads();
  for (int q = threadIdx.x; q < n3; q += blockDim.x) b[q] = fv_modal_pass_node(np, Vinv, 0, a, q);
  __syncthreads();
  for (int q = threadIdx.x; q < n3; q += blockDim.x) a[q] = fv_modal_pass_node(np, Vinv, 1, b, q);
  __syncthreads();
  for (int q = threadIdx.x; q < n3; q += blockDim.x) b[q] = fv_modal_pass_node(np, Vinv, 2, a, q);
  __syncthreads();
  double sums[3] = {0.0, 0.0, 0.0};
  for (int q = threadIdx.x; q < n3; q += blockDim.x) fv_modal_energy_add(np, q, b[q], sums);
  for (int k = 0; k < 3; k++) red[k][threadIdx.x] = sums[k];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      for (int k = 0; k < 3; k++) red[k][threadIdx.x] += red[k][threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    const double E = fv_modal_energy(d.N, red[0][0], red[1][0], red[2][0]);
    d.alpha[e] = fv_alpha_from_energy(E, d.N, d.fv_alpha_min, d.fv_alpha_max);
  }
}

int launch_mix_indicator(const DevData *d, cudaStream_t s) {
  if (d->n_elems == 0 || !d->alpha) return HX_OK;
  const size_t shared = sizeof(double) * (d->np * d->np + 2 * d->n3);
  mix_indicator_kernel<<<d->n_elems, MIX_THREADS, shared, s>>>(*d);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_mix_post_update(const DevData *d, cudaStream_t s) {
  const bool limit = d->alpha && d->fv_positivity;
  HX_CHECK(launch_mix_prim(d, limit, s));
  if (limit && d->n_elems > 0) {
    mix_limit_kernel<<<(d->n_elems + 127) / 128, 128, 0, s>>>(*d);
    CU_CHECK(cudaGetLastError());
  }
  return launch_mix_indicator(d, s);
}
