/* FV subcell operator on the LGL subcells (subcell widths = LGL weights), its set-up and the
 * positivity stage limiter. Reference: Hennemann, Rueda-Ramirez, Hindenlang & Gassner 2021,
 * JCP 426, Sec. 3 (first order); second order: limited linear reconstruction of the primitive
 * variables on the subcells. */
#include "dg/fv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dg/fv_gauss.h"
#include "dg/indicator.h"
#include "physics/eos.h"
#include "physics/fvblend.h"
#include "physics/fvblend_mix.h"
#include "physics/indicators.h"
#include "physics/riemann.h"

static const char *const INDICATOR_NAMES[] = {
    "none",           "dg",           "fv",        "persson", "halfhalf", "jameson", "ducros",
    "DucrosTimesJST", "checkerboard", "hennemann", "fixed"};
static const int INDICATOR_IDS[] = {
    FV_INDICATOR_NONE,         FV_INDICATOR_NONE,      FV_INDICATOR_FV,     FV_INDICATOR_PERSSON,
    FV_INDICATOR_HALFHALF,     FV_INDICATOR_JAMESON,   FV_INDICATOR_DUCROS, FV_INDICATOR_DUCROS_JST,
    FV_INDICATOR_CHECKERBOARD, FV_INDICATOR_HENNEMANN, FV_INDICATOR_FIXED};
static const char *const MODE_NAMES[] = {"off", "blending", "switching"};
static const int MODE_IDS[] = {FV_MODE_OFF, FV_MODE_BLENDING, FV_MODE_SWITCHING};
/* FLEXI's IndVar codes 1..6 (indicator.f90), then hexdg's rho p and T */
static const char *const INDVAR_NAMES[] = {"Density",
                                           "MomentumX",
                                           "MomentumY",
                                           "MomentumZ",
                                           "EnergyStagnationDensity",
                                           "Pressure",
                                           "DensityTimesPressure",
                                           "Temperature"};
static const int INDVAR_IDS[] = {IND_VAR_DENSITY,          IND_VAR_MOMENTUM_X, IND_VAR_MOMENTUM_Y,
                                 IND_VAR_MOMENTUM_Z,       IND_VAR_ENERGY,     IND_VAR_PRESSURE,
                                 IND_VAR_DENSITY_PRESSURE, IND_VAR_TEMPERATURE};
/* FLEXI's names and codes (src/fv/fv_limiter.f90), then hexdg's own (fvblend.h) */
static const char *const LIMITER_NAMES[] = {"none",    "MinMod",     "Sweby",   "vanAlbada",
                                            "gMinMod", "OSPRE",      "Central", "FirstOrder",
                                            "vanLeer", "Superbee"};
static const int LIMITER_IDS[] = {FV_LIM_FIRST_ORDER, FV_LIM_MINMOD,   FV_LIM_SWEBY,
                                  FV_LIM_VANALBADA,   FV_LIM_GMINMOD,  FV_LIM_OSPRE,
                                  FV_LIM_CENTRAL,     FV_LIM_FIRST_ORDER, FV_LIM_VANLEER,
                                  FV_LIM_SUPERBEE};

int fv_define_params(Params *p) {
  const char *s = "Shock capturing";
  HX_CHECK(params_define_choice(
      p, s, "IndicatorType", "none", 11, INDICATOR_NAMES, INDICATOR_IDS,
      "Shock indicator of the FV subcells (blending needs NodeType = GAUSS-LOBATTO; switching "
      "also runs on GAUSS nodes with FLEXI's equidistant subcells, docs/fv.md), FLEXI's names and "
      "codes: none/dg (pure DG), fv (FV everywhere), persson (Persson & Peraire 2006, nModes, "
      "IndVar), jameson (Jameson et al. 1981, IndVar), ducros (Ducros et al. 1999), "
      "DucrosTimesJST, halfhalf (FV at x > 0), checkerboard (alternate elements); hexdg's "
      "hennemann (modal energy of IndVar -> blending factor, Hennemann et al. 2021) and fixed "
      "(alpha = FV_alpha_fix). With FV_Mode = blending persson means hennemann (as FLEXI's "
      "blending build); the others give FV_alpha_max where IndValue > FV_IndUpperThreshold."));
  HX_CHECK(params_define_choice(
      p, s, "FV_Mode", "blending", 3, MODE_NAMES, MODE_IDS,
      "How the indicator acts (FLEXI chooses it at build time: FLEXI_FV = OFF | BLEND | "
      "SWITCH): off (pure DG, the indicator keys are accepted), blending (element operator "
      "(1 - alpha) R_DG + alpha R_FV), switching (whole elements switch between DG and FV "
      "between FV_IndLowerThreshold and FV_IndUpperThreshold, the state converted "
      "conservatively on a switch)."));
  HX_CHECK(params_define_choice(p, s, "IndVar", "DensityTimesPressure", 8, INDVAR_NAMES, INDVAR_IDS,
                                "Indicator quantity, FLEXI's codes: 1..5 the conservative "
                                "variables, 6 the pressure; hexdg's rho p and T (Temperature: "
                                "hennemann with reacting flow). Not set: rho p for hennemann, "
                                "Density (FLEXI's default 1) for persson and jameson."));
  HX_CHECK(params_define(p, s, "IndStartTime", PARAM_REAL, 0, "0.", false,
                         "Before this time every element counts as troubled (FV everywhere: "
                         "smooths the initial state)."));
  HX_CHECK(params_define(p, s, "nModes", PARAM_INT, 0, "2", false,
                         "Number of highest modes checked by the persson indicator (1..N-1)."));
  HX_CHECK(params_define(p, s, "FV_IndUpperThreshold", PARAM_REAL, 0, "99.", false,
                         "Switching: an element becomes FV when IndValue rises above this "
                         "(blending with FLEXI's indicators: alpha = FV_alpha_max above it)."));
  HX_CHECK(params_define(p, s, "FV_IndLowerThreshold", PARAM_REAL, 0, "-99.", false,
                         "Switching: an FV element becomes DG when IndValue falls below this."));
  HX_CHECK(params_define(p, s, "FV_toDG_indicator", PARAM_LOGICAL, 0, "F", false,
                         "Switching: an FV element becomes DG only if Persson's indicator of its "
                         "DG state is at most FV_toDG_limit."));
  HX_CHECK(params_define(p, s, "FV_toDG_limit", PARAM_REAL, 0, "", false,
                         "Threshold of FV_toDG_indicator (log10 scale of Persson's indicator)."));
  HX_CHECK(params_define(p, s, "FV_toDGinRK", PARAM_LOGICAL, 0, "F", false,
                         "Switching: FV elements may become DG at every Runge-Kutta stage (else "
                         "only at the first stage of a step)."));
  HX_CHECK(params_define(p, s, "FV_SwitchConservative", PARAM_LOGICAL, 0, "T", false,
                         "Switching: convert J U (the reference element's values), so that the "
                         "element's integral of every conservative variable stays the same."));
  HX_CHECK(params_define(p, s, "FV_IniSupersample", PARAM_LOGICAL, 0, "T", false,
                         "Switching: the elements that are FV in the initial state (not at a "
                         "restart) take the subcell means of the exact function (Gauss points in "
                         "each subcell), not those of the DG interpolant, which oscillates where "
                         "the initial state jumps (FLEXI's FV_FillIni)."));
  HX_CHECK(params_define(p, s, "FVBoundaries", PARAM_LOGICAL, 0, "F", false,
                         "Elements with a side on a boundary of an FVBoundaryType are troubled "
                         "in any case (IndValue 1e5: FV; FV_alpha_max when blending)."));
  HX_CHECK(params_define(p, s, "FVBoundaryType", PARAM_INT, 0, "", true,
                         "BC type (FLEXI's codes) whose elements FVBoundaries makes FV; 0 or none "
                         "given: every boundary. May be repeated."));
  HX_CHECK(params_define(p, s, "FV_IniSharp", PARAM_LOGICAL, 0, "F", false,
                         "FLEXI: a sharp initial interface in the FV region. Not implemented: "
                         "only F is accepted."));
  HX_CHECK(params_define(p, s, "FV_alpha_min", PARAM_REAL, 0, "0.01", false,
                         "Blending factors below this are set to 0 (pure DG in the element)."));
  HX_CHECK(params_define(p, s, "FV_alpha_max", PARAM_REAL, 0, "0.5", false,
                         "Largest blending factor (1: pure FV possible)."));
  HX_CHECK(params_define(p, s, "FV_alpha_fix", PARAM_REAL, 0, "1.", false,
                         "Blending factor of every element for IndicatorType = fixed."));
  HX_CHECK(params_define(p, s, "FV_doExtendAlpha", PARAM_LOGICAL, 0, "F", false,
                         "Spread the blending factor to the face neighbours: alpha = max(alpha, "
                         "FV_alpha_ExtScale * alpha of the neighbour)."));
  HX_CHECK(params_define(p, s, "FV_nExtendAlpha", PARAM_INT, 0, "1", false,
                         "Number of spreading passes (each reaches one more layer of elements)."));
  HX_CHECK(params_define(p, s, "FV_alpha_ExtScale", PARAM_REAL, 0, "0.5", false,
                         "Factor on the neighbour's blending factor when spreading (0..1)."));
  HX_CHECK(params_define_choice(p, s, "FV_LimiterType", "MinMod", 10, LIMITER_NAMES, LIMITER_IDS,
                                "Subcell reconstruction: none = FirstOrder (constant), or second "
                                "order with a slope limiter: FLEXI's MinMod, Sweby (beta: "
                                "swebyb), vanAlbada, gMinMod, OSPRE, Central (unlimited), or "
                                "vanLeer, Superbee. FLEXI's codes: 0 none, 1 MinMod, 2 Sweby, 3 "
                                "vanAlbada, 4 gMinMod, 5 OSPRE, 9 Central."));
  HX_CHECK(params_define(p, s, "swebyb", PARAM_REAL, 0, "", false,
                         "Beta of FV_LimiterType = Sweby, 1 <= beta <= 2 (1: MinMod, 2: "
                         "Superbee); needed only for Sweby."));
  HX_CHECK(params_define(p, s, "FV_PositivityLimiter", PARAM_LOGICAL, 0, "T", false,
                         "With shock capturing on: after every Runge-Kutta stage, pull the nodes "
                         "of an element towards its mean where density or pressure would not be "
                         "positive (conservative; Zhang & Shu 2010)."));
  return HX_OK;
}

/* Sweby's beta: the family is TVD for 1 <= beta <= 2 (Sweby 1984). */
static int read_sweby_beta(const Params *p, double *beta) {
  if (!params_is_set(p, "swebyb"))
    return HX_ERROR(HX_ERR_INPUT, "FV_LimiterType = Sweby needs swebyb (Sweby's beta, 1..2)");
  HX_CHECK(params_get_real(p, "swebyb", beta));
  if (!(*beta >= 1.0 && *beta <= 2.0))
    return HX_ERROR(HX_ERR_INPUT, "swebyb = %g must lie in [1, 2] (Sweby's TVD range)", *beta);
  return HX_OK;
}

/* IndVar: FLEXI's code for its indicators (Density when not set, FLEXI's default), the FV_INDVAR_*
 * quantity of hennemann (rho p when not set). */
static int read_ind_var(const Params *p, const Solver *s, FVBlend *fv) {
  HX_CHECK(params_get_choice(p, "IndVar", &fv->ind_code));
  int is_set = params_is_set(p, "IndVar");
  if (fv->indicator == FV_INDICATOR_HENNEMANN) {
    int c = is_set ? fv->ind_code : IND_VAR_DENSITY_PRESSURE;
    fv->ind_var = c == IND_VAR_DENSITY            ? FV_INDVAR_DENSITY
                  : c == IND_VAR_PRESSURE         ? FV_INDVAR_PRESSURE
                  : c == IND_VAR_TEMPERATURE      ? FV_INDVAR_TEMPERATURE
                  : c == IND_VAR_DENSITY_PRESSURE ? FV_INDVAR_DENSITY_PRESSURE
                                                  : -1;
    if (fv->ind_var < 0)
      return HX_ERROR(HX_ERR_INPUT,
                      "IndVar = %s: IndicatorType = hennemann takes Density, "
                      "Pressure, DensityTimesPressure or Temperature",
                      params_choice_name(p, "IndVar", fv->ind_code));
    return HX_OK;
  }
  if (!is_set) fv->ind_code = IND_VAR_DENSITY;
  int uses_var = fv->indicator == FV_INDICATOR_PERSSON || fv->indicator == FV_INDICATOR_JAMESON ||
                 fv->indicator == FV_INDICATOR_DUCROS_JST || fv->to_dg_indicator;
  if (uses_var && fv->ind_code == IND_VAR_TEMPERATURE)
    return HX_ERROR(HX_ERR_INPUT, "IndVar = Temperature is only for IndicatorType = hennemann; "
                                  "use 1..6 (FLEXI's codes) or DensityTimesPressure");
  if (s->mech && fv->indicator != FV_INDICATOR_FIXED && fv->indicator != FV_INDICATOR_FV &&
      fv->indicator != FV_INDICATOR_HALFHALF && fv->indicator != FV_INDICATOR_CHECKERBOARD)
    return HX_ERROR(HX_ERR_INPUT,
                    "IndicatorType = %s is for air; with a Mechanism use "
                    "hennemann, fixed, fv, halfhalf or checkerboard",
                    params_choice_name(p, "IndicatorType", fv->indicator));
  return HX_OK;
}

/* The keys of FLEXI's indicators and of the switching. */
static int read_switch_params(const Params *p, const Solver *s, FVBlend *fv) {
  bool to_dg, in_rk, conservative, sharp, supersample;
  HX_CHECK(params_get_real(p, "IndStartTime", &fv->ind_start_time));
  HX_CHECK(params_get_int(p, "nModes", &fv->n_modes));
  HX_CHECK(params_get_real(p, "FV_IndUpperThreshold", &fv->ind_upper));
  HX_CHECK(params_get_real(p, "FV_IndLowerThreshold", &fv->ind_lower));
  HX_CHECK(params_get_logical(p, "FV_toDG_indicator", &to_dg));
  HX_CHECK(params_get_logical(p, "FV_toDGinRK", &in_rk));
  HX_CHECK(params_get_logical(p, "FV_SwitchConservative", &conservative));
  HX_CHECK(params_get_logical(p, "FV_IniSharp", &sharp));
  HX_CHECK(params_get_logical(p, "FV_IniSupersample", &supersample));
  fv->ini_supersample = supersample;
  fv->to_dg_indicator = to_dg && fv->mode == FV_MODE_SWITCHING;
  fv->to_dg_in_rk = in_rk;
  fv->switch_conservative = conservative;
  if (sharp)
    return HX_ERROR(HX_ERR_INPUT, "FV_IniSharp = T (FLEXI's sharp initial FV interface) is not "
                                  "implemented in hexdg; set FV_IniSharp = F");
  if (fv->to_dg_indicator) {
    if (!params_is_set(p, "FV_toDG_limit"))
      return HX_ERROR(HX_ERR_INPUT, "FV_toDG_indicator = T needs FV_toDG_limit (the largest "
                                    "Persson value, log10 scale, of an element turning DG)");
    HX_CHECK(params_get_real(p, "FV_toDG_limit", &fv->to_dg_limit));
  }
  int N = s->disc.N, n_modes = fv->n_modes; /* FLEXI: nModes clipped to [1, N-1] */
  fv->n_modes = n_modes < 1 ? 1 : n_modes > N - 1 ? (N > 1 ? N - 1 : 1) : n_modes;
  if (!(fv->ind_lower <= fv->ind_upper))
    return HX_ERROR(HX_ERR_INPUT,
                    "FV_IndLowerThreshold = %g must not exceed "
                    "FV_IndUpperThreshold = %g",
                    fv->ind_lower, fv->ind_upper);
  return HX_OK;
}

static int read_fv_params(const Params *p, const Solver *s, FVBlend *fv) {
  bool extend, positivity;
  HX_CHECK(read_switch_params(p, s, fv));
  HX_CHECK(read_ind_var(p, s, fv));
  HX_CHECK(params_get_real(p, "FV_alpha_min", &fv->alpha_min));
  HX_CHECK(params_get_real(p, "FV_alpha_max", &fv->alpha_max));
  HX_CHECK(params_get_real(p, "FV_alpha_fix", &fv->alpha_fix));
  HX_CHECK(params_get_logical(p, "FV_doExtendAlpha", &extend));
  HX_CHECK(params_get_int(p, "FV_nExtendAlpha", &fv->n_extend));
  HX_CHECK(params_get_real(p, "FV_alpha_ExtScale", &fv->ext_scale));
  HX_CHECK(params_get_choice(p, "FV_LimiterType", &fv->limiter));
  HX_CHECK(params_get_logical(p, "FV_PositivityLimiter", &positivity));
  fv->extend = extend;
  fv->positivity = positivity;
  if (s->disc.node_type != NODE_GAUSS_LOBATTO && fv->mode != FV_MODE_SWITCHING)
    return HX_ERROR(HX_ERR_INPUT,
                    "IndicatorType = %s with FV_Mode = blending needs NodeType = "
                    "GAUSS-LOBATTO (the blended FV subcells are the LGL quadrature cells; "
                    "on GAUSS nodes only FV_Mode = switching, FLEXI's FV = SWITCH, is "
                    "available); set NodeType = GAUSS-LOBATTO, FV_Mode = switching, "
                    "IndicatorType = none or FV_Mode = off",
                    params_choice_name(p, "IndicatorType", fv->indicator));
  if (!(fv->alpha_min >= 0.0 && fv->alpha_max <= 1.0 && fv->alpha_min <= fv->alpha_max))
    return HX_ERROR(HX_ERR_INPUT,
                    "FV_alpha_min = %g and FV_alpha_max = %g must satisfy 0 <= "
                    "FV_alpha_min <= FV_alpha_max <= 1",
                    fv->alpha_min, fv->alpha_max);
  if (!(fv->alpha_fix >= 0.0 && fv->alpha_fix <= 1.0))
    return HX_ERROR(HX_ERR_INPUT, "FV_alpha_fix = %g must lie in [0, 1]", fv->alpha_fix);
  if (fv->n_extend < 1)
    return HX_ERROR(HX_ERR_INPUT, "FV_nExtendAlpha = %d must be >= 1", fv->n_extend);
  if (!(fv->ext_scale >= 0.0 && fv->ext_scale <= 1.0))
    return HX_ERROR(HX_ERR_INPUT, "FV_alpha_ExtScale = %g must lie in [0, 1]", fv->ext_scale);
  return HX_OK;
}

static int line_base(int d, int np, int a, int b) {
  return d == 0 ? (b * np + a) * np : d == 1 ? b * np * np + a : b * np + a;
}

/* Contravariant vectors at the subcell interfaces: m_{-1/2} = Ja^d(node 0) and
 * m_{i+1/2} = m_{i-1/2} + w_i sum_l D_il Ja^d_l. With the SBP property this ends at Ja^d(node N),
 * and the inner ones equal -sum_{k<=i} sum_l w_l D_lk Ja^d_l; with the weak discrete metric
 * identities of the metrics (mesh/metrics.h: the end subcells meet the face normals) the FV
 * operator keeps a free stream (Hennemann et al. 2021, Sec. 3, the telescoping form of the metric
 * terms). */
static void subcell_metrics(const Solver *s, FVBlend *fv) {
  int np = s->np, N = np - 1, n3 = s->n_dof_elem;
  const double *D = s->disc.D, *w = s->disc.w;
#pragma omp parallel for schedule(static)
  for (int e = 0; e < s->mesh->n_elems; e++) {
    const double *Ja = &s->geo.metrics[9L * n3 * e];
    for (int d = 0; d < 3; d++) {
      int stride = d == 0 ? 1 : d == 1 ? np : np * np;
      for (int a = 0; a < np; a++)
        for (int b = 0; b < np; b++) {
          int base = line_base(d, np, a, b);
          double *out = &fv->metrics[(((long)e * 3 + d) * np * np + a * np + b) * N * 3];
          for (int c = 0; c < 3; c++) {
            const double *m = &Ja[(d * 3 + c) * n3 + base];
            double acc = m[0];
            for (int i = 0; i < N; i++) {
              double dm = 0.0;
              for (int l = 0; l < np; l++)
                dm += D[i * np + l] * m[l * stride];
              acc += w[i] * dm;
              out[i * 3 + c] = acc;
            }
          }
        }
    }
  }
}

/* 1D matrices of the switch: to_fv[i][l] = (1/w_i) int over subcell i of l_l (the subcell mean
 * of the nodal polynomial, Gauss quadrature with np points per subcell: exact), to_dg its
 * inverse; subcell widths w_i: the LGL weights (then sum_i w_i (to_fv u)_i = sum_l w_l u_l, the
 * LGL integral), or 2/(N+1) on Gauss nodes (FLEXI's equidistant FV subcells). */
static int switch_matrices(const Solver *s, const double *widths, FVBlend *fv) {
  int np = s->np, N = np - 1;
  double xg[HX_NPMAX], wg[HX_NPMAX], l[HX_NPMAX], x_face = -1.0;
  HX_CHECK(basis_nodes_weights(N, NODE_GAUSS, xg, wg));
  for (int i = 0; i < np; i++) {
    double h = widths[i];
    for (int c = 0; c < np; c++)
      fv->to_fv[i * np + c] = 0.0;
    for (int g = 0; g < np; g++) {
      basis_lagrange_eval(N, s->disc.x, s->disc.wb, x_face + 0.5 * h * (xg[g] + 1.0), l);
      for (int c = 0; c < np; c++)
        fv->to_fv[i * np + c] += 0.5 * wg[g] * l[c];
    }
    x_face += h;
  }
  /* Gauss-Jordan with partial pivoting on [to_fv | I] */
  double a[HX_NPMAX][2 * HX_NPMAX];
  for (int i = 0; i < np; i++)
    for (int c = 0; c < 2 * np; c++)
      a[i][c] = c < np ? fv->to_fv[i * np + c] : (c - np == i);
  for (int c = 0; c < np; c++) {
    int piv = c;
    for (int r = c + 1; r < np; r++)
      if (fabs(a[r][c]) > fabs(a[piv][c])) piv = r;
    if (fabs(a[piv][c]) < 1e-14)
      return HX_ERROR(HX_ERR_INTERNAL, "FV switching: singular DG -> FV matrix at N = %d", N);
    for (int k = 0; k < 2 * np; k++) {
      double t = a[c][k];
      a[c][k] = a[piv][k];
      a[piv][k] = t;
    }
    double d = a[c][c];
    for (int k = 0; k < 2 * np; k++)
      a[c][k] /= d;
    for (int r = 0; r < np; r++)
      if (r != c) {
        double f = a[r][c];
        for (int k = 0; k < 2 * np; k++)
          a[r][k] -= f * a[c][k];
      }
  }
  for (int i = 0; i < np; i++)
    for (int c = 0; c < np; c++)
      fv->to_dg[i * np + c] = a[i][np + c];
  return HX_OK;
}

/* FVBoundaries (FLEXI's IndFVBoundaries): flag the elements with a side on a boundary whose BC
 * type is listed in FVBoundaryType (0 or none listed: every boundary). */
static int fv_boundary_flags(const Params *p, const Solver *s, FVBlend *fv) {
  bool on;
  HX_CHECK(params_get_logical(p, "FVBoundaries", &on));
  if (!on) return HX_OK;
  const Mesh *m = s->mesh;
  int n_types = params_count(p, "FVBoundaryType"), types[64];
  if (n_types > 64)
    return HX_ERROR(HX_ERR_INPUT, "FVBoundaryType is given %d times (at most 64)", n_types);
  int all = n_types == 0;
  for (int i = 0; i < n_types; i++) {
    HX_CHECK(params_get_int_at(p, "FVBoundaryType", i, &types[i]));
    all |= types[i] == 0;
  }
  fv->fv_boundary = hx_calloc(m->n_elems ? m->n_elems : 1, sizeof(int), "FVBoundaries");
  if (!fv->fv_boundary) return HX_ERR_MEM;
  for (int side = 0; side < m->n_sides; side++) {
    int bc = m->side_bc[side], e = m->side_master_elem[side];
    if (bc < 0 || e < 0) continue;
    int match = all;
    for (int i = 0; i < n_types; i++)
      match |= types[i] == s->bc_info[2 * bc];
    if (match) fv->fv_boundary[e] = 1;
  }
  return HX_OK;
}

static int fv_alloc(Solver *s, FVBlend *fv) {
  const Mesh *m = s->mesh;
  int np = s->np, N = np - 1;
  long n_sides = m->n_sides > 0 ? m->n_sides : 1;
  fv->alpha = hx_calloc(m->n_elems, sizeof(double), "FV blending factor");
  fv->ind_value = hx_calloc(m->n_elems, sizeof(double), "IndValue");
  fv->alpha_master = hx_calloc(n_sides, sizeof(double), "FV side alpha");
  fv->alpha_slave = hx_calloc(n_sides, sizeof(double), "FV side alpha");
  fv->metrics =
      hx_malloc(sizeof(double) * 9 * (size_t)np * np * N * m->n_elems, "FV subcell metrics");
  if (!fv->alpha || !fv->ind_value || !fv->alpha_master || !fv->alpha_slave || !fv->metrics)
    return HX_ERR_MEM;
  if (fv->mode == FV_MODE_SWITCHING) {
    fv->fv_elems = hx_calloc(m->n_elems, sizeof(int), "FV_Elems");
    if (!fv->fv_elems) return HX_ERR_MEM;
  }
  if (fv->indicator == FV_INDICATOR_JAMESON || fv->indicator == FV_INDICATOR_DUCROS_JST) {
    fv->ghost_master = hx_calloc(n_sides * s->n_dof_face, sizeof(double), "Jameson faces");
    fv->ghost_slave = hx_calloc(n_sides * s->n_dof_face, sizeof(double), "Jameson faces");
    if (!fv->ghost_master || !fv->ghost_slave) return HX_ERR_MEM;
  }
  return HX_OK;
}

int fv_init(const Params *p, Solver *s) {
  FVBlend *fv = &s->fv;
  memset(fv, 0, sizeof *fv);
  HX_CHECK(params_get_choice(p, "IndicatorType", &fv->indicator));
  HX_CHECK(params_get_choice(p, "FV_Mode", &fv->mode));
  /* FLEXI's blending build always takes Persson's modal energy through the sigmoid */
  if (fv->mode == FV_MODE_BLENDING && fv->indicator == FV_INDICATOR_PERSSON)
    fv->indicator = FV_INDICATOR_HENNEMANN;
  fv->enabled = fv->indicator != FV_INDICATOR_NONE && fv->mode != FV_MODE_OFF;
  if (!fv->enabled) return HX_OK;
  HX_CHECK(read_fv_params(p, s, fv));
  int np = s->np, N = np - 1;
  double V[HX_NPMAX * HX_NPMAX];
  basis_legendre_vandermonde(N, s->disc.x, V, fv->Vinv);
  /* subcells: the LGL cells, or FLEXI's equidistant cells on Gauss nodes (dg/fv_gauss.h) */
  const int gauss = s->disc.node_type == NODE_GAUSS;
  double x_sub[HX_NPMAX], w_sub[HX_NPMAX];
  for (int i = 0; i < np; i++) {
    w_sub[i] = gauss ? 2.0 / np : s->disc.w[i];
    x_sub[i] = gauss ? -1.0 + (i + 0.5) * w_sub[i] : s->disc.x[i];
  }
  fv_line_init(np, x_sub, w_sub, &fv->line);
  if (fv->limiter == FV_LIM_SWEBY) HX_CHECK(read_sweby_beta(p, &fv->line.sweby_beta));
  HX_CHECK(switch_matrices(s, w_sub, fv));
  HX_CHECK(fv_alloc(s, fv));
  HX_CHECK(fv_boundary_flags(p, s, fv));
  if (!gauss) subcell_metrics(s, fv); /* Gauss: fv_gauss_init, once the solver is complete */
  return HX_OK;
}

void fv_free(Solver *s) {
  free(s->fv.alpha);
  free(s->fv.ind_value);
  free(s->fv.alpha_master);
  free(s->fv.alpha_slave);
  free(s->fv.metrics);
  free(s->fv.fv_elems);
  free(s->fv.ghost_master);
  free(s->fv.ghost_slave);
  free(s->fv.fv_boundary);
  fv_gauss_free(s);
  memset(&s->fv, 0, sizeof s->fv);
}

void fv_subcell_volume(const Solver *s, int e, const double *prim, const double *Y, double *Ut) {
  const FVBlend *fv = &s->fv;
  if (fv->gauss) { /* equidistant subcells with ghosts beyond the element faces */
    fv_gauss_subcell_volume(s, e, prim, Ut);
    return;
  }
  int np = s->np, N = np - 1, n3 = s->n_dof_elem;
  double *q = NULL; /* mixture: the reconstructed variables (rho, u, v, w, p, Y_k) of the nodes */
  if (s->mech) {
    q = malloc(sizeof(double) * FV_MIX_NQ(s->n_species) * n3);
    if (!q) return;
    memcpy(q, prim, sizeof(double) * 5 * n3);
    memcpy(q + 5 * n3, Y, sizeof(double) * s->n_species * n3);
  }
  for (int d = 0; d < 3; d++) {
    int stride = d == 0 ? 1 : d == 1 ? np : np * np;
    for (int a = 0; a < np; a++)
      for (int b = 0; b < np; b++) {
        int base = line_base(d, np, a, b);
        const double *mv = &fv->metrics[(((long)e * 3 + d) * np * np + a * np + b) * N * 3];
        if (q)
          fv_mix_line_residual(s->riemann, s->disc.split, fv->limiter, &s->phys, s->mech, np,
                               &fv->line, q, n3, Ut, n3, base, stride, mv, d > 0);
        else
          fv_line_residual(s->riemann, s->disc.split, fv->limiter, &s->phys, np, &fv->line, prim,
                           n3, Ut, n3, base, stride, 0, mv, 3, d > 0);
      }
  }
  free(q);
}

/* The quadrature weights of element e's nodes (the mean is the integral over the volume). */
static double node_volume_weight(const Solver *s, int e, int q) {
  int np = s->np;
  const double *w = s->disc.w;
  if (s->fv.gauss && s->fv.fv_elems[e]) /* an equidistant FV subcell */
    return pow(s->fv.gauss->h, 3) / s->fv.gauss->sJ[(long)s->n_dof_elem * e + q];
  return w[q % np] * w[(q / np) % np] * w[q / (np * np)] / s->geo.sJ[(long)s->n_dof_elem * e + q];
}

/* ue = mean + theta (ue - mean) for nv variables of n3 nodes: the conservative limiting step. */
static void pull_to_mean(double *ue, const double *mean, int nv, int n3, double theta) {
  for (int v = 0; v < nv; v++)
    for (int q = 0; q < n3; q++)
      ue[v * n3 + q] = mean[v] + theta * (ue[v * n3 + q] - mean[v]);
}

/* The mixture's stage limiter: rho, every rho Y_k and the internal energy above its floor
 * (fv_mix_limit_element). */
static long fv_positivity_limit_mix(const Solver *s, double *U) {
  int n3 = s->n_dof_elem, nv = s->n_var;
  long n_limited = 0;
#pragma omp parallel for schedule(static) reduction(+ : n_limited)
  for (int e = 0; e < s->mesh->n_elems; e++)
    n_limited += fv_mix_limit_element(s->mech, &U[(long)nv * n3 * e], s->np, s->disc.w,
                                      &s->geo.sJ[(long)n3 * e]);
  return n_limited;
}

long fv_positivity_limit(const Solver *s, double *U) {
  if (s->mech) return fv_positivity_limit_mix(s, U);
  int n3 = s->n_dof_elem, nv = s->n_var;
  long n_limited = 0;
#pragma omp parallel for schedule(static) reduction(+ : n_limited)
  for (int e = 0; e < s->mesh->n_elems; e++) {
    double *ue = &U[(long)nv * n3 * e], mean[HX_NVAR] = {0}, vol = 0.0, rho_min = 1e300,
           p_min = 1e300;
    for (int q = 0; q < n3; q++) {
      double u[HX_NVAR];
      for (int v = 0; v < HX_NVAR; v++)
        u[v] = ue[v * n3 + q];
      double p = pressure_from_cons(&s->phys, u);
      rho_min = u[DENS] < rho_min ? u[DENS] : rho_min;
      p_min = p < p_min ? p : p_min;
      double wq = node_volume_weight(s, e, q);
      vol += wq;
      for (int v = 0; v < HX_NVAR; v++)
        mean[v] += wq * u[v];
    }
    for (int v = 0; v < HX_NVAR; v++)
      mean[v] /= vol;
    double p_mean = pressure_from_cons(&s->phys, mean);
    double eps_rho = FV_POSITIVITY_EPS * mean[DENS], eps_p = FV_POSITIVITY_EPS * p_mean;
    if (rho_min >= eps_rho && p_min >= eps_p) continue;
    if (!(mean[DENS] > 0.0 && p_mean > 0.0)) continue;
    double theta = 1.0;
    for (int q = 0; q < n3; q++) {
      double u[HX_NVAR];
      for (int v = 0; v < HX_NVAR; v++)
        u[v] = ue[v * n3 + q];
      double t = fv_admissible_fraction(&s->phys, mean, u, eps_rho, eps_p);
      theta = t < theta ? t : theta;
    }
    pull_to_mean(ue, mean, HX_NVAR, n3, theta);
    n_limited++;
  }
  return n_limited;
}
