/* Parameters of the gas model, the transport properties and the exact functions: FLEXI's keys and
 * defaults (flexi src/equations/navierstokes/equation.f90, idealgas/exactfunc.f90,
 * idealgas/eos.f90, src/testcase/taylorgreenvortex/testcase.f90). */
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "core/params.h"
#include "physics/eos.h"
#include "physics/exactfunc.h"
#include "physics/viscosity.h"

#define EXACTFUNC_LIST                                                                             \
  "0 (testcase: the Taylor-Green vortex of TestCase = taylorgreenvortex), "                        \
  "1 (refstate), 2 (sine density wave), 4 (oblique sine wave manufactured solution), "             \
  "7 (Shu isentropic vortex), 10 (moving normal shock), 11 (Sod shock tube), "                     \
  "12 (Shu-Osher), 13 (double Mach reflection), 15 (Sedov blast wave), "                           \
  "16 (two states: RefState 1 where (x - IniCenter) . IniAxis <= 0, RefState 2 beyond), "          \
  "17 (reacting flow: manufactured solution with a sine wave per species)"

typedef struct {
  const char *section, *name;
  ParamType type;
  int array_len;
  const char *default_text; /* NULL: mandatory, "": optional without default */
  bool multiple;
  const char *help;
} ParamSpec;

static const ParamSpec exactfunc_param_specs[] = {
    {"Equation", "IniRefState", PARAM_INT, 0, "1", false,
     "RefState (1-based) used by the initial solution (IniExactFunc 1 and 7)."},
    {"Equation", "RefState", PARAM_REAL_ARRAY, -1, "", true,
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
     "Shu vortex (7): center at t = 0; Sedov blast (15): point of the explosion; two states "
     "(16): a point of the interface."},
    {"Exactfunc", "IniAxis", PARAM_REAL_ARRAY, 3, "(/0.,0.,1./)", false,
     "Shu vortex (7): rotation axis; two states (16): normal of the interface (towards "
     "RefState 2)."},
    {"Exactfunc", "IniHalfwidth", PARAM_REAL, 0, "0.2", false, "Shu vortex (7): half width."},
    {"Exactfunc", "MachShock", PARAM_REAL, 0, "1.5", false,
     "Moving shock (10): shock Mach number."},
    {"Exactfunc", "PreShockDens", PARAM_REAL, 0, "1.0", false,
     "Moving shock (10): density ahead of the shock (pressure = density/kappa)."},
    {"Exactfunc", "SedovEnergy", PARAM_REAL, 0, "1.", false,
     "Sedov blast (15): energy E0 of the explosion (internal energy above the background)."},
    {"Exactfunc", "SedovRadius", PARAM_REAL, 0, "0.1", false,
     "Sedov blast (15): width sigma of the Gaussian energy deposit "
     "p - p0 = (kappa-1) E0 / ((2 pi)^1.5 sigma^3) exp(-r^2/(2 sigma^2)); resolve it with a few "
     "nodes (sigma >~ 1.5 element widths / (N+1))."},
    {"Exactfunc", "SedovDensity", PARAM_REAL, 0, "1.", false,
     "Sedov blast (15): density rho0 of the gas at rest."},
    {"Exactfunc", "SedovPressure", PARAM_REAL, 0, "1e-5", false,
     "Sedov blast (15): background pressure p0 (small: the self-similar solution has p0 = 0)."},
    {"Exactfunc", "IniNoiseAmplitude", PARAM_REAL, 0, "0.", false,
     "Initial state only (hexdg): rms of a random relative density perturbation at constant "
     "pressure, velocity and composition, rho (1 + A n(x)) with n a sum of IniNoiseModes random "
     "plane waves of unit variance (clipped to +-3); seeds instabilities, e.g. the cells of a "
     "detonation. 0: off; must be < 0.3."},
    {"Exactfunc", "IniNoiseWavelengths", PARAM_REAL_ARRAY, 2, "(/0.,0./)", false,
     "Shortest and longest wavelength of the IniNoiseAmplitude field (log-uniform between); "
     "resolve the shortest with a few nodes."},
    {"Exactfunc", "IniNoiseModes", PARAM_INT, 0, "256", false,
     "Number of random plane waves of the IniNoiseAmplitude field (1 .. 1024)."},
    {"Exactfunc", "IniNoiseSeed", PARAM_INT, 0, "1", false,
     "Seed of the IniNoiseAmplitude field: the same seed gives the same field on every rank "
     "count and backend."},
    {"Exactfunc", "IniNoiseDims", PARAM_INT, 0, "3", false,
     "3: wave vectors of the IniNoiseAmplitude field in every direction; 2: in the x-y plane "
     "(2-D runs with one element layer in z)."},
    {"EquationOfState", "kappa", PARAM_REAL, 0, "1.4", false, "Ratio of specific heats."},
    {"EquationOfState", "R", PARAM_REAL, 0, "287.058", false, "Specific gas constant."},
    {"EquationOfState", "mu0", PARAM_REAL, 0, "0.", false,
     "Dynamic viscosity (at Tref for ViscosityLaw = sutherland and powerlaw); 0: Euler "
     "equations."},
    {"EquationOfState", "Pr", PARAM_REAL, 0, "0.72", false,
     "Prandtl number; heat conductivity = mu cp / Pr."},
    {"EquationOfState", "Ts", PARAM_REAL, 0, "110.4", false,
     "Sutherland's law: Sutherland temperature (for the Taylor-Green vortex with neither Ts nor "
     "Tref given: 0.4042 times its temperature T0, as FLEXI)."},
    {"EquationOfState", "Tref", PARAM_REAL, 0, "273.15", false,
     "Sutherland's and power law: reference temperature at which mu = mu0 (for the Taylor-Green "
     "vortex with neither Ts nor Tref given: its temperature T0, as FLEXI)."},
    {"EquationOfState", "ExpoSuth", PARAM_REAL, 0, "1.5", false,
     "Sutherland's and power law: exponent of T/Tref."},
    {"Testcase", "MachNumber", PARAM_REAL, 0, "0.1", false,
     "Taylor-Green vortex: Mach number U0/c0 (rho0 = U0 = 1, p0 = 1/(kappa MachNumber^2))."},
    {"Testcase", "IniConstDens", PARAM_LOGICAL, 0, "T", false,
     "Taylor-Green vortex initial state (FLEXI's key and default): T constant density rho0, the "
     "temperature follows the pressure; F constant temperature T0 = p0/(rho0 R), rho = p/(R T0)."},
    {"Testcase", "TGVVersion", PARAM_INT, 0, "", false,
     "hexdg's older name of IniConstDens: 1 = IniConstDens T (constant density), 2 = F (constant "
     "temperature); when both are given they must agree."},
    {"Boundaries", "BackPressureRampTime", PARAM_REAL, 0, "0.", false,
     "hexdg: the pressure that the outflow BCs 24 and 25 prescribe (their RefState's) is reached "
     "by a linear ramp in time: BackPressureRampStart at t = 0, the RefState's pressure from "
     "t = BackPressureRampTime on (simulation time, so a restart continues the ramp). 0: no ramp. "
     "Starting a compressor cascade from a uniform state at its real back pressure sends a strong "
     "wave through it; a ramp over about one convective time lets the flow follow."},
    {"Boundaries", "BackPressureRampStart", PARAM_REAL, 0, "", false,
     "hexdg: the outflow pressure at t = 0 of the ramp of BackPressureRampTime (default: the "
     "pressure of the IniRefState)."},
    {"Testcase", "nAnalyzeTestCase", PARAM_INT, 0, "10", false,
     "Taylor-Green vortex: TGV integrals (<ProjectName>_TGVAnalysis.csv) every n-th time step, "
     "and at every analysis (FLEXI's key and default)."},
};

static const char *const VISCOSITY_LAW_NAMES[] = {"constant", "sutherland", "powerlaw"};
static const int VISCOSITY_LAW_IDS[] = {VISC_CONSTANT, VISC_SUTHERLAND, VISC_POWERLAW};
/* IniExactFunc: FLEXI's names and ids (idealgas/exactfunc.f90, addStrListEntry), hexdg's own
 * beyond them (shuosher 12, sedov 15, twostates 16, speciesmms 17); FLEXI's functions hexdg lacks
 * are listed so that check_supported names them. */
static const char *const EXACTFUNC_NAMES[] = {"testcase",
                                              "refstate",
                                              "sinedens",
                                              "sinedensx",
                                              "lindens",
                                              "sinevel",
                                              "sinevelx",
                                              "sinevely",
                                              "sinevelz",
                                              "roundjet",
                                              "cylinder",
                                              "shuvortex",
                                              "couette",
                                              "cavity",
                                              "shock",
                                              "sod",
                                              "shuosher",
                                              "dmr",
                                              "harmonicgausspulse",
                                              "sedov",
                                              "twostates",
                                              "speciesmms",
                                              "blast_shock",
                                              "turbulentchannel",
                                              "readfromfile",
                                              "blasius"};
static const int EXACTFUNC_IDS[] = {0, 1,  2,  21, 3,  4,  41, 42, 43, 5,   6,   7,   8,
                                    9, 10, 11, 12, 13, 14, 15, 16, 17, 111, 517, 301, 1338};

static const char *const TESTCASE_NAMES[] = {"default", "taylorgreenvortex"};
static const int TESTCASE_IDS[] = {TESTCASE_DEFAULT, TESTCASE_TGV};

int exactfunc_define_params(Params *params) {
  const int n_specs = (int)(sizeof exactfunc_param_specs / sizeof exactfunc_param_specs[0]);
  for (int i = 0; i < n_specs; i++) {
    const ParamSpec *s = &exactfunc_param_specs[i];
    HX_CHECK(params_define(params, s->section, s->name, s->type, s->array_len, s->default_text,
                           s->multiple, s->help));
  }
  HX_CHECK(params_define_choice(
      params, "Exactfunc", "IniExactFunc", "",
      (int)(sizeof EXACTFUNC_IDS / sizeof EXACTFUNC_IDS[0]), EXACTFUNC_NAMES, EXACTFUNC_IDS,
      "Exact function for the initial solution, by FLEXI's name or id. hexdg has: " EXACTFUNC_LIST
      ". Mandatory unless TestCase = taylorgreenvortex (then 0 by default)."));
  HX_CHECK(params_define_choice(
      params, "EquationOfState", "ViscosityLaw", "constant", 3, VISCOSITY_LAW_NAMES,
      VISCOSITY_LAW_IDS,
      "Viscosity law (FLEXI chooses it at compile time, PP_VISC): constant mu0; sutherland: "
      "mu0 (T/Tref)^ExpoSuth (Tref+Ts)/(T+Ts), linear below Ts; powerlaw: mu0 (T/Tref)^ExpoSuth."));
  HX_CHECK(params_define_choice(
      params, "Testcase", "TestCase", "default", 2, TESTCASE_NAMES, TESTCASE_IDS,
      "Test case (FLEXI chooses it at compile time, FLEXI_TESTCASE): taylorgreenvortex makes "
      "IniExactFunc 0 the Taylor-Green vortex (MachNumber, IniConstDens) and its default."));
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

static int read_transport(const Params *params, PhysParams *pp) {
  int law;
  double mu0, Pr, Ts, Tref, expo;
  HX_CHECK(params_get_choice(params, "ViscosityLaw", &law));
  HX_CHECK(params_get_real(params, "mu0", &mu0));
  HX_CHECK(params_get_real(params, "Pr", &Pr));
  HX_CHECK(params_get_real(params, "Ts", &Ts));
  HX_CHECK(params_get_real(params, "Tref", &Tref));
  HX_CHECK(params_get_real(params, "ExpoSuth", &expo));
  if (!(mu0 >= 0.0))
    return HX_ERROR(HX_ERR_INPUT, "mu0 = %g must be >= 0 (dynamic viscosity; 0: Euler)", mu0);
  if (!(Pr > 0.0)) return HX_ERROR(HX_ERR_INPUT, "Pr = %g must be > 0 (Prandtl number)", Pr);
  if (!(Ts > 0.0))
    return HX_ERROR(HX_ERR_INPUT, "Ts = %g must be > 0 (Sutherland temperature)", Ts);
  if (!(Tref > 0.0))
    return HX_ERROR(HX_ERR_INPUT, "Tref = %g must be > 0 (reference temperature)", Tref);
  if (!isfinite(expo)) return HX_ERROR(HX_ERR_INPUT, "ExpoSuth = %g must be finite", expo);
  physparams_set_transport(pp, law, mu0, Pr, Ts, Tref, expo);
  return HX_OK;
}

int exact_func_known(int which) {
  switch (which) {
  case EXACT_TESTCASE:
  case EXACT_REFSTATE:
  case EXACT_SINE_DENSITY:
  case EXACT_SINE_MMS:
  case EXACT_SHU_VORTEX:
  case EXACT_SHOCK:
  case EXACT_SOD:
  case EXACT_SHU_OSHER:
  case EXACT_DMR:
  case EXACT_SEDOV:
  case EXACT_TWO_STATE:
  case EXACT_SPECIES_MMS:
    return 1;
  default:
    return 0;
  }
}

static int check_supported(int which) {
  if (exact_func_known(which)) return HX_OK;
  return HX_ERROR(HX_ERR_INPUT,
                  "IniExactFunc = %d is one of FLEXI's exact functions that hexdg does not have; "
                  "hexdg has " EXACTFUNC_LIST,
                  which);
}

/* RefState has 5 entries (rho, u, v, w, p); FLEXI's RANS-SA build adds nuTilde as a sixth. */
static int check_ref_state_length(const Params *params, int idx) {
  const int n = params_array_len_at(params, "RefState", idx);
  if (n < 0) return HX_ERR_INTERNAL;
  if (n == 6)
    return HX_ERROR(HX_ERR_INPUT,
                    "RefState #%d has 6 entries: the sixth (nuTilde) belongs to FLEXI's "
                    "Spalart-Allmaras RANS equations (FLEXI_EQNSYSNAME=rans_sa), which hexdg does "
                    "not solve; hexdg solves the Navier-Stokes equations (LES: eddyViscType) with "
                    "RefState = (/rho, u, v, w, p/)",
                    idx + 1);
  if (n != 5)
    return HX_ERROR(HX_ERR_INPUT, "RefState #%d has %d entries; give (/rho, u, v, w, p/)", idx + 1,
                    n);
  return HX_OK;
}

static int read_ref_states(const Params *params, const PhysParams *pp, ExactFuncParams *ef) {
  const int n = params_count(params, "RefState");
  if (n > HX_MAX_REFSTATES)
    return HX_ERROR(HX_ERR_INPUT, "%d RefState entries given, at most %d are supported", n,
                    HX_MAX_REFSTATES);
  for (int i = 0; i < n; i++) {
    double *prim = ef->ref_prim[i];
    HX_CHECK(check_ref_state_length(params, i));
    HX_CHECK(params_get_real_array_at(params, "RefState", i, 5, prim));
    if (!(prim[PDENS] > 0.0) || !(prim[PRES] > 0.0))
      return HX_ERROR(HX_ERR_INPUT,
                      "RefState #%d = (/%g, %g, %g, %g, %g/) (rho, u, v, w, p): density and "
                      "pressure must be > 0",
                      i + 1, prim[0], prim[1], prim[2], prim[3], prim[4]);
    prim_set_temperature(pp, prim);
  }
  ef->n_ref_states = n;
  if (ef->which == EXACT_TWO_STATE && n < 2)
    return HX_ERROR(HX_ERR_INPUT,
                    "IniExactFunc = 16 takes RefState 1 where (x - IniCenter) . IniAxis <= 0 and "
                    "RefState 2 beyond, but %d RefState entries are given",
                    n);
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
  if (ef->which == EXACT_SINE_MMS && !(fabs(ef->amplitude) < 0.5))
    return HX_ERROR(HX_ERR_INPUT,
                    "IniAmplitude = %g: the manufactured solution 4 has g = 2 + A sin(..) and "
                    "pressure (kappa-1) g (g - 3/2), so |IniAmplitude| must be < 0.5",
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

static int read_sedov_params(const Params *params, ExactFuncParams *ef) {
  HX_CHECK(params_get_real(params, "SedovEnergy", &ef->sedov_energy));
  HX_CHECK(params_get_real(params, "SedovRadius", &ef->sedov_radius));
  HX_CHECK(params_get_real(params, "SedovDensity", &ef->sedov_density));
  HX_CHECK(params_get_real(params, "SedovPressure", &ef->sedov_pressure));
  if (ef->which != EXACT_SEDOV) return HX_OK;
  const struct {
    const char *name;
    double value;
  } positive[] = {{"SedovEnergy", ef->sedov_energy},
                  {"SedovRadius", ef->sedov_radius},
                  {"SedovDensity", ef->sedov_density},
                  {"SedovPressure", ef->sedov_pressure}};
  for (int i = 0; i < 4; i++)
    if (!(positive[i].value > 0.0))
      return HX_ERROR(HX_ERR_INPUT, "%s = %g of the Sedov blast (IniExactFunc = 15) must be > 0",
                      positive[i].name, positive[i].value);
  return HX_OK;
}

static int read_noise_params(const Params *params, ExactFuncParams *ef) {
  HX_CHECK(params_get_real(params, "IniNoiseAmplitude", &ef->noise_amplitude));
  HX_CHECK(params_get_real_array(params, "IniNoiseWavelengths", 2, ef->noise_wavelengths));
  HX_CHECK(params_get_int(params, "IniNoiseModes", &ef->noise_modes));
  HX_CHECK(params_get_int(params, "IniNoiseSeed", &ef->noise_seed));
  HX_CHECK(params_get_int(params, "IniNoiseDims", &ef->noise_dims));
  if (ef->noise_amplitude == 0.0) return HX_OK;
  const double *l = ef->noise_wavelengths;
  if (!(ef->noise_amplitude > 0.0 && ef->noise_amplitude < 0.3))
    return HX_ERROR(HX_ERR_INPUT,
                    "IniNoiseAmplitude = %g must lie in (0, 0.3): the density becomes "
                    "rho (1 + A n) with n clipped to +-3, which must stay positive",
                    ef->noise_amplitude);
  if (!(l[0] > 0.0 && l[1] >= l[0]))
    return HX_ERROR(HX_ERR_INPUT,
                    "IniNoiseWavelengths = (/%g,%g/) must be the shortest and the longest "
                    "wavelength of the noise, 0 < shortest <= longest (in mesh units)",
                    l[0], l[1]);
  if (ef->noise_modes < 1 || ef->noise_modes > 1024)
    return HX_ERROR(HX_ERR_INPUT, "IniNoiseModes = %d must lie in 1 .. 1024", ef->noise_modes);
  if (ef->noise_dims != 2 && ef->noise_dims != 3)
    return HX_ERROR(HX_ERR_INPUT, "IniNoiseDims = %d must be 2 (x-y plane) or 3", ef->noise_dims);
  return HX_OK;
}

/* IniExactFunc, defaulting to 0 (the TGV) for TestCase = taylorgreenvortex. */
static int read_which(const Params *params, ExactFuncParams *ef) {
  HX_CHECK(params_get_choice(params, "TestCase", &ef->test_case));
  if (params_is_set(params, "IniExactFunc")) {
    HX_CHECK(params_get_choice(params, "IniExactFunc", &ef->which));
  } else if (ef->test_case == TESTCASE_TGV) {
    ef->which = EXACT_TESTCASE;
  } else {
    return HX_ERROR(HX_ERR_INPUT, "IniExactFunc is not set; give one of " EXACTFUNC_LIST
                                  ", or TestCase = taylorgreenvortex");
  }
  HX_CHECK(check_supported(ef->which));
  if (ef->which == EXACT_TESTCASE && ef->test_case == TESTCASE_DEFAULT)
    return HX_ERROR(
        HX_ERR_INPUT,
        "IniExactFunc = 0 is the exact function of the test case, but TestCase = "
        "default has none; set TestCase = taylorgreenvortex for the Taylor-Green vortex");
  return HX_OK;
}

/* IniConstDens (FLEXI) or its hexdg alias TGVVersion: the TGV version, checked for agreement. */
static int read_tgv_version(const Params *params, ExactFuncParams *ef) {
  bool const_dens;
  HX_CHECK(params_get_logical(params, "IniConstDens", &const_dens));
  ef->tgv_version = const_dens ? TGV_CONSTANT_DENSITY : TGV_CONSTANT_TEMPERATURE;
  if (!params_is_set(params, "TGVVersion")) return HX_OK;
  int version;
  HX_CHECK(params_get_int(params, "TGVVersion", &version));
  if (version != TGV_CONSTANT_DENSITY && version != TGV_CONSTANT_TEMPERATURE)
    return HX_ERROR(HX_ERR_INPUT,
                    "TGVVersion = %d: use 1 (constant density) or 2 (constant temperature), or "
                    "FLEXI's IniConstDens = T/F",
                    version);
  if (params_is_set(params, "IniConstDens") && version != ef->tgv_version)
    return HX_ERROR(HX_ERR_INPUT,
                    "TGVVersion = %d and IniConstDens = %s disagree; give only IniConstDens "
                    "(T: constant density, F: constant temperature)",
                    version, const_dens ? "T" : "F");
  ef->tgv_version = version;
  return HX_OK;
}

/* MachNumber, IniConstDens/TGVVersion, nAnalyzeTestCase; with Sutherland's law and neither Ts nor
 * Tref given, FLEXI's TGV sets Tref = T0 and Ts = 0.4042 T0 (110.4 K / 273.15 K in units of the TGV
 * temperature). */
static int read_tgv_params(const Params *params, PhysParams *pp, ExactFuncParams *ef) {
  HX_CHECK(params_get_real(params, "MachNumber", &ef->tgv_mach));
  HX_CHECK(read_tgv_version(params, ef));
  HX_CHECK(params_get_int(params, "nAnalyzeTestCase", &ef->tgv_n_analyze));
  if (ef->test_case != TESTCASE_TGV) return HX_OK;
  if (ef->tgv_n_analyze < 1)
    return HX_ERROR(HX_ERR_INPUT,
                    "nAnalyzeTestCase = %d must be >= 1 (TGV integrals every n-th step)",
                    ef->tgv_n_analyze);
  if (!(ef->tgv_mach > 0.0))
    return HX_ERROR(HX_ERR_INPUT, "MachNumber = %g of the Taylor-Green vortex must be > 0",
                    ef->tgv_mach);
  if (pp->viscosity_law == VISC_SUTHERLAND && !params_is_set(params, "Ts") &&
      !params_is_set(params, "Tref")) {
    const double T0 = 1.0 / (pp->kappa * ef->tgv_mach * ef->tgv_mach * pp->R);
    pp->Tref = T0;
    pp->Ts = 0.4042 * T0;
  }
  return HX_OK;
}

/* BackPressureRampTime / BackPressureRampStart (bc_prescribed_pressure). */
static int read_pressure_ramp(const Params *params, ExactFuncParams *ef) {
  HX_CHECK(params_get_real(params, "BackPressureRampTime", &ef->p_ramp_time));
  if (!(ef->p_ramp_time >= 0.0))
    return HX_ERROR(HX_ERR_INPUT,
                    "BackPressureRampTime = %g: give the duration of the outflow pressure's ramp "
                    "in seconds of simulation time (>= 0; 0 = no ramp)",
                    ef->p_ramp_time);
  const double ini_p = ef->n_ref_states > 0 ? ef->ref_prim[ef->ref_state][PRES] : 0.0;
  HX_CHECK(read_optional_real(params, "BackPressureRampStart", ini_p, &ef->p_ramp_start));
  if (ef->p_ramp_time > 0.0 && !(ef->p_ramp_start > 0.0))
    return HX_ERROR(HX_ERR_INPUT,
                    "BackPressureRampTime = %g needs a start pressure > 0: set "
                    "BackPressureRampStart (now %g) or give the RefState of IniRefState",
                    ef->p_ramp_time, ef->p_ramp_start);
  return HX_OK;
}

int exactfunc_init(const Params *params, PhysParams *pp, ExactFuncParams *ef) {
  memset(ef, 0, sizeof *ef);
  HX_CHECK(read_gas(params, pp));
  HX_CHECK(read_transport(params, pp));
  HX_CHECK(read_which(params, ef));
  HX_CHECK(read_tgv_params(params, pp, ef));
  HX_CHECK(read_ref_states(params, pp, ef));
  HX_CHECK(read_ini_ref_state(params, ef));
  HX_CHECK(read_wave_params(params, ef));
  HX_CHECK(read_vortex_params(params, pp, ef));
  HX_CHECK(read_shock_params(params, ef));
  HX_CHECK(read_sedov_params(params, ef));
  HX_CHECK(read_noise_params(params, ef));
  HX_CHECK(read_pressure_ramp(params, ef));
  return HX_OK;
}
