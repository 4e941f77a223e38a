/* SurfInt + ApplyJac + source + RK update, fused: one thread per volume DOF gathers the fluxes of
 * its element's six sides (no atomics), scales by -1/J, adds the source term and advances the
 * low-storage RK registers k = a k + dt Ut, U += b k. */
#include "gpu/gpu_internal.cuh"
#include "gpu/volint_kep.cuh"

extern "C" {
#include "dg/faceops.h"
#include "physics/eos.h"
#include "physics/mixture.h"
}

/* FV_PositivityLimiter: the minima of rho, p, -rho, -rho E of the updated nodes per element
 * (d.fv_minima) for the post-update kernel, which then reads U again only where a node may be
 * inadmissible. A warp reduces the nodes of each of its elements (consecutive lanes: butterfly
 * steps between lanes of the same element), the first lane of each element adds the result by
 * atomicMin. e < 0: a lane without node. Every lane of the warp must call it. */
__device__ static __forceinline__ void update_minima(const DevData &d, const PhysParams &pp,
                                                     int e, const double *u) {
  unsigned long long k[4] = {FV_KEY_NONE, FV_KEY_NONE, FV_KEY_NONE, FV_KEY_NONE};
  if (e >= 0) {
    k[0] = fv_key(u[DENS]);
    k[1] = fv_key(pressure_from_cons(&pp, u));
    k[2] = fv_key(-u[DENS]);
    k[3] = fv_key(-u[ENER]);
  }
  const int lane = threadIdx.x % 32;
  for (int off = 16; off > 0; off >>= 1) {
    const int e_other = __shfl_down_sync(0xffffffffu, e, off);
    for (int r = 0; r < 4; r++) {
      const unsigned long long o = __shfl_down_sync(0xffffffffu, k[r], off);
      if (lane + off < 32 && e_other == e && o < k[r]) k[r] = o;
    }
  }
  const int e_prev = __shfl_up_sync(0xffffffffu, e, 1);
  if (e >= 0 && (lane == 0 || e_prev != e))
    for (int r = 0; r < 4; r++) atomicMin(&d.fv_minima[4 * (size_t)e + r], k[r]);
}

/* One node's update; returns its new state in u_new. NV: the number of variables (HX_NVAR for
 * air; 0: d.nvar, the mixture's 5 + species). backup: first stage of a step whose state
 * passed the check (dt > 0): the state before the update goes to U_good (shock capturing). */
template <int NV>
__device__ static __forceinline__ void update_node_from(const DevData &d, const DevPhysics &ph,
                                                        double a, double b, double c_stage,
                                                        double dt, bool backup, size_t gid, int e,
                                                        double *acc, double *u_new);

template <int NV>
__device__ static __forceinline__ void update_node(const DevData &d, const DevPhysics &ph,
                                                   double a, double b, double c_stage, double dt,
                                                   bool backup, size_t gid, int e,
                                                   double *u_new) {
  const int q = (int)(gid - (size_t)e * d.n3);
  const double *ut = d.Ut + (size_t)e * d.nvar * d.n3 + q;
  const int nv = NV ? NV : d.nvar;
  double acc[NV ? NV : HX_NVAR_MAX];
  for (int v = 0; v < nv; v++) acc[v] = ut[v * d.n3];
  update_node_from<NV>(d, ph, a, b, c_stage, dt, backup, gid, e, acc, u_new);
}

/* The update of one node from its advective volume term acc (overwritten). */
template <int NV>
__device__ static __forceinline__ void update_node_from(const DevData &d, const DevPhysics &ph,
                                                        double a, double b, double c_stage,
                                                        double dt, bool backup, size_t gid, int e,
                                                        double *acc, double *u_new) {
  const int q = (int)(gid - (size_t)e * d.n3);
  const int np = d.np, N = d.N;
  int ijk[3] = {q % np, (q / np) % np, q / (np * np)};
  const Disc *disc = d.disc;
  const int nv = NV ? NV : d.nvar;
  if (d.viscous) { /* the lifting kernel's viscous volume term */
    const double *uv = d.Ut_visc + (size_t)e * d.nvar * d.n3 + q;
    for (int v = 0; v < nv; v++) acc[v] = uv[v * d.n3] + acc[v];
  }
  for (int ls = 0; ls < 6; ls++) {
    double w = surface_weight(disc, ls, ijk[side_normal_dir(ls)]);
    if (w == 0.0) continue;
    int side = d.elem_sides[2 * (6 * e + ls)], flip = d.elem_sides[2 * (6 * e + ls) + 1];
    int ps, qs, p, qq;
    volume_to_side(N, ls, ijk[0], ijk[1], ijk[2], &ps, &qs);
    flip_master_to_slave(flip, N, ps, qs, &p, &qq); /* flips are involutions */
    double sign = flip == 0 ? 1.0 : -1.0;
    const double *F = d.flux + (size_t)side * d.nvar * d.n2 + qq * np + p;
    for (int v = 0; v < nv; v++) {
      double fl = sign * F[v * d.n2];
      acc[v] += w * fl;
    }
  }
  double sJ = d.sJ[gid], S[NV ? NV : HX_NVAR_MAX] = {0.0, 0.0, 0.0, 0.0, 0.0};
  if (NV == HX_NVAR && d.has_source) { /* the manufactured solutions with a source are air cases */
    const double *x = d.elem_x + (size_t)e * 3 * d.n3 + q;
    double xq[3] = {x[0], x[d.n3], x[2 * d.n3]};
    exact_source(&ph.ef, &ph.pp, xq, d.sc->t + c_stage * dt, S);
  }
  double *U = d.U + (size_t)e * d.nvar * d.n3 + q, *k = d.k + (size_t)e * d.nvar * d.n3 + q;
  double sig = d.sponge ? d.sponge[gid] : 0.0;
  const double *base = NULL; /* per-node base flow (SpongeBaseFlow 2-4); NULL: constant or none */
  if (d.sponge_base_U && d.sponge_elem[e] >= 0)
    base = d.sponge_base_U + (size_t)d.sponge_elem[e] * d.nvar * d.n3 + q;
  if (backup) {
    double *good = d.U_good + (size_t)e * d.nvar * d.n3 + q;
    for (int v = 0; v < nv; v++) good[v * d.n3] = U[v * d.n3];
  }
  for (int v = 0; v < nv; v++) {
    double u_t = acc[v] * -sJ;
    if (d.sponge) u_t -= sig * (U[v * d.n3] - (base ? base[v * d.n3] : d.sponge_base[v]));
    u_t += S[v];
    double kv = a * k[v * d.n3] + dt * u_t;
    k[v * d.n3] = kv;
    u_new[v] = U[v * d.n3] + b * kv;
    U[v * d.n3] = u_new[v];
  }
}

template <int NV>
__global__ static void surface_update_kernel(DevData d, DevPhysics ph, double a, double b,
                                             double c_stage, bool backup) {
  size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  double dt = d.sc->dt;
  if (!(dt > 0.0)) return; /* the whole grid */
  if (backup && gid == 0) d.sc->t_good = d.sc->t;
  const bool node = gid < (size_t)d.n_elems * d.n3;
  const int e = node ? (int)(gid / d.n3) : -1;
  double u_new[NV ? NV : HX_NVAR_MAX];
  if (node) update_node<NV>(d, ph, a, b, c_stage, dt, backup, gid, e, u_new);
  if (NV == HX_NVAR && d.fv_minima) update_minima(d, ph.pp, e, u_new);
}

/* VolInt (KG/PI) + SurfInt + update: the volume kernel's staging and line sums, then each node's
 * surface terms and RK update without storing Ut. A block's element data are read before any of
 * its nodes is written (one barrier), and a block reads no other element's volume data. The
 * volume sums of a thread's nodes (at most VOLINT_UPDATE_PASSES) need only U: they come before
 * the wait of a dependent launch, the surface terms (face fluxes, Ut_visc) after it. */
#define VOLINT_UPDATE_PASSES 2
template <int NP, bool PI>
__global__ static void __launch_bounds__(256, 2)
    volint_update_kernel(DevData d, DevPhysics ph, double a, double b, double c_stage,
                         bool backup, int elems_per_block, int threads_per_elem) {
  constexpr int N3 = NP * NP * NP;
  extern __shared__ double smem[];
  const double dt = d.sc->dt;
  if (!(dt > 0.0)) return; /* the whole grid */
  const int le = threadIdx.x / threads_per_elem, lt = threadIdx.x - le * threads_per_elem;
  const int e = blockIdx.x * elems_per_block + le;
  const bool active = le < elems_per_block && e < d.n_elems;
  const double *cache = kep_stage<NP>(d, ph.pp, smem, le, lt, e, active, threads_per_elem);
  if (!active) return;
  double acc[VOLINT_UPDATE_PASSES][HX_NVAR];
#pragma unroll
  for (int p = 0; p < VOLINT_UPDATE_PASSES; p++)
    if (lt + p * threads_per_elem < N3)
      kep_volume_node<NP, PI>(smem, cache, lt + p * threads_per_elem, acc[p]);
  pdl_wait(); /* the face fluxes and Ut_visc of the kernels before (dependent launch) */
  if (backup && blockIdx.x == 0 && threadIdx.x == 0) d.sc->t_good = d.sc->t;
#pragma unroll
  for (int p = 0; p < VOLINT_UPDATE_PASSES; p++) {
    const int q = lt + p * threads_per_elem;
    double u_new[HX_NVAR];
    if (q < N3)
      update_node_from<HX_NVAR>(d, ph, a, b, c_stage, dt, backup, (size_t)e * N3 + q, e, acc[p],
                                u_new);
  }
}

typedef void (*VolintUpdateFn)(DevData, DevPhysics, double, double, double, bool, int, int);

static VolintUpdateFn volint_update_instance(int np, bool pi) {
  switch (np) {
  case 4: return pi ? volint_update_kernel<4, true> : volint_update_kernel<4, false>;
  case 5: return pi ? volint_update_kernel<5, true> : volint_update_kernel<5, false>;
  case 6: return pi ? volint_update_kernel<6, true> : volint_update_kernel<6, false>;
  case 7: return pi ? volint_update_kernel<7, true> : volint_update_kernel<7, false>;
  default: return pi ? volint_update_kernel<8, true> : volint_update_kernel<8, false>;
  }
}

bool volint_update_fused(const DevData *d) {
  int epb, tpe;
  size_t bytes;
  /* measured on the H100: a gain at N = 7 (and at small loads), a small loss at N = 3 and 5 */
  return gpu_env_flag("HEXDG_FUSED_UPDATE", true) && d->np >= 7 && !d->mech && !d->alpha &&
         !d->fv_minima && volint_kep_launch_config(d, &epb, &tpe, &bytes) &&
         tpe * VOLINT_UPDATE_PASSES >= d->n3;
}

int volint_update_configure(const DevData *d, int shared_bytes) {
  CU_CHECK(cudaFuncSetAttribute((const void *)volint_update_instance(d->np, d->split == SPLIT_PI),
                                cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
  return HX_OK;
}

int launch_volint_update(const DevData *d, const DevPhysics *ph, double a, double b,
                         double c_stage, bool first_stage, cudaStream_t s, bool dependent) {
  int epb, tpe;
  size_t bytes;
  volint_kep_launch_config(d, &epb, &tpe, &bytes);
  const bool backup = first_stage && d->U_good;
  const int blocks = (d->n_elems + epb - 1) / epb;
  CU_CHECK(launch_kernel(dependent, volint_update_instance(d->np, d->split == SPLIT_PI),
                         dim3(blocks), dim3(epb * tpe), bytes, s, *d, *ph, a, b, c_stage, backup,
                         epb, tpe));
  return HX_OK;
}

int launch_surface_update(const DevData *d, const DevPhysics *ph, double a, double b,
                          double c_stage, bool first_stage, cudaStream_t s) {
  size_t n = (size_t)d->n_elems * d->n3;
  int threads = 256;
  const bool backup = first_stage && d->U_good;
  const unsigned blocks = (unsigned)((n + threads - 1) / threads);
  if (d->mech) { /* the mechanism sizes in use with nVar at compile time (MIX_DISPATCH) */
#define MIX_UPDATE(NS)                                                                             \
  surface_update_kernel<(NS) ? HX_NVAR + (NS) : 0><<<blocks, threads, 0, s>>>(*d, *ph, a, b,      \
                                                                            c_stage, backup)
    MIX_DISPATCH(d->n_species, MIX_UPDATE);
#undef MIX_UPDATE
    CU_CHECK(cudaGetLastError());
    return launch_mix_post_update(d, s);
  }
  surface_update_kernel<HX_NVAR><<<blocks, threads, 0, s>>>(*d, *ph, a, b, c_stage, backup);
  CU_CHECK(cudaGetLastError());
  return d->alpha ? launch_fv_post_update(d, ph, s) : HX_OK;
}
