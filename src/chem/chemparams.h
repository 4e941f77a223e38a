/* The chemistry keys shared by `hexdg reactor`/`equilibrate` and the reacting flow solver: the
 * mechanism file and the stiff integrator's tolerances, registered once. */
#ifndef HEXDG_CHEM_PARAMS_H
#define HEXDG_CHEM_PARAMS_H

#include "chem/radau5.h"
#include "core/params.h"

/* Mechanism, ChemRtol, ChemAtol, ChemMaxSteps (section "Chemistry"). */
int chem_define_params(Params *p);

/* The integrator options of ChemRtol, ChemAtol and ChemMaxSteps; out-of-range values are errors
 * naming the keys. */
int chem_integrator_options(const Params *p, ChemIntegratorOptions *o);

#endif
