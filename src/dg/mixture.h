/* Reacting flow set-up of the solver (Mechanism = file.yaml): the mechanism, nVar = 5 + species,
 * the RefStates with their compositions (RefStateY / RefStateX), the mixture's initial and
 * exact functions and boundary states. The pointwise gas model is physics/mixture.h. */
#ifndef HEXDG_DG_MIXTURE_H
#define HEXDG_DG_MIXTURE_H

#include "dg/solver.h"

/* The chemistry keys (chem/chemparams.h), RefStateY, RefStateX, SpeciesLewis, SpeciesSchmidt. */
int mixture_define_params(Params *p);

/* Read Mechanism; with one, load it and set s->mech, s->n_species, s->n_var, the conservative
 * RefStates and the checks of what the mixture supports (Riemann solver, split form, boundary
 * conditions, exact function); with mu0 > 0 also the species diffusivities (s->mix_transport)
 * and s->n_lift. Without one: nothing (air). Call after the mesh and the discretization are set
 * up, before the state is allocated. */
int mixture_init(const Params *p, Solver *s);
void mixture_free(Solver *s);

/* The mixture's exact function (IniExactFunc 1, 16, 17) at x, t: U with 5 + ns entries. */
void mixture_exact(const Solver *s, const double x[3], double t, double *U);

/* The Newton guess of the temperature at face point f of side: the last temperature of the
 * volume node there, of the master element or of the slave where the master is on another rank;
 * both sides' states start from it. */
double mixture_face_T_guess(const Solver *s, int side, int f);

/* Outer state of a boundary face point of boundary `bc` (its type and state from bc_info:
 * mix_bc_outer_state) from the inner state uL and the outward unit normal n; T_guess starts the
 * Newton iteration for the inner temperature. */
void mixture_bc_outer_state(const Solver *s, int bc, double T_guess, const double *uL,
                            const double n[3], const double x[3], double t, double *uR);

#endif
