/* Reacting flow on the device: the DG operator of the thermally perfect mixture (nVar = 5 + ns),
 * the twin of the CPU's mixture path (src/dg/volint.c, fillflux.c, fv.c, indicator.c). The air
 * kernels are not touched: the mixture has its own launches, so the air path keeps its code and
 * its speed. Every formula is a shared HD function of src/physics (mixture.h, mixture_bc.h,
 * riemann_mix.h, splitflux.h, fvblend_mix.h).
 *
 * The mixture's equation of state needs a Newton iteration for T, so the node states are computed
 * once per change of U into P (rho, u, v, w, p, Y_k, T, c per node; T is also the next Newton
 * guess) and every other kernel reads them. The mechanism sizes in use (MIX_DISPATCH: 9, 10, 13
 * species) have kernels with the species count at compile time, so that the species loops unroll
 * and the node states stay in registers; others run with the count at run time. Per RK stage:
 *   timestep      (once per step) one block per element, the CFL maxima from P;
 *   face flux     one thread per face point: on Gauss-Lobatto nodes the inner faces read both
 *                 states from P (the face points are nodes; a kernel of their own); boundary and
 *                 MPI sides and Gauss nodes prolong both states, the Newton guess from the
 *                 master's adjacent node, mix_face_flux;
 *   FV volume     (blended elements) per direction one thread per subcell line,
 *                 fv_mix_line_residual into fv_res; three launches so that no two threads write
 *                 one node;
 *   stage         (instantiated species counts, N <= 5, one rank) one block per element, one
 *                 thread per node, after the face fluxes: the volume operator (below) from U and
 *                 the node states in shared memory, blended with the FV residual, the surface
 *                 integral, the RK update and P of the new U with the positivity test, in one
 *                 pass: U, P, k and the fluxes are read once, Ut never goes to memory;
 *   otherwise     volume (one block per element, U and P in shared memory, one thread per node:
 *                 the split form sums D_il F#(u_i, u_l) over the node's three lines, each pair
 *                 computed from both ends, the weak form D_il f(u_l) . Ja; Ut = (1 - alpha) R_DG
 *                 + alpha R_FV), the surface update (surfint_kernels.cu), P of the new U;
 *   post-update   the Zhang-Shu limiter of the elements with an inadmissible node
 *                 (fv_mix_limit_element, one thread per marked element, which then refreshes its
 *                 P), the indicator from P (one block per element). */
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

/* P of a node (slots at stride n3 from p) from the results of mix_cons_to_prim (rc its return:
 * the temperature, the next Newton guess, is kept when the node has none). */
__device__ static inline void mix_write_prim(double *p, int n3, int ns, const double *pr,
                                             const double *Y, double c, int rc) {
  for (int v = 0; v < 5; v++) p[(size_t)v * n3] = pr[v];
  for (int k = 0; k < ns; k++) p[(size_t)(5 + k) * n3] = Y[k];
  if (rc == 0) p[(size_t)MIX_T(ns) * n3] = pr[TEMP];
  p[(size_t)MIX_C(ns) * n3] = c;
}

/* Whether the node state at src (nv values at stride n3) fails the positivity limiter's test
 * (fv_mix_node_admissible). Not inlined: its array for HX_MAX_SPECIES (the test's species loop
 * runs to the mechanism's count) stays out of the callers' registers. */
__device__ static __noinline__ bool mix_node_inadmissible(const ChemMech *m, const double *src,
                                                          int n3, int nv) {
  double u[HX_NVAR_MAX];
  mix_read_vars(src, n3, nv, u);
  return !fv_mix_node_admissible(m, u);
}

/* P of one node from its U; check: return whether the node fails the positivity limiter's test,
 * else false. NS: the species count at compile time (0: d.n_species). */
template <int NS>
__device__ static bool mix_prim_node(const DevData &d, int e, int q, bool check) {
  constexpr int NSA = NS ? NS : HX_MAX_SPECIES;
  const int ns = NS ? NS : d.n_species, nv = HX_NVAR + ns, n3 = d.n3;
  double u[HX_NVAR + NSA], pr[HX_NPRIM], Y[NSA], c;
  double *Pe = d.P + (size_t)e * MIX_NP(ns) * n3 + q;
  const double *Ue = d.U + (size_t)e * nv * n3 + q;
  mix_read_vars(Ue, n3, nv, u);
  pr[TEMP] = Pe[(size_t)MIX_T(ns) * n3];
  const int rc = mix_cons_to_prim_n(d.mech, ns, u, pr, Y, &c);
  mix_write_prim(Pe, n3, ns, pr, Y, c, rc);
  return check && mix_node_inadmissible(d.mech, Ue, n3, nv);
}

template <int NS>
__global__ static void __launch_bounds__(256, 2) mix_prim_kernel(DevData d, bool flag_bad) {
  size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (size_t)d.n_elems * d.n3) return;
  const int e = (int)(gid / d.n3), q = (int)(gid % d.n3);
  if (mix_prim_node<NS>(d, e, q, flag_bad)) d.elem_bad[e] = 1;
}

int launch_mix_prim(const DevData *d, bool flag_bad, cudaStream_t s) {
  size_t n = (size_t)d->n_elems * d->n3;
  if (n == 0) return HX_OK;
  const unsigned blocks = (unsigned)((n + 255) / 256);
#define MIX_PRIM(NS) mix_prim_kernel<NS><<<blocks, 256, 0, s>>>(*d, flag_bad)
  MIX_DISPATCH(d->n_species, MIX_PRIM);
#undef MIX_PRIM
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
      atomicMax(&d.sc->bad_elem, e + 1);
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
    const double lsum = red[0][0] + red[1][0] + (d.dims == 3 ? red[2][0] : 0.0); /* Dimension */
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

/* The frame (n, t1, t2) of face point f of a side. */
__device__ static inline void mix_face_frame(const DevData &d, int side, int f, double *n,
                                             double *t1, double *t2) {
  for (int c = 0; c < 3; c++) {
    const size_t at = ((size_t)side * 3 + c) * d.n2 + f;
    n[c] = d.face_nvec[at];
    t1[c] = d.face_t1[at];
    t2[c] = d.face_t2[at];
  }
}

/* One thread per face point of a side whose states are not both nodes' P: boundary sides, MPI
 * sides (the slave's state arrives packed), every side on Gauss nodes. Both states are prolonged
 * (or the outer one comes from the boundary condition) and go through the Newton iteration, the
 * guess of both the last temperature of the master's adjacent node. Run-time species count. */
__global__ static void mix_face_flux_kernel(DevData d, DevPhysics ph, double c_stage, int first,
                                            int last) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (last - first) * d.n2 || !(d.sc->dt > 0.0)) return;
  const int side = first + gid / d.n2, f = gid % d.n2, ns = d.n_species;
  const int *info = d.side_info + 6 * side, bc = info[5];
  const int node0 = d.s2v[info[1] * d.n2 + f];
  double uL[HX_NVAR_MAX], uR[HX_NVAR_MAX], F[HX_NVAR_MAX], n[3], t1[3], t2[3];
  mix_face_frame(d, side, f, n, t1, t2);
  mix_prolong_point(d, info[0], info[1], node0, uL);
  const double T_guess = d.P[((size_t)info[0] * MIX_NP(ns) + MIX_T(ns)) * d.n3 + node0];
  if (bc < 0) {
    if (info[2] >= 0) {
      mix_prolong_point(d, info[2], info[3], d.s2v[(info[4] * 6 + info[3]) * d.n2 + f], uR);
    } else {
      const double *r = d.mpi_U_recv + (size_t)(side - d.first_mpi) * d.nvar * d.n2 + f;
      for (int v = 0; v < d.nvar; v++) uR[v] = r[(size_t)v * d.n2];
    }
    mix_face_flux(d.riemann, d.split, &ph.pp, d.mech, T_guess, uL, uR, n, t1, t2, F);
  } else {
    double x[3];
    for (int c = 0; c < 3; c++) x[c] = d.face_x[((size_t)side * 3 + c) * d.n2 + f];
    mix_bc_outer_state(d.mech, &ph.ef, d.ref_U, d.bc_info[2 * bc], d.bc_info[2 * bc + 1], T_guess,
                       uL, n, x, d.sc->t + c_stage * d.sc->dt, uR);
    mix_bc_advective_flux(d.bc_info[2 * bc], d.riemann_bc, d.split, &ph.pp, d.mech, T_guess, uL,
                          uR, n, t1, t2, F);
  }
  const double sf = d.face_surf[(size_t)side * d.n2 + f];
  double *out = d.flux + (size_t)side * d.nvar * d.n2 + f;
  for (int v = 0; v < d.nvar; v++) out[(size_t)v * d.n2] = F[v] * sf;
}

/* The state of a node as the Riemann solvers take it from P: the five flow variables of U (the
 * species enter riemann_mix_flux through Y), the primitive state, the mass fractions; returns c. */
template <int NS>
__device__ static inline double mix_face_node_load(const DevData &d, int e, int q, double *u,
                                                   double *pr, double *Y) {
  const int n3 = d.n3;
  const double *P = d.P + (size_t)e * MIX_NP(NS) * n3 + q;
  mix_read_vars(d.U + (size_t)e * (HX_NVAR + NS) * n3 + q, n3, HX_NVAR, u);
  mix_read_prim(P, n3, NS, pr, Y);
  return P[(size_t)MIX_C(NS) * n3];
}

/* One thread per face point of an inner side on Gauss-Lobatto nodes: the face points are nodes,
 * both states as P holds them, no Newton iteration. NS: the species count as a compile-time
 * constant, so that the species loops unroll and the states stay in registers. */
template <int NS>
__global__ static void __launch_bounds__(MIX_THREADS, 4)
mix_face_flux_gl_kernel(DevData d, DevPhysics ph, int first, int last) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (last - first) * d.n2 || !(d.sc->dt > 0.0)) return;
  const int side = first + gid / d.n2, f = gid % d.n2;
  const int *info = d.side_info + 6 * side;
  const int node0 = d.s2v[info[1] * d.n2 + f], node1 = d.s2v[(info[4] * 6 + info[3]) * d.n2 + f];
  double uL[HX_NVAR], uR[HX_NVAR], pL[HX_NPRIM], pR[HX_NPRIM], YL[NS], YR[NS], F[HX_NVAR + NS];
  double n[3], t1[3], t2[3];
  mix_face_frame(d, side, f, n, t1, t2);
  const double cL = mix_face_node_load<NS>(d, info[0], node0, uL, pL, YL);
  const double cR = mix_face_node_load<NS>(d, info[2], node1, uR, pR, YR);
  riemann_mix_flux(d.riemann, d.split, &ph.pp, NS, uL, pL, YL, cL, uR, pR, YR, cR, n, t1, t2, F);
  const double sf = d.face_surf[(size_t)side * d.n2 + f];
  double *out = d.flux + (size_t)side * (HX_NVAR + NS) * d.n2 + f;
  for (int v = 0; v < HX_NVAR + NS; v++) out[(size_t)v * d.n2] = F[v] * sf;
}

/* The sides [first, last): on Gauss-Lobatto nodes with an instantiated species count the inner
 * sides [n_bc_sides, n_bc_sides + n_inner_sides) in the kernel of their own, the boundary and MPI
 * sides in the general one; otherwise every side in the general kernel. */
int launch_mix_face_flux(const DevData *d, const DevPhysics *ph, double c_stage, int first,
                         int last, cudaStream_t s) {
  if (last <= first) return HX_OK;
  int in0 = first, in1 = first; /* the inner Gauss-Lobatto range, [in0, in1) */
  if (d->node_type == NODE_GAUSS_LOBATTO && MIX_FIXED_SPECIES(d->n_species)) {
    in0 = max(first, min(last, d->n_bc_sides));
    in1 = max(in0, min(last, d->n_bc_sides + d->n_inner_sides));
  }
  const int ranges[2][2] = {{first, in0}, {in1, last}};
  for (int r = 0; r < 2; r++) {
    const int n = (ranges[r][1] - ranges[r][0]) * d->n2;
    if (n > 0)
      mix_face_flux_kernel<<<(n + MIX_THREADS - 1) / MIX_THREADS, MIX_THREADS, 0, s>>>(
          *d, *ph, c_stage, ranges[r][0], ranges[r][1]);
  }
  const int n = (in1 - in0) * d->n2;
  if (n > 0) {
    const unsigned blocks = (n + MIX_THREADS - 1) / MIX_THREADS;
#define MIX_FACE(NS) mix_face_flux_gl_kernel<NS><<<blocks, MIX_THREADS, 0, s>>>(*d, *ph, in0, in1)
    switch (d->n_species) { MIX_DISPATCH_FIXED(d->n_species, MIX_FACE) }
#undef MIX_FACE
  }
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

/* The split form of the volume kernels as a template argument: SPLIT_NONE (the weak form), one
 * form at compile time (SPLIT_PI, the reacting-flow default), or MIX_SPLIT_ANY (d.split). */
#define MIX_SPLIT_ANY (-2)

/* The DG volume operator of node q of element e, before the FV blending, from the element's U
 * (sU, nv slots) and node states (sP, P's slots up to T) staged in shared memory at stride n3,
 * and the split form's per-node quantity (sAux, split_node_aux; split forms only): the split
 * form sums D_il F#(u_i, u_l) over the node's three lines (each pair computed from both ends),
 * the weak form D_il f(u_l) . Ja. NS: the species count at compile time (0: d.n_species, arrays
 * for HX_MAX_SPECIES). */
template <int SF, int NS>
__device__ static inline void mix_volume_node(const DevData &d, const DevPhysics &ph, int e, int q,
                                              const double *sU, const double *sP,
                                              const double *sAux, double *acc) {
  constexpr int NSA = NS ? NS : HX_MAX_SPECIES, NVA = HX_NVAR + NSA;
  constexpr bool SPLIT = SF != SPLIT_NONE;
  const int ns = NS ? NS : d.n_species, nv = HX_NVAR + ns, np = d.np, n3 = d.n3;
  const int split = SF == MIX_SPLIT_ANY ? d.split : SF;
  const int ijk[3] = {q % np, (q / np) % np, q / (np * np)};
  const double *Dv = d.disc->Dvol;
  double ui[NVA], pi[HX_NPRIM], Yi[NSA];
  for (int v = 0; v < nv; v++) acc[v] = 0.0;
  double aux_i = 0.0;
  if (SPLIT) {
    mix_read_vars(sU + q, n3, nv, ui);
    mix_read_prim(sP + q, n3, ns, pi, Yi);
    aux_i = sAux[q];
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
        split_volume_flux_aux(split, &ph.pp, ui, pi, aux_i, ul, pl, sAux[ql], mi, ml, F);
        mix_split_species_flux(split, ns, ui, pi, Yi, ul, pl, Yl, mi, ml, F);
      } else {
        mix_flux_normal(ns, ul, pl, Yl, ml, F);
      }
      for (int v = 0; v < nv; v++) acc[v] += D * F[v];
    }
  }
}

/* One block per element, one thread per node: the element's U and P are staged in shared memory
 * (every node reads its 3 np neighbours from there), then the DG volume operator of the mixture,
 * blended with the FV residual: Ut = (1 - alpha) R_DG + alpha R_FV. */
template <int SF, int NS>
__global__ static void __launch_bounds__(512, 1) mix_volint_kernel(DevData d, DevPhysics ph) {
  extern __shared__ double smem[];
  constexpr int NVA = HX_NVAR + (NS ? NS : HX_MAX_SPECIES);
  const int ns = NS ? NS : d.n_species, nv = HX_NVAR + ns, nprim = MIX_NP(ns);
  const int e = blockIdx.x, q = threadIdx.x, n3 = d.n3;
  double *sU = smem, *sP = smem + (size_t)nv * n3, *sAux = sP + (size_t)nprim * n3;
  const double *Ue = d.U + (size_t)e * nv * n3, *Pe = d.P + (size_t)e * nprim * n3;
  for (int t = q; t < nv * n3; t += blockDim.x) sU[t] = Ue[t];
  for (int t = q; t < nprim * n3; t += blockDim.x) sP[t] = Pe[t];
  __syncthreads();
  if (SF != SPLIT_NONE && q < n3) { /* the split form's per-node quantity, once per node */
    double u[HX_NVAR], pr[HX_NPRIM];
    mix_read_vars(sU + q, n3, HX_NVAR, u);
    mix_read_prim(sP + q, n3, ns, pr, NULL);
    sAux[q] = split_node_aux(SF == MIX_SPLIT_ANY ? d.split : SF, u, pr);
  }
  __syncthreads();
  if (q >= n3) return;
  double acc[NVA];
  mix_volume_node<SF, NS>(d, ph, e, q, sU, sP, sAux, acc);
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
  return sizeof(double) * (size_t)(d->nvar + MIX_NP(d->n_species) + 1) * d->n3;
}

int launch_mix_volume_integral(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  if (d->n_elems == 0) return HX_OK;
  const int threads = (d->n3 + 31) / 32 * 32;
  const size_t shared = mix_volint_shared(d);
#define MIX_VOL_SF(SF, NS) mix_volint_kernel<SF, NS><<<d->n_elems, threads, shared, s>>>(*d, *ph)
#define MIX_VOL(NS)                                                                                \
  (d->split == SPLIT_NONE ? MIX_VOL_SF(SPLIT_NONE, NS)                                             \
   : d->split == SPLIT_PI ? MIX_VOL_SF(SPLIT_PI, NS)                                               \
                          : MIX_VOL_SF(MIX_SPLIT_ANY, NS))
  MIX_DISPATCH(d->n_species, MIX_VOL);
#undef MIX_VOL
#undef MIX_VOL_SF
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

/* acc += the surface integral of node ijk of element e: the fluxes of the sides it touches, as
 * update_node (surfint_kernels.cu) gathers them. */
template <int NV>
__device__ static inline void mix_add_surface(const DevData &d, int e, const int *ijk,
                                              double *acc) {
  for (int ls = 0; ls < 6; ls++) {
    const double w = surface_weight(d.disc, ls, ijk[side_normal_dir(ls)]);
    if (w == 0.0) continue;
    const int side = d.elem_sides[2 * (6 * e + ls)], flip = d.elem_sides[2 * (6 * e + ls) + 1];
    int ps, qs, p, qq;
    volume_to_side(d.N, ls, ijk[0], ijk[1], ijk[2], &ps, &qs);
    flip_master_to_slave(flip, d.N, ps, qs, &p, &qq); /* flips are involutions */
    const double sign = flip == 0 ? 1.0 : -1.0;
    const double *F = d.flux + (size_t)side * NV * d.n2 + qq * d.np + p;
    for (int v = 0; v < NV; v++) {
      const double fl = sign * F[(size_t)v * d.n2];
      acc[v] += w * fl;
    }
  }
}

/* Threads per block of the fused stage kernel: one per node up to N = 5 (216 nodes). */
#define MIX_STAGE_THREADS 256

/* The whole stage after the face fluxes, one block per element, one thread per node (the
 * instantiated species counts, n3 <= MIX_STAGE_THREADS): U and the node states staged in shared
 * memory (the primitive state recomputed from U with mix_cons_to_prim's operations, p and T as P
 * holds them, so that sP equals P's slots), the volume operator (mix_volume_node) blended with the
 * FV residual, the viscous volume term and the six sides' fluxes in update_node's order
 * (surfint_kernels.cu), the sponge, the RK update of k and U, then P of the new U (Newton from
 * the node's last T) and the positivity test (check: mark the element in elem_bad). Ut is not
 * written. No race: a block reads and writes only its own element's U, k and P, and the face
 * fluxes are complete. */
template <int SF, int NS>
__global__ static void __launch_bounds__(MIX_STAGE_THREADS, 2)
    mix_stage_kernel(DevData d, DevPhysics ph, double a, double b, bool backup, bool check) {
  extern __shared__ double smem[];
  constexpr int nv = HX_NVAR + NS;
  const double dt = d.sc->dt;
  if (!(dt > 0.0)) return; /* the whole grid, as surface_update_kernel */
  const int e = blockIdx.x, q = threadIdx.x, np = d.np, n3 = d.n3;
  if (backup && e == 0 && q == 0) d.sc->t_good = d.sc->t;
  double *sU = smem, *sP = smem + (size_t)nv * n3, *sAux = sP + (size_t)(MIX_T(NS) + 1) * n3;
  const size_t eU = (size_t)e * nv * n3, eP = (size_t)e * MIX_NP(NS) * n3;
  if (q < n3) {
    double u[nv];
    mix_read_vars(d.U + eU + q, n3, nv, u);
    for (int v = 0; v < nv; v++) sU[(size_t)v * n3 + q] = u[v];
    const double rho = u[DENS], s_rho = 1.0 / rho;
    const bool has = rho > 0.0; /* else mix_cons_to_prim set no velocity, p = -1 */
    sP[q] = rho;
    for (int k = 0; k < 3; k++) sP[(size_t)(VEL1 + k) * n3 + q] = has ? u[MOM1 + k] * s_rho : 0.0;
    const double p = d.P[eP + (size_t)PRES * n3 + q];
    sP[(size_t)PRES * n3 + q] = p;
    for (int k = 0; k < NS; k++) sP[(size_t)(5 + k) * n3 + q] = has ? u[HX_SPEC0 + k] * s_rho : 0.0;
    sP[(size_t)MIX_T(NS) * n3 + q] = d.P[eP + (size_t)MIX_T(NS) * n3 + q];
    if (SF != SPLIT_NONE) { /* the split form's per-node quantity, once per node */
      double pr[HX_NPRIM];
      mix_read_prim(sP + q, n3, NS, pr, NULL);
      sAux[q] = split_node_aux(SF == MIX_SPLIT_ANY ? d.split : SF, u, pr);
    }
  }
  __syncthreads();
  if (q >= n3) return;
  double acc[nv];
  mix_volume_node<SF, NS>(d, ph, e, q, sU, sP, sAux, acc);
  const double alpha = d.alpha ? d.alpha[e] : 0.0;
  if (alpha > 0.0) {
    const double *r = d.fv_res + eU + q;
    for (int v = 0; v < nv; v++) acc[v] = (1.0 - alpha) * acc[v] + alpha * r[(size_t)v * n3];
  }
  if (d.viscous) { /* the lifting kernel's viscous volume term */
    const double *uv = d.Ut_visc + eU + q;
    for (int v = 0; v < nv; v++) acc[v] = uv[(size_t)v * n3] + acc[v];
  }
  const int ijk[3] = {q % np, (q / np) % np, q / (np * np)};
  mix_add_surface<nv>(d, e, ijk, acc);
  const double sJ = d.sJ[(size_t)e * n3 + q];
  double *U = d.U + eU + q, *k = d.k + eU + q, un[nv];
  if (backup)
    for (int v = 0; v < nv; v++) d.U_good[eU + (size_t)v * n3 + q] = sU[(size_t)v * n3 + q];
  /* the sponge as in update_node: a mixture's base flow is per node over the sponge elements */
  const double sig = d.sponge ? d.sponge[(size_t)e * n3 + q] : 0.0;
  const double *base =
      sig != 0.0 ? d.sponge_base_U + (size_t)d.sponge_elem[e] * nv * n3 + q : NULL;
  for (int v = 0; v < nv; v++) {
    double u_t = acc[v] * -sJ;
    if (base) u_t -= sig * (sU[(size_t)v * n3 + q] - base[(size_t)v * n3]);
    const double kv = a * k[(size_t)v * n3] + dt * u_t;
    k[(size_t)v * n3] = kv;
    un[v] = sU[(size_t)v * n3 + q] + b * kv;
    U[(size_t)v * n3] = un[v];
  }
  double pr[HX_NPRIM], Y[NS], c;
  pr[TEMP] = sP[(size_t)MIX_T(NS) * n3 + q];
  const int rc = mix_cons_to_prim_n(d.mech, NS, un, pr, Y, &c);
  mix_write_prim(d.P + eP + q, n3, NS, pr, Y, c, rc);
  if (check && mix_node_inadmissible(d.mech, U, n3, nv)) d.elem_bad[e] = 1;
}

bool mix_stage_fused(const DevData *d) {
  return MIX_FIXED_SPECIES(d->n_species) && (d->n3 + 31) / 32 * 32 <= MIX_STAGE_THREADS;
}

static size_t mix_stage_shared(const DevData *d) {
  return sizeof(double) * (size_t)(d->nvar + MIX_T(d->n_species) + 2) * d->n3;
}

static int mix_limit_indicator(const DevData *d, bool limit, cudaStream_t s);

int launch_mix_stage_update(const DevData *d, const DevPhysics *ph, double a, double b,
                            double c_stage, bool first_stage, cudaEvent_t faces, cudaStream_t s) {
  if (!mix_stage_fused(d)) {
    HX_CHECK(launch_mix_volume_integral(d, ph, s));
    CU_CHECK(cudaStreamWaitEvent(s, faces, 0));
    return launch_surface_update(d, ph, a, b, c_stage, first_stage, s);
  }
  CU_CHECK(cudaStreamWaitEvent(s, faces, 0));
  const bool backup = first_stage && d->U_good, limit = d->alpha && d->fv_positivity;
  if (d->n_elems > 0) {
    const int threads = (d->n3 + 31) / 32 * 32;
    const size_t shared = mix_stage_shared(d);
#define MIX_STAGE_SF(SF, NS)                                                                       \
  mix_stage_kernel<SF, NS><<<d->n_elems, threads, shared, s>>>(*d, *ph, a, b, backup, limit)
#define MIX_STAGE(NS)                                                                              \
  (d->split == SPLIT_NONE ? MIX_STAGE_SF(SPLIT_NONE, NS)                                           \
   : d->split == SPLIT_PI ? MIX_STAGE_SF(SPLIT_PI, NS)                                             \
                          : MIX_STAGE_SF(MIX_SPLIT_ANY, NS))
    switch (d->n_species) { MIX_DISPATCH_FIXED(d->n_species, MIX_STAGE) }
#undef MIX_STAGE
#undef MIX_STAGE_SF
    CU_CHECK(cudaGetLastError());
  }
  return mix_limit_indicator(d, limit, s);
}

int mix_configure(const DevData *d) {
  const size_t shared = mix_volint_shared(d);
  if (shared > 227 * 1024)
    return HX_ERROR(HX_ERR_INPUT, "reacting flow on the GPU: N = %d with %d species needs %zu "
                                  "bytes of shared memory per element (at most 227 KiB); use a "
                                  "lower N or Backend = cpu", d->N, d->n_species, shared);
#define MIX_ATTR(NS)                                                                               \
  do {                                                                                             \
    CU_CHECK(cudaFuncSetAttribute(mix_volint_kernel<SPLIT_NONE, NS>,                               \
                                  cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));      \
    CU_CHECK(cudaFuncSetAttribute(mix_volint_kernel<SPLIT_PI, NS>,                                 \
                                  cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));      \
    CU_CHECK(cudaFuncSetAttribute(mix_volint_kernel<MIX_SPLIT_ANY, NS>,                            \
                                  cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));      \
  } while (0)
  MIX_DISPATCH(d->n_species, MIX_ATTR);
#undef MIX_ATTR
  if (!mix_stage_fused(d)) return HX_OK;
  const int fused = (int)mix_stage_shared(d);
#define MIX_STAGE_ATTR1(SF, NS)                                                                    \
  CU_CHECK(cudaFuncSetAttribute(mix_stage_kernel<SF, NS>,                                          \
                                cudaFuncAttributeMaxDynamicSharedMemorySize, fused))
#define MIX_STAGE_ATTR(NS)                                                                         \
  do {                                                                                             \
    MIX_STAGE_ATTR1(SPLIT_NONE, NS);                                                               \
    MIX_STAGE_ATTR1(SPLIT_PI, NS);                                                                 \
    MIX_STAGE_ATTR1(MIX_SPLIT_ANY, NS);                                                            \
  } while (0)
  switch (d->n_species) { MIX_DISPATCH_FIXED(d->n_species, MIX_STAGE_ATTR) }
#undef MIX_STAGE_ATTR
#undef MIX_STAGE_ATTR1
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
    for (int q = 0; q < d.n3; q++) mix_prim_node<0>(d, e, q, false);
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

/* After P of a stage's new U: the limiter of the marked elements (limit), the indicator. */
static int mix_limit_indicator(const DevData *d, bool limit, cudaStream_t s) {
  if (limit && d->n_elems > 0) {
    mix_limit_kernel<<<(d->n_elems + 127) / 128, 128, 0, s>>>(*d);
    CU_CHECK(cudaGetLastError());
  }
  return launch_mix_indicator(d, s);
}

int launch_mix_post_update(const DevData *d, cudaStream_t s) {
  const bool limit = d->alpha && d->fv_positivity;
  HX_CHECK(launch_mix_prim(d, limit, s));
  return mix_limit_indicator(d, limit, s);
}
