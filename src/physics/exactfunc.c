/* Parameters of the gas model and of the exact functions: FLEXI's keys and defaults
 * (flexi src/equations/navierstokes/equation.f90, idealgas/exactfunc.f90, idealgas/eos.f90). */
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "core/params.h"
#include "physics/eos.h"
#include "physics/exactfunc.h"

#define EXACTFUNC_LIST                                                                             \
  "1 (refstate), 2 (sine density wave), 4 (oblique sine wave manufactured solution), "             \
  "7 (Shu isentropic vortex), 10 (moving normal shock), 11 (Sod shock tube), "                     \
  "12 (Shu-Osher), 13 (double Mach reflection)"

typedef struct {
  const char *section, *name;
  ParamType type;
  int array_len;
  const char *default_text; /* NULL: mandatory, "": optional without default */
  bool multiple;
  const char *help;
} ParamSpec;

static const ParamSpec exactfunc_param_specs[] = {
    {"Exactfunc", "IniExactFunc", PARAM_INT, 0, NULL, false,
     "Exact function for the initial solution: " EXACTFUNC_LIST "."},
    {"Equation", "IniRefState", PARAM_INT, 0, "1", false,
     "RefState (1-based) used by the initial solution (IniExactFunc 1 and 7)."},
    {"Equation", "RefState", PARAM_REAL_ARRAY, 5, "", true,
     "Reference state in primitive variables (rho, u, v, w, p); may be repeated. Sod (11) and "
     "double Mach reflection (13) use RefStates 1 and 2 (standard states if none is given)."},
    {"Exactfunc", "AdvVel", PARAM_REAL_ARRAY, 3, "(/0.,0.,0./)", false,
     "Advection velocity of IniExactFunc 2; AdvVel(1) sets the time frequency 2*pi*AdvVel(1) "
     "of IniExactFunc 4."},
    {"Exactfunc", "IniFrequency", PARAM_REAL, 0, "", false,
     "Frequency of the synthetic test cases (default 0.5 for IniExactFunc 2, 1.0 for 4)."},
    {"Exactfunc", "IniAmplitude", PARAM_REAL, 0, "", false,
     "Amplitude (default 0.3 for IniExactFunc 2, 0.1 for 4, 0.2 for the vortex 7)."},
    {"Exactfunc", "IniCenter", PARAM_REAL_ARRAY, 3, "(/0.,0.,0./)", false,
     "Shu vortex (7): center at t = 0."},
    {"Exactfunc", "IniAxis", PARAM_REAL_ARRAY, 3, "(/0.,0.,1./)", false,
     "Shu vortex (7): rotation axis."},
    {"Exactfunc", "IniHalfwidth", PARAM_REAL, 0, "0.2", false, "Shu vortex (7): half width."},
    {"Exactfunc", "MachShock", PARAM_REAL, 0, "1.5", false,
     "Moving shock (10): shock Mach number."},
    {"Exactfunc", "PreShockDens", PARAM_REAL, 0, "1.0", false,
     "Moving shock (10): density ahead of the shock (pressure = density/kappa)."},
    {"EquationOfState", "kappa", PARAM_REAL, 0, "1.4", false, "Ratio of specific heats."},
    {"EquationOfState", "R", PARAM_REAL, 0, "287.058", false, "Specific gas constant."},
};

int exactfunc_define_params(Params *params) {
  const int n_specs = (int)(sizeof exactfunc_param_specs / sizeof exactfunc_param_specs[0]);
  for (int i = 0; i < n_specs; i++) {
    const ParamSpec *s = &exactfunc_param_specs[i];
    HX_CHECK(params_define(params, s->section, s->name, s->type, s->array_len, s->default_text,
                           s->multiple, s->help));
  }
  return HX_OK;
}

static int read_gas(const Params *params, PhysParams *pp) {
  double kappa, R;
  HX_CHECK(params_get_real(params, "kappa", &kappa));
  HX_CHECK(params_get_real(params, "R", &R));
  if (!(kappa > 1.0))
    return HX_ERROR(HX_ERR_INPUT, "kappa = %g must be > 1 (ratio of specific heats)", kappa);
  if (!(R > 0.0)) return HX_ERROR(HX_ERR_INPUT, "R = %g must be > 0 (specific gas constant)", R);
  physparams_set(pp, kappa, R);
  return HX_OK;
}

static int check_supported(int which) {
  switch (which) {
  case EXACT_REFSTATE:
  case EXACT_SINE_DENSITY:
  case EXACT_SINE_MMS:
  case EXACT_SHU_VORTEX:
  case EXACT_SHOCK:
  case EXACT_SOD:
  case EXACT_SHU_OSHER:
  case EXACT_DMR:
    return HX_OK;
  default:
    return HX_ERROR(HX_ERR_INPUT,
                    "IniExactFunc = %d is not supported; supported are " EXACTFUNC_LIST, which);
  }
}

static int read_ref_states(const Params *params, const PhysParams *pp, ExactFuncParams *ef) {
  const int n = params_count(params, "RefState");
  if (n > HX_MAX_REFSTATES)
    return HX_ERROR(HX_ERR_INPUT, "%d RefState entries given, at most %d are supported", n,
                    HX_MAX_REFSTATES);
  for (int i = 0; i < n; i++) {
    double *prim = ef->ref_prim[i];
    HX_CHECK(params_get_real_array_at(params, "RefState", i, 5, prim));
    if (!(prim[PDENS] > 0.0) || !(prim[PRES] > 0.0))
      return HX_ERROR(HX_ERR_INPUT,
                      "RefState #%d = (/%g, %g, %g, %g, %g/) (rho, u, v, w, p): density and "
                      "pressure must be > 0",
                      i + 1, prim[0], prim[1], prim[2], prim[3], prim[4]);
    prim_set_temperature(pp, prim);
  }
  ef->n_ref_states = n;
  if (ef->which == EXACT_SOD || ef->which == EXACT_DMR) {
    if (n == 0) {
      exact_default_ref_states(ef, pp);
    } else if (n == 1) {
      return HX_ERROR(HX_ERR_INPUT,
                      "IniExactFunc = %d takes its two states from RefState 1 and 2, but only one "
                      "RefState is given; give both or none (standard states)",
                      ef->which);
    }
  }
  return HX_OK;
}

static int read_ini_ref_state(const Params *params, ExactFuncParams *ef) {
  int ini_ref_state;
  HX_CHECK(params_get_int(params, "IniRefState", &ini_ref_state));
  const bool needed = ef->which == EXACT_REFSTATE || ef->which == EXACT_SHU_VORTEX;
  const bool in_range = ini_ref_state >= 1 && ini_ref_state <= ef->n_ref_states;
  if (!in_range && (needed || ef->n_ref_states > 0))
    return HX_ERROR(HX_ERR_INPUT,
                    "IniRefState = %d but %d RefState entries are given (IniExactFunc = %d); "
                    "IniRefState counts the RefState lines from 1",
                    ini_ref_state, ef->n_ref_states, ef->which);
  ef->ref_state = in_range ? ini_ref_state - 1 : 0;
  return HX_OK;
}

/* IniFrequency / IniAmplitude have case-dependent defaults in FLEXI. */
static int read_optional_real(const Params *params, const char *name, double fallback,
                              double *out) {
  if (!params_is_set(params, name)) {
    *out = fallback;
    return HX_OK;
  }
  return params_get_real(params, name, out);
}

static int read_wave_params(const Params *params, ExactFuncParams *ef) {
  const bool sine_density = ef->which == EXACT_SINE_DENSITY;
  double amplitude_default = 0.1;
  if (sine_density) amplitude_default = 0.3;
  if (ef->which == EXACT_SHU_VORTEX) amplitude_default = 0.2;
  HX_CHECK(params_get_real_array(params, "AdvVel", 3, ef->adv_vel));
  HX_CHECK(read_optional_real(params, "IniFrequency", sine_density ? 0.5 : 1.0, &ef->frequency));
  HX_CHECK(read_optional_real(params, "IniAmplitude", amplitude_default, &ef->amplitude));
  if (ef->which == EXACT_SINE_MMS && !(fabs(ef->amplitude) < 2.0))
    return HX_ERROR(HX_ERR_INPUT,
                    "IniAmplitude = %g: the manufactured solution 4 has density 2 + A sin(..), "
                    "so |IniAmplitude| must be < 2",
                    ef->amplitude);
  if (sine_density && !(fabs(ef->amplitude) < 1.0))
    return HX_ERROR(HX_ERR_INPUT,
                    "IniAmplitude = %g: the density wave 2 is 1 + A sin(..), so |IniAmplitude| "
                    "must be < 1",
                    ef->amplitude);
  return HX_OK;
}

static int read_vortex_params(const Params *params, const PhysParams *pp, ExactFuncParams *ef) {
  HX_CHECK(params_get_real_array(params, "IniCenter", 3, ef->center));
  HX_CHECK(params_get_real_array(params, "IniAxis", 3, ef->axis));
  HX_CHECK(params_get_real(params, "IniHalfwidth", &ef->halfwidth));
  if (ef->which != EXACT_SHU_VORTEX) return HX_OK;
  const double axis_len =
      sqrt(ef->axis[0] * ef->axis[0] + ef->axis[1] * ef->axis[1] + ef->axis[2] * ef->axis[2]);
  if (!(axis_len > 0.0)) return HX_ERROR(HX_ERR_INPUT, "IniAxis of the Shu vortex (7) is zero");
  if (!(ef->halfwidth > 0.0))
    return HX_ERROR(HX_ERR_INPUT, "IniHalfwidth = %g of the Shu vortex (7) must be > 0",
                    ef->halfwidth);
  /* the temperature dip at the core must leave a positive temperature */
  const double *ref = ef->ref_prim[ef->ref_state];
  const double du_max = ef->amplitude / (2.0 * HX_PI) * exp(0.5);
  const double dT_min =
      -pp->kappa_m1 / (2.0 * pp->kappa * ref[PRES] / ref[PDENS]) * du_max * du_max;
  if (!(1.0 + dT_min > 0.0))
    return HX_ERROR(HX_ERR_INPUT,
                    "Shu vortex (7): IniAmplitude = %g is too strong for RefState #%d (the core "
                    "temperature would be negative); lower IniAmplitude or raise the pressure",
                    ef->amplitude, ef->ref_state + 1);
  return HX_OK;
}

static int read_shock_params(const Params *params, ExactFuncParams *ef) {
  HX_CHECK(params_get_real(params, "MachShock", &ef->mach_shock));
  HX_CHECK(params_get_real(params, "PreShockDens", &ef->pre_shock_dens));
  if (ef->which != EXACT_SHOCK) return HX_OK;
  if (!(ef->mach_shock >= 1.0))
    return HX_ERROR(HX_ERR_INPUT, "MachShock = %g must be >= 1 for the moving shock (10)",
                    ef->mach_shock);
  if (!(ef->pre_shock_dens > 0.0))
    return HX_ERROR(HX_ERR_INPUT, "PreShockDens = %g must be > 0", ef->pre_shock_dens);
  return HX_OK;
}

int exactfunc_init(const Params *params, PhysParams *pp, ExactFuncParams *ef) {
  memset(ef, 0, sizeof *ef);
  HX_CHECK(read_gas(params, pp));
  HX_CHECK(params_get_int(params, "IniExactFunc", &ef->which));
  HX_CHECK(check_supported(ef->which));
  HX_CHECK(read_ref_states(params, pp, ef));
  HX_CHECK(read_ini_ref_state(params, ef));
  HX_CHECK(read_wave_params(params, ef));
  HX_CHECK(read_vortex_params(params, pp, ef));
  HX_CHECK(read_shock_params(params, ef));
  return HX_OK;
}
