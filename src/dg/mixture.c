/* Reacting flow set-up: mechanism, species variables, RefState compositions, the mixture's exact
 * functions and boundary states (docs/reacting_flow.md). */
#include "dg/mixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chem/chemparams.h"
#include "chem/cj.h"
#include "chem/mech.h"
#include "chem/znd.h"
#include "core/error.h"
#include "parallel/parallel.h"
#include "physics/bc.h"
#include "physics/mixture.h"
#include "physics/mixture_bc.h"
#include "physics/navierstokes_mix.h"

int mixture_define_params(Params *p) {
  HX_CHECK(chem_define_params(p));
  HX_CHECK(params_define(p, "Equation", "RefStateY", PARAM_STRING, 0, "", true,
                         "Reacting flow: composition of the RefState of the same number, as mass "
                         "fractions 'H2:0.0285,O2:0.2264,N2:0.7451' (they must sum to 1 within "
                         "1e-6). One per RefState; RefStateX instead gives mole fractions."));
  HX_CHECK(params_define(p, "Equation", "RefStateX", PARAM_STRING, 0, "", true,
                         "Reacting flow: composition of the RefState of the same number as mole "
                         "fractions 'H2:2,O2:1,N2:3.76' (normalised). The temperature of a "
                         "RefState (rho, u, v, w, p) is p W / (rho R); it is printed at start."));
  HX_CHECK(params_define(p, "EquationOfState", "SpeciesLewis", PARAM_STRING, 0, "", false,
                         "Reacting flow with mu0 > 0: constant Lewis numbers Le_k of the Fick "
                         "diffusion, D_k = lambda / (rho cp Le_k) = mu / (rho Pr Le_k). One value "
                         "for every species ('1.'), or per species 'H2:0.3,H:0.18,O2:1.1' where "
                         "a leading bare value ('1.,H2:0.3') serves the species not named; "
                         "without a bare value every species must be named. Default (neither "
                         "SpeciesLewis nor SpeciesSchmidt): Le_k = 1."));
  HX_CHECK(params_define(p, "Exactfunc", "IniZND", PARAM_LOGICAL, 0, "F", false,
                         "Reacting flow with IniExactFunc = 16 (hexdg): behind the plane through "
                         "IniCenter normal to IniAxis, the ZND profile of RefState 2's mixture "
                         "(hexdg znd: the von Neumann state, then the reaction zone) travelling "
                         "along IniAxis at IniZNDSpeed relative to the unburnt gas, and its "
                         "last state further behind; ahead of the plane RefState 2. RefState 1 "
                         "is not used. The profile is computed to the farthest node behind the "
                         "plane. RefState 2 may move: with its velocity -D along IniAxis the "
                         "front stays in place (the shock-attached frame; inflow BC 2 ahead, "
                         "outflow BC 24 behind)."));
  HX_CHECK(params_define(p, "Exactfunc", "IniZNDPocket", PARAM_REAL_ARRAY, 6, "", true,
                         "IniZND: a box (/xmin,ymin,zmin,xmax,ymax,zmax/) of the initial state "
                         "filled with the unburnt RefState 2, a pocket of unreacted gas behind "
                         "the front that perturbs the planar wave (as in the cellular-detonation "
                         "studies of Oran et al. 1998 and Deiterding 2011); repeatable (up to "
                         "16 boxes, e.g. one per expected cell across the channel)."));
  HX_CHECK(params_define(p, "Exactfunc", "IniZNDSpeed", PARAM_REAL, 0, "0.", false,
                         "Speed of the IniZND detonation relative to the unburnt gas, m/s; 0: "
                         "the Chapman-Jouguet speed of RefState 2's mixture."));
  HX_CHECK(params_define(p, "EquationOfState", "SpeciesSchmidt", PARAM_STRING, 0, "", false,
                         "Reacting flow with mu0 > 0: constant Schmidt numbers Sc_k of the Fick "
                         "diffusion, D_k = mu / (rho Sc_k), instead of SpeciesLewis; the same "
                         "forms ('0.7' or '0.7,H2:0.2,H:0.12')."));
  return HX_OK;
}

/* Sum of the amounts of "A:a,B:b,..." (the names are checked by chem_parse_composition). */
static double composition_sum(const char *spec) {
  double sum = 0.0;
  const char *c = spec;
  while ((c = strchr(c, ':'))) sum += strtod(++c, NULL);
  return sum;
}

/* Mass fractions of RefState i from RefStateY #i or RefStateX #i. */
static int ref_state_composition(const Params *p, const ChemMech *m, int i, int n_y, double *Y) {
  char what[64];
  const char *spec;
  if (i < n_y) {
    HX_CHECK(params_get_string_at(p, "RefStateY", i, &spec));
    snprintf(what, sizeof what, "RefStateY #%d", i + 1);
    HX_CHECK(chem_parse_composition(m, spec, what, Y));
    double sum = composition_sum(spec);
    if (fabs(sum - 1.0) > 1e-6)
      return HX_ERROR(HX_ERR_INPUT,
                      "RefStateY #%d = %s: the mass fractions sum to %.9g, not 1; correct them "
                      "or give mole fractions with RefStateX (normalised)",
                      i + 1, spec, sum);
    return HX_OK;
  }
  HX_CHECK(params_get_string_at(p, "RefStateX", i, &spec));
  snprintf(what, sizeof what, "RefStateX #%d", i + 1);
  HX_CHECK(chem_parse_composition(m, spec, what, Y));
  chem_mole_to_mass(m, Y, 1, Y, 1);
  return HX_OK;
}

/* Whether RefState i is the total state of a BC 27 boundary (its entries: Tt, flow angles, -,
 * pt, as for air). */
static int ref_state_is_total(const Solver *s, int i) {
  for (int b = 0; b < s->mesh->n_bcs; b++)
    if (s->bc_info[2 * b] == BC_INFLOW_TOTAL && s->bc_info[2 * b + 1] == i) return 1;
  return 0;
}

/* ref_U of a BC 27 RefState: the total state at rest (rho = pt W / (R Tt), T = Tt), which carries
 * the inflow's composition to mix_bc_outer_state. */
static int total_ref_state(Solver *s, int i, const double *Y) {
  const ChemMech *m = s->mech;
  const double *prim = s->exact.ref_prim[i], Tt = prim[PDENS], pt = prim[PRES];
  if (!(Tt > CHEM_T_LOW && Tt < m->T_hi && pt > 0.0))
    return HX_ERROR(HX_ERR_INPUT,
                    "RefState #%d is the total state of a BC 27 inflow (Tt, alpha, beta, -, pt), "
                    "but Tt = %g K is outside [%g, %g] K or pt = %g Pa is not positive; check "
                    "its first (Tt) and last (pt) entries",
                    i + 1, Tt, CHEM_T_LOW, m->T_hi, pt);
  const double W = chem_mean_mw(m, Y, 1), zero[3] = {0.0, 0.0, 0.0};
  mix_prim_to_cons(m, pt * W / (CHEM_R * Tt), zero, Tt, Y, &s->ref_U[(size_t)i * s->n_var]);
  if (par_is_root())
    printf("  RefState %d (total state of BC 27): Tt %.6g K, pt %.6g Pa, W %.6g kg/kmol\n", i + 1,
           Tt, pt, W);
  return HX_OK;
}

/* The conservative RefStates of the mixture (rho, u, v, w, p of RefState; T = p W / (rho R), which
 * also replaces the air's T in ref_prim). */
static int mixture_ref_states(const Params *p, Solver *s) {
  const ChemMech *m = s->mech;
  int n = s->exact.n_ref_states, n_y = params_count(p, "RefStateY"),
      n_x = params_count(p, "RefStateX"), nv = s->n_var;
  if (n_y > 0 && n_x > 0)
    return HX_ERROR(HX_ERR_INPUT, "give the RefState compositions either as RefStateY (mass "
                                  "fractions) or as RefStateX (mole fractions), not both");
  if (n_y + n_x != n)
    return HX_ERROR(HX_ERR_INPUT,
                    "Mechanism = %s: %d RefState entries but %d compositions (%s); give one "
                    "RefStateY or RefStateX line per RefState, in the same order",
                    m->path, n, n_y + n_x, n_y ? "RefStateY" : "RefStateX");
  s->ref_U = hx_calloc((size_t)(n ? n : 1) * nv, sizeof(double), "mixture RefStates");
  HX_ALLOC_CHECK(s->ref_U);
  for (int i = 0; i < n; i++) {
    double Y[HX_MAX_SPECIES];
    const double *prim = s->exact.ref_prim[i];
    HX_CHECK(ref_state_composition(p, m, i, n_y, Y));
    if (ref_state_is_total(s, i)) { /* BC 27: Tt, angles, pt; ref_U the total state at rest */
      HX_CHECK(total_ref_state(s, i, Y));
      continue;
    }
    double T = mix_temperature(m, prim[PDENS], prim[PRES], Y);
    if (!(T > CHEM_T_LOW && T < m->T_hi))
      return HX_ERROR(HX_ERR_INPUT,
                      "RefState #%d (rho = %g, p = %g) has T = p W / (rho R) = %g K with its "
                      "composition, outside [%g, %g] K; check rho and p (SI units)",
                      i + 1, prim[PDENS], prim[PRES], T, CHEM_T_LOW, m->T_hi);
    s->exact.ref_prim[i][TEMP] = T; /* the isothermal wall's temperature (BC 4) */
    mix_prim_to_cons(m, prim[PDENS], prim + VEL1, T, Y, &s->ref_U[(size_t)i * nv]);
    if (par_is_root())
      printf("  RefState %d: rho %.6g kg/m^3, p %.6g Pa, T %.6g K, W %.6g kg/kmol\n", i + 1,
             prim[PDENS], prim[PRES], T, chem_mean_mw(m, Y, 1));
  }
  return HX_OK;
}

/* What the mixture supports of the flow solver's options. */
static int mixture_check_options(const Solver *s) {
  const char *mp = s->mech->path;
  if (!riemann_mix_supported(s->riemann) || !riemann_mix_supported(s->riemann_bc))
    return HX_ERROR(HX_ERR_INPUT,
                    "Mechanism = %s: Riemann (or Riemann_BC) is not defined for the thermally "
                    "perfect mixture; choose LF, HLL, HLLE, HLLC, Roe or RoeEntropyFix", mp);
  if (!mix_split_supported(s->disc.split))
    return HX_ERROR(HX_ERR_INPUT,
                    "Mechanism = %s: SplitDG = CH is the calorically perfect gas's entropy-"
                    "conserving flux; choose PI, KG, DU, MO or SD", mp);
  for (int b = 0; b < s->mesh->n_bcs; b++) {
    int type = s->bc_info[2 * b];
    if (!mix_bc_supported(type))
      return HX_ERROR(HX_ERR_INPUT,
                      "boundary '%s' has BC type %d, which is not implemented for reacting "
                      "flow (Mechanism = %s) yet; use 2 (exact function / RefState inflow and "
                      "supersonic outflow), 3 or 4 (adiabatic or isothermal no-slip wall), 9 "
                      "(slip wall), 23, 24 or 25 (Mach, pressure or subsonic outflow), 27 (total-"
                      "state inflow), or a periodic box",
                      s->mesh->bcs[b].name, type, mp);
  }
  int w = s->exact.which;
  if (w != EXACT_REFSTATE && w != EXACT_TWO_STATE && w != EXACT_SPECIES_MMS)
    return HX_ERROR(HX_ERR_INPUT,
                    "IniExactFunc = %d is an air case; with Mechanism = %s use 1 (RefState), 16 "
                    "(two RefStates, e.g. a detonation's initiation region) or 17 (species "
                    "wave manufactured solution)", w, mp);
  return HX_OK;
}

/* One entry of a SpeciesLewis/SpeciesSchmidt list: "NAME:value" (*k the species) or a bare value
 * (*k = -1). */
static int species_value_item(const ChemMech *m, const char *key, const char *spec, char *item,
                              int *k, double *value) {
  while (*item == ' ') item++;
  char *colon = strchr(item, ':'), *num = colon ? colon + 1 : item, *stop;
  *k = -1;
  if (colon) {
    char *end = colon;
    while (end > item && end[-1] == ' ') end--;
    *end = '\0';
    *k = chem_species_index(m, item);
    if (*k < 0)
      return HX_ERROR(HX_ERR_INPUT,
                      "%s = %s: species '%s' is not in the mechanism %s (names are "
                      "case-sensitive, e.g. %s)", key, spec, item, m->path, m->species_names[0]);
  }
  *value = strtod(num, &stop);
  while (*stop == ' ') stop++;
  if (stop == num || *stop || !(*value > 0.0) || !isfinite(*value))
    return HX_ERROR(HX_ERR_INPUT,
                    "%s = %s: '%s' is not a positive number; write one value for every species "
                    "or NAME:VALUE pairs, e.g. '1.,H2:0.3'", key, spec, num);
  return HX_OK;
}

/* Per-species values of SpeciesLewis or SpeciesSchmidt (see their help) into val[ns]. */
static int species_values(const ChemMech *m, const char *key, const char *spec, double *val) {
  const int ns = m->n_species;
  double fallback = -1.0;
  for (int k = 0; k < ns; k++) val[k] = -1.0;
  size_t len = strlen(spec);
  char *copy = hx_malloc(len + 1, key);
  HX_ALLOC_CHECK(copy);
  memcpy(copy, spec, len + 1);
  int rc = HX_OK;
  for (char *item = copy; item && rc == HX_OK;) {
    char *comma = strchr(item, ',');
    if (comma) *comma = '\0';
    int k = -1;
    double v = 0.0;
    rc = species_value_item(m, key, spec, item, &k, &v);
    if (rc == HX_OK && ((k < 0 && fallback > 0.0) || (k >= 0 && val[k] > 0.0)))
      rc = HX_ERROR(HX_ERR_INPUT, "%s = %s: %s is given twice", key, spec,
                    k < 0 ? "a value for every species" : m->species_names[k]);
    if (rc == HX_OK && k < 0) fallback = v;
    if (rc == HX_OK && k >= 0) val[k] = v;
    item = comma ? comma + 1 : NULL;
  }
  free(copy);
  for (int k = 0; k < ns && rc == HX_OK; k++) {
    if (val[k] < 0.0) val[k] = fallback;
    if (val[k] < 0.0)
      rc = HX_ERROR(HX_ERR_INPUT,
                    "%s = %s names no value for species %s; name every species of %s or start "
                    "with a value for the others, e.g. '1.,%s'", key, spec, m->species_names[k],
                    m->path, spec);
  }
  return rc;
}

/* The species diffusivities of a viscous mixture: rho D_k = mu / (Pr Le_k) or mu / Sc_k. */
static int mixture_transport_init(const Params *p, Solver *s) {
  const bool lewis = params_is_set(p, "SpeciesLewis"), schmidt = params_is_set(p, "SpeciesSchmidt");
  const char *key = schmidt ? "SpeciesSchmidt" : "SpeciesLewis", *spec = "1.";
  if (lewis && schmidt)
    return HX_ERROR(HX_ERR_INPUT, "give SpeciesLewis or SpeciesSchmidt, not both (Le_k = Sc_k / "
                                  "Pr with the Prandtl number Pr)");
  if (!s->viscous) {
    if (lewis || schmidt)
      return HX_ERROR(HX_ERR_INPUT, "%s is set but mu0 = 0 (Euler equations: no species "
                                    "diffusion); set mu0 > 0 or remove %s", key, key);
    return HX_OK;
  }
  if (lewis || schmidt) HX_CHECK(params_get_string(p, key, &spec));
  double val[HX_MAX_SPECIES];
  HX_CHECK(species_values(s->mech, key, spec, val));
  s->mix_transport = hx_calloc(1, sizeof(MixTransport), "species transport");
  HX_ALLOC_CHECK(s->mix_transport);
  MixTransport *tr = s->mix_transport;
  for (int k = 0; k < s->n_species; k++) {
    tr->diff_factor[k] = 1.0 / (schmidt ? val[k] : s->phys.Pr * val[k]);
    tr->diff_factor_max = fmax(tr->diff_factor_max, tr->diff_factor[k]);
  }
  s->n_lift = HX_NLIFT + s->n_species;
  if (par_is_root())
    printf("  species diffusion: %s = %s (%s), largest D_k = %.4g mu / rho\n", key, spec,
           lewis || schmidt ? "given" : "default", tr->diff_factor_max);
  return HX_OK;
}

/* RefState 2's velocity along IniAxis: the ZND wave runs at D relative to the unburnt gas, so
 * at D + this in the frame of the mesh; RefState 2 at -D_CJ along the axis holds the front in
 * place (the shock-attached frame of Henrick, Aslam & Powers 2006, J. Comput. Phys. 213:311). */
static double znd_unburnt_normal_velocity(const Solver *s) {
  double un = 0.0;
  for (int k = 0; k < 3; k++) un += s->exact.ref_prim[1][VEL1 + k] * s->znd_axis[k];
  return un;
}

/* IniZNDPocket: the unreacted boxes, each checked. */
static int mixture_znd_pockets(const Params *p, Solver *s) {
  const int n = params_count(p, "IniZNDPocket");
  if (n > HX_ZND_POCKETS_MAX)
    return HX_ERROR(HX_ERR_INPUT, "IniZNDPocket is given %d times; at most %d boxes", n,
                    HX_ZND_POCKETS_MAX);
  for (int b = 0; b < n; b++) {
    double *box = s->znd_pocket[b];
    HX_CHECK(params_get_real_array_at(p, "IniZNDPocket", b, 6, box));
    for (int k = 0; k < 3; k++)
      if (!(box[k] < box[k + 3]))
        return HX_ERROR(HX_ERR_INPUT, "IniZNDPocket = (/%g,%g,%g,%g,%g,%g/) (box %d of %d): the "
                        "%c range is empty (give xmin, ymin, zmin, then xmax, ymax, zmax, each "
                        "min < max)", box[0], box[1], box[2], box[3], box[4], box[5], b + 1, n,
                        "xyz"[k]);
  }
  s->n_znd_pockets = n;
  return HX_OK;
}

/* IniZND: the ZND profile of RefState 2's mixture, to the farthest node behind the plane. */
static int mixture_znd_init(const Params *p, Solver *s) {
  bool on = false;
  double D = 0.0;
  HX_CHECK(params_get_logical(p, "IniZND", &on));
  HX_CHECK(params_get_real(p, "IniZNDSpeed", &D));
  HX_CHECK(mixture_znd_pockets(p, s));
  if (s->n_znd_pockets > 0 && !on)
    return HX_ERROR(HX_ERR_INPUT, "IniZNDPocket is set without IniZND = T; set IniZND = T or "
                                  "remove IniZNDPocket");
  if (!on) return HX_OK;
  const ChemMech *m = s->mech;
  if (s->exact.which != EXACT_TWO_STATE || s->exact.n_ref_states < 2)
    return HX_ERROR(HX_ERR_INPUT, "IniZND = T needs IniExactFunc = 16 with two RefStates (the "
                                  "plane IniCenter / IniAxis, the unburnt RefState 2 ahead of it)");
  if (ref_state_is_total(s, 1))
    return HX_ERROR(HX_ERR_INPUT, "IniZND = T: RefState 2 is a total state (BC 27); the ZND "
                                  "profile needs the unburnt static state");
  double norm = 0.0;
  for (int k = 0; k < 3; k++) norm += s->exact.axis[k] * s->exact.axis[k];
  if (!(norm > 0.0)) return HX_ERROR(HX_ERR_INPUT, "IniZND = T: IniAxis is zero");
  for (int k = 0; k < 3; k++) s->znd_axis[k] = s->exact.axis[k] / sqrt(norm);
  const int nv = s->n_var, n3 = s->n_dof_elem;
  const double *u2 = s->ref_U + nv, T1 = s->exact.ref_prim[1][TEMP], p1 = s->exact.ref_prim[1][PRES];
  double Y1[HX_MAX_SPECIES];
  for (int k = 0; k < m->n_species; k++) Y1[k] = u2[HX_NVAR + k] / u2[DENS];
  if (!(D > 0.0)) {
    double T_cj, p_cj, Y_cj[HX_MAX_SPECIES];
    HX_CHECK(chem_cj_detonation(m, T1, p1, Y1, &D, &T_cj, &p_cj, Y_cj));
  }
  double behind = 0.0; /* the farthest node behind the plane, on this rank */
  for (long i = 0; i < (long)s->mesh->n_elems * n3; i++) {
    const long e = i / n3, q = i % n3;
    double d = 0.0;
    for (int k = 0; k < 3; k++)
      d += (s->exact.center[k] - s->geo.elem_x[(3 * e + k) * n3 + q]) * s->znd_axis[k];
    behind = fmax(behind, d);
  }
  par_max(&behind, 1); /* every rank the same profile, to the domain's farthest node */
  s->znd = hx_calloc(1, sizeof(ZndProfile), "ZND profile");
  HX_ALLOC_CHECK(s->znd);
  HX_CHECK(chem_znd(m, T1, p1, Y1, D, fmax(behind, 1e-6) * 1.001, s->znd));
  const ZndProfile *z = s->znd;
  if (par_is_root())
    printf("  IniZND: D %.2f m/s, von Neumann %.1f K %.4g Pa, induction length %.4g m, "
           "half-reaction length %.4g m; profile to %.4g m behind the front (%ld samples), "
           "p there %.5g Pa (the pressure an outflow BC 24 at that end needs to keep the wave "
           "steady); the front moves at %.2f m/s along IniAxis in this frame\n",
           D, z->T[0], z->p[0], z->x_induction, z->x_half, z->x[z->n - 1], z->n, z->p[z->n - 1],
           D + znd_unburnt_normal_velocity(s));
  return HX_OK;
}

/* The IniZND state at x, t: the profile at the distance behind the front, which has moved
 * (D + u2) t along the axis from the plane (u2: RefState 2's velocity along it); ahead of it
 * RefState 2. Behind it the gas moves at RefState 2's velocity plus D - w along the axis (w: the
 * flow speed relative to the front). Linear in x between the samples. */
static void mixture_znd_state(const Solver *s, const double x[3], double t, double *U) {
  const ZndProfile *z = s->znd;
  const ChemMech *m = s->mech;
  const double front_speed = z->D + znd_unburnt_normal_velocity(s);
  double xi = 0.0;
  for (int k = 0; k < 3; k++)
    xi += (s->exact.center[k] + front_speed * t * s->znd_axis[k] - x[k]) * s->znd_axis[k];
  if (xi <= 0.0) {
    memcpy(U, s->ref_U + s->n_var, sizeof(double) * (size_t)s->n_var);
    return;
  }
  long lo = 0, hi = z->n - 1;
  if (xi >= z->x[hi]) lo = hi;
  while (hi - lo > 1) { /* z->x ascends */
    const long mid = (lo + hi) / 2;
    if (z->x[mid] <= xi)
      lo = mid;
    else
      hi = mid;
  }
  const long b = lo < z->n - 1 ? lo + 1 : lo;
  const double f = b > lo ? (xi - z->x[lo]) / (z->x[b] - z->x[lo]) : 0.0;
  double Y[HX_MAX_SPECIES], sum = 0.0;
  for (int k = 0; k < z->ns; k++) {
    Y[k] = (1 - f) * z->Y[(size_t)lo * z->ns + k] + f * z->Y[(size_t)b * z->ns + k];
    sum += Y[k];
  }
  for (int k = 0; k < z->ns; k++) Y[k] /= sum;
  const double T = (1 - f) * z->T[lo] + f * z->T[b], p = (1 - f) * z->p[lo] + f * z->p[b];
  const double w = (1 - f) * z->w[lo] + f * z->w[b];
  const double *u2 = &s->exact.ref_prim[1][VEL1];
  const double rho = mix_density(m, p, T, Y),
               vel[3] = {u2[0] + (z->D - w) * s->znd_axis[0], u2[1] + (z->D - w) * s->znd_axis[1],
                         u2[2] + (z->D - w) * s->znd_axis[2]};
  mix_prim_to_cons(m, rho, vel, T, Y, U);
}

int mixture_init(const Params *p, Solver *s) {
  const char *path;
  HX_CHECK(params_get_string(p, "Mechanism", &path));
  if (!path[0]) {
    if (s->exact.which == EXACT_SPECIES_MMS)
      return HX_ERROR(HX_ERR_INPUT, "IniExactFunc = 17 is a reacting-flow case: set Mechanism");
    if (s->fv.enabled && s->fv.ind_var == FV_INDVAR_TEMPERATURE)
      return HX_ERROR(HX_ERR_INPUT, "IndVar = Temperature is for reacting flow (Mechanism set); "
                                    "use DensityTimesPressure, Density or Pressure");
    if (params_is_set(p, "SpeciesLewis") || params_is_set(p, "SpeciesSchmidt"))
      return HX_ERROR(HX_ERR_INPUT, "SpeciesLewis and SpeciesSchmidt are for reacting flow "
                                    "(Mechanism set); remove them for air");
    return HX_OK;
  }
  HX_CHECK(chem_mech_load(path, NULL, &s->mech));
  if (s->mech->n_species > HX_MAX_SPECIES)
    return HX_ERROR(HX_ERR_INPUT,
                    "Mechanism = %s has %d species; the flow solver takes at most %d "
                    "(HX_MAX_SPECIES in src/physics/mixture.h)",
                    path, s->mech->n_species, HX_MAX_SPECIES);
  s->n_species = s->mech->n_species;
  s->n_var = HX_NVAR + s->n_species;
  s->T_guess = hx_malloc(sizeof(double) * (s->n_dof > 0 ? s->n_dof : 1), "temperature guesses");
  HX_ALLOC_CHECK(s->T_guess);
  for (long i = 0; i < s->n_dof; i++) s->T_guess[i] = -1.0;
  HX_CHECK(mixture_check_options(s));
  HX_CHECK(mixture_transport_init(p, s));
  HX_CHECK(mixture_ref_states(p, s));
  return mixture_znd_init(p, s);
}

void mixture_free(Solver *s) {
  chem_mech_free(s->mech);
  s->mech = NULL;
  free(s->ref_U);
  free(s->T_guess);
  free(s->mix_transport);
  if (s->znd) chem_znd_free(s->znd);
  free(s->znd);
  s->znd = NULL;
  s->ref_U = s->T_guess = NULL;
  s->mix_transport = NULL;
}

double mixture_face_T_guess(const Solver *s, int side, int f) {
  const Mesh *m = s->mesh;
  int n2 = s->n_dof_face, e = m->side_master_elem[side], ls = m->side_master_locside[side];
  int flip = 0;
  if (e < 0) {
    e = m->side_slave_elem[side];
    ls = m->side_slave_locside[side];
    flip = m->side_flip[side];
  }
  return s->T_guess[(long)e * s->n_dof_elem + s->s2v[(flip * 6 + ls) * n2 + f]];
}

void mixture_exact(const Solver *s, const double x[3], double t, double *U) {
  if (s->znd) {
    mixture_znd_state(s, x, t, U);
    return;
  }
  mix_exact_state(s->mech, &s->exact, s->ref_U, x, t, U);
}

void mixture_bc_outer_state(const Solver *s, int bc, double T_guess, const double *uL,
                            const double n[3], const double x[3], double t, double *uR) {
  mix_bc_outer_state(s->mech, &s->exact, s->ref_U, s->bc_info[2 * bc], s->bc_info[2 * bc + 1],
                     T_guess, uL, n, x, t, uR);
}
