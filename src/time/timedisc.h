/* Explicit low-storage Runge-Kutta time integration and the convective time step. */
#ifndef HEXDG_TIMEDISC_H
#define HEXDG_TIMEDISC_H

#include "dg/solver.h"
#include "time/rk_tables.h"

typedef struct {
  const LowStorageRK *rk;
  double tend, cfl_scale, dfl_scale, analyze_dt;
  int dims; /* Dimension: 3, or 2 (FLEXI's 2-D build: the zeta direction left out of dt) */
  int check_admissible; /* CheckAdmissibility: 1 stop at rho or p <= 0; 0 (GALAEXI) only at a
                           NaN density, other inadmissible nodes left out of dt */
  int n_write_data;
  long max_iter;
  double *k;  /* RK register (2N: k; 3S*: S2) */
  double *s3; /* 3S* only: S3, the state at the start of the step (NULL for 2N) */
  /* FV_Mode = blending (air): [elem] the blending factors the time step reads, so that both
   * backends read the same ones: the indicator of the initial state (timedisc_init_dt_alpha, as
   * FLEXI evaluates it before its first step), then those of the last stage of the previous step
   * (an analysis in between does not change them). NULL otherwise. */
  double *alpha_dt;
} TimeDisc;

int timedisc_define_params(Params *p);
int timedisc_init(const Params *p, const Solver *s, TimeDisc *td);
void timedisc_free(TimeDisc *td);

/* dt = CFLscale * alpha(N) / (2N+1) * 2 / max over elements of sum_d (max over the element's nodes
 * of sJ (|v . Ja^d| + c |Ja^d|)), and the viscous counterpart (FLEXI's CALCTIMESTEP); the sum runs
 * over xi, eta (and zeta unless Dimension = 2). An FV element takes FLEXI's FV time step,
 * CFLscale * alpha_Gauss(1) * min(FV_w) / 2 * 2 (FV_w: the subcell widths): with switching on
 * Gauss nodes over the subcells' spectral radii, with blending (td->alpha_dt > FV_alpha_min) the
 * smaller of it and the DG limit over the element's. Returns a negative value (and reports) if
 * the state is not admissible (rho or p <= 0, NaN). */
double timedisc_calc_dt(const Solver *s, const TimeDisc *td);

/* td->alpha_dt of the state s->U at time t (the indicator, IndStartTime and the spreading
 * included; collective on MPI runs); nothing without blending. Call once the state is set. */
void timedisc_init_dt_alpha(Solver *s, TimeDisc *td, double t);

/* Factor on a blended element's spectral radius: max(1, DG factor / FV factor), so that
 * factor / (lambda * scale) = min(DG, FV factor) / lambda (fv_blend_dt_lambda of dg/fv.h). */
double timedisc_blend_scale(const Solver *s, const LowStorageRK *rk);
/* FV switching on Gauss nodes: the factor on an FV element's spectral radius (the DG CFL factor
 * over FLEXI's CFLScale(1) factor), so that dt = DG factor / (lambda * this) is FLEXI's dtElem. */
double timedisc_gauss_fv_scale(const Solver *s, const LowStorageRK *rk);

/* Convective time-step factor: dt = factor / lambda with FLEXI's convention
 * CFLscale * alpha(N) / (2N+1) * 2, alpha from the scheme's stability table for the node type. */
double timedisc_cfl_factor(const Solver *s, const LowStorageRK *rk, double cfl_scale);

/* Viscous time-step factor: dt_visc = factor / max over elements of sum_d max over nodes of
 * viscous_spectral_coeff (sJ |Ja^d|)^2, factor = DFLscale * alpha_DFL(N) / (2N+1)^2 * 4. */
double timedisc_viscous_factor(const Solver *s, const LowStorageRK *rk, double dfl_scale);

/* One step of size dt from time t: U <- U + dt * RK(R); with blending td->alpha_dt becomes the
 * last stage's blending factors. */
void timedisc_rk_step(Solver *s, TimeDisc *td, double t, double dt);

#endif
