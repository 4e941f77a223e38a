/* reggie's key files (builds.ini, excludeBuild.ini, parameter.ini, command_line.ini,
 * analyze.ini): `key = v1, v2` lines, `EXCLUDE:k=v,...`, `nocrosscombination:k1,k2`. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app/regress.h"
#include "core/error.h"

char *rg_clean_line(char *s) {
  char *w = s;
  for (char *r = s; *r; r++) {
    if (*r == '!') break;
    if (isspace((unsigned char)*r)) continue;
    if (r[0] == '\\' && r[1] == 's') { /* reggie: `\s` stands for a space */
      *w++ = ' ';
      r++;
      continue;
    }
    *w++ = *r;
  }
  *w = '\0';
  return s;
}

void rg_free_strings(char **v, int n) {
  for (int i = 0; i < n; i++)
    free(v[i]);
  free(v);
}

static char *dup_range(const char *s, size_t len) {
  char *c = malloc(len + 1);
  if (!c) return NULL;
  memcpy(c, s, len);
  c[len] = '\0';
  return c;
}

int rg_split_values(const char *s, char ***out, int *n) {
  int count = 1, depth = 0;
  for (const char *c = s; *c; c++) {
    if (*c == '(') depth++;
    if (*c == ')' && depth > 0) depth--;
    if (*c == ',' && depth == 0) count++;
  }
  char **v = calloc((size_t)count, sizeof *v);
  HX_ALLOC_CHECK(v);
  int k = 0;
  const char *start = s;
  depth = 0;
  for (const char *c = s;; c++) {
    if (*c == '(') depth++;
    if (*c == ')' && depth > 0) depth--;
    if (*c == '\0' || (*c == ',' && depth == 0)) {
      v[k] = dup_range(start, (size_t)(c - start));
      if (!v[k]) {
        rg_free_strings(v, k);
        return HX_ERR_MEM;
      }
      k++;
      start = c + 1;
      if (*c == '\0') break;
    }
  }
  *out = v;
  *n = count;
  return HX_OK;
}

static int grow(void **arr, int n, size_t size) {
  void *p = realloc(*arr, (size_t)(n + 1) * size);
  HX_ALLOC_CHECK(p);
  *arr = p;
  return HX_OK;
}

/* k=v,k=v after EXCLUDE: (split outside brackets, like the values) */
static int read_exclusion(const char *text, RgDict *d, const char *path, int line) {
  char **items;
  int n;
  HX_CHECK(rg_split_values(text, &items, &n));
  d->pairs = calloc((size_t)n, sizeof *d->pairs);
  d->n = 0;
  int rc = d->pairs ? HX_OK : HX_ERR_MEM;
  for (int i = 0; rc == HX_OK && i < n; i++) {
    char *eq = strchr(items[i], '=');
    if (!eq) {
      rc = HX_ERROR(HX_ERR_INPUT, "%s:%d: EXCLUDE entry '%s' is not key=value", path, line,
                    items[i]);
      break;
    }
    d->pairs[d->n].key = dup_range(items[i], (size_t)(eq - items[i]));
    d->pairs[d->n].value = strdup(eq + 1);
    d->n++;
  }
  rg_free_strings(items, n);
  return rc;
}

static int read_nocross(const char *text, RgDict *d) {
  char **items;
  int n;
  HX_CHECK(rg_split_values(text, &items, &n));
  d->pairs = calloc((size_t)n, sizeof *d->pairs);
  HX_ALLOC_CHECK(d->pairs);
  for (int i = 0; i < n; i++)
    d->pairs[i].key = items[i];
  d->n = n;
  free(items);
  return HX_OK;
}

static int read_option(char *text, int line, RgKeyFile *kf) {
  char *eq = strchr(text, '=');
  HX_CHECK(grow((void **)&kf->opts, kf->n_opts, sizeof *kf->opts));
  RgOption *o = &kf->opts[kf->n_opts];
  *o = (RgOption){.line = line};
  o->name = dup_range(text, (size_t)(eq - text));
  HX_ALLOC_CHECK(o->name);
  kf->n_opts++;
  return rg_split_values(eq + 1, &o->values, &o->n_values);
}

static int read_line(char *text, int line, const char *path, RgKeyFile *kf) {
  if (!strncasecmp(text, "EXCLUDE:", 8)) {
    HX_CHECK(grow((void **)&kf->excludes, kf->n_excludes, sizeof *kf->excludes));
    HX_CHECK(read_exclusion(text + 8, &kf->excludes[kf->n_excludes], path, line));
    kf->n_excludes++;
    return HX_OK;
  }
  if (!strncasecmp(text, "nocrosscombination:", 19)) {
    HX_CHECK(grow((void **)&kf->nocross, kf->n_nocross, sizeof *kf->nocross));
    HX_CHECK(read_nocross(text + 19, &kf->nocross[kf->n_nocross]));
    kf->n_nocross++;
    return HX_OK;
  }
  if (strchr(text, '=')) return read_option(text, line, kf);
  return HX_OK; /* reggie ignores lines without '=' */
}

int rg_keyfile_read(const char *path, RgKeyFile *kf) {
  *kf = (RgKeyFile){0};
  FILE *f = fopen(path, "r");
  if (!f) return HX_ERR_IO;
  char *buf = NULL;
  size_t cap = 0;
  int line = 0, rc = HX_OK;
  while (rc == HX_OK && getline(&buf, &cap, f) >= 0) {
    line++;
    rg_clean_line(buf);
    if (buf[0]) rc = read_line(buf, line, path, kf);
  }
  free(buf);
  fclose(f);
  if (rc != HX_OK) rg_keyfile_free(kf);
  return rc;
}

static void free_dict(RgDict *d) {
  for (int i = 0; i < d->n; i++) {
    free(d->pairs[i].key);
    free(d->pairs[i].value);
  }
  free(d->pairs);
}

void rg_keyfile_free(RgKeyFile *kf) {
  for (int i = 0; i < kf->n_opts; i++) {
    free(kf->opts[i].name);
    rg_free_strings(kf->opts[i].values, kf->opts[i].n_values);
  }
  for (int i = 0; i < kf->n_excludes; i++)
    free_dict(&kf->excludes[i]);
  for (int i = 0; i < kf->n_nocross; i++)
    free_dict(&kf->nocross[i]);
  free(kf->opts);
  free(kf->excludes);
  free(kf->nocross);
  *kf = (RgKeyFile){0};
}

const RgOption *rg_keyfile_find(const RgKeyFile *kf, const char *key) {
  for (int i = 0; kf && i < kf->n_opts; i++)
    if (!strcasecmp(kf->opts[i].name, key)) return &kf->opts[i];
  return NULL;
}

bool rg_keyfile_read_optional(const char *dir, const char *name, RgKeyFile *kf) {
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return rg_keyfile_read(path, kf) == HX_OK;
}

void rg_fmt(char *dst, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(dst, n, fmt, ap); /* table cells and paths are cut at their buffer size */
  va_end(ap);
}
