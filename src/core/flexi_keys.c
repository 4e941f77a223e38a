/* FLEXI's parameter vocabulary (names, defining module) and hexdg's disposition of each key; see
 * flexi_keys.h. Names are FLEXI's (its Fortran sources, prms%Create...Option, read 2024-2025); the
 * dispositions and reasons are hexdg's. */
#include "core/flexi_keys.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define IMPL(name, module, note)                                                                   \
  { name, module, FLEXI_KEY_IMPLEMENTED, NULL, note }
#define NOEFFECT(name, module, why)                                                                \
  { name, module, FLEXI_KEY_NOEFFECT, NULL, why }
#define OFF_ONLY(name, module, values, why)                                                        \
  { name, module, FLEXI_KEY_OFF_ONLY, values, why }
#define REFUSED(name, module, why)                                                                 \
  { name, module, FLEXI_KEY_REFUSED, NULL, why }

/* Shared reasons */
#define WHY_IMPLICIT                                                                               \
  "FLEXI's implicit time stepping (ESDIRK with Newton-GMRES and its preconditioners) is not "      \
  "in hexdg; use an explicit low-storage Runge-Kutta scheme (TimeDiscMethod = carpenterrk4-5, "    \
  "niegemannrk4-14, ...)"
#define WHY_LINADV                                                                                 \
  "FLEXI's linear scalar advection-diffusion equation (FLEXI_EQNSYSNAME=linearscalaradvection) "   \
  "is not in hexdg, which solves the compressible Navier-Stokes/Euler equations"
#define WHY_FILTER_OFF "read by FLEXI only with FilterType > 0, which hexdg does not offer"
#define WHY_OVERINT_OFF                                                                            \
  "read by FLEXI only with OverintegrationType > 0, which hexdg does not offer"
#define WHY_NONDIM_OFF "read by FLEXI only with UseNonDimensionalEqn = T; give R and mu0 instead"
#define WHY_WRITE_CSV "hexdg writes the CSV series whenever the quantity is computed"

static const FlexiKey flexi_keys[] = {
    /* output/output.f90 */
    IMPL("ProjectName", "output", NULL),
    IMPL("NVisu", "output", "default N, as FLEXI"),
    OFF_ONLY("NOut", "output", "-1",
             "state files at another polynomial degree than N are not written by hexdg; its "
             "states are at N (NOut = -1); hexdg convert --NVisu resamples for viewing"),
    NOEFFECT("Logging", "output",
             "FLEXI's per-rank debug log files; hexdg prints its messages to stdout and stderr"),
    NOEFFECT("ErrorFiles", "output",
             "FLEXI's per-rank error files; hexdg reports errors on stderr"),
    NOEFFECT("WriteErrorFiles", "output",
             "FLEXI's per-rank error files; hexdg reports errors on stderr"),
    IMPL("OutputFormat", "output", "None (0) and ParaView (3); Tecplot (1, 2) is not offered"),
    OFF_ONLY("ASCIIOutputFormat", "output", "CSV|0",
             "Tecplot-formatted ASCII series are not written by hexdg; its series are CSV"),
    NOEFFECT("doPrintStatusLine", "output", "hexdg always prints its progress line"),
    OFF_ONLY("WriteStateFiles", "output", "T",
             "running without state files is not offered; hexdg always writes them"),
    OFF_ONLY("WriteTimeAvgFiles", "output", "T",
             "time averages are always written when CalcTimeAverage = T"),
    NOEFFECT("Output2D", "output",
             "FLEXI's 2-D visualization of its 2-D builds; hexdg writes the one-layer mesh in 3-D"),
    NOEFFECT("NodeTypeVisu", "output",
             "hexdg's ParaView files sample at equidistant nodes (FLEXI's VISU)"),
    NOEFFECT("VarName", "posti",
             "a key of FLEXI's visualization tool; hexdg's ParaView files hold all variables"),
    /* mpi, io_hdf5 */
    NOEFFECT("GroupSize", "mpi", "FLEXI's grouping of ranks for file output"),
    NOEFFECT("gatheredWrite", "io_hdf5",
             "FLEXI's gathered HDF5 writes; hexdg writes one file with parallel HDF5"),
    /* restart */
    OFF_ONLY("ResetTime", "restart", "F",
             "restarting with the time reset to 0 is not offered; hexdg restarts at the state's "
             "time"),
    /* mesh/mesh.f90 */
    IMPL("MeshFile", "mesh", NULL),
    IMPL("useCurveds", "mesh", "F: only the 8 corner nodes of each element (trilinear), as FLEXI"),
    NOEFFECT("interpolateFromTree", "mesh",
             "tree metrics of non-conforming (mortar) meshes; FLEXI reads it for mortar meshes "
             "only and hexdg reads conforming meshes"),
    IMPL("meshScale", "mesh", "all node coordinates multiplied by this factor, as FLEXI"),
    OFF_ONLY("meshdeform", "mesh", "F",
             "FLEXI's sine deformation of Cartesian test meshes is not offered; hexdg mesh box "
             "--curving curves a box"),
    OFF_ONLY("crossProductMetrics", "mesh", "F",
             "cross-product metrics are not offered; hexdg computes the curl form, free-stream "
             "preserving"),
    NOEFFECT("debugmesh", "mesh",
             "FLEXI's debug visualization of the mesh; use OutputFormat = ParaView or hexdg "
             "convert"),
    IMPL("BoundaryName", "mesh", NULL),
    IMPL("BoundaryType", "mesh", "FLEXI's BC codes"),
    NOEFFECT("writePartitionInfo", "mesh", "a text file describing FLEXI's MPI partition"),
    NOEFFECT("GeometricNGeo", "mesh",
             "a key of older FLEXI releases; the NGeo stored in the mesh file is used, as in "
             "current FLEXI"),
    /* interpolation */
    IMPL("N", "interpolation", "a run-time choice in hexdg (FLEXI_POLYNOMIAL_DEGREE=N)"),
    /* equations/navierstokes/idealgas/eos.f90 */
    OFF_ONLY("UseNonDimensionalEqn", "eos", "F",
             "the non-dimensional form with BulkMach and BulkReynolds is not offered; give R and "
             "mu0"),
    NOEFFECT("BulkMach", "eos", WHY_NONDIM_OFF),
    NOEFFECT("BulkReynolds", "eos", WHY_NONDIM_OFF),
    IMPL("kappa", "eos", NULL),
    IMPL("R", "eos", NULL),
    IMPL("Pr", "eos", NULL),
    IMPL("mu0", "eos", NULL),
    IMPL("Ts", "eos", NULL),
    IMPL("Tref", "eos", NULL),
    IMPL("ExpoSuth", "eos", NULL),
    /* equations/navierstokes/equation.f90, riemann.f90, splitflux.f90 */
    IMPL("IniRefState", "equation", NULL),
    IMPL("RefState", "equation", NULL),
    REFUSED("BCStateFile", "equation",
            "boundary states read from a state file are not in hexdg; use a BoundaryType with "
            "an exact function or a RefState"),
    IMPL("eddyViscType", "equation", "FLEXI's codes: none 0, smagorinsky 1, vreman 3, sigma 4"),
    IMPL("Riemann", "riemann",
         "FLEXI's codes: lf 1, hllc 2, roe 3, roeentropyfix 33, hll 4, hlle 5"),
    IMPL("RiemannBC", "riemann", "FLEXI's codes and same -1"),
    IMPL("SplitDG", "splitflux", "FLEXI's codes: SD 0, MO 1, DU 2, KG 3, PI 4, CH 5"),
    /* dg/lifting */
    IMPL("doWeakLifting", "lifting", NULL),
    IMPL("doConservativeLifting", "lifting", NULL),
    NOEFFECT("etaBR2", "lifting",
             "the BR2 penalty, read by FLEXI's BR2 build only; hexdg lifts with BR1"),
    NOEFFECT("etaBR2_wall", "lifting",
             "the BR2 wall penalty, read by FLEXI's BR2 build only; hexdg lifts with BR1"),
    /* dg/overintegration, filter */
    OFF_ONLY("OverintegrationType", "overintegration", "0",
             "overintegration/cut-off filtering is not in hexdg; against aliasing use the split "
             "form (NodeType = GAUSS-LOBATTO, SplitDG)"),
    NOEFFECT("NUnder", "overintegration", WHY_OVERINT_OFF),
    NOEFFECT("NOver", "overintegration", WHY_OVERINT_OFF),
    OFF_ONLY("FilterType", "filter", "0",
             "modal filtering (cut-off, Hesthaven, LAF) is not in hexdg; against aliasing use the "
             "split form (SplitDG) or an eddy-viscosity model (eddyViscType)"),
    NOEFFECT("NFilter", "filter", WHY_FILTER_OFF),
    NOEFFECT("HestFilterParam", "filter", WHY_FILTER_OFF),
    NOEFFECT("LAF_alpha", "filter", WHY_FILTER_OFF),
    NOEFFECT("Filter_relax", "filter", WHY_FILTER_OFF),
    /* equations/navierstokes/idealgas/exactfunc.f90 */
    IMPL("IniExactFunc", "exactfunc", NULL),
    IMPL("AdvVel", "exactfunc", NULL),
    IMPL("IniCenter", "exactfunc", NULL),
    IMPL("IniAxis", "exactfunc", NULL),
    IMPL("IniAmplitude", "exactfunc", NULL),
    IMPL("IniFrequency", "exactfunc", NULL),
    IMPL("IniHalfwidth", "exactfunc", NULL),
    IMPL("MachShock", "exactfunc", NULL),
    IMPL("PreShockDens", "exactfunc", NULL),
    REFUSED("JetRadius", "exactfunc",
            "FLEXI's jet exact function is not in hexdg; see IniExactFunc for hexdg's list"),
    REFUSED("JetEnd", "exactfunc",
            "FLEXI's jet exact function is not in hexdg; see IniExactFunc for hexdg's list"),
    /* analyze/analyze.f90 */
    IMPL("CalcErrorNorms", "analyze", NULL),
    NOEFFECT("AnalyzeToFile", "analyze",
             "FLEXI's error-norm file out.<ProjectName>; hexdg writes "
             "<ProjectName>_ErrorNorms.csv"),
    IMPL("Analyze_dt", "analyze", NULL),
    IMPL("nWriteData", "analyze", NULL),
    IMPL("NAnalyze", "analyze", NULL),
    REFUSED("AnalyzeExactFunc", "analyze",
            "error norms against another exact function than IniExactFunc are not offered; "
            "hexdg compares with IniExactFunc"),
    REFUSED("AnalyzeRefState", "analyze",
            "error norms against another RefState than IniRefState are not offered; hexdg "
            "compares with IniRefState"),
    NOEFFECT("doMeasureFlops", "analyze", "PAPI flop counting of FLEXI builds with PAPI"),
    OFF_ONLY("PIDkill", "analyze", "-1",
             "stopping a run whose PID exceeds a limit is not offered; hexdg reports the PID and "
             "stops at tend or maxIter"),
    NOEFFECT("NCalcPID", "analyze", "read by FLEXI only with PIDkill > 0"),
    /* equations/navierstokes/analyze_equation.f90, timeavg.f90 */
    IMPL("CalcBodyForces", "analyze_equation", NULL),
    IMPL("CalcWallVelocity", "analyze_equation", NULL),
    OFF_ONLY("CalcBulkState", "analyze_equation", "F",
             "bulk-state integrals are not computed by hexdg"),
    IMPL("CalcMeanFlux", "analyze_equation", NULL),
    OFF_ONLY("CalcTotalStates", "analyze_equation", "F",
             "total-state integrals are not computed by hexdg"),
    NOEFFECT("WriteBodyForces", "analyze_equation", WHY_WRITE_CSV),
    NOEFFECT("WriteBulkState", "analyze_equation", WHY_WRITE_CSV),
    IMPL("WriteMeanFlux", "analyze_equation", NULL),
    NOEFFECT("WriteTotalStates", "analyze_equation", WHY_WRITE_CSV),
    IMPL("WriteWallVelocity", "analyze_equation", NULL),
    IMPL("CalcTimeAverage", "timeavg", NULL),
    IMPL("VarNameAvg", "timeavg", NULL),
    IMPL("VarNameFluc", "timeavg", NULL),
    /* timedisc/timedisc.f90 */
    IMPL("TimeDiscMethod", "timedisc", NULL),
    IMPL("TEnd", "timedisc", NULL),
    IMPL("CFLScale", "timedisc", NULL),
    IMPL("DFLScale", "timedisc", NULL),
    IMPL("maxIter", "timedisc", NULL),
    NOEFFECT("nCalcTimeStepMax", "timedisc",
             "hexdg computes the time step at every step (FLEXI's default 1)"),
    /* testcase/taylorgreenvortex/testcase.f90 (FLEXI_TESTCASE is hexdg's TestCase) */
    IMPL("MachNumber", "testcase", "taylorgreenvortex"),
    IMPL("IniConstDens", "testcase",
         "taylorgreenvortex: T constant density, F constant temperature"),
    IMPL("nAnalyzeTestCase", "testcase", "taylorgreenvortex: TGV integrals every n-th step"),
    NOEFFECT("nWriteStats", "testcase",
             "FLEXI buffers this many TGV lines before writing; hexdg writes each line at once"),
    /* indicator/indicator.f90 */
    IMPL("IndicatorType", "indicator", NULL),
    IMPL("IndVar", "indicator", NULL),
    IMPL("IndStartTime", "indicator", NULL),
    IMPL("nModes", "indicator", NULL),
    /* fv/fv.f90, fv_limiter.f90, fv blending */
    IMPL("FV_IndUpperThreshold", "fv", NULL),
    IMPL("FV_IndLowerThreshold", "fv", NULL),
    IMPL("FV_toDG_indicator", "fv", NULL),
    IMPL("FV_toDG_limit", "fv", NULL),
    IMPL("FV_toDGinRK", "fv", NULL),
    IMPL("FV_IniSupersample", "fv", NULL),
    IMPL("FV_IniSharp", "fv", NULL),
    IMPL("FV_alpha_min", "fv", NULL),
    IMPL("FV_alpha_max", "fv", NULL),
    IMPL("FV_doExtendAlpha", "fv", NULL),
    IMPL("FV_nExtendAlpha", "fv", NULL),
    IMPL("FV_alpha_ExtScale", "fv", NULL),
    IMPL("FV_LimiterType", "fv_limiter",
         "FLEXI's codes: none 0, minmod 1, sweby 2, vanalbada 3, gminmod 4, ospre 5, central 9"),
    IMPL("swebyb", "fv_limiter", NULL),
    /* equations/navierstokes/eddyVisc */
    IMPL("CS", "eddyVisc", NULL),
    IMPL("PrSGS", "eddyVisc", NULL),
    IMPL("VanDriest", "eddyVisc", NULL),
    /* sponge */
    IMPL("SpongeLayer", "sponge", NULL),
    IMPL("damping", "sponge", NULL),
    IMPL("SpongeShape", "sponge", NULL),
    IMPL("SpongeDistance", "sponge", NULL),
    IMPL("xStart", "sponge", NULL),
    IMPL("SpongeDir", "sponge", NULL),
    IMPL("SpongeRadius", "sponge", NULL),
    IMPL("SpongeCenter", "sponge", NULL),
    IMPL("SpongeAxis", "sponge", NULL),
    IMPL("SpongeBaseFlow", "sponge", NULL),
    IMPL("SpongeRefState", "sponge", NULL),
    IMPL("SpongeExactFunc", "sponge", NULL),
    IMPL("SpongeRefFile", "sponge", NULL),
    IMPL("tempFilterWidthSponge", "sponge", NULL),
    NOEFFECT("SpongeViz", "sponge", "a visualization file of the sponge strength"),
    /* recordpoints */
    IMPL("RP_inUse", "recordpoints", NULL),
    IMPL("RP_DefFile", "recordpoints", NULL),
    IMPL("RP_MaxMemory", "recordpoints", NULL),
    IMPL("RP_SamplingOffset", "recordpoints", NULL),
    /* implicit: newton, gmres, predictor, precond */
    REFUSED("EpsNewton", "implicit", WHY_IMPLICIT),
    REFUSED("nNewtonIter", "implicit", WHY_IMPLICIT),
    REFUSED("adaptepsNewton", "implicit", WHY_IMPLICIT),
    REFUSED("EisenstatWalker", "implicit", WHY_IMPLICIT),
    REFUSED("gammaEW", "implicit", WHY_IMPLICIT),
    REFUSED("EpsGMRES", "implicit", WHY_IMPLICIT),
    REFUSED("nRestarts", "implicit", WHY_IMPLICIT),
    REFUSED("nKDim", "implicit", WHY_IMPLICIT),
    REFUSED("scaleps", "implicit", WHY_IMPLICIT),
    REFUSED("FD_Order", "implicit", WHY_IMPLICIT),
    REFUSED("PredictorType", "predictor", WHY_IMPLICIT),
    REFUSED("PredictorOrder", "predictor", WHY_IMPLICIT),
    REFUSED("PrecondType", "precond", WHY_IMPLICIT),
    REFUSED("PrecondIter", "precond", WHY_IMPLICIT),
    REFUSED("SolveSystem", "precond", WHY_IMPLICIT),
    REFUSED("DoDisplayPrecond", "precond", WHY_IMPLICIT),
    REFUSED("DebugMatrix", "precond", WHY_IMPLICIT),
    REFUSED("HyperbolicPrec", "precond", WHY_IMPLICIT),
    REFUSED("NoFillIn", "precond", WHY_IMPLICIT),
    /* equations/linearscalaradvection */
    REFUSED("DiffC", "linearscalaradvection", WHY_LINADV),
};

static int str_ieq(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

const FlexiKey *flexi_key_find(const char *name) {
  for (int i = 0; i < flexi_key_count(); i++)
    if (str_ieq(flexi_keys[i].name, name)) return &flexi_keys[i];
  return NULL;
}

int flexi_key_count(void) {
  return (int)(sizeof flexi_keys / sizeof flexi_keys[0]);
}

const FlexiKey *flexi_key_at(int index) {
  return index >= 0 && index < flexi_key_count() ? &flexi_keys[index] : NULL;
}

const char *flexi_key_disposition_name(FlexiKeyDisposition d) {
  static const char *const names[] = {"implemented", "noeffect", "off_only", "refused"};
  return names[d];
}

/* A value as a canonical word: logicals as "T"/"F", numbers as "%.17g", else lower case. */
static void canonical(const char *text, char *out, size_t n) {
  static const char *const true_words[] = {"t", "true", ".true.", ".t."};
  static const char *const false_words[] = {"f", "false", ".false.", ".f."};
  for (size_t i = 0; i < 4; i++) {
    if (str_ieq(text, true_words[i])) {
      snprintf(out, n, "T");
      return;
    }
    if (str_ieq(text, false_words[i])) {
      snprintf(out, n, "F");
      return;
    }
  }
  char *end;
  double number = strtod(text, &end);
  if (end != text && *end == '\0') {
    snprintf(out, n, "%.17g", number);
    return;
  }
  size_t i = 0;
  for (; text[i] && i + 1 < n; i++)
    out[i] = (char)tolower((unsigned char)text[i]);
  out[i] = '\0';
}

int flexi_key_value_is_off(const FlexiKey *key, const char *value) {
  if (!key->off_values) return 0;
  char want[64], got[64], word[64];
  canonical(value, got, sizeof got);
  for (const char *p = key->off_values; *p;) {
    size_t len = strcspn(p, "|");
    snprintf(word, sizeof word, "%.*s", (int)len, p);
    canonical(word, want, sizeof want);
    if (strcmp(want, got) == 0) return 1;
    p += len + (p[len] == '|');
  }
  return 0;
}

void flexi_keys_write_markdown(FILE *f) {
  static const char *const titles[] = {
      "Implemented (FLEXI's meaning, default and codes)", "No effect (accepted with one notice)",
      "Accepted while off (FLEXI's 'off' value), refused otherwise",
      "Refused (the FLEXI feature hexdg lacks, and the nearest hexdg alternative)"};
  fputs("# FLEXI's parameters in hexdg\n\n"
        "Generated by `hexdg --help --flexi-keys > docs/flexi_keys.md` from "
        "`src/core/flexi_keys.c`. Every key of "
        "FLEXI's option registry (`prms%Create...Option` in FLEXI's sources) has one "
        "disposition. A key hexdg registers is implemented (see `docs/parameters.md`); keys "
        "neither FLEXI nor hexdg know are an error naming the closest valid key.\n",
        f);
  for (int d = FLEXI_KEY_IMPLEMENTED; d <= FLEXI_KEY_REFUSED; d++) {
    fprintf(f, "\n## %s\n\n| Key | FLEXI module | %s |\n| --- | --- | --- |\n", titles[d],
            d == FLEXI_KEY_IMPLEMENTED ? "Notes" : "Why");
    for (int i = 0; i < flexi_key_count(); i++) {
      const FlexiKey *k = &flexi_keys[i];
      if ((int)k->disposition != d) continue;
      fprintf(f, "| `%s` | %s | ", k->name, k->module);
      if (k->off_values) fprintf(f, "accepted: `%s`; otherwise: ", k->off_values);
      fprintf(f, "%s |\n", k->why ? k->why : "");
    }
  }
}
