/* Mean flux through the boundaries (FLEXI's CalcMeanFlux): at every analysis the integral of the
 * numerical flux over each boundary condition, per conservative variable, with the outward normal
 * of the flow domain (mass flux > 0: mass leaves). Written to <ProjectName>_MeanFlux_<BC>.csv. */
#ifndef HEXDG_MEANFLUX_H
#define HEXDG_MEANFLUX_H

#include <stdbool.h>

#include "dg/solver.h"

int meanflux_define_params(Params *p);
/* MEANFLUX_OFF, _PRINT (CalcMeanFlux only) or _WRITE (and WriteMeanFlux). */
enum { MEANFLUX_OFF = 0, MEANFLUX_PRINT = 1, MEANFLUX_WRITE = 2 };
int meanflux_mode(const Params *p, const Solver *s, int *mode);
/* vals[bc][1 + n_var]: the area, then int F.n dA of every variable. The fluxes of the boundary
 * sides (Solver.flux) must belong to the current state. */
int meanflux_compute(const Solver *s, double *vals);
int meanflux_write(const Solver *s, const char *project, double t, const double *vals, bool fresh);
void meanflux_print(const Solver *s, const double *vals);

#endif
