/* ProlongToFace + FillFlux fused: one thread per face point prolongs the master and slave states
 * (a gather through the precomputed face maps, no atomics) and computes the numerical flux. */
#include "gpu/gpu_internal.cuh"

extern "C" {
#include "dg/faceops.h"
#include "physics/riemann.h"
}

/* State of volume element elem at the face point whose face-adjacent node is node0. */
__device__ static void prolong_point(const DevData &d, int elem, int locside, int node0,
                                     double *u) {
  const double *Ue = d.U + (size_t)elem * d.nvar * d.n3;
  for (int v = 0; v < HX_NVAR; v++)
    u[v] = prolong_to_face_point(d.disc, Ue + v * d.n3, node0, locside);
}

__global__ static void face_flux_kernel(DevData d, DevPhysics ph, double c_stage) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= d.n_sides * d.n2 || !(d.sc->dt > 0.0)) return;
  int side = gid / d.n2, f = gid - side * d.n2;
  const int *info = d.side_info + 6 * side;
  double uL[HX_NVAR], uR[HX_NVAR], F[HX_NVAR], n[3], t1[3], t2[3];
  prolong_point(d, info[0], info[1], d.s2v[info[1] * d.n2 + f], uL);
  int bc = info[5];
  if (bc < 0) {
    prolong_point(d, info[2], info[3], d.s2v[(info[4] * 6 + info[3]) * d.n2 + f], uR);
  } else { /* BC type 2: exact function as the outer state */
    double x[3];
    for (int c = 0; c < 3; c++)
      x[c] = d.face_x[((size_t)side * 3 + c) * d.n2 + f];
    exact_func(&ph.ef, &ph.pp, x, d.sc->t + c_stage * d.sc->dt, uR);
  }
  for (int c = 0; c < 3; c++) {
    size_t at = ((size_t)side * 3 + c) * d.n2 + f;
    n[c] = d.face_nvec[at];
    t1[c] = d.face_t1[at];
    t2[c] = d.face_t2[at];
  }
  riemann_flux(bc < 0 ? d.riemann : d.riemann_bc, d.split, &ph.pp, uL, uR, n, t1, t2, F);
  double sf = d.face_surf[(size_t)side * d.n2 + f];
  double *out = d.flux + (size_t)side * d.nvar * d.n2 + f;
  for (int v = 0; v < HX_NVAR; v++)
    out[v * d.n2] = F[v] * sf;
}

int launch_face_flux(const DevData *d, const DevPhysics *ph, double c_stage, cudaStream_t s) {
  int n = d->n_sides * d->n2, threads = 128;
  face_flux_kernel<<<(n + threads - 1) / threads, threads, 0, s>>>(*d, *ph, c_stage);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}
