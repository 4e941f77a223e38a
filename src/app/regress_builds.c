/* FLEXI's CMake build options (builds.ini) as hexdg run-time parameters. FLEXI's defaults for
 * options a builds.ini leaves out are those of FLEXI's CMakeLists.txt (GAUSS nodes, parabolic,
 * constant viscosity, BR1, no FV, no split form, N at run time, navierstokes, default test
 * case). A build is a set of overrides; an option hexdg cannot honour makes it unsupported. */
#define _GNU_SOURCE /* open_memstream, strcasestr */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app/regress.h"
#include "core/error.h"
#include "core/params.h"
#include "time/simulation.h"

/* Options that only concern FLEXI's compilation, libraries or post-processing tools. */
static const char *const IGNORED_PREFIXES[] = {"binary",
                                               "CMAKE_",
                                               "LIBS_",
                                               "POSTI",
                                               "FLEXI_BUILDPOSTI",
                                               "FLEXI_PERFORMANCE",
                                               "FLEXI_PAPI",
                                               "FLEXI_MKL",
                                               "FLEXI_BUILD_HDF5",
                                               "FLEXI_MPI",
                                               "FLEXI_UNITTESTS",
                                               "FLEXI_INSTRUCTION",
                                               "FLEXI_EDDYVISCOSITY",
                                               "FLEXI_CODE_COVERAGE"};

bool rg_hexdg_knows(const char *key) {
  static char *registry = NULL; /* `hexdg --help --markdown`, built once */
  if (!registry) {
    size_t len = 0;
    FILE *f = open_memstream(&registry, &len);
    Params *p = params_create();
    if (!f || !p || simulation_define_params(p) != HX_OK) {
      if (f) fclose(f);
      params_destroy(p);
      return false;
    }
    params_write_markdown(p, f);
    fclose(f);
    params_destroy(p);
  }
  char pattern[96]; /* a parameter's row, or with key "`name`" a choice anywhere */
  rg_fmt(pattern, sizeof pattern, key[0] == '`' ? "%s" : "| `%s` |", key);
  return registry && strcasestr(registry, pattern);
}

static void add(RgBuild *b, const char *key, const char *value, bool file_wins) {
  if (b->n >= RG_MAX_OVERRIDES) return;
  RgOverride *o = &b->ov[b->n++];
  rg_fmt(o->key, sizeof o->key, "%s", key);
  rg_fmt(o->value, sizeof o->value, "%s", value);
  o->file_wins = file_wins;
}

static void unsupported(RgBuild *b, const char *fmt, const char *a, const char *c) {
  if (b->unsupported[0]) return; /* the first reason is enough */
  rg_fmt(b->unsupported, sizeof b->unsupported, fmt, a, c);
}

static const char *get(const RgKeyFile *kf, const int *digits, const char *key, const char *def) {
  const char *v = kf ? rg_combo_value(kf, digits, key) : NULL;
  return v ? v : def;
}

static bool on(const char *v) {
  return !strcasecmp(v, "ON") || !strcasecmp(v, "T");
}

static void map_fv(RgBuild *b, const char *fv, const char *recon, bool parabolic) {
  (void)parabolic;
  if (!strcasecmp(fv, "OFF")) {
    add(b, "IndicatorType", "none", false); /* FLEXI without FV: the indicator switches nothing */
    return;
  }
  bool switching = !strcasecmp(fv, "SWITCH") || !strcasecmp(fv, "ON"); /* ON: FLEXI's old name */
  if (!switching && strcasecmp(fv, "BLEND")) {
    unsupported(b, "FLEXI_FV=%s is not a FLEXI FV mode (OFF, SWITCH, BLEND)%s", fv, "");
    return;
  }
  if (rg_hexdg_knows("FV_Mode"))
    add(b, "FV_Mode", switching ? "switching" : "blending", false);
  else if (switching)
    unsupported(b, "FV switching (FLEXI_FV=%s): this hexdg has FV blending only (no FV_Mode)%s", fv,
                "");
  /* no reconstruction: FLEXI_FV_RECONSTRUCTION = OFF, and every blending build: FLEXI's
   * FV_CalcGradients skips the elements with FV_Elems = 0, which blending never sets, so its
   * blended subcells are first order whatever FV_LimiterType says (GALAEXI's CMake refuses FV
   * reconstruction altogether; docs/regress.md) */
  if (!on(recon) || !switching) add(b, "FV_LimiterType", "FirstOrder", false);
}

static void map_option(RgBuild *b, const char *key, const char *v) {
  if (!strcasecmp(key, "FLEXI_EQNSYSNAME")) {
    if (!strcasecmp(v, "rans_sa"))
      unsupported(b, "RANS (FLEXI_EQNSYSNAME=%s, Spalart-Allmaras) is not in hexdg%s", v, "");
    else if (strcasecmp(v, "navierstokes"))
      unsupported(b, "equation system FLEXI_EQNSYSNAME=%s is not in hexdg (navierstokes only)%s", v,
                  "");
  } else if (!strcasecmp(key, "FLEXI_EOS")) {
    if (strcasecmp(v, "idealgas"))
      unsupported(b, "FLEXI_EOS=%s is not in hexdg (idealgas only)%s", v, "");
  } else if (!strcasecmp(key, "FLEXI_TESTCASE")) {
    if (!strcasecmp(v, "default") || !strcasecmp(v, "taylorgreenvortex"))
      add(b, "TestCase", v, false);
    else
      unsupported(b,
                  "FLEXI test case FLEXI_TESTCASE=%s is not in hexdg (default, "
                  "taylorgreenvortex)%s",
                  v, "");
  } else if (!strcasecmp(key, "FLEXI_GCL") && on(v)) {
    unsupported(b,
                "FLEXI_GCL=%s (geometric conservation law for moving meshes) is not in "
                "hexdg%s",
                v, "");
  } else if (strcasecmp(v, "OFF")) {
    for (size_t i = 0; i < sizeof IGNORED_PREFIXES / sizeof *IGNORED_PREFIXES; i++)
      if (!strncasecmp(key, IGNORED_PREFIXES[i], strlen(IGNORED_PREFIXES[i]))) return;
    static const char *const HANDLED[] = {"FLEXI_POLYNOMIAL_DEGREE",
                                          "FLEXI_NODETYPE",
                                          "FLEXI_SPLIT_DG",
                                          "FLEXI_FV",
                                          "FLEXI_FV_RECONSTRUCTION",
                                          "FLEXI_2D",
                                          "FLEXI_PARABOLIC",
                                          "FLEXI_VISCOSITY",
                                          "FLEXI_LIFTING"};
    for (size_t i = 0; i < sizeof HANDLED / sizeof *HANDLED; i++)
      if (!strcasecmp(key, HANDLED[i])) return;
    unsupported(b, "build option %s=%s is unknown to hexdg regress", key, v);
  }
}

int rg_build_map(const RgKeyFile *kf, const int *digits, RgBuild *b) {
  *b = (RgBuild){0};
  if (kf) rg_combo_label(kf, digits, b->label, sizeof b->label);
  for (int i = 0; kf && i < kf->n_opts; i++)
    map_option(b, kf->opts[i].name, kf->opts[i].values[digits[i]]);
  const char *degree = get(kf, digits, "FLEXI_POLYNOMIAL_DEGREE", "N");
  if (strcasecmp(degree, "N")) add(b, "N", degree, false); /* N fixed at FLEXI's build time */
  const char *nodes = get(kf, digits, "FLEXI_NODETYPE", "GAUSS");
  if (strcasecmp(nodes, "GAUSS") && strcasecmp(nodes, "GAUSS-LOBATTO"))
    unsupported(b, "FLEXI_NODETYPE=%s is not a node type (GAUSS, GAUSS-LOBATTO)%s", nodes, "");
  add(b, "NodeType", nodes, false);
  /* GALAEXI stops only at a NaN density (its CalcTimeStep sets no error for p <= 0; the NaN
   * speed of sound drops out of its maximum): its checks ran through such states */
  if (strcasestr(get(kf, digits, "binary", ""), "galaexi"))
    add(b, "CheckAdmissibility", "F", false);
  /* FLEXI's 2-D build on its one-layer meshes: hexdg runs them in 3-D, the time step without zeta */
  if (on(get(kf, digits, "FLEXI_2D", "OFF"))) add(b, "Dimension", "2", false);
  /* FLEXI's split form reads SplitDG from the parameter file (default PI, as hexdg's) */
  if (!on(get(kf, digits, "FLEXI_SPLIT_DG", "OFF"))) add(b, "SplitDG", "none", false);
  bool parabolic = on(get(kf, digits, "FLEXI_PARABOLIC", "ON"));
  if (!parabolic) add(b, "mu0", "0.", false); /* Euler build: no viscous terms */
  const char *lifting = get(kf, digits, "FLEXI_LIFTING", "br1");
  if (parabolic && strcasecmp(lifting, "br1"))
    unsupported(b, "lifting FLEXI_LIFTING=%s: hexdg has BR1 lifting only%s", lifting, "");
  const char *visc = get(kf, digits, "FLEXI_VISCOSITY", "constant");
  if (parabolic) add(b, "ViscosityLaw", visc, false);
  map_fv(b, get(kf, digits, "FLEXI_FV", "OFF"), get(kf, digits, "FLEXI_FV_RECONSTRUCTION", "ON"),
         parabolic);
  return HX_OK;
}
