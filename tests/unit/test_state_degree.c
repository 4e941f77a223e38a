/* Restart from a state of another degree or node type (io/state_degree.c): a polynomial of degree
 * <= the file's N is carried exactly to a higher degree on either node type, a lower degree keeps
 * the modes it can hold and drops the others (L2 projection), and a same-degree file is read as
 * it is. The reference: the polynomials evaluated at the new nodes, independently of the code. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, dup2 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>

#include "basis/basis.h"
#include "core/error.h"
#include "io/state_degree.h"
#include "state_test_util.h"

enum { N_VAR = 5, N_ELEMS = 3 };
static const char *const VAR_NAMES[N_VAR] = {"Density", "MomentumX", "MomentumY", "MomentumZ",
                                             "EnergyStagnationDensity"};

static StateHeader header(int N, const char *node_type) {
  StateHeader h;
  memset(&h, 0, sizeof h);
  strcpy(h.project_name, "degree");
  strcpy(h.mesh_file, "box_mesh.h5");
  snprintf(h.node_type, sizeof h.node_type, "%s", node_type);
  h.N = N;
  h.n_var = N_VAR;
  h.n_elems = N_ELEMS;
  h.time = 0.25;
  return h;
}

typedef double (*Field)(int elem, int var, double x, double y, double z);

/* degree 3 in x, 2 in y, 3 in z, different per element and variable */
static double cubic(int elem, int var, double x, double y, double z) {
  return 1.0 + elem + 0.1 * var + x * x * x - 0.5 * x * y + 0.25 * y * y * z + 0.3 * z * z * z;
}

/* L_5(x) L_1(y) (+ a constant): the projection to degree <= 4 keeps the constant only */
static double legendre5(int elem, int var, double x, double y, double z) {
  (void)z;
  double L5, dL, L1;
  basis_legendre(5, x, &L5, &dL);
  basis_legendre(1, y, &L1, &dL);
  return 2.0 + elem + var + L5 * L1;
}

/* values of f at the nodes of degree N and type t, hexdg layout [elem][var][k][j][i] */
static double *sample(Field f, int N, NodeType t) {
  double x[HX_NPMAX], w[HX_NPMAX];
  assert_int_equal(basis_nodes_weights(N, t, x, w), HX_OK);
  const int n = N + 1;
  double *U = malloc(sizeof(double) * N_ELEMS * N_VAR * n * n * n);
  assert_non_null(U);
  size_t q = 0;
  for (int e = 0; e < N_ELEMS; e++)
    for (int v = 0; v < N_VAR; v++)
      for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
          for (int i = 0; i < n; i++)
            U[q++] = f(e, v, x[i], x[j], x[k]);
  return U;
}

static double max_diff(const double *a, const double *b, size_t count) {
  double d = 0.0;
  for (size_t q = 0; q < count; q++)
    d = fmax(d, fabs(a[q] - b[q]));
  return d;
}

/* write f at (N_file, t_file), read into (N_run, t_run), compare with `expected` at the run's
 * nodes; returns whether the reader reported a change of degree or nodes */
static bool round_trip(const Fixture *fx, Field f, int N_file, NodeType t_file, int N_run,
                       NodeType t_run, Field expected, double tol) {
  char path[400];
  path_in(fx, "state.h5", path, sizeof path);
  const char *names[2] = {"GAUSS", "GAUSS-LOBATTO"};
  StateHeader hf = header(N_file, names[t_file]), hr = header(N_run, names[t_run]);
  double *U_file = sample(f, N_file, t_file), *want = sample(expected, N_run, t_run);
  assert_int_equal(state_write(path, &hf, VAR_NAMES, U_file), HX_OK);
  assert_true(file_exists(path));
  const size_t count = n_values(&hr);
  double *got = calloc(count, sizeof(double));
  assert_non_null(got);
  bool changed = false;
  assert_int_equal(state_read_part_any_degree(path, &hr, got, N_ELEMS, NULL, &changed), HX_OK);
  const double d = max_diff(got, want, count);
  if (!(d <= tol)) fail_msg("N %d -> %d: max difference %.3e > %.1e", N_file, N_run, d, tol);
  free(U_file);
  free(want);
  free(got);
  remove(path);
  return changed;
}

static void test_higher_degree_interpolates_exactly(void **state) {
  const Fixture *fx = *state;
  assert_true(round_trip(fx, cubic, 3, NODE_GAUSS_LOBATTO, 5, NODE_GAUSS_LOBATTO, cubic, 1e-13));
  assert_true(round_trip(fx, cubic, 3, NODE_GAUSS, 7, NODE_GAUSS_LOBATTO, cubic, 1e-13));
  assert_true(round_trip(fx, cubic, 3, NODE_GAUSS_LOBATTO, 3, NODE_GAUSS, cubic, 1e-13));
}

static void test_lower_degree_keeps_the_modes_it_holds(void **state) {
  const Fixture *fx = *state;
  /* a cubic is in the space of degree 3 and 4: kept exactly */
  assert_true(round_trip(fx, cubic, 7, NODE_GAUSS_LOBATTO, 3, NODE_GAUSS_LOBATTO, cubic, 1e-12));
  assert_true(round_trip(fx, cubic, 5, NODE_GAUSS, 4, NODE_GAUSS_LOBATTO, cubic, 1e-12));
}

static double legendre5_projected(int elem, int var, double x, double y, double z) {
  (void)x, (void)y, (void)z;
  return 2.0 + elem + var; /* L_5 is orthogonal to every polynomial of degree <= 4 */
}

static void test_lower_degree_drops_the_higher_modes(void **state) {
  const Fixture *fx = *state;
  assert_true(round_trip(fx, legendre5, 5, NODE_GAUSS_LOBATTO, 4, NODE_GAUSS_LOBATTO,
                         legendre5_projected, 1e-12));
  assert_true(round_trip(fx, legendre5, 6, NODE_GAUSS, 2, NODE_GAUSS, legendre5_projected, 1e-12));
}

static void test_same_degree_reads_as_it_is(void **state) {
  const Fixture *fx = *state;
  assert_false(round_trip(fx, legendre5, 5, NODE_GAUSS, 5, NODE_GAUSS, legendre5, 0.0));
}

static void test_other_mesh_still_fails(void **state) {
  const Fixture *fx = *state;
  char path[400];
  path_in(fx, "state.h5", path, sizeof path);
  StateHeader hf = header(3, "GAUSS"), hr = header(5, "GAUSS-LOBATTO");
  double *U = sample(cubic, 3, NODE_GAUSS);
  assert_int_equal(state_write(path, &hf, VAR_NAMES, U), HX_OK);
  hr.n_elems = N_ELEMS + 1;
  double *got = calloc(n_values(&hr), sizeof(double));
  bool changed = false;
  StderrCapture cap;
  capture_begin(&cap, fx);
  int rc = state_read_part_any_degree(path, &hr, got, hr.n_elems, NULL, &changed);
  char *text = capture_end(&cap);
  assert_int_equal(rc, HX_ERR_INPUT);
  assert_contains(text, "elements");
  free(text);
  free(U);
  free(got);
  remove(path);
}

static int setup(void **state) {
  return state_fixture_setup(state, "hexdg_test_state_degree");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_higher_degree_interpolates_exactly),
      cmocka_unit_test(test_lower_degree_keeps_the_modes_it_holds),
      cmocka_unit_test(test_lower_degree_drops_the_higher_modes),
      cmocka_unit_test(test_same_degree_reads_as_it_is),
      cmocka_unit_test(test_other_mesh_still_fails),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
