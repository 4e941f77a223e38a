/* The CPU backend's DG operator: Ut = R(U, t), in the order of Table 1 of the GALAEXI paper
 * (Kurz et al. 2025): ProlongToFace, Lifting (Navier-Stokes), FillFlux, VolInt, SurfInt,
 * ApplyJac (+ source terms). */
#include "dg/fv_gauss.h"
#include "dg/indicator.h"
#include "dg/solver.h"
#include "dg/sponge.h"
#include "physics/mixture.h"
#include "parallel/exchange.h"

void apply_jacobian_and_source(const Solver *s, const double *U, double *Ut, double t) {
  int n3 = s->n_dof_elem, nv = s->n_var;
  int with_source = exact_has_source(s->exact.which);
#pragma omp parallel for schedule(static)
  for (int e = 0; e < s->mesh->n_elems; e++) {
    const double *sJ = fv_elem_sJ(s, e); /* FV elements on Gauss nodes: the subcells' */
    const double *x = &s->geo.elem_x[3L * n3 * e];
    double *ut = &Ut[(long)nv * n3 * e];
    for (int v = 0; v < nv; v++)
      for (int q = 0; q < n3; q++) ut[v * n3 + q] = ut[v * n3 + q] * -sJ[q];
    if (s->sponge) /* damping towards the base flow, before the source as on the GPU */
      sponge_apply(s, e, &U[(long)nv * n3 * e], ut);
    if (!with_source) continue;
    for (int q = 0; q < n3; q++) {
      double xq[3] = {x[q], x[n3 + q], x[2 * n3 + q]}, S[HX_NVAR_MAX];
      exact_source(&s->exact, &s->phys, xq, t, S);
      for (int v = 0; v < nv; v++) ut[v * n3 + q] += S[v];
    }
  }
}

/* With MPI sides, each exchange starts right after its sides are computed and is finished right
 * before the received data is used, with the element work in between (GALAEXI Fig. 4):
 * U_slave during the lifting volume part, lift_flux and grad_slave during the lifting's inner
 * sides and viscous volume part, flux during the volume integral. With shock capturing the
 * blending factors are computed first (their spreading exchanges its own slot). */
void dg_time_derivative(Solver *s, const double *U, double *Ut, double t) {
  if (s->fv.enabled) fv_compute_alpha_at(s, U, t);
  const struct FVGauss *fvg = s->fv.gauss; /* FV switching on Gauss nodes (dg/fv_gauss.h) */
  if (fvg)
    fv_gauss_prolong_start(s, U);
  else
    prolong_to_face_start(s, U);
  if (fvg && s->viscous) fv_gauss_reconstruct_start(s, t); /* the lifting's face states */
  if (s->viscous) lifting(s, U, Ut, t);
  if (fvg)
    fv_gauss_fill_flux_start(s, t);
  else
    fill_flux_start(s, t);
  volume_integral(s, U, Ut, s->viscous);
  exchange_finish(s->exchange, EXCH_FLUX);
  if (fvg) fv_gauss_surface_begin(s, Ut);
  surface_integral(s, Ut);
  if (fvg) fv_gauss_surface_end(s, Ut);
  apply_jacobian_and_source(s, U, Ut, t);
}
