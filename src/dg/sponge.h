/* Sponge zone and its base flow (FLEXI's SpongeBaseFlow, docs/sponge.md). The DG layer keeps the
 * per-node base flow of modes 2-4 over the sponge elements only; reading and writing its files is
 * the time layer's job (src/time/sponge_flow.c). */
#ifndef HEXDG_SPONGE_H
#define HEXDG_SPONGE_H

#include "dg/solver.h"

/* SpongeBaseFlow: FLEXI's codes (sponge.f90) */
enum {
  SPONGE_BASE_CONSTANT = 1,  /* RefState SpongeRefState: Solver.sponge_base, no per-node array */
  SPONGE_BASE_EXACTFUNC = 2, /* SpongeExactFunc at t = 0 */
  SPONGE_BASE_FILE = 3,      /* DG_Solution of SpongeRefFile */
  SPONGE_BASE_PRUETT = 4     /* temporally filtered solution, Pruett et al. 2003 */
};

void sponge_free(Solver *s);

/* Ut of element e (already times -sJ) -= sigma (u - U_base): u and ut the element's blocks. */
void sponge_apply(const Solver *s, int e, const double *u, double *ut);

/* Modes 3 and 4: the base flow of the sponge elements from a state U_full of every local element
 * (hexdg layout). */
void sponge_set_base(Solver *s, const double *U_full);

/* The base flow as a full state (hexdg layout): the base in the sponge elements, U_fill in the
 * others, so that the file is a valid state everywhere. */
void sponge_expand_base(const Solver *s, const double *U_fill, double *out);

/* Pruett's filter over one time step of length dt: Ub += min(dt / Delta, 1) (U - Ub), the
 * explicit update FLEXI applies after each step (Pruett et al. 2003, eq. (2.5) discretized). */
void sponge_pruett_update(Solver *s, const double *U, double dt);

#endif
