/* SurfInt + ApplyJac + source + RK update, fused: one thread per volume DOF gathers the fluxes of
 * its element's six sides (no atomics), scales by -1/J, adds the source term and advances the
 * low-storage RK registers k = a k + dt Ut, U += b k. */
#include "gpu/gpu_internal.cuh"
#include "gpu/update_node.cuh"
#include "gpu/volint_kep.cuh"

extern "C" {
#include "dg/faceops.h"
#include "physics/eos.h"
#include "physics/mixture.h"
}

/* FVG: FV switching on Gauss nodes (update_node_from's FV elements). */
template <int NV, bool FVG = false>
__global__ static void surface_update_kernel(DevData d, DevPhysics ph, double a, double b,
                                             double c_stage, bool backup) {
  size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  double dt = d.sc->dt;
  if (!(dt > 0.0)) return; /* the whole grid */
  if (backup && gid == 0) d.sc->t_good = d.sc->t;
  const bool node = gid < (size_t)d.n_elems * d.n3;
  const int e = node ? (int)(gid / d.n3) : -1;
  double u_new[NV ? NV : HX_NVAR_MAX];
  if (node) update_node<NV, FVG>(d, ph, a, b, c_stage, dt, backup, gid, e, u_new);
  if (NV == HX_NVAR && d.fv_minima) update_minima(d, ph.pp, e, u_new);
}

/* VolInt (KG/PI) + SurfInt + update: the volume kernel's staging and line sums, then each node's
 * surface terms and RK update without storing Ut. A block's element data are read before any of
 * its nodes is written (one barrier), and a block reads no other element's volume data. The
 * volume sums of a thread's nodes (at most FUSED_UPDATE_PASSES) need only U: they come before
 * the wait of a dependent launch, the surface terms (face fluxes, Ut_visc) after it. */
template <int NP, bool PI, bool PRE>
__global__ static void __launch_bounds__(256, 2)
    volint_update_kernel(DevData d, DevPhysics ph, double a, double b, double c_stage, bool backup,
                         int elems_per_block, int threads_per_elem) {
  constexpr int N3 = NP * NP * NP;
  extern __shared__ double smem[];
  const double dt = d.sc->dt;
  if (!(dt > 0.0)) return; /* the whole grid */
  const int le = threadIdx.x / threads_per_elem, lt = threadIdx.x - le * threads_per_elem;
  const int e = blockIdx.x * elems_per_block + le;
  const bool active = le < elems_per_block && e < d.n_elems;
  const double *cache = kep_stage<NP>(d, ph.pp, smem, le, lt, e, active, threads_per_elem);
  if (!active) return;
  double acc[FUSED_UPDATE_PASSES][HX_NVAR];
#pragma unroll
  for (int p = 0; p < FUSED_UPDATE_PASSES; p++)
    if (lt + p * threads_per_elem < N3)
      kep_volume_node<NP, PI>(smem, cache, lt + p * threads_per_elem, acc[p]);
  pdl_wait(); /* the face fluxes and Ut_visc of the kernels before (dependent launch) */
  if (backup && blockIdx.x == 0 && threadIdx.x == 0) d.sc->t_good = d.sc->t;
#pragma unroll
  for (int p = 0; p < FUSED_UPDATE_PASSES; p++) {
    const int q = lt + p * threads_per_elem;
    double u_new[HX_NVAR];
    if (q < N3)
      update_node_from<HX_NVAR, false, true, PRE>(d, ph, a, b, c_stage, dt, backup,
                                                  (size_t)e * N3 + q, e, acc[p], u_new);
  }
}

typedef void (*VolintUpdateFn)(DevData, DevPhysics, double, double, double, bool, int, int);

template <int NP> static VolintUpdateFn volint_update_np(bool pi, bool pre) {
  return pi ? (pre ? volint_update_kernel<NP, true, true> : volint_update_kernel<NP, true, false>)
            : (pre ? volint_update_kernel<NP, false, true>
                   : volint_update_kernel<NP, false, false>);
}

static VolintUpdateFn volint_update_instance(int np, bool pi, bool pre) {
  switch (np) {
  case 4:
    return volint_update_np<4>(pi, pre);
  case 5:
    return volint_update_np<5>(pi, pre);
  case 6:
    return volint_update_np<6>(pi, pre);
  case 7:
    return volint_update_np<7>(pi, pre);
  default:
    return volint_update_np<8>(pi, pre);
  }
}

bool volint_update_fused(const DevData *d) {
  int epb, tpe;
  size_t bytes;
  if (!gpu_env_flag("HEXDG_FUSED_UPDATE", true) || d->mech || d->alpha || d->fv_minima)
    return false;
  if (d->split == SPLIT_NONE) return weak_update_possible(d);
  /* KG/PI with the PDL chain, measured on the H100 (docs/performance.md): NS / Euler at 4e6 DOF
   * N = 4 -1.8 % / -5 %, N = 5 +0.4 % / -1.3 %, N = 7 -0.8 %; N = 3 +0.5 % / +0.9 %, but
   * -10 % at 1.1e5 DOF: fused from N = 4 on, at N = 3 below 1e6 DOF */
  const bool small = (double)d->n_elems * d->n3 < 1e6;
  return (d->np >= 5 || small) && volint_kep_launch_config(d, &epb, &tpe, &bytes) &&
         tpe * FUSED_UPDATE_PASSES >= d->n3;
}

int volint_update_configure(const DevData *d, int shared_bytes) {
  CU_CHECK(cudaFuncSetAttribute(
      (const void *)volint_update_instance(d->np, d->split == SPLIT_PI, update_preload(d)),
      cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
  return HX_OK;
}

int launch_volint_update(const DevData *d, const DevPhysics *ph, double a, double b,
                         double c_stage, bool first_stage, cudaStream_t s, bool dependent) {
  if (d->split == SPLIT_NONE)
    return launch_weak_update(d, ph, a, b, c_stage, first_stage, s, dependent);
  int epb, tpe;
  size_t bytes;
  volint_kep_launch_config(d, &epb, &tpe, &bytes);
  const bool backup = first_stage && d->U_good;
  const int blocks = (d->n_elems + epb - 1) / epb;
  CU_CHECK(launch_kernel(
      dependent, volint_update_instance(d->np, d->split == SPLIT_PI, update_preload(d)),
      dim3(blocks), dim3(epb * tpe), bytes, s, *d, *ph, a, b, c_stage, backup, epb, tpe));
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
  if (d->fvg_sJ)
    surface_update_kernel<HX_NVAR, true><<<blocks, threads, 0, s>>>(*d, *ph, a, b, c_stage, backup);
  else
    surface_update_kernel<HX_NVAR><<<blocks, threads, 0, s>>>(*d, *ph, a, b, c_stage, backup);
  CU_CHECK(cudaGetLastError());
  return d->alpha ? launch_fv_post_update(d, ph, s) : HX_OK;
}
