/* hexdg convergence: runs one parameter file on a series of meshes (h) or polynomial degrees (p),
 * collects the L2 and Linf error norms per variable that each run computes against its exact
 * function (analysis/analyze.h, FLEXI's CalcErrorNorms), and prints and writes the errors with
 * the experimental orders of convergence EOC = log(e_{k-1}/e_k) / log(h_{k-1}/h_k) (h ~ 1/elems
 * per direction for --elems; for --N the order between consecutive degrees is log(e_{k-1}/e_k)
 * per degree step, reported as the error ratio's log). */
#include "app/convergence.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analyze.h"
#include "core/error.h"
#include "core/params.h"
#include "parallel/parallel.h"
#include "physics/mixture.h"
#include "time/simulation.h"

#define CONV_MAX_RUNS 32
#define CONV_MAX_VARS HX_NVAR_MAX

typedef enum { SERIES_ELEMS, SERIES_N, SERIES_MESHES } SeriesKind;

typedef struct {
  const char *ini, *backend, *csv;
  SeriesKind kind;
  int n_runs;
  int value[CONV_MAX_RUNS];        /* elements per direction, or N */
  const char *mesh[CONV_MAX_RUNS]; /* --mesh-list */
  int fixed_N;                     /* --N n beside --elems/--mesh-list (0: the file's) */
} ConvOptions;

typedef struct {
  int n_var;
  char names[CONV_MAX_VARS][64];
  double L2[CONV_MAX_RUNS][CONV_MAX_VARS], Linf[CONV_MAX_RUNS][CONV_MAX_VARS];
  double h[CONV_MAX_RUNS]; /* mesh size measure: 1/elems, or (nElems)^(-1/3) for mesh files */
  long n_dof[CONV_MAX_RUNS];
} ConvTable;

static void convergence_usage(FILE *f) {
  fprintf(f, "usage: hexdg convergence case.ini --elems 2,4,8,16 [--N n] [options]\n"
             "       hexdg convergence case.ini --N 1..9 [options]\n"
             "       hexdg convergence case.ini --mesh-list a_mesh.h5,b_mesh.h5,... [--N n]\n"
             "                                  [options]\n"
             "Runs the case once per entry (--elems: MeshFile = box with BoxElems = (/n,n,n/);\n"
             "--mesh-list: MeshFile = each file, finest last; --N: the polynomial degrees) and\n"
             "prints the L2 and Linf errors of every variable against the exact function with\n"
             "the experimental order of convergence (EOC) between consecutive runs.\n"
             "options:\n"
             "  --backend cpu|cuda   backend of every run (default: the file's Backend)\n"
             "  -o FILE.csv          the table as CSV (default: <ProjectName>_Convergence.csv)\n"
             "  --help               this text\n"
             "Plot: python3 tools/convergence_plot.py FILE.csv (log-log PNG).\n");
}

/* "2,4,8" or "1..9" (or "1-9") into values; returns the count, 0 on a syntax error. */
static int parse_int_list(const char *text, int *out, int max) {
  int a, b, n = 0;
  char tail;
  if (sscanf(text, "%d..%d%c", &a, &b, &tail) == 2 || sscanf(text, "%d-%d%c", &a, &b, &tail) == 2) {
    for (int v = a; v <= b && n < max; v++)
      out[n++] = v;
    return a <= b && b - a < max ? n : 0;
  }
  const char *c = text;
  while (*c && n < max) {
    char *end;
    long v = strtol(c, &end, 10);
    if (end == c || v < 1) return 0;
    out[n++] = (int)v;
    c = *end == ',' ? end + 1 : end;
    if (*end && *end != ',') return 0;
  }
  return *c ? 0 : n;
}

static int parse_mesh_list(char *text, ConvOptions *o) {
  for (char *tok = strtok(text, ","); tok && o->n_runs < CONV_MAX_RUNS; tok = strtok(NULL, ","))
    o->mesh[o->n_runs++] = tok;
  return o->n_runs;
}

static int parse_options(int argc, char **argv, ConvOptions *o, int *help) {
  const char *elems = NULL, *Ns = NULL;
  char *meshes = NULL;
  memset(o, 0, sizeof *o);
  *help = 0;
  for (int a = 0; a < argc; a++) {
    const char *k = argv[a], *v = a + 1 < argc ? argv[a + 1] : NULL;
    if (!strcmp(k, "--help") || !strcmp(k, "-h")) {
      *help = 1;
      return HX_OK;
    }
    if (k[0] != '-') {
      if (o->ini)
        return HX_ERROR(HX_ERR_INPUT, "hexdg convergence: one parameter file only (%s)", k);
      o->ini = k;
      continue;
    }
    if (!v) return HX_ERROR(HX_ERR_INPUT, "hexdg convergence: %s needs a value (see --help)", k);
    if (!strcmp(k, "--elems"))
      elems = v;
    else if (!strcmp(k, "--N"))
      Ns = v;
    else if (!strcmp(k, "--mesh-list"))
      meshes = argv[a + 1];
    else if (!strcmp(k, "--backend"))
      o->backend = v;
    else if (!strcmp(k, "-o"))
      o->csv = v;
    else
      return HX_ERROR(HX_ERR_INPUT, "hexdg convergence: unknown option %s (see --help)", k);
    a++;
  }
  if (!o->ini) return HX_ERROR(HX_ERR_INPUT, "hexdg convergence: no parameter file (see --help)");
  if (elems && meshes)
    return HX_ERROR(HX_ERR_INPUT, "hexdg convergence: --elems and --mesh-list exclude each other");
  int Nvals[CONV_MAX_RUNS], nN = 0;
  if (Ns && !(nN = parse_int_list(Ns, Nvals, CONV_MAX_RUNS)))
    return HX_ERROR(HX_ERR_INPUT,
                    "hexdg convergence: --N %s: give a degree, a list 2,3,4 or a "
                    "range 1..9",
                    Ns);
  if (elems) {
    o->kind = SERIES_ELEMS;
    if (!(o->n_runs = parse_int_list(elems, o->value, CONV_MAX_RUNS)))
      return HX_ERROR(HX_ERR_INPUT, "hexdg convergence: --elems %s: give a list like 2,4,8,16",
                      elems);
  } else if (meshes) {
    o->kind = SERIES_MESHES;
    parse_mesh_list(meshes, o);
  } else if (nN > 1) {
    o->kind = SERIES_N;
    o->n_runs = nN;
    memcpy(o->value, Nvals, sizeof(int) * nN);
    return HX_OK;
  } else {
    return HX_ERROR(HX_ERR_INPUT, "hexdg convergence: give --elems, --mesh-list or --N with "
                                  "several degrees (see --help)");
  }
  if (nN > 1)
    return HX_ERROR(HX_ERR_INPUT, "hexdg convergence: an h-series takes one --N (got %s)", Ns);
  o->fixed_N = nN == 1 ? Nvals[0] : 0;
  if (o->n_runs < 2) return HX_ERROR(HX_ERR_INPUT, "hexdg convergence: give at least two runs");
  return HX_OK;
}

/* The parameter file with run k's overrides. */
static int run_params(const ConvOptions *o, int k, Params **out) {
  char text[64];
  Params *p = params_create();
  if (!p) return HX_ERR_MEM;
  int rc = simulation_define_params(p);
  if (rc == HX_OK) rc = params_read_file(p, o->ini);
  if (rc == HX_OK && o->kind == SERIES_ELEMS) {
    snprintf(text, sizeof text, "(/%d,%d,%d/)", o->value[k], o->value[k], o->value[k]);
    rc = params_set(p, "MeshFile", "box", "--elems");
    if (rc == HX_OK) rc = params_set(p, "BoxElems", text, "--elems");
  }
  if (rc == HX_OK && o->kind == SERIES_MESHES)
    rc = params_set(p, "MeshFile", o->mesh[k], "--mesh-list");
  if (rc == HX_OK && (o->kind == SERIES_N || o->fixed_N > 0)) {
    snprintf(text, sizeof text, "%d", o->kind == SERIES_N ? o->value[k] : o->fixed_N);
    rc = params_set(p, "N", text, "--N");
  }
  if (rc == HX_OK && o->backend) rc = params_set(p, "Backend", o->backend, "--backend");
  if (rc == HX_OK && !params_is_set(p, "IniExactFunc"))
    rc = HX_ERROR(HX_ERR_INPUT,
                  "%s: a convergence study needs IniExactFunc (the exact solution "
                  "the errors are measured against)",
                  o->ini);
  if (rc != HX_OK) {
    params_destroy(p);
    return rc;
  }
  *out = p;
  return HX_OK;
}

static int run_one(const ConvOptions *o, int k, ConvTable *t, char *project, size_t len) {
  Params *p;
  HX_CHECK(run_params(o, k, &p));
  Simulation *sim = NULL;
  int rc = simulation_create(p, NULL, &sim);
  params_destroy(p);
  if (rc != HX_OK) return rc;
  sim->quiet = 1;
  rc = simulation_run(sim);
  if (rc == HX_OK) rc = simulation_sync_host(sim);
  if (rc == HX_OK) {
    const Solver *s = sim->solver;
    if (s->n_var > CONV_MAX_VARS) rc = HX_ERROR(HX_ERR_INPUT, "too many variables (%d)", s->n_var);
    double L2[CONV_MAX_VARS], Linf[CONV_MAX_VARS];
    if (rc == HX_OK) analyze_error_norms(&sim->ana, s, sim->t, L2, Linf);
    t->n_var = s->n_var;
    for (int v = 0; rc == HX_OK && v < s->n_var; v++) {
      snprintf(t->names[v], sizeof t->names[v], "%s", s->var_names[v]);
      t->L2[k][v] = L2[v];
      t->Linf[k][v] = Linf[v];
    }
    long n_elems = s->mesh->n_elems, n_dof = s->n_dof;
    double sums[2] = {(double)n_elems, (double)n_dof};
    par_sum(sums, 2);
    t->n_dof[k] = (long)sums[1];
    t->h[k] = o->kind == SERIES_ELEMS ? 1.0 / o->value[k] : pow(sums[0], -1.0 / 3.0);
    snprintf(project, len, "%s", sim->project);
  }
  simulation_destroy(sim);
  return rc;
}

/* EOC between runs k-1 and k: over the mesh size for h-series; for p-series the decay exponent
 * per degree, log(e_{k-1}/e_k) (spectral convergence shows as a constant). */
static double eoc(const ConvOptions *o, const ConvTable *t, const double e[][CONV_MAX_VARS], int k,
                  int v) {
  if (k == 0 || !(e[k][v] > 0.0) || !(e[k - 1][v] > 0.0)) return NAN;
  if (o->kind == SERIES_N) return log(e[k - 1][v] / e[k][v]) / (o->value[k] - o->value[k - 1]);
  return log(e[k - 1][v] / e[k][v]) / log(t->h[k - 1] / t->h[k]);
}

static void print_table(const ConvOptions *o, const ConvTable *t) {
  const char *col = o->kind == SERIES_N ? "N" : o->kind == SERIES_ELEMS ? "elems" : "mesh";
  for (int norm = 0; norm < 2; norm++) {
    const double(*e)[CONV_MAX_VARS] = norm ? t->Linf : t->L2;
    printf("\n%s errors%s\n%-6s %10s", norm ? "Linf" : "L2",
           o->kind == SERIES_N ? " (EOC: log of the error ratio per degree)" : "", col, "nDOF");
    for (int v = 0; v < t->n_var; v++)
      printf(" %14.14s %6s", t->names[v], "EOC");
    printf("\n");
    for (int k = 0; k < o->n_runs; k++) {
      if (o->kind == SERIES_MESHES)
        printf("%-6d %10ld", k + 1, t->n_dof[k]);
      else
        printf("%-6d %10ld", o->value[k], t->n_dof[k]);
      for (int v = 0; v < t->n_var; v++) {
        const double r = eoc(o, t, e, k, v);
        if (k == 0)
          printf(" %14.6e %6s", e[k][v], "-");
        else
          printf(" %14.6e %6.2f", e[k][v], r);
      }
      printf("\n");
    }
  }
}

static int write_csv(const ConvOptions *o, const ConvTable *t, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return HX_ERROR(HX_ERR_IO, "cannot write %s (check the directory)", path);
  fprintf(f, "%s,h,nDOF", o->kind == SERIES_N ? "N" : o->kind == SERIES_ELEMS ? "elems" : "mesh");
  for (int norm = 0; norm < 2; norm++)
    for (int v = 0; v < t->n_var; v++)
      fprintf(f, ",%s_%s,EOC_%s_%s", norm ? "Linf" : "L2", t->names[v], norm ? "Linf" : "L2",
              t->names[v]);
  fprintf(f, "\n");
  for (int k = 0; k < o->n_runs; k++) {
    if (o->kind == SERIES_MESHES)
      fprintf(f, "%s", o->mesh[k]);
    else
      fprintf(f, "%d", o->value[k]);
    fprintf(f, ",%.10e,%ld", t->h[k], t->n_dof[k]);
    for (int norm = 0; norm < 2; norm++)
      for (int v = 0; v < t->n_var; v++)
        fprintf(f, ",%.10e,%.6f", (norm ? t->Linf : t->L2)[k][v],
                eoc(o, t, norm ? t->Linf : t->L2, k, v));
    fprintf(f, "\n");
  }
  fclose(f);
  return HX_OK;
}

int convergence_command(int argc, char **argv) {
  ConvOptions o;
  int help;
  if (parse_options(argc, argv, &o, &help) != HX_OK) return 1;
  if (help) {
    convergence_usage(stdout);
    return 0;
  }
  ConvTable *t = calloc(1, sizeof *t);
  if (!t) return 1;
  char project[256] = "hexdg";
  int rc = HX_OK;
  for (int k = 0; k < o.n_runs && rc == HX_OK; k++) {
    if (par_is_root()) {
      if (o.kind == SERIES_MESHES)
        printf("run %d/%d: MeshFile = %s\n", k + 1, o.n_runs, o.mesh[k]);
      else
        printf("run %d/%d: %s = %d\n", k + 1, o.n_runs, o.kind == SERIES_N ? "N" : "BoxElems",
               o.value[k]);
      fflush(stdout);
    }
    rc = run_one(&o, k, t, project, sizeof project);
  }
  if (rc == HX_OK && par_is_root()) {
    char path[512];
    if (o.csv)
      snprintf(path, sizeof path, "%s", o.csv);
    else
      snprintf(path, sizeof path, "%s_Convergence.csv", project);
    print_table(&o, t);
    rc = write_csv(&o, t, path);
    if (rc == HX_OK) printf("\ntable written to %s\n", path);
  }
  free(t);
  return rc == HX_OK ? 0 : 1;
}
