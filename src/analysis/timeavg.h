/* Time averages as in FLEXI (CalcTimeAverage, VarNameAvg, VarNameFluc): per node the
 * time integral of the chosen variables (Mean) and of their squares and products (MeanSquare),
 * by the trapezoidal rule over the time steps, written as <ProjectName>_TimeAvg_<time>.h5 in
 * FLEXI's layout with every state file and then reset, as FLEXI does. A window always ends at a
 * state file, so a restart from any state file continues with the same windows; AvgTime weights
 * merge the files (tools/timeavg_merge.py). docs/time_averages.md. */
#ifndef HEXDG_TIMEAVG_H
#define HEXDG_TIMEAVG_H

#include <stdbool.h>

#include "analysis/timeavg_pointwise.h"
#include "core/params.h"
#include "dg/solver.h"
#include "io/state.h"

typedef struct {
  bool on;
  TimeAvgMap map;
  int n_sums;                       /* map.n_avg + map.n_sq */
  const char *names[TAVG_MAX_SUMS]; /* Mean names, then MeanSquare names */
  double *sums;                     /* [elem][n_sums][node]: time integrals of the current window */
  double *last;                     /* [elem][n_sums][node]: the values of the newest state */
  size_t n_values;                  /* doubles in sums (and in last) */
  double avg_time;                  /* length of the current window (FLEXI's AvgTime) */
} TimeAvg;

int timeavg_define_params(Params *p);
/* Reads CalcTimeAverage, VarNameAvg, VarNameFluc; when on: zero sums, the window starts at the
 * current state s->U at time t (the values of it in last). Unknown names are errors naming the
 * key. DR_u, DR_S lift the state (s->grad, the face gradients and s->Ut are overwritten). */
int timeavg_init(const Params *p, const Solver *s, double t, TimeAvg *ta);
/* Fold in the state after a step of length dt, at time t (CPU backend). */
int timeavg_update(TimeAvg *ta, const Solver *s, double dt, double t);
/* Write <project>_TimeAvg_<t>.h5 (Mean = sums / avg_time) from the host sums, h: the state
 * file's header (project, time, mesh file, node type, N), then start a new
 * window (sums and avg_time zero; last kept: it is the state at t). Nothing when avg_time = 0.
 * Collective (every rank writes its elements). */
int timeavg_write(TimeAvg *ta, const Solver *s, const StateHeader *h);
/* Start a new window without writing (the GPU backend zeroes its own copy). */
void timeavg_reset(TimeAvg *ta);
void timeavg_free(TimeAvg *ta);

#endif
