/* Forces on wall boundaries (BC types 3, 4, 9): pressure force int p n dA and viscous force
 * -int tau n dA (n: outward normal of the flow domain, i.e. into the wall), written at every
 * analysis to <ProjectName>_BodyForces_<BCName>.csv when CalcBodyForces = T. */
#ifndef HEXDG_BODYFORCES_H
#define HEXDG_BODYFORCES_H

#include <stdbool.h>

#include "dg/solver.h"

int bodyforces_define_params(Params *p);
/* Whether CalcBodyForces is set (and the mesh has walls). */
int bodyforces_enabled(const Params *p, const Solver *s, bool *enabled);
/* forces[bc][6]: pressure force (3), viscous force (3) per boundary condition (zero for
 * non-wall BCs). The solver's face states and gradients must belong to the current U. */
void bodyforces_compute(const Solver *s, double *forces);
/* Primitive state and unit normal (out of the flow domain) at face point fp of boundary side
 * `side`, from the face states of the current U. */
void wall_point_state(const Solver *s, int side, int fp, double *prim, double *n);
/* Viscous stress tensor tau[3][3] there, from the lifted gradients of the current U. */
void wall_point_stress(const Solver *s, int side, int fp, const double *prim, double *tau);
/* Append the row rows[b][0..ncols) of every BC b whose type want() accepts to
 * <project>_<kind>_<BC>.csv after the time (fresh: a new file with the header line). */
int bc_csv_write(const Solver *s, const char *project, const char *kind, const char *header,
                 double t, const double *rows, int ncols, bool fresh, bool (*want)(int type));
/* Append the row rows[b][0..ncols) of every wall BC b to <project>_<kind>_<BC>.csv after the time
 * (fresh: a new file with the header line). */
int wall_csv_write(const Solver *s, const char *project, const char *kind, const char *header,
                   double t, const double *rows, int ncols, bool fresh);
int bodyforces_write(const Solver *s, const char *project, double t, const double *forces,
                     bool fresh);

#endif
