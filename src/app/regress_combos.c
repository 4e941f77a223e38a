/* reggie's combination rule: the options are ordered by their number of values (most first,
 * stable), combination i takes value (i / base_j) % n_j of option j, where base_j is the product
 * of the value counts of the options before j; EXCLUDE: drops matching combinations and
 * nocrosscombination: keeps only those whose listed options have the same value index. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app/regress.h"
#include "core/error.h"

/* Index of the first option named key, or -1. */
static int option_index(const RgKeyFile *kf, const char *key) {
  for (int i = 0; i < kf->n_opts; i++)
    if (!strcasecmp(kf->opts[i].name, key)) return i;
  return -1;
}

const char *rg_combo_value(const RgKeyFile *kf, const int *digits, const char *key) {
  int i = option_index(kf, key);
  return i < 0 ? NULL : kf->opts[i].values[digits[i]];
}

static bool excluded(const RgKeyFile *kf, const int *digits) {
  for (int e = 0; e < kf->n_excludes; e++) {
    const RgDict *d = &kf->excludes[e];
    bool all = d->n > 0;
    for (int k = 0; all && k < d->n; k++) {
      const char *v = rg_combo_value(kf, digits, d->pairs[k].key);
      all = v && !strcmp(v, d->pairs[k].value);
    }
    if (all) return true;
  }
  return false;
}

static int crossed(const RgKeyFile *kf, const int *digits) {
  for (int c = 0; c < kf->n_nocross; c++) {
    const RgDict *d = &kf->nocross[c];
    int first = option_index(kf, d->pairs[0].key);
    if (first < 0) {
      HX_ERROR(HX_ERR_INPUT,
               "nocrosscombination: '%s' is not an option of the file; only options "
               "given in the file can be listed",
               d->pairs[0].key);
      return -1;
    }
    for (int k = 1; k < d->n; k++) {
      int j = option_index(kf, d->pairs[k].key);
      if (j >= 0 && digits[j] != digits[first]) return 1;
    }
  }
  return 0;
}

int rg_combinations(const RgKeyFile *kf, int **digits_out, int *n_out) {
  int n = kf->n_opts;
  int *order = malloc((size_t)(n > 0 ? n : 1) * sizeof *order);
  HX_ALLOC_CHECK(order);
  for (int i = 0; i < n; i++)
    order[i] = i;
  /* stable insertion sort: most values first (reggie sorts this way) */
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && kf->opts[order[j]].n_values > kf->opts[order[j - 1]].n_values; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  long total = 1;
  for (int i = 0; i < n; i++) {
    total *= kf->opts[i].n_values;
    if (total > 100000) {
      free(order);
      return HX_ERROR(HX_ERR_INPUT, "more than 1e5 combinations (reggie's limit)");
    }
  }
  int *digits = malloc((size_t)total * (size_t)(n > 0 ? n : 1) * sizeof *digits);
  if (!digits) {
    free(order);
    return HX_ERR_MEM;
  }
  int count = 0, rc = HX_OK;
  for (long c = 0; c < total && rc == HX_OK; c++) {
    int *d = digits + (size_t)count * (size_t)n;
    long base = 1;
    for (int k = 0; k < n; k++) {
      const RgOption *o = &kf->opts[order[k]];
      d[order[k]] = (int)((c / base) % o->n_values);
      base *= o->n_values;
    }
    if (excluded(kf, d)) continue;
    int x = crossed(kf, d);
    if (x < 0) rc = HX_ERR_INPUT;
    if (x != 0) continue;
    count++;
  }
  free(order);
  if (rc != HX_OK) {
    free(digits);
    return rc;
  }
  *digits_out = digits;
  *n_out = count;
  return HX_OK;
}

void rg_combo_label(const RgKeyFile *kf, const int *digits, char *out, size_t n) {
  size_t len = 0;
  out[0] = '\0';
  for (int i = 0; kf && i < kf->n_opts && len < n; i++) {
    if (kf->opts[i].n_values < 2) continue;
    const char *name = kf->opts[i].name;
    if (!strncasecmp(name, "FLEXI_", 6)) name += 6; /* shorter table cells */
    int w = snprintf(out + len, n - len, "%s%s=%s", len ? " " : "", name,
                     kf->opts[i].values[digits[i]]);
    if (w < 0) break;
    len += (size_t)w;
  }
}

/* reggie reads excludeBuild.ini as single key=value exclusions: any one that the build has
 * excludes the example for that build. */
bool rg_build_excluded(const RgKeyFile *excl, const RgKeyFile *builds, const int *digits, char *why,
                       size_t n) {
  for (int i = 0; excl && i < excl->n_opts; i++) {
    const RgOption *o = &excl->opts[i];
    const char *v = builds ? rg_combo_value(builds, digits, o->name) : NULL;
    for (int k = 0; v && k < o->n_values; k++)
      if (!strcmp(v, o->values[k])) {
        rg_fmt(why, n, "excludeBuild.ini: %s=%s", o->name, v);
        return true;
      }
  }
  return false;
}
