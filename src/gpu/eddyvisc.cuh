/* LES eddy viscosity on the device (eddyViscType != none): mu_t of a volume node or a face point
 * from its own lifted gradients and density, with the coefficients (C Delta damp)^2 of
 * dg/eddyvisc.c uploaded by gpu_solver.cu; the same pointwise functions (physics/eddyvisc.h) and
 * the same places as the CPU (lifting.c: volume nodes, fillflux.c: each side's face values). The
 * kernels take LES as a template parameter, so that the run without a model has no extra load. */
#ifndef HEXDG_GPU_EDDYVISC_CUH
#define HEXDG_GPU_EDDYVISC_CUH

#include "gpu/gpu_internal.cuh"

extern "C" {
#include "physics/eddyvisc.h"
#include "physics/navierstokes.h"
}

/* mu_t of volume node n of element e. */
__device__ static inline double sgs_node_mu_t(const DevData &d, int e, int n, double rho,
                                              const double q[3][HX_NLIFT]) {
  return eddy_viscosity(d.sgs_model, d.sgs_coef[(size_t)e * d.n3 + n], rho, q[0], q[1], q[2]);
}

/* mu_t at face point f of side from one side's state u and gradients q (slot 0: master). */
__device__ static inline double sgs_face_mu_t(const DevData &d, int side, int slot, int f,
                                              const double *u, const double q[3][HX_NLIFT]) {
  const double *c = slot ? d.sgs_coef_slave : d.sgs_coef_master;
  return eddy_viscosity(d.sgs_model, c[(size_t)side * d.n2 + f], u[DENS], q[0], q[1], q[2]);
}

/* The element's largest mu_t for the next DFL step (dg/eddyvisc.h mu_t_max; the time-step kernel
 * reads and resets it); the plain read first spares most atomics. */
__device__ static inline void sgs_record_max(const DevData &d, int e, double mu_t) {
  if (!(mu_t > 0.0)) return;
  const unsigned long long bits = (unsigned long long)__double_as_longlong(mu_t);
  if (bits > d.sgs_mu_max[e]) atomicMax(&d.sgs_mu_max[e], bits);
}

/* The node's stress and heat flux, with mu_t when LES (compile-time). */
template <bool LES>
__device__ static inline void sgs_node_stress(const DevData &d, const PhysParams &pp, int e, int n,
                                              const double *prim, const double q[3][HX_NLIFT],
                                              double tau[9], double cond[3]) {
  if (LES) {
    const double mu_t = sgs_node_mu_t(d, e, n, prim[DENS], q);
    sgs_record_max(d, e, mu_t);
    viscous_stress_les(&pp, prim, mu_t, d.sgs_lambda_factor * mu_t, q[0], q[1], q[2], tau, cond);
  } else {
    viscous_stress(&pp, prim, q[0], q[1], q[2], tau, cond);
  }
}

#endif
