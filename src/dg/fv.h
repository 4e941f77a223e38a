/* FV subcell shock capturing on the LGL subcells of each element (Hennemann, Rueda-Ramirez,
 * Hindenlang & Gassner 2021, JCP 426, Sec. 3): the element's volume operator is the convex blend
 * (1 - alpha) R_DG + alpha R_FV; the element faces keep the DG surface flux, so the blend is
 * conservative. docs/shock_capturing.md describes the method and its parameters. */
#ifndef HEXDG_FV_H
#define HEXDG_FV_H

#include "core/hd.h"
#include "dg/solver.h"

/* An element's spectral radius as the time step reads it (FV_Mode = blending): with alpha >
 * FV_alpha_min it takes the smaller of the DG and the FV limits, lambda * scale with scale =
 * max(1, DG factor / FV factor) (time/timedisc.h, timedisc_blend_scale); GALAEXI
 * src/equations/navierstokes/calctimestep.f90:
 * MERGE(CFLScale(0),CFLScale(1),FV_alpha<=FV_alpha_min). */
HD static inline double fv_blend_dt_lambda(double lambda, double alpha, double alpha_min,
                                           double scale) {
  return alpha > alpha_min ? lambda * scale : lambda;
}

/* Section "Shock capturing": IndicatorType, IndVar, FV_alpha_min, FV_alpha_max, FV_alpha_fix,
 * FV_doExtendAlpha, FV_nExtendAlpha, FV_alpha_ExtScale, FV_LimiterType, FV_PositivityLimiter. */
int fv_define_params(Params *p);
/* Read them and set up the blending data of s (after the metrics); nothing when IndicatorType =
 * none. */
int fv_init(const Params *p, Solver *s);
void fv_free(Solver *s);

/* The FV volume operator of element e alone, in the DG operator's convention (Ut of the volume
 * part, before the Jacobian; the element faces' fluxes come from the surface integral):
 * Ut[v][node] = (F_{m+1/2} - F_{m-1/2}) / w_m summed over the directions, inner interfaces only.
 * prim: the element's primitive states [var][node] (src/physics/fvblend.h, fv_line_residual);
 * Y: the mixture's mass fractions [species][node] (NULL for air; physics/fvblend_mix.h). */
void fv_subcell_volume(const Solver *s, int e, const double *prim, const double *Y, double *Ut);

/* Stage limiter (Zhang & Shu 2010, JCP 229, Sec. 2.3, adapted to the LGL nodes): pull the nodes
 * of an element towards its (conserved) mean until density and pressure are positive. Elements
 * whose mean itself is not admissible are left as they are (the time-step check then stops the
 * run). Returns the number of limited elements on this rank. */
long fv_positivity_limit(const Solver *s, double *U);

#endif
