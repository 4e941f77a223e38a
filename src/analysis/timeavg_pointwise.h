/* Pointwise quantities of the time averages (CalcTimeAverage), FLEXI's list in its order
 * (flexi src/equations/navierstokes/timeavg.f90, InitCalcTimeAverage). Pure math shared by the
 * CPU accumulation (analysis/timeavg.c) and the GPU kernel (gpu/timeavg_kernels.cu), so both
 * backends sum the same numbers. docs/time_averages.md lists the variables. */
#ifndef HEXDG_TIMEAVG_POINTWISE_H
#define HEXDG_TIMEAVG_POINTWISE_H

#include <math.h>

#include "physics/eddyvisc.h"
#include "physics/eos.h"
#include "physics/physics.h"

/* Values of one node: FLEXI's 15 averageable variables, then |u|^2 (TKE), 1 (the second factor
 * of TKE's, DR_u's and DR_S's products) and the dissipation measures DR_u, DR_S of the lifted
 * velocity gradient, so that every MeanSquare entry is vals[a] * vals[b]. */
enum {
  TAVG_DENSITY = 0,
  TAVG_MOMENTUM_X,
  TAVG_MOMENTUM_Y,
  TAVG_MOMENTUM_Z,
  TAVG_ENERGY,
  TAVG_VELOCITY_X,
  TAVG_VELOCITY_Y,
  TAVG_VELOCITY_Z,
  TAVG_VELOCITY_MAGNITUDE,
  TAVG_PRESSURE,
  TAVG_VELOCITY_SOUND,
  TAVG_MACH,
  TAVG_TEMPERATURE,
  TAVG_TOTAL_TEMPERATURE,
  TAVG_TOTAL_PRESSURE,
  TAVG_VELOCITY_SQUARED, /* TKE's |u|^2 (FLEXI accumulates it without a mean) */
  TAVG_ONE,
  TAVG_DR_U, /* S_ij S_ij (needs the lifted gradients) */
  TAVG_DR_S, /* du_i/dx_j du_i/dx_j */
  TAVG_NVALS
};
#define TAVG_NAVG 15 /* the variables VarNameAvg may name */

/* Most Mean plus MeanSquare entries one run can ask for (15 + 21). */
#define TAVG_MAX_SUMS 36

/* Which values a run averages: Mean entry m is vals[avg[m]], MeanSquare entry f is
 * vals[sq_a[f]] * vals[sq_b[f]]; prim: some value needs the primitive state; grad: some value
 * needs the lifted velocity gradient of the state (DR_u, DR_S). */
typedef struct {
  int n_avg, n_sq, prim, grad;
  int avg[TAVG_NAVG];
  int sq_a[TAVG_MAX_SUMS - TAVG_NAVG], sq_b[TAVG_MAX_SUMS - TAVG_NAVG];
} TimeAvgMap;

/* Every value of a node from its conservative state u, primitive state pr (rho, u, v, w, p, T)
 * and speed of sound c; kappa: ratio of specific heats (air; a mixture leaves the total
 * quantities unset, init refuses them). Total quantities are the isentropic stagnation values
 * (Anderson, Modern Compressible Flow, eqs. (3.28), (3.30)). */
HD static inline void timeavg_node_values(double kappa, const double *u, const double *pr, double c,
                                          double *vals) {
  const double vel2 = pr[VEL1] * pr[VEL1] + pr[VEL2] * pr[VEL2] + pr[VEL3] * pr[VEL3];
  for (int v = 0; v < HX_NVAR; v++)
    vals[TAVG_DENSITY + v] = u[v];
  vals[TAVG_VELOCITY_X] = pr[VEL1];
  vals[TAVG_VELOCITY_Y] = pr[VEL2];
  vals[TAVG_VELOCITY_Z] = pr[VEL3];
  vals[TAVG_VELOCITY_MAGNITUDE] = sqrt(vel2);
  vals[TAVG_PRESSURE] = pr[PRES];
  vals[TAVG_VELOCITY_SOUND] = c;
  vals[TAVG_MACH] = sqrt(vel2) / c;
  const double stag = 1.0 + 0.5 * (kappa - 1.0) * vel2 / (c * c); /* 1 + (kappa-1)/2 M^2 */
  vals[TAVG_TEMPERATURE] = pr[TEMP];
  vals[TAVG_TOTAL_TEMPERATURE] = pr[TEMP] * stag;
  vals[TAVG_TOTAL_PRESSURE] = pr[PRES] * pow(stag, kappa / (kappa - 1.0));
  vals[TAVG_VELOCITY_SQUARED] = vel2;
  vals[TAVG_ONE] = 1.0;
}

/* Conservative values only (no primitive state needed): the others are left as they are. */
HD static inline void timeavg_node_cons(const double *u, double *vals) {
  for (int v = 0; v < HX_NVAR; v++)
    vals[TAVG_DENSITY + v] = u[v];
  vals[TAVG_ONE] = 1.0;
}

/* FLEXI's dissipation measures (timeavg.f90, CalcTimeAverage) from the lifted gradients gx, gy,
 * gz [HX_NLIFT] of the node: DR_u = S_ij S_ij with S = (g + g^T)/2 and DR_S = g_ij g_ij,
 * g_ij = du_i/dx_j (2 nu S_ij S_ij: the viscous dissipation rate of incompressible flow). */
HD static inline void timeavg_node_dissipation(const double *gx, const double *gy, const double *gz,
                                               double *vals) {
  double g[3][3], dr_u = 0.0, dr_s = 0.0;
  sgs_velocity_gradient(gx, gy, gz, g);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      const double s = 0.5 * (g[i][j] + g[j][i]);
      dr_u += s * s;
      dr_s += g[i][j] * g[i][j];
    }
  vals[TAVG_DR_U] = dr_u;
  vals[TAVG_DR_S] = dr_s;
}

/* sums += w (last + now) for every entry (the trapezoidal rule over one step of length 2 w,
 * FLEXI's CalcTimeAverage); last = now afterwards. now: this node's values of the new state. */
HD static inline void timeavg_node_accumulate(const TimeAvgMap *m, const double *vals, double w,
                                              double *sums, double *last, long stride) {
  for (int a = 0; a < m->n_avg; a++) {
    const double now = vals[m->avg[a]];
    sums[a * stride] += w * (last[a * stride] + now);
    last[a * stride] = now;
  }
  for (int f = 0; f < m->n_sq; f++) {
    const long o = (long)(m->n_avg + f) * stride;
    const double now = vals[m->sq_a[f]] * vals[m->sq_b[f]];
    sums[o] += w * (last[o] + now);
    last[o] = now;
  }
}

/* last = now for every entry (the first sample of a window). */
HD static inline void timeavg_node_sample(const TimeAvgMap *m, const double *vals, double *last,
                                          long stride) {
  for (int a = 0; a < m->n_avg; a++)
    last[a * stride] = vals[m->avg[a]];
  for (int f = 0; f < m->n_sq; f++)
    last[(long)(m->n_avg + f) * stride] = vals[m->sq_a[f]] * vals[m->sq_b[f]];
}

#endif
