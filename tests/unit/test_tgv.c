/* Taylor-Green vortex analysis (analysis/tgv.c, tgv_pointwise.h).
 * - The integrands of the analytic TGV initial field, integrated with a composite Gauss rule on
 *   [0,2pi]^3, give the known means: Ekin 1/8, enstrophy 3/8, dissipation 2 nu 3/8, no dilatation.
 * - A field with a potential (compressible) part obeys the periodic identities
 *   int 2 S:S = int |w|^2 + 2 int (div u)^2 and int 2 Sd:Sd = int |w|^2 + 4/3 int (div u)^2,
 *   so DR_S = ED_S + 3/2 ED_D and DR_Sd = ED_S + ED_D; pressure dilatation has its analytic value.
 * - tgv_sums_cpu on a hand-built solver (periodic Cartesian elements; sheared affine elements):
 *   the quadrature with 1/sJ, the gradient layout, and the element-local gradient without lifting.
 * - The CSV: FLEXI's header line and E23.14E5 numbers, and the restart truncation. */
#define _POSIX_C_SOURCE 200809L /* getpid */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analysis/tgv.h"
#include "basis/basis.h"
#include "core/error.h"
#include "physics/viscosity.h"

#define TWO_PI (2.0 * HX_PI)
#define MU0 (1.0 / 1600.0)
#define MACH 0.1

static PhysParams tgv_gas(int law) {
  PhysParams pp;
  memset(&pp, 0, sizeof pp);
  physparams_set(&pp, 1.4, 287.058);
  /* Sutherland: Ts/Tref of air (110.4 K / 273.15 K) */
  physparams_set_transport(&pp, law, MU0, 0.71, 110.4, 273.15, 1.5);
  return pp;
}

/* Velocity of the TGV initial field plus eps * grad(phi), phi = sin x sin y sin z, and its
 * gradient G[a][b] = d u_a / d x_b. */
static void tgv_velocity(const double x[3], double eps, double vel[3], double G[3][3]) {
  const double sx = sin(x[0]), cx = cos(x[0]), sy = sin(x[1]), cy = cos(x[1]);
  const double sz = sin(x[2]), cz = cos(x[2]);
  vel[0] = sx * cy * cz + eps * cx * sy * sz;
  vel[1] = -cx * sy * cz + eps * sx * cy * sz;
  vel[2] = eps * sx * sy * cz;
  const double phi = sx * sy * sz;
  const double hxy = cx * cy * sz, hxz = cx * sy * cz, hyz = sx * cy * cz;
  const double Gtgv[3][3] = {{cx * cy * cz, -sx * sy * cz, -sx * cy * sz},
                             {sx * sy * cz, -cx * cy * cz, cx * sy * sz},
                             {0.0, 0.0, 0.0}};
  const double H[3][3] = {{-phi, hxy, hxz}, {hxy, -phi, hyz}, {hxz, hyz, -phi}};
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      G[a][b] = Gtgv[a][b] + eps * H[a][b];
}

/* TGV pressure (rho0 = U0 = 1, p0 = 1/(kappa Ma^2)) plus amp * phi. */
static double tgv_pressure(const PhysParams *pp, const double x[3], double amp) {
  const double p0 = 1.0 / (pp->kappa * MACH * MACH);
  const double c2x = cos(2.0 * x[0]), c2y = cos(2.0 * x[1]), c2z = cos(2.0 * x[2]);
  return p0 + (c2x + c2y) * (c2z + 2.0) / 16.0 + amp * sin(x[0]) * sin(x[1]) * sin(x[2]);
}

/* Conservative state (rho = 1) and grad_node[dir][lift] at x. */
static void tgv_node(const PhysParams *pp, const double x[3], double eps, double amp, double *U,
                     double *grad_node) {
  double vel[3], G[3][3];
  tgv_velocity(x, eps, vel, G);
  const double prim[HX_NPRIM] = {1.0, vel[0], vel[1], vel[2], tgv_pressure(pp, x, amp), 0.0};
  prim_to_cons(pp, prim, U);
  for (int c = 0; c < 3; c++) {
    for (int a = 0; a < 3; a++)
      grad_node[c * HX_NLIFT + LIFT_VEL1 + a] = G[a][c];
    grad_node[c * HX_NLIFT + LIFT_TEMP] = 0.0;
  }
}

/* Composite Gauss rule on [0,2pi]^3: K elements of N+1 points per direction; integrates the
 * pointwise integrands, returns the volume. */
static double integrate_tgv(const PhysParams *pp, double eps, double amp, double *sums,
                            double *max_vort) {
  enum { K = 4, N = 9 };
  double xi[N + 1], wi[N + 1], h = TWO_PI / K, volume = 0.0;
  assert_int_equal(basis_nodes_weights(N, NODE_GAUSS, xi, wi), HX_OK);
  for (int m = 0; m < HX_TGV_NSUMS; m++)
    sums[m] = 0.0;
  *max_vort = 0.0;
  int n1 = K * (N + 1);
  for (int q = 0; q < n1 * n1 * n1; q++) {
    int idx[3] = {q % n1, (q / n1) % n1, q / (n1 * n1)};
    double x[3], w = 1.0;
    for (int d = 0; d < 3; d++) {
      int e = idx[d] / (N + 1), i = idx[d] % (N + 1);
      x[d] = h * (e + 0.5 * (xi[i] + 1.0));
      w *= 0.5 * h * wi[i];
    }
    double U[HX_NVAR], g[HX_NGRAD], f[HX_TGV_NSUMS], vort;
    tgv_node(pp, x, eps, amp, U, g);
    tgv_node_integrands(pp, U, g, f, &vort);
    for (int m = 0; m < HX_TGV_NSUMS; m++)
      sums[m] += w * f[m];
    if (vort > *max_vort) *max_vort = vort;
    volume += w;
  }
  return volume;
}

static TgvAnalysis analysis_with_volume(double volume, double mu0) {
  TgvAnalysis a;
  memset(&a, 0, sizeof a);
  a.volume = volume;
  a.rho0 = 1.0;
  a.U0 = 1.0;
  a.mu0 = mu0;
  return a;
}

static void test_tgv_initial_field(void **state) {
  (void)state;
  PhysParams pp = tgv_gas(VISC_CONSTANT);
  double sums[HX_TGV_NSUMS], max_vort, cols[HX_TGV_NCOLS];
  double volume = integrate_tgv(&pp, 0.0, 0.0, sums, &max_vort);
  assert_true(fabs(volume - pow(TWO_PI, 3)) < 1e-10);
  TgvAnalysis a = analysis_with_volume(volume, MU0);
  assert_int_equal(tgv_columns(&a, 0.5, sums, max_vort, cols), HX_OK);
  const double tol = 1e-12, eps_ref = 2.0 * MU0 * 0.375; /* epsilon = 2 nu <|w|^2/2> */
  assert_true(cols[TGV_COL_TIME] == 0.5);
  assert_true(fabs(cols[TGV_COL_EKIN] - 0.125) < tol);
  assert_true(fabs(cols[TGV_COL_EKIN_COMP] - 0.125) < tol);
  assert_true(fabs(cols[TGV_COL_ENSTROPHY] - 0.375) < tol);
  /* div u = 0: every dissipation measure equals 2 nu enstrophy, the dilatational ones vanish */
  assert_true(fabs(cols[TGV_COL_DR_S] - eps_ref) < tol);
  assert_true(fabs(cols[TGV_COL_DR_INCOMP] - eps_ref) < tol);
  assert_true(fabs(cols[TGV_COL_DR_U] - eps_ref) < tol);
  assert_true(fabs(cols[TGV_COL_DR_SD] - eps_ref) < tol);
  assert_true(fabs(cols[TGV_COL_ED_S] - eps_ref) < tol);
  assert_true(fabs(cols[TGV_COL_ED_D]) < 1e-16);
  assert_true(fabs(cols[TGV_COL_DR_P]) < 1e-12);
  assert_true(fabs(cols[TGV_COL_DR_COMP] - eps_ref) < tol);
  /* the pressure fluctuation has zero mean: <T> = p0 / (rho R) */
  const double p0 = 1.0 / (pp.kappa * MACH * MACH);
  assert_true(fabs(cols[TGV_COL_MEAN_TEMP] - p0 / pp.R) < 1e-12 * p0 / pp.R);
  assert_true(fabs(cols[TGV_COL_UPRIME] - sqrt(2.0 / 3.0 * 0.125)) < tol);
  /* |w| <= 2 with the maximum 2 at (pi/2, pi/2, 0) */
  assert_true(max_vort <= 2.0 + 1e-14 && max_vort > 1.9);
  assert_true(cols[TGV_COL_MAX_VORT] == max_vort);
  double U[HX_NVAR], g[HX_NGRAD], f[HX_TGV_NSUMS], vort;
  const double xmax[3] = {0.5 * HX_PI, 0.5 * HX_PI, 0.0};
  tgv_node(&pp, xmax, 0.0, 0.0, U, g);
  tgv_node_integrands(&pp, U, g, f, &vort);
  assert_true(fabs(vort - 2.0) < 1e-14);
}

static void test_compressible_identities(void **state) {
  (void)state;
  PhysParams pp = tgv_gas(VISC_CONSTANT);
  const double eps = 0.3, amp = 0.7;
  double sums[HX_TGV_NSUMS], max_vort, cols[HX_TGV_NCOLS];
  double volume = integrate_tgv(&pp, eps, amp, sums, &max_vort);
  TgvAnalysis a = analysis_with_volume(volume, MU0);
  assert_int_equal(tgv_columns(&a, 0.0, sums, max_vort, cols), HX_OK);
  const double tol = 1e-13;
  /* div u = -3 eps phi, <phi^2> = 1/8; the gradient part has no vorticity */
  assert_true(fabs(cols[TGV_COL_ED_D] - 4.0 / 3.0 * MU0 * 9.0 * eps * eps / 8.0) < tol);
  assert_true(fabs(cols[TGV_COL_ED_S] - 2.0 * MU0 * 0.375) < tol);
  assert_true(fabs(cols[TGV_COL_DR_S] - (cols[TGV_COL_ED_S] + 1.5 * cols[TGV_COL_ED_D])) < tol);
  assert_true(fabs(cols[TGV_COL_DR_SD] - (cols[TGV_COL_ED_S] + cols[TGV_COL_ED_D])) < tol);
  assert_true(fabs(cols[TGV_COL_DR_U] - (cols[TGV_COL_ED_S] + 0.75 * cols[TGV_COL_ED_D])) < tol);
  /* -<p div u> = 3 eps amp <phi^2>: only the phi part of p correlates with div u */
  assert_true(fabs(cols[TGV_COL_DR_P] - 3.0 * eps * amp / 8.0) < 1e-12);
  assert_true(fabs(cols[TGV_COL_DR_COMP] - (cols[TGV_COL_DR_SD] + cols[TGV_COL_DR_P])) < tol);
  /* Ekin: TGV 1/8 + eps^2 |grad phi|^2/2 = eps^2 3/16 (cross terms average out) */
  assert_true(fabs(cols[TGV_COL_EKIN] - (0.125 + eps * eps * 3.0 / 16.0)) < 1e-12);
}

/* ED_S and ED_D carry mu(T) inside the integral; the DR_* columns use mu0 outside (FLEXI). */
static void test_local_viscosity(void **state) {
  (void)state;
  PhysParams pp = tgv_gas(VISC_SUTHERLAND);
  double U[HX_NVAR], g[HX_NGRAD], f[HX_TGV_NSUMS], vort;
  const double x[3] = {0.3, 1.1, 2.0};
  tgv_node(&pp, x, 0.2, 0.0, U, g);
  tgv_node_integrands(&pp, U, g, f, &vort);
  double prim[HX_NPRIM];
  cons_to_prim(&pp, U, prim);
  const double mu = viscosity(&pp, prim[TEMP]);
  assert_true(fabs(mu - MU0) > 1e-3 * MU0);
  double G[3][3], vel[3];
  tgv_velocity(x, 0.2, vel, G);
  const double div_u = G[0][0] + G[1][1] + G[2][2];
  assert_true(fabs(f[TGV_SUM_ED_S] - mu * vort * vort) < 1e-14 * f[TGV_SUM_ED_S]);
  assert_true(fabs(f[TGV_SUM_ED_D] - mu * div_u * div_u) < 1e-14 * f[TGV_SUM_ED_D]);
  /* uniform state rho = 2, p = 3: mean entropy -rho (ln p - kappa ln rho)/(kappa - 1) */
  const double prim_u[HX_NPRIM] = {2.0, 0.1, 0.2, 0.3, 3.0, 0.0};
  double Uu[HX_NVAR], gz[HX_NGRAD] = {0};
  prim_to_cons(&pp, prim_u, Uu);
  tgv_node_integrands(&pp, Uu, gz, f, &vort);
  const double s_ref = -2.0 * (log(3.0) - 1.4 * log(2.0)) / 0.4;
  assert_true(fabs(f[TGV_SUM_ENTROPY] - s_ref) < 1e-14 * fabs(s_ref));
  assert_true(fabs(f[TGV_SUM_TEMP] - 3.0 / (2.0 * pp.R)) < 1e-15);
  assert_true(vort == 0.0 && f[TGV_SUM_ED_S] == 0.0 && f[TGV_SUM_GRADU] == 0.0);
}

/* A hand-built solver of K^3 affine elements x = x0 + M (xi + 1)/2 ... with nodes on Gauss points,
 * filled by the caller. */
typedef struct {
  Mesh mesh;
  Solver s;
  double *grad;
} FakeSolver;

static void fake_solver_init(FakeSolver *fs, int n_elems, int N) {
  memset(fs, 0, sizeof *fs);
  fs->mesh.n_elems = n_elems;
  snprintf(fs->mesh.source, sizeof fs->mesh.source, "test");
  Solver *s = &fs->s;
  s->mesh = &fs->mesh;
  s->disc.N = N;
  s->disc.np = N + 1;
  s->disc.node_type = NODE_GAUSS;
  assert_int_equal(basis_nodes_weights(N, NODE_GAUSS, s->disc.x, s->disc.w), HX_OK);
  basis_barycentric_weights(N, s->disc.x, s->disc.wb);
  basis_diff_matrix(N, s->disc.x, s->disc.wb, s->disc.D);
  s->n_var = HX_NVAR;
  s->np = N + 1;
  s->n_dof_elem = s->np * s->np * s->np;
  long n3 = s->n_dof_elem;
  s->U = calloc((size_t)(HX_NVAR * n3 * n_elems), sizeof(double));
  s->geo.sJ = calloc((size_t)(n3 * n_elems), sizeof(double));
  s->geo.metrics = calloc((size_t)(9 * n3 * n_elems), sizeof(double));
  fs->grad = calloc((size_t)(HX_NGRAD * n3 * n_elems), sizeof(double));
  assert_non_null(s->U);
  assert_non_null(s->geo.sJ);
  assert_non_null(s->geo.metrics);
  assert_non_null(fs->grad);
}

static void fake_solver_free(FakeSolver *fs) {
  free(fs->s.U);
  free(fs->s.geo.sJ);
  free(fs->s.geo.metrics);
  free(fs->grad);
}

/* Element e maps xi in [-1,1]^3 to x = x0 + M xi: 1/J and J a^d_c = J (M^-1)_dc at every node;
 * node positions into x ([3][n3]). */
static void fake_affine_element(FakeSolver *fs, int e, const double x0[3], const double M[3][3],
                                double *x) {
  Solver *s = &fs->s;
  int np = s->np, n3 = s->n_dof_elem;
  const double J = M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) -
                   M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
                   M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
  double Minv[3][3]; /* adjugate / J */
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++) {
      int r1 = (c + 1) % 3, r2 = (c + 2) % 3, c1 = (r + 1) % 3, c2 = (r + 2) % 3;
      Minv[r][c] = (M[r1][c1] * M[r2][c2] - M[r1][c2] * M[r2][c1]) / J;
    }
  for (int n = 0; n < n3; n++) {
    double xi[3] = {s->disc.x[n % np], s->disc.x[(n / np) % np], s->disc.x[n / (np * np)]};
    s->geo.sJ[(long)n3 * e + n] = 1.0 / J;
    for (int d = 0; d < 3; d++)
      for (int c = 0; c < 3; c++)
        s->geo.metrics[(9L * e + d * 3 + c) * n3 + n] = J * Minv[d][c];
    for (int c = 0; c < 3; c++)
      x[c * n3 + n] = x0[c] + M[c][0] * xi[0] + M[c][1] * xi[1] + M[c][2] * xi[2];
  }
}

/* Store U and the gradient of node n of element e in the solver layouts. */
static void fake_store_node(FakeSolver *fs, int e, int n, const double *U, const double *g) {
  long n3 = fs->s.n_dof_elem;
  for (int v = 0; v < HX_NVAR; v++)
    fs->s.U[(HX_NVAR * e + v) * n3 + n] = U[v];
  for (int c = 0; c < HX_NGRAD; c++)
    fs->grad[((long)HX_NGRAD * e + c) * n3 + n] = g[c];
}

/* Periodic Cartesian [0,2pi]^3 of K^3 elements with the TGV field: tgv_sums_cpu with the lifted
 * gradients reproduces the analytic means; without them, the element-local gradient of the
 * degree-N interpolant converges to the same values. */
static void test_sums_cpu_cartesian(void **state) {
  (void)state;
  enum { K = 3, N = 7 };
  FakeSolver fs;
  fake_solver_init(&fs, K * K * K, N);
  fs.s.phys = tgv_gas(VISC_CONSTANT);
  int n3 = fs.s.n_dof_elem;
  double h = TWO_PI / K, *x = malloc(sizeof(double) * 3 * n3);
  const double M[3][3] = {{0.5 * h, 0, 0}, {0, 0.5 * h, 0}, {0, 0, 0.5 * h}};
  for (int e = 0; e < K * K * K; e++) {
    const double x0[3] = {h * (e % K + 0.5), h * ((e / K) % K + 0.5), h * (e / (K * K) + 0.5)};
    fake_affine_element(&fs, e, x0, M, x);
    for (int n = 0; n < n3; n++) {
      double xn[3] = {x[n], x[n3 + n], x[2 * n3 + n]}, U[HX_NVAR], g[HX_NGRAD];
      tgv_node(&fs.s.phys, xn, 0.0, 0.0, U, g);
      fake_store_node(&fs, e, n, U, g);
    }
  }
  free(x);
  TgvAnalysis a;
  char project[64];
  snprintf(project, sizeof project, "/tmp/hexdg_test_tgv_%d", (int)getpid());
  assert_int_equal(tgv_init(&a, &fs.s, project), HX_OK);
  assert_true(fabs(a.volume - pow(TWO_PI, 3)) < 1e-11);
  assert_true(a.mu0 == MU0 && a.rho0 == 1.0);
  double sums[HX_TGV_NSUMS], max_vort, cols[HX_TGV_NCOLS];
  assert_int_equal(tgv_sums_cpu(&fs.s, fs.grad, sums, &max_vort), HX_OK);
  assert_int_equal(tgv_columns(&a, 0.0, sums, max_vort, cols), HX_OK);
  const double eps_ref = 2.0 * MU0 * 0.375;
  assert_true(fabs(cols[TGV_COL_EKIN] - 0.125) < 1e-12);
  assert_true(fabs(cols[TGV_COL_ENSTROPHY] - 0.375) < 1e-12);
  assert_true(fabs(cols[TGV_COL_DR_INCOMP] - eps_ref) < 1e-12 * eps_ref);
  assert_true(fabs(cols[TGV_COL_ED_D]) < 1e-20);
  assert_true(max_vort <= 2.0 + 1e-14 && max_vort > 1.8);
  /* element-local gradient of the degree-7 interpolant: spectral accuracy (about 1e-6 here) */
  double sums_loc[HX_TGV_NSUMS], max_loc, cols_loc[HX_TGV_NCOLS];
  assert_int_equal(tgv_sums_cpu(&fs.s, NULL, sums_loc, &max_loc), HX_OK);
  assert_int_equal(tgv_columns(&a, 0.0, sums_loc, max_loc, cols_loc), HX_OK);
  assert_true(cols_loc[TGV_COL_EKIN] == cols[TGV_COL_EKIN]);
  assert_true(fabs(cols_loc[TGV_COL_ENSTROPHY] - 0.375) < 1e-5);
  assert_true(fabs(cols_loc[TGV_COL_DR_INCOMP] - eps_ref) < 1e-5 * eps_ref);
  assert_true(fabs(max_loc - max_vort) < 1e-4);
  fake_solver_free(&fs);
}

/* Sheared affine elements with an affine velocity u = A x + b: the interpolant is exact, so the
 * element-local gradient (through J a^d and 1/J) must equal A at every node, and the sums with
 * and without the given gradients agree to round-off. */
static void test_local_gradient_sheared(void **state) {
  (void)state;
  enum { N = 3, NE = 2 };
  FakeSolver fs;
  fake_solver_init(&fs, NE, N);
  fs.s.phys = tgv_gas(VISC_CONSTANT);
  int n3 = fs.s.n_dof_elem;
  const double M[NE][3][3] = {{{0.7, 0.2, -0.1}, {0.1, 0.5, 0.3}, {-0.2, 0.1, 0.9}},
                              {{1.1, -0.3, 0.0}, {0.2, 0.8, 0.1}, {0.0, 0.4, 0.6}}};
  const double x0[NE][3] = {{0.1, 0.2, 0.3}, {2.0, -1.0, 0.5}};
  const double A[3][3] = {{0.3, -1.2, 0.5}, {0.8, 0.1, -0.4}, {-0.6, 0.9, 0.7}}, b[3] = {1, -2, 3};
  double *x = malloc(sizeof(double) * 3 * n3), volume_ref = 0.0;
  for (int e = 0; e < NE; e++) {
    fake_affine_element(&fs, e, x0[e], M[e], x);
    volume_ref += 8.0 / fs.s.geo.sJ[(long)n3 * e];
    for (int n = 0; n < n3; n++) {
      double prim[HX_NPRIM] = {1.3, 0, 0, 0, 2.5, 0}, U[HX_NVAR], g[HX_NGRAD];
      for (int r = 0; r < 3; r++) {
        prim[VEL1 + r] = b[r];
        for (int c = 0; c < 3; c++)
          prim[VEL1 + r] += A[r][c] * x[c * n3 + n];
      }
      prim_to_cons(&fs.s.phys, prim, U);
      for (int c = 0; c < 3; c++) {
        for (int r = 0; r < 3; r++)
          g[c * HX_NLIFT + LIFT_VEL1 + r] = A[r][c];
        g[c * HX_NLIFT + LIFT_TEMP] = 0.0;
      }
      fake_store_node(&fs, e, n, U, g);
    }
  }
  free(x);
  TgvAnalysis a;
  assert_int_equal(tgv_init(&a, &fs.s, "unused"), HX_OK);
  assert_true(fabs(a.volume - volume_ref) < 1e-13 * volume_ref);
  double s_given[HX_TGV_NSUMS], s_local[HX_TGV_NSUMS], m_given, m_local;
  assert_int_equal(tgv_sums_cpu(&fs.s, fs.grad, s_given, &m_given), HX_OK);
  assert_int_equal(tgv_sums_cpu(&fs.s, NULL, s_local, &m_local), HX_OK);
  for (int m = 0; m < HX_TGV_NSUMS; m++)
    assert_true(fabs(s_given[m] - s_local[m]) <= 1e-12 * (fabs(s_given[m]) + 1e-300));
  assert_true(fabs(m_given - m_local) < 1e-12);
  /* the volume integral of a constant integrand is volume * value */
  const double divA = A[0][0] + A[1][1] + A[2][2];
  assert_true(fabs(s_given[TGV_SUM_ED_D] - MU0 * divA * divA * volume_ref) <
              1e-13 * s_given[TGV_SUM_ED_D]);
  fake_solver_free(&fs);
}

static void test_fortran_number_format(void **state) {
  (void)state;
  const struct {
    double v;
    const char *text;
  } cases[] = {
      {0.125, "0.12500000000000E+00000"},     {-0.125, "-.12500000000000E+00000"},
      {0.0, "0.00000000000000E+00000"},       {1.0, "0.10000000000000E+00001"},
      {12345.678, "0.12345678000000E+00005"}, {1e-300, "0.10000000000000E-00299"},
      {2.0 / 3.0, "0.66666666666667E+00000"}, {-9.9999999999999e9, "-.99999999999999E+00010"}};
  char out[32];
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    tgv_format_e23_14(cases[c].v, out);
    assert_string_equal(out, cases[c].text);
    assert_int_equal(strlen(out), 23);
  }
  tgv_format_e23_14(nan(""), out);
  assert_int_equal(strlen(out), 23);
  assert_non_null(strstr(out, "NaN"));
}

static int count_lines(const char *path, char *first, size_t first_len) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[4096];
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    if (n == 0 && first) snprintf(first, first_len, "%s", line);
    n++;
  }
  fclose(f);
  return n;
}

static void test_csv_and_resume(void **state) {
  (void)state;
  TgvAnalysis a = analysis_with_volume(1.0, MU0);
  snprintf(a.csv_path, sizeof a.csv_path, "/tmp/hexdg_test_tgv_%d_TGVAnalysis.csv", (int)getpid());
  remove(a.csv_path);
  double cols[HX_TGV_NCOLS];
  for (int step = 0; step < 4; step++) {
    for (int c = 0; c < HX_TGV_NCOLS; c++)
      cols[c] = (c + 1) * 0.1 * (step + 1) - 0.55;
    cols[TGV_COL_TIME] = 0.1 * step;
    assert_int_equal(tgv_write_csv(&a, cols, step == 0), HX_OK);
  }
  char header[4096], expected[4096] = "";
  assert_int_equal(count_lines(a.csv_path, header, sizeof header), 5);
  for (int c = 0; c < HX_TGV_NCOLS; c++) {
    strcat(expected, c ? "," : "");
    strcat(expected, TGV_COLUMN_NAMES[c]);
  }
  strcat(expected, "\n");
  assert_string_equal(header, expected);
  assert_string_equal(TGV_COLUMN_NAMES[1], "Dissipation Rate Incompressible");
  assert_string_equal(TGV_COLUMN_NAMES[15], "ED_D");
  /* the last line: 16 numbers of 23 characters separated by ", ", read back to 14 digits */
  FILE *f = fopen(a.csv_path, "r");
  char line[4096];
  for (int l = 0; l < 5; l++)
    assert_non_null(fgets(line, sizeof line, f));
  fclose(f);
  assert_int_equal(strlen(line), 23 * HX_TGV_NCOLS + 2 * (HX_TGV_NCOLS - 1) + 1);
  char *p = line;
  for (int c = 0; c < HX_TGV_NCOLS; c++) {
    char *end;
    double v = strtod(p, &end);
    assert_true(end == p + 23);
    assert_true(fabs(v - cols[c]) <= 1e-13 * fabs(cols[c]));
    p = end + (c < HX_TGV_NCOLS - 1 ? 2 : 0);
  }
  /* restart at t = 0.2 (computed as 0.1+0.1 != 0.2 written): keeps t = 0 and 0.1 */
  assert_int_equal(tgv_csv_resume(&a, 0.1 + 0.1), HX_OK);
  assert_int_equal(count_lines(a.csv_path, NULL, 0), 3);
  assert_int_equal(tgv_csv_resume(&a, 0.30000000000000004), HX_OK);
  assert_int_equal(count_lines(a.csv_path, NULL, 0), 3);
  assert_int_equal(tgv_csv_resume(&a, 0.0), HX_OK);
  assert_int_equal(count_lines(a.csv_path, header, sizeof header), 1);
  assert_string_equal(header, expected);
  /* no file: a fresh header */
  remove(a.csv_path);
  assert_int_equal(tgv_csv_resume(&a, 1.0), HX_OK);
  assert_int_equal(count_lines(a.csv_path, header, sizeof header), 1);
  assert_string_equal(header, expected);
  remove(a.csv_path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tgv_initial_field),      cmocka_unit_test(test_compressible_identities),
      cmocka_unit_test(test_local_viscosity),        cmocka_unit_test(test_sums_cpu_cartesian),
      cmocka_unit_test(test_local_gradient_sheared), cmocka_unit_test(test_fortran_number_format),
      cmocka_unit_test(test_csv_and_resume),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
