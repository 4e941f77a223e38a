/* Shock indicators and the element-wise FV decision: the a-priori blending factor of Hennemann,
 * Rueda-Ramirez, Hindenlang & Gassner 2021 (JCP 426, Sec. 4: the modal energy of rho p (IndVar),
 * a sigmoid to alpha in [FV_alpha_min, FV_alpha_max], optionally spread to the face neighbours,
 * also across MPI ranks) and FLEXI's indicators (persson, jameson, ducros, ducrostimesjst,
 * halfhalf, checkerboard; physics/indicators.h) with FLEXI's FV switching (FV_Mode = switching:
 * whole elements switch between DG and FV by IndValue with hysteresis). Parameters: section
 * "Shock capturing" (fv.c registers and reads them). */
#ifndef HEXDG_INDICATOR_H
#define HEXDG_INDICATOR_H

#include "dg/solver.h"

/* IndicatorType with FLEXI's integer codes (indicator.f90) and hexdg's own above 100:
 * none/dg (pure DG), fv (FV everywhere), persson, halfhalf, jameson, ducros, ducrostimesjst,
 * checkerboard; hennemann (modal energy -> sigmoid), fixed (alpha = FV_alpha_fix). */
enum {
  FV_INDICATOR_NONE = 0,
  FV_INDICATOR_FV = 1,
  FV_INDICATOR_PERSSON = 2,
  FV_INDICATOR_HALFHALF = 3,
  FV_INDICATOR_JAMESON = 8,
  FV_INDICATOR_DUCROS = 9,
  FV_INDICATOR_DUCROS_JST = 10,
  FV_INDICATOR_CHECKERBOARD = 33,
  FV_INDICATOR_HENNEMANN = 100,
  FV_INDICATOR_FIXED = 101
};

/* FV_Mode: off (indicator keys accepted, pure DG: FLEXI built without FV), blending (alpha in
 * [0, 1] per element), switching (alpha 0 or 1 per element, the state converted on a switch). */
enum { FV_MODE_OFF = 0, FV_MODE_BLENDING = 1, FV_MODE_SWITCHING = 2 };

/* Modal energy E of the indicator quantity of one element (Ue: [var][node]). */
double fv_element_energy(const Solver *s, int e, const double *Ue);

/* s->fv.ind_value[e] for every element from U at time t (IndStartTime: before it every element
 * reads FLEXI's huge value). Collective on MPI runs (jameson exchanges face values). */
void fv_compute_ind_value(Solver *s, const double *U, double t);

/* s->fv.alpha[e] for every element from U at time t: blending from the indicator, switching the
 * current FV elements (1) and DG elements (0). Collective on MPI runs when the extension is on. */
void fv_compute_alpha_at(Solver *s, const double *U, double t);
/* The same after IndStartTime (output of the current state). */
void fv_compute_alpha(Solver *s, const double *U);

/* FV switching (FV_Mode = switching), before a Runge-Kutta stage at time t: IndValue of U, then
 * elements above FV_IndUpperThreshold become FV and (allow_to_dg) FV elements below
 * FV_IndLowerThreshold become DG (FV_toDG_indicator: only where the DG state is smooth by
 * Persson's indicator); U and the stage register k (NULL: none) of a switched element are
 * converted (conservatively: sum w J U of the element is kept). Returns the number of switches. */
long fv_switch(Solver *s, double *U, double *k, double t, int allow_to_dg);
/* Switching at the initial state (t): fv_switch, then, with FV_IniSupersample, the FV elements'
 * subcell means from the exact function (FLEXI's FV_FillIni). Returns the elements switched. */
long fv_switch_initial(Solver *s, double t);

/* Smallest and largest alpha and the number of elements with alpha > 0, over all ranks. */
void fv_alpha_range(const Solver *s, double *alpha_min, double *alpha_max, long *n_active);

#endif
