/* A-priori shock indicator and FV blending factor (Hennemann, Rueda-Ramirez, Hindenlang & Gassner
 * 2021, JCP 426, Sec. 4): per element the modal energy of rho p (IndVar), mapped to alpha in
 * [FV_alpha_min, FV_alpha_max] by a sigmoid, optionally spread to the face neighbours
 * (FV_doExtendAlpha), also across MPI ranks. Parameters: section "Shock capturing" (fv.c
 * registers and reads them). */
#ifndef HEXDG_INDICATOR_H
#define HEXDG_INDICATOR_H

#include "dg/solver.h"

/* IndicatorType: none (pure DG), hennemann (modal energy), fixed (alpha = FV_alpha_fix in every
 * element: tests and pure FV runs). */
enum { FV_INDICATOR_NONE = 0, FV_INDICATOR_HENNEMANN = 1, FV_INDICATOR_FIXED = 2 };

/* Modal energy E of the indicator quantity of one element (Ue: [var][node]). */
double fv_element_energy(const Solver *s, int e, const double *Ue);

/* s->fv.alpha[e] for every element from U (collective on MPI runs when the extension is on). */
void fv_compute_alpha(Solver *s, const double *U);

/* Smallest and largest alpha and the number of elements with alpha > 0, over all ranks. */
void fv_alpha_range(const Solver *s, double *alpha_min, double *alpha_max, long *n_active);

#endif
