#include "chem/chemparams.h"

#include <string.h>

#include "core/error.h"

int chem_define_params(Params *p) {
  HX_CHECK(params_define(p, "Chemistry", "Mechanism", PARAM_STRING, 0, "", false,
                         "Cantera YAML mechanism file. Reactor commands: relative to the "
                         "parameter file; flow runs: relative to the working directory, like "
                         "MeshFile. A flow run with a mechanism solves for rho, rho u, rho E and "
                         "rho Y_k of every species (nVar = 5 + species); empty: air."));
  HX_CHECK(params_define(p, "Chemistry", "ChemRtol", PARAM_REAL, 0, "1e-8", false,
                         "relative tolerance of the stiff integrator"));
  HX_CHECK(params_define(p, "Chemistry", "ChemAtol", PARAM_REAL, 0, "1e-12", false,
                         "absolute tolerance of the stiff integrator (on T and the Y_k)"));
  HX_CHECK(params_define(p, "Chemistry", "ChemMaxSteps", PARAM_INT, 0, "200000", false,
                         "step cap per cell and integration: a cell that needs more fails with "
                         "a report (cell, state, time)"));
  return HX_OK;
}

int chem_integrator_options(const Params *p, ChemIntegratorOptions *o) {
  memset(o, 0, sizeof *o);
  HX_CHECK(params_get_real(p, "ChemRtol", &o->rtol));
  HX_CHECK(params_get_real(p, "ChemAtol", &o->atol));
  HX_CHECK(params_get_int(p, "ChemMaxSteps", &o->max_steps));
  if (!(o->rtol > 0 && o->rtol < 1) || !(o->atol > 0) || o->max_steps < 1)
    return HX_ERROR(HX_ERR_INPUT,
                    "ChemRtol must be in (0,1), ChemAtol > 0, ChemMaxSteps >= 1 "
                    "(given %g, %g, %d)",
                    o->rtol, o->atol, o->max_steps);
  return HX_OK;
}
