/* VolInt of the kinetic-energy-preserving split forms KG and PI (the default), shared by the
 * volume-integral kernel and the fused volume + surface + update kernel (surfint_kernels.cu).
 * Per node the halves of rho, u, p, the node quantity aux (split_node_aux) and the metrics sit in
 * shared memory, so that every mean of a pair is one addition (halving is exact: a/2 + b/2 rounds
 * to the same value as (a + b)/2), and a partner costs 9 shared loads. The degree is a template
 * parameter: the line loops unroll and the partners' shared-memory offsets are constants. */
#ifndef HEXDG_VOLINT_KEP_CUH
#define HEXDG_VOLINT_KEP_CUH

#include "gpu/gpu_internal.cuh"

extern "C" {
#include "physics/eos.h"
#include "physics/splitflux.h"
}

#define KEP_RHO 0
#define KEP_VEL 1
#define KEP_P 4
#define KEP_AUX 5
#define KEP_JA 6
#define KEP_CACHE 15 /* doubles per node */
#define KEP_NP_MIN 4
#define KEP_NP_MAX 8

/* The conservative and primitive state of node q of element e. */
__device__ static __forceinline__ void load_node(const DevData &d, const PhysParams &pp, int e,
                                                 int q, double *u, double *prim) {
  const double *Ue = d.U + (size_t)e * d.nvar * d.n3;
  for (int v = 0; v < HX_NVAR; v++) u[v] = Ue[v * d.n3 + q];
  cons_to_prim(&pp, u, prim);
}

template <int NP>
__device__ static __forceinline__ void kep_stage_node(const DevData &d, const PhysParams &pp,
                                                      int e, int q, double *cache) {
  constexpr int N3 = NP * NP * NP;
  double u[HX_NVAR], prim[HX_NPRIM];
  load_node(d, pp, e, q, u, prim);
  cache[KEP_RHO * N3 + q] = 0.5 * u[DENS];
  for (int k = 0; k < 3; k++) cache[(KEP_VEL + k) * N3 + q] = 0.5 * prim[VEL1 + k];
  cache[KEP_P * N3 + q] = 0.5 * prim[PRES];
  cache[KEP_AUX * N3 + q] = 0.5 * split_node_aux(d.split, u, prim);
  double Ja[9];
  node_metrics<N3>(d, e, q, Ja);
  for (int c = 0; c < 9; c++) cache[(KEP_JA + c) * N3 + q] = 0.5 * Ja[c];
}

/* Dvol into smem[0, NP^2), element le's node data after it; every thread of the block must call
 * it (one barrier). Returns element le's node data. */
template <int NP>
__device__ static __forceinline__ const double *kep_stage(const DevData &d, const PhysParams &pp,
                                                          double *smem, int le, int lt, int e,
                                                          bool active, int threads_per_elem) {
  constexpr int N3 = NP * NP * NP;
  double *cache = smem + NP * NP + (size_t)le * KEP_CACHE * N3;
  for (int t = threadIdx.x; t < NP * NP; t += blockDim.x) smem[t] = d.disc->Dvol[t];
  if (active)
    for (int q = lt; q < N3; q += threads_per_elem) kep_stage_node<NP>(d, pp, e, q, cache);
  __syncthreads();
  return cache;
}

/* acc = sum over the three lines through node q of Dvol[i][l] F#(q, l) (disc.h); all NP partners
 * in order, as the generic kernel: the diagonal of Dvol is zero. */
template <int NP, bool PI>
__device__ static __forceinline__ void kep_volume_node(const double *Dv, const double *cache,
                                                       int q, double *acc) {
  constexpr int N3 = NP * NP * NP;
  const int idx3[3] = {q % NP, (q / NP) % NP, q / (NP * NP)};
  const double rq = cache[KEP_RHO * N3 + q], pq = cache[KEP_P * N3 + q];
  const double aq = cache[KEP_AUX * N3 + q];
  double vq[3];
  for (int k = 0; k < 3; k++) vq[k] = cache[(KEP_VEL + k) * N3 + q];
  for (int v = 0; v < HX_NVAR; v++) acc[v] = 0.0;
#pragma unroll
  for (int dir = 0; dir < 3; dir++) {
    const int stride = dir == 0 ? 1 : dir == 1 ? NP : NP * NP;
    const double *line = cache + q - idx3[dir] * stride; /* node 0 of the line */
    const double *Drow = Dv + idx3[dir] * NP;
    double mq[3];
    for (int k = 0; k < 3; k++) mq[k] = cache[(KEP_JA + 3 * dir + k) * N3 + q];
#pragma unroll
    for (int l = 0; l < NP; l++) {
      const double *c = line + l * stride;
      double vel[3], m[3], F[HX_NVAR];
      for (int k = 0; k < 3; k++) {
        vel[k] = vq[k] + c[(KEP_VEL + k) * N3];
        m[k] = mq[k] + c[(KEP_JA + 3 * dir + k) * N3];
      }
      split_flux_kg_pi_means(PI, rq + c[KEP_RHO * N3], vel, pq + c[KEP_P * N3],
                             aq + c[KEP_AUX * N3], m, F);
      const double w = Drow[l];
      for (int v = 0; v < HX_NVAR; v++) acc[v] += w * F[v];
    }
  }
}

#endif
