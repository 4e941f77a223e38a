/* analyze.ini of reggie: h5diff_*, compare_data_file_*, analyze_L2, analyze_Convtest_h_* and
 * analyze_Convtest_p_* (the analyzers FLEXI's checks use), evaluated in C. */
#define _POSIX_C_SOURCE 200809L
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>

#include "app/regress.h"
#include "core/error.h"

#define RG_MAX_VARS 64

int rg_table_add(RgTable *t, const RgRow *r) {
  if (t->n == t->cap) {
    int cap = t->cap ? 2 * t->cap : 64;
    RgRow *rows = realloc(t->rows, (size_t)cap * sizeof *rows);
    HX_ALLOC_CHECK(rows);
    t->rows = rows;
    t->cap = cap;
  }
  t->rows[t->n++] = *r;
  return HX_OK;
}

void rg_table_free(RgTable *t) {
  free(t->rows);
  *t = (RgTable){0};
}

/* Values after ':' of a line that starts with name (after blanks) followed by blanks and ':' */
static int parse_norm_line(const char *line, const char *name, double *v, int max) {
  while (*line == ' ' || *line == '\t')
    line++;
  size_t len = strlen(name);
  if (strncmp(line, name, len) != 0) return -1;
  const char *c = line + len;
  while (*c == ' ' || *c == '\t')
    c++;
  if (*c != ':') return -1;
  c++;
  int n = 0;
  char *end;
  for (double x = strtod(c, &end); end != c && n < max; x = strtod(c, &end)) {
    v[n++] = x;
    c = end;
  }
  return n;
}

int rg_read_l2(const char *dir, double *l2, int max) {
  char path[2048];
  rg_fmt(path, sizeof path, "%s/std.out", dir);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char buf[4096];
  int n = -1;
  double tmp[RG_MAX_VARS];
  while (fgets(buf, sizeof buf, f)) {
    int k = parse_norm_line(buf, "L_2", tmp, RG_MAX_VARS);       /* FLEXI's std.out */
    if (k < 0) k = parse_norm_line(buf, "L2", tmp, RG_MAX_VARS); /* hexdg's */
    if (k > 0) {
      n = k < max ? k : max;
      memcpy(l2, tmp, (size_t)n * sizeof *l2);
    }
  }
  fclose(f);
  return n;
}

static double *read_dataset(hid_t file, const char *name, int *rank, hsize_t *dims, long *count) {
  hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
  if (set < 0) return NULL;
  hid_t space = H5Dget_space(set);
  *rank = H5Sget_simple_extent_ndims(space);
  double *data = NULL;
  if (*rank >= 0 && *rank <= 8) {
    H5Sget_simple_extent_dims(space, dims, NULL);
    *count = 1;
    for (int d = 0; d < *rank; d++)
      *count *= (long)dims[d];
    data = malloc((size_t)(*count > 0 ? *count : 1) * sizeof *data);
    if (data && H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
      free(data);
      data = NULL;
    }
  }
  H5Sclose(space);
  H5Dclose(set);
  return data;
}

int rg_h5_compare(const char *file, const char *set, const char *ref, const char *set_ref,
                  bool relative, double tol, double *max_diff, long *n_above, char *why,
                  size_t n_why) {
  H5E_auto2_t old_func;
  void *old_data;
  H5Eget_auto2(H5E_DEFAULT, &old_func, &old_data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* missing files/sets are reported in the table */
  int rc = HX_ERR_INPUT;
  hid_t f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t r = H5Fopen(ref, H5F_ACC_RDONLY, H5P_DEFAULT);
  double *a = NULL, *b = NULL;
  int rank_a = -1, rank_b = -1;
  hsize_t dims_a[8], dims_b[8];
  long na = 0, nb = 0;
  if (f < 0)
    rg_fmt(why, n_why, "cannot open %s", file);
  else if (r < 0)
    rg_fmt(why, n_why, "cannot open the reference %s", ref);
  else if (!(a = read_dataset(f, set, &rank_a, dims_a, &na)))
    rg_fmt(why, n_why, "no data set %s in %s", set, file);
  else if (!(b = read_dataset(r, set_ref, &rank_b, dims_b, &nb)))
    rg_fmt(why, n_why, "no data set %s in the reference %s", set_ref, ref);
  else if (rank_a != rank_b || memcmp(dims_a, dims_b, (size_t)rank_a * sizeof *dims_a) != 0)
    rg_fmt(why, n_why, "%s has %ld values, the reference %ld (shapes differ: other N or mesh?)",
           set, na, nb);
  else {
    *max_diff = 0;
    *n_above = 0;
    for (long i = 0; i < na; i++) {
      double d = fabs(a[i] - b[i]);
      if (relative && b[i] != 0) d /= fabs(b[i]); /* h5diff -p: absolute where the value is 0 */
      if (!(d <= tol)) (*n_above)++;
      if (d > *max_diff || isnan(d)) *max_diff = isnan(d) ? INFINITY : d;
    }
    rc = HX_OK;
  }
  free(a);
  free(b);
  if (f >= 0) H5Fclose(f);
  if (r >= 0) H5Fclose(r);
  H5Eset_auto2(H5E_DEFAULT, old_func, old_data);
  return rc;
}

/* The i-th entry of a reggie list; a shorter list repeats its last entry. */
static const char *entry(const RgOption *o, int i, const char *def) {
  if (!o || o->n_values == 0) return def;
  return o->values[i < o->n_values ? i : o->n_values - 1];
}

static const RgOption *opt(const RgKeyFile *kf, const char *key) {
  return rg_keyfile_find(kf, key);
}

static bool truthy(const char *v) {
  return v && (!strcasecmp(v, "T") || !strcasecmp(v, "True") || !strcasecmp(v, ".true.") ||
               !strcmp(v, "1"));
}

static void row_for(RgRow *row, const RgRow *proto, const RgRunResult *run, const char *name) {
  *row = *proto;
  rg_fmt(row->run, sizeof row->run, "%s", run ? run->label : "all runs");
  rg_fmt(row->analyzer, sizeof row->analyzer, "%s", name);
}

static int h5diff_run(const RgKeyFile *kf, const RgRunResult *run, int idx, int k,
                      const RgRow *proto, RgTable *t) {
  RgRow row;
  row_for(&row, proto, run, "h5diff");
  const char *file = entry(opt(kf, "h5diff_file"), k, NULL);
  const char *ref = entry(opt(kf, "h5diff_reference_file"), k, NULL);
  char sets[256];
  rg_fmt(sets, sizeof sets, "%s", entry(opt(kf, "h5diff_data_set"), k, "DG_Solution"));
  char *set_ref = strchr(sets, ' '); /* "DG_Solution\sField1": names in file and reference */
  if (set_ref) *set_ref++ = '\0';
  double tol = atof(entry(opt(kf, "h5diff_tolerance_value"), k, "1e-5"));
  bool relative = !strcasecmp(entry(opt(kf, "h5diff_tolerance_type"), k, "absolute"), "relative");
  long max_differences = atol(entry(opt(kf, "h5diff_max_differences"), k, "0"));
  rg_fmt(row.tolerance, sizeof row.tolerance, "%.1e %s", tol, relative ? "rel" : "abs");
  (void)idx;
  if (!file || !ref) {
    row.status = RG_FAIL;
    rg_fmt(row.reason, sizeof row.reason,
           "analyze.ini: h5diff_file or h5diff_reference_file missing");
    return rg_table_add(t, &row);
  }
  char fpath[2048], rpath[2048], why[300] = "";
  rg_fmt(fpath, sizeof fpath, "%s/%s", run->dir, file);
  rg_fmt(rpath, sizeof rpath, "%s/%s", run->dir, ref);
  double diff = 0;
  long above = 0;
  if (access(rpath, R_OK) != 0 && access(fpath, R_OK) == 0) { /* the run copies the example */
    row.status = RG_SKIPPED;
    rg_fmt(row.reason, sizeof row.reason,
           "the reference %s is not in the check's folder (a Git LFS object missing from the "
           "data): %s is not compared",
           ref, file);
    return rg_table_add(t, &row);
  }
  if (rg_h5_compare(fpath, sets, rpath, set_ref ? set_ref : sets, relative, tol, &diff, &above, why,
                    sizeof why) != HX_OK) {
    row.status = RG_FAIL;
    rg_fmt(row.reason, sizeof row.reason, "%s", why);
    return rg_table_add(t, &row);
  }
  rg_fmt(row.measured, sizeof row.measured, "%.3e", diff);
  row.status = above <= max_differences ? RG_PASS : RG_FAIL;
  rg_fmt(row.reason, sizeof row.reason, "%s vs %s: %ld of the values differ by more", file, ref,
         above);
  return rg_table_add(t, &row);
}

static int h5diff(const RgKeyFile *kf, const RgRunResult *runs, int n_runs, const RgRow *proto,
                  RgTable *t) {
  const RgOption *files = opt(kf, "h5diff_file");
  bool per_run = truthy(entry(opt(kf, "h5diff_one_diff_per_run"), 0, "F"));
  for (int i = 0; i < n_runs; i++) {
    if (!runs[i].ok) continue;
    if (per_run) {
      HX_CHECK(h5diff_run(kf, &runs[i], i, i, proto, t));
    } else {
      for (int k = 0; k < (files ? files->n_values : 1); k++)
        HX_CHECK(h5diff_run(kf, &runs[i], i, k, proto, t));
    }
  }
  return HX_OK;
}

/* Numbers of line `line` (1-based, <= 0: last) of a delimited text file */
static int read_data_line(const char *path, int line, char delim, double *v, int max) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char buf[8192], keep[8192] = "";
  int n = 0;
  while (fgets(buf, sizeof buf, f)) {
    n++;
    if (buf[strspn(buf, " \t\r\n")] == '\0') continue;
    if (line <= 0 || n == line) rg_fmt(keep, sizeof keep, "%s", buf);
    if (n == line) break;
  }
  fclose(f);
  int k = 0;
  char *save = NULL, dl[2] = {delim, '\0'};
  for (char *tok = strtok_r(keep, dl, &save); tok && k < max; tok = strtok_r(NULL, dl, &save)) {
    char *end;
    double x = strtod(tok, &end);
    v[k++] = end == tok ? NAN : x; /* text columns: compared as "not a number" on both sides */
  }
  return k;
}

static int compare_data_file(const RgKeyFile *kf, const RgRunResult *runs, int n_runs,
                             const RgRow *proto, RgTable *t) {
  bool per_run = truthy(entry(opt(kf, "compare_data_file_one_diff_per_run"), 0, "T"));
  const RgOption *names = opt(kf, "compare_data_file_name");
  for (int i = 0; i < n_runs; i++) {
    if (!runs[i].ok) continue;
    int k0 = per_run ? i : 0, k1 = per_run ? i + 1 : (names ? names->n_values : 1);
    for (int k = k0; k < k1; k++) {
      RgRow row;
      row_for(&row, proto, &runs[i], "compare_data_file");
      const char *name = entry(names, k, "");
      const char *ref = entry(opt(kf, "compare_data_file_reference"), k, "");
      double tol = atof(entry(opt(kf, "compare_data_file_tolerance"), k, "0"));
      bool rel = !strcasecmp(entry(opt(kf, "compare_data_file_tolerance_type"), k, "absolute"),
                             "relative");
      int line = atoi(entry(opt(kf, "compare_data_file_line"), k, "0"));
      char delim = entry(opt(kf, "compare_data_file_delimiter"), k, ",")[0];
      long max_diff = atol(entry(opt(kf, "compare_data_file_max_differences"), k, "0"));
      rg_fmt(row.tolerance, sizeof row.tolerance, "%.1e %s", tol, rel ? "rel" : "abs");
      char p1[2048], p2[2048];
      rg_fmt(p1, sizeof p1, "%s/%s", runs[i].dir, name);
      rg_fmt(p2, sizeof p2, "%s/%s", runs[i].dir, ref);
      double a[256], b[256];
      int na = read_data_line(p1, line, delim, a, 256),
          nb = read_data_line(p2, line, delim, b, 256);
      if (na < 0 || nb < 0 || na != nb) {
        row.status = RG_FAIL;
        rg_fmt(row.reason, sizeof row.reason, "%s",
               na < 0   ? "output file missing"
               : nb < 0 ? "reference file missing"
                        : "the lines have different lengths");
      } else {
        double worst = 0;
        long above = 0;
        for (int c = 0; c < na; c++) {
          if (isnan(a[c]) && isnan(b[c])) continue;
          double d = fabs(a[c] - b[c]);
          if (rel && b[c] != 0) d /= fabs(b[c]);
          if (!(d <= tol)) above++;
          if (!(d <= worst)) worst = d;
        }
        rg_fmt(row.measured, sizeof row.measured, "%.3e", worst);
        row.status = above <= max_diff ? RG_PASS : RG_FAIL;
        rg_fmt(row.reason, sizeof row.reason, "%s vs %s: %ld of %d columns differ by more", name,
               ref, above, na);
      }
      HX_CHECK(rg_table_add(t, &row));
    }
  }
  return HX_OK;
}

static int analyze_l2(const RgKeyFile *kf, const RgRunResult *runs, int n_runs, const RgRow *proto,
                      RgTable *t) {
  double tol = atof(entry(opt(kf, "analyze_L2"), 0, "0"));
  for (int i = 0; i < n_runs; i++) {
    if (!runs[i].ok) continue;
    RgRow row;
    row_for(&row, proto, &runs[i], "L2");
    rg_fmt(row.tolerance, sizeof row.tolerance, "<= %.2e", tol);
    double l2[RG_MAX_VARS];
    int n = rg_read_l2(runs[i].dir, l2, RG_MAX_VARS);
    if (n <= 0) {
      row.status = RG_FAIL;
      rg_fmt(row.reason, sizeof row.reason,
             "no L2 error line in std.out (CalcErrorNorms = F, or no analyze step?)");
    } else {
      double worst = 0;
      for (int v = 0; v < n; v++)
        if (!(l2[v] <= worst)) worst = l2[v];
      rg_fmt(row.measured, sizeof row.measured, "%.3e", worst);
      row.status = worst <= tol ? RG_PASS : RG_FAIL;
      rg_fmt(row.reason, sizeof row.reason, "largest L2 error of %d variables", n);
    }
    HX_CHECK(rg_table_add(t, &row));
  }
  return HX_OK;
}

/* L2 errors of every run (all must have the same number of variables); false with a reason */
static bool all_errors(const RgRunResult *runs, int n_runs, double (*e)[RG_MAX_VARS], int *n_var,
                       char *why, size_t n_why) {
  *n_var = -1;
  for (int i = 0; i < n_runs; i++) {
    int n = runs[i].ok ? rg_read_l2(runs[i].dir, e[i], RG_MAX_VARS) : -1;
    if (n <= 0) {
      rg_fmt(why, n_why, "%s: %s", runs[i].label,
             runs[i].ok ? "no L2 error line in std.out" : "the run failed");
      return false;
    }
    if (*n_var >= 0 && n != *n_var) {
      rg_fmt(why, n_why, "the runs report different numbers of variables");
      return false;
    }
    *n_var = n;
  }
  return true;
}

/* EOC between successive runs: log(E_i / E_i-1) / log(x_i-1 / x_i) with x the cell count
 * (h) or N+1 (p); 0 where an error is exactly 0 (reggie's convention). */
static double order(double e0, double e1, double x0, double x1) {
  if (e0 == 0 || e1 == 0) return 0;
  return log(e1 / e0) / log(x0 / x1);
}

static int convtest_h(const RgKeyFile *kf, const RgRunResult *runs, int n_runs, const RgRow *proto,
                      RgTable *t) {
  RgRow row;
  row_for(&row, proto, NULL, "Convtest_h");
  const RgOption *cells = opt(kf, "analyze_Convtest_h_cells");
  double tol = atof(entry(opt(kf, "analyze_Convtest_h_tolerance"), 0, "0.02"));
  double rate = atof(entry(opt(kf, "analyze_Convtest_h_rate"), 0, "1.0"));
  rg_fmt(row.tolerance, sizeof row.tolerance, "%.0f%% of N+1, %.0f%% vars", 100 * tol, 100 * rate);
  static double e[256][RG_MAX_VARS];
  int n_var;
  if (n_runs != cells->n_values || n_runs > 256) {
    row.status = RG_FAIL;
    rg_fmt(row.reason, sizeof row.reason, "%d runs for %d cell counts", n_runs, cells->n_values);
    return rg_table_add(t, &row);
  }
  if (!all_errors(runs, n_runs, e, &n_var, row.reason, sizeof row.reason)) {
    row.status = RG_FAIL;
    return rg_table_add(t, &row);
  }
  double p1 = runs[0].N + 1.0, lo = INFINITY, hi = -INFINITY;
  int good = 0;
  for (int v = 0; v < n_var; v++) {
    double mean = 0;
    for (int i = 1; i < n_runs; i++)
      mean += order(e[i - 1][v], e[i][v], atof(cells->values[i - 1]), atof(cells->values[i]));
    mean /= (n_runs - 1);
    lo = fmin(lo, mean);
    hi = fmax(hi, mean);
    if (fabs(mean / p1 - 1.0) <= tol) good++; /* reggie: mean EOC within tol of N+1 */
  }
  rg_fmt(row.measured, sizeof row.measured, "EOC %.2f..%.2f", lo, hi);
  row.status = good >= rate * n_var - 1e-12 ? RG_PASS : RG_FAIL;
  rg_fmt(row.reason, sizeof row.reason,
         "N = %d: mean order within tolerance of N+1 = %.0f for "
         "%d of %d variables",
         runs[0].N, p1, good, n_var);
  return rg_table_add(t, &row);
}

static int convtest_p(const RgKeyFile *kf, const RgRunResult *runs, int n_runs, const RgRow *proto,
                      RgTable *t) {
  RgRow row;
  row_for(&row, proto, NULL, "Convtest_p");
  double rate = atof(entry(opt(kf, "analyze_Convtest_p_rate"), 0, "1.0"));
  double pct = atof(entry(opt(kf, "analyze_Convtest_p_percentage"), 0, "0.75"));
  rg_fmt(row.tolerance, sizeof row.tolerance, "%.0f%% rising, %.0f%% vars", 100 * pct, 100 * rate);
  static double e[256][RG_MAX_VARS];
  int n_var;
  if (n_runs < 3 || n_runs > 256) {
    row.status = RG_FAIL;
    rg_fmt(row.reason, sizeof row.reason, "%d runs: a p-series needs at least 3", n_runs);
    return rg_table_add(t, &row);
  }
  if (!all_errors(runs, n_runs, e, &n_var, row.reason, sizeof row.reason)) {
    row.status = RG_FAIL;
    return rg_table_add(t, &row);
  }
  int good = 0;
  double worst = INFINITY;
  for (int v = 0; v < n_var; v++) {
    int rising = 0;
    double prev = 0;
    for (int i = 1; i < n_runs; i++) {
      double o = order(e[i - 1][v], e[i][v], runs[i - 1].N + 1.0, runs[i].N + 1.0);
      if (i > 1 && o > prev) rising++; /* reggie: the EOC must increase with N */
      prev = o;
    }
    double frac = (double)rising / (n_runs - 2);
    worst = fmin(worst, frac);
    if (frac >= pct) good++;
  }
  rg_fmt(row.measured, sizeof row.measured, "rising %.0f%% (worst var)", 100 * worst);
  row.status = good >= rate * n_var - 1e-12 ? RG_PASS : RG_FAIL;
  rg_fmt(row.reason, sizeof row.reason,
         "N = %d..%d: EOC rises often enough for %d of %d "
         "variables",
         runs[0].N, runs[n_runs - 1].N, good, n_var);
  return rg_table_add(t, &row);
}

/* reggie analyzers that FLEXI's checks do not use and hexdg regress does not evaluate */
static int unsupported_analyzers(const RgKeyFile *kf, const RgRow *proto, RgTable *t) {
  static const char *const PREFIXES[] = {"vtudiff_",
                                         "check_hdf5_",
                                         "integrate_line_",
                                         "compare_column_",
                                         "compare_across_commands_",
                                         "analyze_L2_file"};
  for (size_t p = 0; p < sizeof PREFIXES / sizeof *PREFIXES; p++) {
    for (int i = 0; i < kf->n_opts; i++)
      if (!strncasecmp(kf->opts[i].name, PREFIXES[p], strlen(PREFIXES[p]))) {
        RgRow row;
        row_for(&row, proto, NULL, PREFIXES[p]);
        row.status = RG_UNSUPPORTED;
        rg_fmt(row.reason, sizeof row.reason, "reggie analyzer %s* is not in hexdg regress",
               PREFIXES[p]);
        HX_CHECK(rg_table_add(t, &row));
        break;
      }
  }
  return HX_OK;
}

int rg_analyze(const RgKeyFile *kf, const RgRunResult *runs, int n_runs, const RgRow *proto,
               RgTable *t) {
  if (!kf) return HX_OK;
  if (opt(kf, "h5diff_file")) HX_CHECK(h5diff(kf, runs, n_runs, proto, t));
  if (opt(kf, "compare_data_file_name")) HX_CHECK(compare_data_file(kf, runs, n_runs, proto, t));
  if (opt(kf, "analyze_L2")) HX_CHECK(analyze_l2(kf, runs, n_runs, proto, t));
  if (opt(kf, "analyze_Convtest_h_cells")) HX_CHECK(convtest_h(kf, runs, n_runs, proto, t));
  if (opt(kf, "analyze_Convtest_p_rate")) HX_CHECK(convtest_p(kf, runs, n_runs, proto, t));
  return unsupported_analyzers(kf, proto, t);
}
