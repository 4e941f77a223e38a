/* FLEXI's vocabulary: every key of the table (core/flexi_keys.c) resolves to exactly one
 * disposition against hexdg's registry; a file of all "no effect" keys parses with one notice per
 * key; refused keys and non-off values of off-only keys are errors; keys neither FLEXI nor hexdg
 * know stay errors. FLEXI's meanings: IniConstDens (TGV initial state, FLEXI's
 * testcase/taylorgreenvortex) and useCurveds = F (trilinear elements, FLEXI's mesh.f90). */
#define _XOPEN_SOURCE 700 /* mkstemp, fdopen */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/error.h"
#include "core/flexi_keys.h"
#include "core/params.h"
#include "basis/disc.h"
#include "mesh/mesh.h"
#include "mesh/metrics.h"
#include "physics/eos.h"
#include "physics/exactfunc.h"
#include "time/simulation.h"

static Params *hexdg_params(void) {
  Params *p = params_create();
  assert_non_null(p);
  assert_int_equal(simulation_define_params(p), HX_OK);
  return p;
}

/* Registered keys are implemented and the table must say so; noeffect and off-only keys must not
 * be registered (they would never reach the table). A refused key that is registered has been
 * implemented since: reported, so that the table gets updated, but not a failure. */
static void test_every_key_has_one_disposition(void **state) {
  (void)state;
  Params *p = hexdg_params();
  int n[4] = {0, 0, 0, 0}, n_refused_registered = 0;
  for (int i = 0; i < flexi_key_count(); i++) {
    const FlexiKey *k = flexi_key_at(i);
    for (int j = 0; j < i; j++)
      if (strcasecmp(flexi_key_at(j)->name, k->name) == 0) fail_msg("'%s' listed twice", k->name);
    assert_ptr_equal(flexi_key_find(k->name), k);
    const bool registered = params_is_defined(p, k->name);
    if (k->disposition == FLEXI_KEY_IMPLEMENTED && !registered)
      fail_msg("'%s' is marked implemented but hexdg does not register it", k->name);
    if ((k->disposition == FLEXI_KEY_NOEFFECT || k->disposition == FLEXI_KEY_OFF_ONLY) &&
        registered)
      fail_msg("'%s' is registered by hexdg but marked %s", k->name,
               flexi_key_disposition_name(k->disposition));
    if (k->disposition == FLEXI_KEY_REFUSED && registered) {
      printf("note: refused key '%s' is registered now (implemented): update flexi_keys.c\n",
             k->name);
      n_refused_registered++;
    }
    if (k->disposition != FLEXI_KEY_IMPLEMENTED) assert_non_null(k->why);
    if (k->disposition == FLEXI_KEY_OFF_ONLY) {
      assert_non_null(k->off_values);
      char first[32];
      snprintf(first, sizeof first, "%.*s", (int)strcspn(k->off_values, "|"), k->off_values);
      assert_true(flexi_key_value_is_off(k, strcmp(first, "T") ? first : ".true."));
    }
    n[k->disposition]++;
  }
  assert_null(flexi_key_find("Loging"));
  params_destroy(p);
  printf("FLEXI keys: %d implemented, %d no effect, %d off only, %d refused (%d of them "
         "registered since)\n",
         n[0], n[1], n[2], n[3], n_refused_registered);
  assert_true(n[0] > 50 && n[1] > 10 && n[3] > 10);
}

/* Lines of f containing text. */
static int count_lines(FILE *f, const char *text) {
  char line[1024];
  int n = 0;
  rewind(f);
  while (fgets(line, sizeof line, f))
    n += strstr(line, text) != NULL;
  return n;
}

/* A parameter file of every noeffect key (each twice, logical and integer sample values) and every
 * off-only key at its off value parses; one notice per noeffect key, none for the others. */
static void test_noeffect_file_parses_with_one_notice_per_key(void **state) {
  (void)state;
  char path[] = "/tmp/hexdg_flexi_keysXXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *ini = fdopen(fd, "w");
  assert_non_null(ini);
  int n_noeffect = 0;
  for (int i = 0; i < flexi_key_count(); i++) {
    const FlexiKey *k = flexi_key_at(i);
    if (k->disposition == FLEXI_KEY_NOEFFECT) {
      fprintf(ini, "%s = T ! FLEXI sample\n%s = 3\n", k->name, k->name);
      n_noeffect++;
    } else if (k->disposition == FLEXI_KEY_OFF_ONLY) {
      fprintf(ini, "%.*s = %.*s\n", (int)strlen(k->name), k->name, (int)strcspn(k->off_values, "|"),
              k->off_values);
    }
  }
  fclose(ini);
  Params *p = hexdg_params();
  FILE *notices = tmpfile();
  assert_non_null(notices);
  params_set_notice_stream(p, notices);
  assert_int_equal(params_read_file(p, path), HX_OK);
  assert_int_equal(params_notice_count(p), n_noeffect);
  assert_int_equal(count_lines(notices, "has no effect in hexdg ("), n_noeffect);
  assert_int_equal(count_lines(notices, "hexdg: notice: Logging has no effect in hexdg"), 1);
  fclose(notices);
  params_destroy(p);
  unlink(path);
}

/* Refused keys, off-only keys switched on, and keys nobody knows are errors. */
static void test_refused_and_unknown_keys_are_errors(void **state) {
  (void)state;
  Params *p = hexdg_params();
  params_set_notice_stream(p, NULL);
  for (int i = 0; i < flexi_key_count(); i++) {
    const FlexiKey *k = flexi_key_at(i);
    if (params_is_defined(p, k->name)) continue;
    if (k->disposition == FLEXI_KEY_REFUSED)
      assert_int_equal(params_set(p, k->name, "1", "test"), HX_ERR_INPUT);
    if (k->disposition == FLEXI_KEY_OFF_ONLY)
      assert_int_equal(params_set(p, k->name, "12345", "test"), HX_ERR_INPUT);
  }
  assert_int_equal(params_set(p, "EpsNewton", "1e-3", "test"), HX_ERR_INPUT);
  assert_int_equal(params_set(p, "OverintegrationType", "0", "test"), HX_OK);
  assert_int_equal(params_set(p, "OverintegrationType", "1", "test"), HX_ERR_INPUT);
  assert_int_equal(params_set(p, "Loging", "F", "test"), HX_ERR_INPUT); /* neither knows it */
  assert_int_equal(params_notice_count(p), 0);
  params_destroy(p);
}

/* TGV initial state (FLEXI testcase.f90): IniConstDens = T (default) constant density, F constant
 * temperature p/(rho R); hexdg's TGVVersion 1/2 is the same switch and must agree with it. */
static void tgv_density_and_temperature_spread(const char *const settings[], double *rho_spread,
                                               double *T_spread) {
  Params *p = hexdg_params();
  assert_int_equal(params_set(p, "TestCase", "taylorgreenvortex", "test"), HX_OK);
  assert_int_equal(params_set(p, "R", "1.0", "test"), HX_OK);
  for (int i = 0; settings[i]; i += 2)
    assert_int_equal(params_set(p, settings[i], settings[i + 1], "test"), HX_OK);
  PhysParams pp;
  ExactFuncParams ef;
  assert_int_equal(exactfunc_init(p, &pp, &ef), HX_OK);
  double rmin = INFINITY, rmax = -INFINITY, tmin = INFINITY, tmax = -INFINITY;
  for (int s = 0; s < 64; s++) {
    const double x[3] = {0.37 * s, 1.3 + 0.71 * s, 0.2 - 0.53 * s};
    double U[HX_NVAR];
    exact_func(&ef, &pp, x, 0.0, U);
    const double ke = 0.5 * (U[1] * U[1] + U[2] * U[2] + U[3] * U[3]) / U[0];
    const double pres = (pp.kappa - 1.0) * (U[4] - ke), T = pres / (U[0] * 1.0);
    rmin = fmin(rmin, U[0]), rmax = fmax(rmax, U[0]);
    tmin = fmin(tmin, T), tmax = fmax(tmax, T);
  }
  *rho_spread = rmax - rmin;
  *T_spread = (tmax - tmin) / tmax;
  params_destroy(p);
}

static void test_tgv_ini_const_dens(void **state) {
  (void)state;
  double dr, dT;
  const char *const flexi_default[] = {NULL};
  tgv_density_and_temperature_spread(flexi_default, &dr, &dT);
  assert_true(dr <= 1e-15 && dT > 1e-4); /* constant density, temperature varies */
  const char *const dens_f[] = {"IniConstDens", "F", NULL};
  tgv_density_and_temperature_spread(dens_f, &dr, &dT);
  assert_true(dT <= 1e-13 && dr > 1e-4); /* constant temperature, density varies */
  const char *const alias_2[] = {"TGVVersion", "2", NULL};
  tgv_density_and_temperature_spread(alias_2, &dr, &dT);
  assert_true(dT <= 1e-13 && dr > 1e-4);
  const char *const both_agree[] = {"TGVVersion", "1", "IniConstDens", "T", NULL};
  tgv_density_and_temperature_spread(both_agree, &dr, &dT);
  assert_true(dr <= 1e-15);
  Params *p = hexdg_params();
  assert_int_equal(params_set(p, "TestCase", "taylorgreenvortex", "test"), HX_OK);
  assert_int_equal(params_set(p, "TGVVersion", "1", "test"), HX_OK);
  assert_int_equal(params_set(p, "IniConstDens", "F", "test"), HX_OK);
  PhysParams pp;
  ExactFuncParams ef;
  assert_int_equal(exactfunc_init(p, &pp, &ef), HX_ERR_INPUT); /* they disagree */
  params_destroy(p);
}

/* useCurveds = F on a curved box gives the metrics of the straight-sided (trilinear) elements
 * through the same corners, built here independently at NGeo = 3. */
static Mesh *box_from_params(const char *use_curveds) {
  Params *p = hexdg_params();
  const char *const kv[] = {"MeshFile",   "box",       "BoxElems", "(/3,2,2/)",  "BoxPeriodic",
                            "(/F,T,F/)",  "NGeo",      "3",        "BoxCurving", "0.06",
                            "useCurveds", use_curveds, NULL};
  for (int i = 0; kv[i]; i += 2)
    assert_int_equal(params_set(p, kv[i], kv[i + 1], "test"), HX_OK);
  Mesh *m = NULL;
  assert_int_equal(mesh_create_from_params(p, &m), HX_OK);
  params_destroy(p);
  return m;
}

static void make_trilinear(Mesh *m) {
  const int n = m->NGeo + 1;
  for (int e = 0; e < m->n_elems; e++) {
    double *X = m->node_coords + (size_t)e * n * n * n * 3, c[8][3];
    for (int b = 0; b < 8; b++)
      for (int d = 0; d < 3; d++)
        c[b][d] =
            X[(((b >> 2) * (n - 1) * n + ((b >> 1) & 1) * (n - 1)) * n + (b & 1) * (n - 1)) * 3 +
              d];
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
          const double r[3] = {(double)i / (n - 1), (double)j / (n - 1), (double)k / (n - 1)};
          for (int d = 0; d < 3; d++) {
            double v = 0.0;
            for (int b = 0; b < 8; b++)
              v += c[b][d] * ((b & 1) ? r[0] : 1 - r[0]) * (((b >> 1) & 1) ? r[1] : 1 - r[1]) *
                   ((b >> 2) ? r[2] : 1 - r[2]);
            X[((k * n + j) * n + i) * 3 + d] = v;
          }
        }
  }
}

static double max_diff(const double *a, const double *b, size_t n) {
  double d = 0.0;
  for (size_t i = 0; i < n; i++)
    d = fmax(d, fabs(a[i] - b[i]));
  return d;
}

static void test_use_curveds_false_is_trilinear(void **state) {
  (void)state;
  Mesh *linear = box_from_params("F"), *reference = box_from_params("T"),
       *curved = box_from_params("T");
  assert_int_equal(linear->NGeo, 1);
  assert_int_equal(reference->NGeo, 3);
  make_trilinear(reference);
  Disc d;
  assert_int_equal(disc_init(&d, 4, NODE_GAUSS_LOBATTO, SPLIT_NONE), 0);
  Geometry gl, gr, gc;
  assert_int_equal(metrics_compute(linear, &d, &gl), 0);
  assert_int_equal(metrics_compute(reference, &d, &gr), 0);
  assert_int_equal(metrics_compute(curved, &d, &gc), 0);
  const size_t nv = (size_t)linear->n_elems * d.np * d.np * d.np;
  const size_t nf = (size_t)linear->n_sides * d.np * d.np;
  const double dm = max_diff(gl.metrics, gr.metrics, 9 * nv), dj = max_diff(gl.sJ, gr.sJ, nv);
  const double dn = max_diff(gl.face_nvec, gr.face_nvec, 3 * nf);
  const double dc = max_diff(gl.metrics, gc.metrics, 9 * nv);
  printf("useCurveds = F vs trilinear reference: metrics %.2e, 1/J %.2e, normals %.2e; vs curved "
         "%.2e\n",
         dm, dj, dn, dc);
  assert_true(dm < 1e-12 && dj < 1e-10 && dn < 1e-12);
  assert_true(dc > 1e-4); /* the curving matters: the test would see a wrong corner */
  geometry_free(&gl);
  geometry_free(&gr);
  geometry_free(&gc);
  mesh_destroy(linear);
  mesh_destroy(reference);
  mesh_destroy(curved);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_key_has_one_disposition),
      cmocka_unit_test(test_noeffect_file_parses_with_one_notice_per_key),
      cmocka_unit_test(test_refused_and_unknown_keys_are_errors),
      cmocka_unit_test(test_tgv_ini_const_dens),
      cmocka_unit_test(test_use_curveds_false_is_trilinear),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
