/* Explicit low-storage Runge-Kutta time integration and the convective time step. */
#ifndef HEXDG_TIMEDISC_H
#define HEXDG_TIMEDISC_H

#include "dg/solver.h"
#include "time/rk_tables.h"

typedef struct {
  const LowStorageRK *rk;
  double tend, cfl_scale, analyze_dt;
  int n_write_data;
  long max_iter;
  double *k; /* RK register */
} TimeDisc;

int timedisc_define_params(Params *p);
int timedisc_init(const Params *p, const Solver *s, TimeDisc *td);
void timedisc_free(TimeDisc *td);

/* dt = CFLscale * alpha(N) / (2N+1) * 2 / max over nodes of sum_d sJ (|v . Ja^d| + c |Ja^d|). Returns a
 * negative value (and reports) if the state is not admissible (rho or p <= 0, NaN). */
double timedisc_calc_dt(const Solver *s, const TimeDisc *td);

/* One step of size dt from time t: U <- U + dt * RK(R). */
void timedisc_rk_step(Solver *s, TimeDisc *td, double t, double dt);

#endif
