/* Double Mach reflection (IniExactFunc 13, parameter_files/dmr.ini) on a coarse mesh, 48 x 12
 * elements of N = 3, to t = 0.05 with FV subcell shock capturing: the run ends without a positivity
 * failure; the split bottom boundary (BoxSplitBC) carries the exact function left of x = 1/6 and
 * the slip wall right of it; the incident shock crosses the top boundary and the line y = 0.5 at
 * the exact x_s(y, t) = 1/6 + (y + 20 t)/sqrt(3) within one element width (measured: 0.06 and
 * 0.18 widths); the blending is on at the incident shock and exactly zero in the uniform states
 * away from it. About 15 s on one core (Release). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "harness.h"
#include "physics/bc.h"
#include "physics/eos.h"

#define DMR_NX 48
#define DMR_NY 12
#define DMR_T 0.05

static const char *const DMR[] = {
    "ProjectName = dmr", "MeshFile = box", "BoxElems = (/48,12,1/)",
    "BoxLower = (/0., 0., 0./)", "BoxUpper = (/4., 1., 0.08333333333333333/)",
    "BoxPeriodic = (/F,F,T/)", "BoxSplitBC = BC_yminus, x, 1/6, BC_postshock",
    "BoundaryName = BC_yminus", "BoundaryType = (/9,0/)", "BoundaryName = BC_postshock",
    "BoundaryType = (/2,0/)", "BoundaryName = BC_xplus", "BoundaryType = (/24,2/)", "N = 3",
    "NodeType = GAUSS-LOBATTO", "SplitDG = PI", "Riemann = HLLE", "IniExactFunc = 13",
    "tend = 0.05", "CFLscale = 0.5", "CalcErrorNorms = F", "IndicatorType = hennemann",
    "FV_alpha_max = 1.", "FV_doExtendAlpha = T", "FV_LimiterType = MinMod", NULL};

static double shock_x(double y, double t) { return 1.0 / 6.0 + (y + 20.0 * t) / sqrt(3.0); }

static void check_split_boundary_types(const Solver *s) {
  const Mesh *m = s->mesh;
  const int post = harness_bc_index(m, "BC_postshock"), wall = harness_bc_index(m, "BC_yminus");
  assert_true(post >= 0 && wall >= 0);
  assert_int_equal(m->bcs[post].type, BC_EXACT);
  assert_int_equal(m->bcs[wall].type, BC_WALL_SLIP);
  int n_post = 0, n_wall = 0;
  for (int side = 0; side < m->n_bc_sides; side++) {
    if (m->side_bc[side] != post && m->side_bc[side] != wall) continue;
    /* x of the side: the mean over the master element's nodes (x does not vary along z, y) */
    const int e = m->side_master_elem[side], n3 = s->n_dof_elem;
    double xc = 0.0;
    for (int q = 0; q < n3; q++) xc += s->geo.elem_x[3L * n3 * e + q] / n3;
    if (m->side_bc[side] == post) {
      assert_true(xc < 1.0 / 6.0);
      n_post++;
    } else {
      assert_true(xc > 1.0 / 6.0);
      n_wall++;
    }
  }
  assert_int_equal(n_post, 2);
  assert_int_equal(n_wall, DMR_NX - 2);
}

typedef struct {
  double x, rho;
} Sample;

static int by_x(const void *a, const void *b) {
  double d = ((const Sample *)a)->x - ((const Sample *)b)->x;
  return (d > 0) - (d < 0);
}

/* Where the density along y = y0 (node line at z = 0) last crosses the mean of the post- and
 * pre-shock densities, scanning from the right (the incident shock, the first jump met). */
static double shock_crossing(const Solver *s, double y0) {
  const int n3 = s->n_dof_elem;
  const double level = 0.5 * (8.0 + 1.4);
  Sample *line = malloc(sizeof(Sample) * (size_t)s->mesh->n_elems * n3);
  int n = 0;
  for (int e = 0; e < s->mesh->n_elems; e++)
    for (int q = 0; q < n3; q++) {
      const double *x = &s->geo.elem_x[3L * n3 * e];
      if (fabs(x[n3 + q] - y0) > 1e-12 || fabs(x[2 * n3 + q]) > 1e-12) continue;
      line[n++] = (Sample){x[q], s->U[((long)e * HX_NVAR + DENS) * n3 + q]};
    }
  qsort(line, n, sizeof(Sample), by_x);
  double xs = -1.0;
  for (int i = n - 2; i >= 0; i--)
    if (line[i].rho > level && line[i + 1].rho <= level) {
      xs = line[i].x + (level - line[i].rho) * (line[i + 1].x - line[i].x) /
                           (line[i + 1].rho - line[i].rho);
      break;
    }
  free(line);
  return xs;
}

static void element_centre(const Solver *s, int e, double c[3]) {
  const int n3 = s->n_dof_elem;
  for (int d = 0; d < 3; d++) {
    c[d] = 0.0;
    for (int q = 0; q < n3; q++) c[d] += s->geo.elem_x[(3L * e + d) * n3 + q] / n3;
  }
}

static void test_dmr_coarse(void **state) {
  (void)state;
  Simulation *sim = harness_sim(DMR, NULL, NULL);
  assert_non_null(sim);
  const Solver *s = sim->solver;
  check_split_boundary_types(s);
  assert_int_equal(simulation_run(sim), HX_OK); /* a positivity failure stops the run */
  assert_true(fabs(sim->t - DMR_T) < 1e-12);

  double rho_min, p_min;
  harness_min_rho_p(s, &rho_min, &p_min);
  printf("  rho_min %.4f  p_min %.4f\n", rho_min, p_min);
  assert_true(rho_min > 0.0 && p_min > 0.0);

  const double h = 4.0 / DMR_NX;
  const double ys[2] = {1.0, 0.5};
  for (int i = 0; i < 2; i++) {
    const double xs = shock_crossing(s, ys[i]), exact = shock_x(ys[i], sim->t);
    printf("  incident shock at y = %.2f: x = %.4f, exact %.4f, |error| = %.3f element widths\n",
           ys[i], xs, exact, fabs(xs - exact) / h);
    assert_true(fabs(xs - exact) <= h);
  }

  /* alpha: on at the incident shock (y > 0.4, above the reflection); zero more than three element
   * widths (in x) ahead of it and five behind it in the upper half (away from the reflected shock
   * and the Mach stem); nearer, the oblique smeared shock and FV_doExtendAlpha reach */
  double alpha_at_shock = 0.0, alpha_far = 0.0;
  int n_far = 0;
  for (int e = 0; e < s->mesh->n_elems; e++) {
    double c[3];
    element_centre(s, e, c);
    const double dist = c[0] - shock_x(c[1], sim->t), a = s->fv.alpha[e];
    if (c[1] > 0.4 && fabs(dist) < 0.5 * h) alpha_at_shock = fmax(alpha_at_shock, a);
    if (dist > 3.0 * h || (c[1] > 0.5 && dist < -5.0 * h)) {
      alpha_far = fmax(alpha_far, a);
      n_far++;
    }
  }
  printf("  alpha: max %.3f at the incident shock, max %.3g in %d elements away from it\n",
         alpha_at_shock, alpha_far, n_far);
  assert_true(alpha_at_shock >= 0.5);
  assert_true(n_far > DMR_NX * DMR_NY / 2);
  assert_true(alpha_far == 0.0);
  simulation_destroy(sim);
}

int main(void) {
  harness_scratch_dir("dmr");
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_dmr_coarse)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
