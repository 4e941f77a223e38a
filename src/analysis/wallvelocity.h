/* CalcWallVelocity (FLEXI's key): on every wall BC (types 3, 4, 9) the velocity magnitude at the
 * wall face points (area mean, min, max: FLEXI's columns) and the friction velocity
 * u_tau = sqrt(|tau_w| / rho) (mean, min, max) with the area mean of |tau_w|, tau_w the
 * tangential part of the viscous traction. Printed at every analysis and, with
 * WriteWallVelocity = T, appended to <ProjectName>_WallVel_<BCName>.csv. */
#ifndef HEXDG_WALLVELOCITY_H
#define HEXDG_WALLVELOCITY_H

#include <stdbool.h>

#include "dg/solver.h"

enum {
  WALLVEL_MEAN_VEL,
  WALLVEL_MIN_VEL,
  WALLVEL_MAX_VEL,
  WALLVEL_MEAN_UTAU,
  WALLVEL_MIN_UTAU,
  WALLVEL_MAX_UTAU,
  WALLVEL_MEAN_TAUW,
  WALLVEL_NCOLS
};

int wallvelocity_define_params(Params *p);
enum { WALLVEL_OFF = 0, WALLVEL_PRINT = 1, WALLVEL_WRITE = 2 };
/* CalcWallVelocity and WriteWallVelocity as WALLVEL_*: off, print only, print and write (an
 * error when CalcWallVelocity = T and the mesh has no wall). */
int wallvelocity_mode(const Params *p, const Solver *s, int *mode);
/* vals[bc][WALLVEL_NCOLS] over all ranks (zero for non-wall BCs). The solver's face states and
 * (Navier-Stokes) gradients must belong to the current U. Collective. */
int wallvelocity_compute(const Solver *s, double *vals);
/* Append one line per wall BC to the CSV files (fresh: new files with a header). */
int wallvelocity_write(const Solver *s, const char *project, double t, const double *vals,
                       bool fresh);
/* One line per wall BC on stdout. */
void wallvelocity_print(const Solver *s, const double *vals);

#endif
