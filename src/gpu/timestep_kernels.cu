/* The time step on the device: CFL reduction (max over nodes of the contravariant spectral radii),
 * dt shortened to land on the analysis time exactly as the CPU loop does, and the time update. */
#include "gpu/gpu_internal.cuh"

extern "C" {
#include "physics/eos.h"
}

__device__ static double node_lambda(const DevData &d, const PhysParams &pp, int e, int q) {
  const double *Ue = d.U + (size_t)e * d.nvar * d.n3;
  double u[HX_NVAR], pr[HX_NPRIM];
  for (int v = 0; v < HX_NVAR; v++) u[v] = Ue[v * d.n3 + q];
  cons_to_prim(&pp, u, pr);
  if (!(pr[PDENS] > 0.0) || !(pr[PRES] > 0.0)) return -1.0;
  double c = speed_of_sound(&pp, pr), lam = 0.0, sJ = d.sJ[(size_t)e * d.n3 + q];
  for (int dir = 0; dir < 3; dir++) {
    const double *Ja = d.metrics + ((size_t)e * 9 + dir * 3) * d.n3 + q;
    double m0 = Ja[0], m1 = Ja[d.n3], m2 = Ja[2 * d.n3];
    double vn = pr[VEL1] * m0 + pr[VEL2] * m1 + pr[VEL3] * m2;
    double mn = sqrt(m0 * m0 + m1 * m1 + m2 * m2);
    lam += sJ * (fabs(vn) + c * mn);
  }
  return lam;
}

__global__ static void lambda_max_kernel(DevData d, DevPhysics ph) {
  __shared__ double red[256];
  size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  double lam = 0.0;
  if (gid < (size_t)d.n_elems * d.n3) {
    int e = (int)(gid / d.n3);
    lam = node_lambda(d, ph.pp, e, (int)(gid - (size_t)e * d.n3));
    if (!(lam >= 0.0)) { /* negative (not admissible) or NaN */
      atomicOr(&d.sc->bad, 1);
      lam = 0.0;
    }
  }
  red[threadIdx.x] = lam;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] = fmax(red[threadIdx.x], red[threadIdx.x + s]);
    __syncthreads();
  }
  /* max of non-negative doubles: the bit patterns are ordered like the values, so the result
   * does not depend on the order of the atomics */
  if (threadIdx.x == 0) atomicMax(&d.sc->lmax_bits, (unsigned long long)__double_as_longlong(red[0]));
}

/* dt and landing, the same arithmetic as simulation.c; resets the reduction for the next step. */
__global__ static void dt_finalize_kernel(DevData d) {
  StepScalars *sc = d.sc;
  double lmax = __longlong_as_double((long long)sc->lmax_bits);
  sc->lmax_bits = 0ull;
  if (sc->bad || !(lmax > 0.0)) {
    sc->dt = -1.0;
    sc->landed = 0;
    return;
  }
  double dt = __ddiv_rn(d.dt_factor, lmax);
  int land = __dsub_rn(sc->t_analyze, sc->t) <= __dmul_rn(dt, 1.0 + 1e-9);
  sc->dt = land ? __dsub_rn(sc->t_analyze, sc->t) : dt;
  sc->landed = land;
}

__global__ static void time_advance_kernel(DevData d) {
  StepScalars *sc = d.sc;
  if (sc->dt > 0.0) sc->t = sc->landed ? sc->t_analyze : __dadd_rn(sc->t, sc->dt);
}

int launch_timestep(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  size_t n = (size_t)d->n_elems * d->n3;
  lambda_max_kernel<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(*d, *ph);
  CU_CHECK(cudaGetLastError());
  dt_finalize_kernel<<<1, 1, 0, s>>>(*d);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_time_advance(const DevData *d, cudaStream_t s) {
  time_advance_kernel<<<1, 1, 0, s>>>(*d);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}
