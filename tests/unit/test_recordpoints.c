/* Record points (analysis/recordpoints.c): the Newton inversion of curved element mappings, the
 * samples of an advected density sine wave against the exact function and against an independent
 * (modal) interpolation of the DG solution, FLEXI's definition file read, buffering and restarts
 * that leave the RP files unchanged, and the errors for bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <hdf5.h>

#include "analysis/recordpoints.h"
#include "basis/basis.h"
#include "io/state.h"
#include "mesh/mesh.h"
#include "physics/mixture.h"
#include "regression/harness.h"

/* A curved box (NGeo 3) and the density sine wave (FLEXI exact function 2) advected through it. */
static const char *const WAVE[] = {"MeshFile = box",
                                   "BoxElems = (/3,3,3/)",
                                   "NGeo = 3",
                                   "BoxCurving = 0.06",
                                   "N = 5",
                                   "NodeType = GAUSS-LOBATTO",
                                   "IniExactFunc = 2",
                                   "AdvVel = (/1.,0.5,0.25/)",
                                   "IniAmplitude = 0.1",
                                   "IniFrequency = 0.5",
                                   "tend = 0.2",
                                   "Analyze_dt = 0.1",
                                   "Backend = cpu",
                                   "CalcErrorNorms = F",
                                   "RP_inUse = T",
                                   NULL};

/* Points inside curved elements (off the nodes), a line and a plane. */
static const char *const POINTS[] = {"ProjectName = rp",
                                     "RP_Point = (/0.31,0.42,0.53/)",
                                     "RP_Point = (/0.71,0.2,0.9/)",
                                     "RP_Point = (/0.05,0.93,0.12/)",
                                     "RP_Line = (/0.1,0.15,0.2, 0.85,0.9,0.8/)",
                                     "RP_LineN = 7",
                                     "RP_Plane = (/0.1,0.1,0.5, 0.9,0.1,0.5, 0.1,0.9,0.45/)",
                                     "RP_PlaneN = (/4,3/)",
                                     NULL};

typedef struct {
  hsize_t dims[3]; /* samples, points, 1 + nVar */
  double *data;
  double time;
} RpFile;

static int read_rp(const char *path, RpFile *f) {
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return 1;
  hid_t ds = H5Dopen2(file, "RP_Data", H5P_DEFAULT), sp = H5Dget_space(ds);
  H5Sget_simple_extent_dims(sp, f->dims, NULL);
  f->data = malloc(sizeof(double) * (f->dims[0] * f->dims[1] * f->dims[2] + 1));
  H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, f->data);
  hid_t at = H5Aopen(file, "Time", H5P_DEFAULT);
  H5Aread(at, H5T_NATIVE_DOUBLE, &f->time);
  H5Aclose(at);
  H5Sclose(sp);
  H5Dclose(ds);
  H5Fclose(file);
  return 0;
}

static void rp_name(char *buf, size_t len, const char *project, double t) {
  snprintf(buf, len, "%s_RP_%017.9f.h5", project, t);
}

static double *read_doubles(const char *path, const char *name, hsize_t *dims) {
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t ds = H5Dopen2(file, name, H5P_DEFAULT), sp = H5Dget_space(ds);
  H5Sget_simple_extent_dims(sp, dims, NULL);
  double *d = malloc(sizeof(double) * dims[0] * dims[1]);
  H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, d);
  H5Sclose(sp);
  H5Dclose(ds);
  H5Fclose(file);
  return d;
}

/* Newton on a curved box: a point mapped from xi is found again in its element, and the found
 * xi maps back onto the point to 1e-12. */
static void test_newton_inverts_curved_mapping(void **state) {
  (void)state;
  BoxSpec b = {{3, 2, 2}, {0, 0, 0}, {1.5, 1, 1}, {0, 0, 0}, 4, 0.08};
  Mesh *m = NULL;
  assert_int_equal(mesh_create_box(&b, &m), HX_OK);
  const int n3 = 5 * 5 * 5;
  double worst_x = 0.0, worst_xi = 0.0;
  unsigned seed = 12345;
  for (int e = 0; e < m->n_elems; e++)
    for (int s = 0; s < 20; s++) {
      double xi[3], x[3], xi2[3], x2[3];
      for (int d = 0; d < 3; d++) {
        seed = seed * 1103515245u + 12345u;
        xi[d] = -0.98 + 1.96 * ((seed >> 8) & 0xffff) / 65535.0;
      }
      recordpoints_map(m->NGeo, m->node_coords + (size_t)e * n3 * 3, xi, x);
      int found = recordpoints_locate(m, x, xi2);
      assert_int_equal(found, e); /* strictly inside: the point is in no other element */
      recordpoints_map(m->NGeo, m->node_coords + (size_t)e * n3 * 3, xi2, x2);
      for (int d = 0; d < 3; d++) {
        worst_x = fmax(worst_x, fabs(x2[d] - x[d]));
        worst_xi = fmax(worst_xi, fabs(xi2[d] - xi[d]));
      }
    }
  printf("  Newton: |x(xi*) - x| <= %.2e, |xi* - xi| <= %.2e over %d points\n", worst_x, worst_xi,
         20 * m->n_elems);
  assert_true(worst_x < 1e-12);
  assert_true(worst_xi < 1e-10);
  double out[3] = {1.6, 0.5, 0.5}, xi[3];
  assert_int_equal(recordpoints_locate(m, out, xi), -1);
  mesh_destroy(m);
}

/* u at reference point xi of element e from the orthonormal Legendre modes of its nodal values:
 * an evaluation independent of the barycentric Lagrange weights the code uses. */
static double modal_eval(const Solver *s, int e, int v, const double xi[3]) {
  const int np = s->np, N = s->disc.N;
  double V[HX_NPMAX * HX_NPMAX], Vinv[HX_NPMAX * HX_NPMAX], P[3][HX_NPMAX];
  basis_legendre_vandermonde(N, s->disc.x, V, Vinv);
  for (int d = 0; d < 3; d++)
    for (int m = 0; m < np; m++) {
      double L, dL;
      basis_legendre(m, xi[d], &L, &dL);
      P[d][m] = sqrt(m + 0.5) * L;
    }
  const double *u = s->U + ((size_t)e * s->n_var + v) * s->n_dof_elem;
  double sum = 0.0; /* u(xi) = sum_abc c_abc P_a P_b P_c, c = Vinv (x) Vinv (x) Vinv u */
  for (int c = 0; c < np; c++)
    for (int bb = 0; bb < np; bb++)
      for (int a = 0; a < np; a++) {
        double coef = 0.0;
        for (int k = 0; k < np; k++)
          for (int j = 0; j < np; j++)
            for (int i = 0; i < np; i++)
              coef += Vinv[a * np + i] * Vinv[bb * np + j] * Vinv[c * np + k] *
                      u[(k * np + j) * np + i];
        sum += coef * P[0][a] * P[1][bb] * P[2][c];
      }
  return sum;
}

/* The wave's samples: the last one equals the final DG solution interpolated independently at the
 * point (1e-12: right element, xi and weights); every one is the exact density within the error
 * of the N = 5 interpolant on h = 2/3 (7e-4 at t = 0; a point misplaced by 0.01 would be off by up
 * to A pi sqrt(3) 0.01 = 5.4e-3). */
static void test_samples_of_advected_wave(void **state) {
  (void)state;
  Simulation *sim = harness_sim(WAVE, POINTS, NULL);
  assert_non_null(sim);
  assert_int_equal(sim->rp.n_global, 3 + 7 + 12);
  assert_int_equal(simulation_run(sim), HX_OK);
  hsize_t xd[2], od[2];
  double *xF = read_doubles("rp_RPSet.h5", "xF_RP", xd);
  double *xi = read_doubles("rp_RPSet.h5", "xi_RP", xd);
  assert_int_equal(xd[0], 22);
  hid_t file = H5Fopen("rp_RPSet.h5", H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t ds = H5Dopen2(file, "OffsetRP", H5P_DEFAULT), sp = H5Dget_space(ds);
  H5Sget_simple_extent_dims(sp, od, NULL);
  long long *off = malloc(sizeof(long long) * od[0] * 2);
  H5Dread(ds, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, off);
  H5Sclose(sp);
  H5Dclose(ds);
  H5Fclose(file);
  const Solver *s = sim->solver;
  double worst_interp = 0.0, worst_exact = 0.0;
  long samples = 0;
  for (int w = 1; w <= 2; w++) {
    char path[256];
    rp_name(path, sizeof path, "rp", 0.1 * w);
    RpFile f;
    assert_int_equal(read_rp(path, &f), 0);
    assert_true(f.time == 0.1 * w);
    assert_int_equal(f.dims[1], 22);
    assert_int_equal(f.dims[2], 6);
    assert_true(f.data[0] == 0.1 * (w - 1)); /* a file starts at the previous output... */
    assert_true(f.data[(f.dims[0] - 1) * 22 * 6] == 0.1 * w); /* ...and ends at its own */
    for (hsize_t t = 0; t < f.dims[0]; t++)
      for (int p = 0; p < 22; p++) {
        const double *row = f.data + (t * 22 + p) * 6;
        double U[HX_NVAR_MAX];
        solver_exact_state(s, xF + 3 * p, row[0], U);
        worst_exact = fmax(worst_exact, fabs(row[1] - U[0]));
        samples++;
      }
    if (w == 2)
      for (int p = 0; p < 22; p++) {
        int e = -1; /* the element of point p from OffsetRP, then its local index */
        for (long g = 0; g < (long)od[0]; g++)
          if (p >= off[2 * g] && p < off[2 * g + 1])
            for (int l = 0; l < s->mesh->n_elems; l++)
              if (s->mesh->elem_global_id[l] == g + 1) e = l;
        assert_true(e >= 0);
        for (int v = 0; v < 5; v++)
          worst_interp = fmax(worst_interp, fabs(f.data[((f.dims[0] - 1) * 22 + p) * 6 + 1 + v] -
                                                 modal_eval(s, e, v, xi + 3 * p)));
      }
    free(f.data);
  }
  printf("  %ld samples: |rho - exact| <= %.3e; final samples vs modal interpolation %.2e\n",
         samples, worst_exact, worst_interp);
  assert_true(worst_interp < 1e-12);
  assert_true(worst_exact < 1.5e-3);
  assert_true(worst_exact > 0.0);
  free(off);
  free(xF);
  free(xi);
  simulation_destroy(sim);
}

/* A definition file in FLEXI's layout written here: points at solution nodes (xi = LGL nodes), so
 * the samples at t = 0 are the nodal values exactly; a file of another mesh is refused. */
static int write_def_file(const char *path, const Solver *s, int n, const long *gid,
                          const int (*node)[3], double shift) {
  const Mesh *m = s->mesh;
  long long *off = calloc(2 * m->n_global_elems, sizeof(long long));
  double *xi = malloc(sizeof(double) * 3 * n), *x = malloc(sizeof(double) * 3 * n);
  int p = 0;
  for (long g = 1; g <= m->n_global_elems; g++) {
    off[2 * (g - 1)] = p;
    for (int q = 0; q < n; q++) {
      if (gid[q] != g) continue;
      int e = 0;
      while (m->elem_global_id[e] != g)
        e++;
      const int np = s->np, ijk = (node[q][2] * np + node[q][1]) * np + node[q][0];
      for (int d = 0; d < 3; d++) {
        xi[3 * p + d] = s->disc.x[node[q][d]];
        x[3 * p + d] = s->geo.elem_x[((size_t)e * 3 + d) * s->n_dof_elem + ijk] + shift;
      }
      p++;
    }
    off[2 * (g - 1) + 1] = p;
  }
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t od[2] = {(hsize_t)m->n_global_elems, 2}, xd[2] = {(hsize_t)n, 3};
  hid_t so = H5Screate_simple(2, od, NULL), sx = H5Screate_simple(2, xd, NULL);
  hid_t d1 = H5Dcreate2(f, "OffsetRP", H5T_STD_I32LE, so, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(d1, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, off);
  hid_t d2 = H5Dcreate2(f, "xi_RP", H5T_IEEE_F64LE, sx, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(d2, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, xi);
  hid_t d3 = H5Dcreate2(f, "x_RP", H5T_IEEE_F64LE, sx, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(d3, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x);
  hid_t st = H5Tcopy(H5T_FORTRAN_S1);
  H5Tset_size(st, 8);
  hid_t s1 = H5Screate(H5S_SCALAR),
        at = H5Acreate2(f, "MeshFile", st, s1, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(at, st, "box_mesh");
  H5Aclose(at);
  H5Sclose(s1);
  H5Tclose(st);
  H5Dclose(d1);
  H5Dclose(d2);
  H5Dclose(d3);
  H5Sclose(so);
  H5Sclose(sx);
  H5Fclose(f);
  free(off);
  free(xi);
  free(x);
  return p;
}

static void test_flexi_def_file_is_read(void **state) {
  (void)state;
  const char *proj[] = {"ProjectName = def", "RP_DefFile = flexi_RPSet.h5", "tend = 0.1", NULL};
  /* a simulation to learn the mesh, then the file, then the run that reads it */
  const char *plain[] = {"ProjectName = plain", "RP_inUse = F", NULL};
  Simulation *ref = harness_sim(WAVE, plain, NULL);
  assert_non_null(ref);
  const long gid[4] = {27, 1, 14, 14};
  const int node[4][3] = {{2, 3, 1}, {0, 0, 0}, {5, 1, 4}, {3, 3, 3}};
  assert_int_equal(write_def_file("flexi_RPSet.h5", ref->solver, 4, gid, node, 0.0), 4);
  Simulation *sim = harness_sim(WAVE, proj, NULL);
  assert_non_null(sim);
  assert_int_equal(sim->rp.n_global, 4);
  assert_int_equal(simulation_run(sim), HX_OK);
  RpFile f;
  char path[256];
  rp_name(path, sizeof path, "def", 0.0);
  assert_int_equal(read_rp(path, &f), 0);
  assert_int_equal(f.dims[0], 1);
  const long order[4] = {1, 14, 14, 27}; /* the file's points go by element */
  const int onode[4][3] = {{0, 0, 0}, {5, 1, 4}, {3, 3, 3}, {2, 3, 1}};
  double worst = 0.0;
  for (int p = 0; p < 4; p++) {
    int e = 0;
    while (ref->solver->mesh->elem_global_id[e] != order[p])
      e++;
    const int np = ref->solver->np, ijk = (onode[p][2] * np + onode[p][1]) * np + onode[p][0];
    for (int v = 0; v < 5; v++)
      worst =
          fmax(worst, fabs(f.data[p * 6 + 1 + v] -
                           ref->solver->U[((size_t)e * 5 + v) * ref->solver->n_dof_elem + ijk]));
  }
  printf("  FLEXI definition file: samples at nodes vs nodal values %.2e\n", worst);
  assert_true(worst < 1e-14);
  free(f.data);
  simulation_destroy(sim);
  /* the same points, positions of another mesh (shifted by 1e-3): refused */
  write_def_file("other_RPSet.h5", ref->solver, 4, gid, node, 1e-3);
  const char *other[] = {"ProjectName = other", "RP_DefFile = other_RPSet.h5", NULL};
  assert_null(harness_sim(WAVE, other, NULL));
  /* a file for a mesh of another element count: refused */
  const char *fewer[] = {"ProjectName = fewer", "RP_DefFile = flexi_RPSet.h5",
                         "BoxElems = (/3,3,2/)", NULL};
  assert_null(harness_sim(WAVE, fewer, NULL));
  simulation_destroy(ref);
}

static void test_bad_input_is_refused(void **state) {
  (void)state;
  const char *outside[] = {"ProjectName = bad", "RP_Point = (/0.5,0.5,1.2/)", NULL};
  assert_null(harness_sim(WAVE, outside, NULL));
  const char *none[] = {"ProjectName = bad", NULL};
  assert_null(harness_sim(WAVE, none, NULL));
  const char *both[] = {"ProjectName = bad", "RP_Point = (/0.5,0.5,0.5/)",
                        "RP_DefFile = flexi_RPSet.h5", NULL};
  assert_null(harness_sim(WAVE, both, NULL));
  const char *missing[] = {"ProjectName = bad", "RP_DefFile = no_such_file.h5", NULL};
  assert_null(harness_sim(WAVE, missing, NULL));
}

/* Bitwise equal RP_Data of two files. */
static long differing_values(const char *a, const char *b) {
  RpFile fa, fb;
  if (read_rp(a, &fa) || read_rp(b, &fb)) return -1;
  long diff = memcmp(fa.dims, fb.dims, sizeof fa.dims) ? -1 : 0;
  for (hsize_t q = 0; diff >= 0 && q < fa.dims[0] * fa.dims[1] * fa.dims[2]; q++)
    diff += memcmp(&fa.data[q], &fb.data[q], sizeof(double)) != 0;
  free(fa.data);
  free(fb.data);
  return diff;
}

/* A buffer of a few samples (flushed several times per file) and a restart from the middle state
 * give the same RP files, bit for bit, as one uninterrupted run with a large buffer; sampling
 * every 2nd step keeps its phase through the restart. */
static void test_buffer_and_restart_leave_files_unchanged(void **state) {
  (void)state;
  const char *small[] = {
      "ProjectName = small",   "RP_SamplingOffset = 2",
      "RP_MaxMemory = 1",      "RP_Plane = (/0.05,0.05,0.3, 0.95,0.05,0.3, 0.05,0.95,0.7/)",
      "RP_PlaneN = (/60,60/)", NULL};
  const char *big_plane[] = {"ProjectName = big", "RP_SamplingOffset = 2",
                             "RP_Plane = (/0.05,0.05,0.3, 0.95,0.05,0.3, 0.05,0.95,0.7/)",
                             "RP_PlaneN = (/60,60/)", NULL};
  Simulation *a = harness_sim(WAVE, big_plane, NULL);
  assert_non_null(a);
  assert_int_equal(simulation_run(a), HX_OK);
  simulation_destroy(a);
  Simulation *b = harness_sim(WAVE, small, NULL);
  assert_non_null(b);
  assert_true(b->rp.cap < 8);
  assert_int_equal(simulation_run(b), HX_OK);
  simulation_destroy(b);
  char mid[256];
  state_file_name(mid, sizeof mid, "small", 0.1);
  const char *again[] = {
      "ProjectName = again",   "RP_SamplingOffset = 2",
      "RP_MaxMemory = 1",      "RP_Plane = (/0.05,0.05,0.3, 0.95,0.05,0.3, 0.05,0.95,0.7/)",
      "RP_PlaneN = (/60,60/)", NULL};
  Simulation *c = harness_sim(WAVE, again, mid);
  assert_non_null(c);
  assert_int_equal(simulation_run(c), HX_OK);
  simulation_destroy(c);
  char fa[256], fb[256], fc[256];
  for (int w = 1; w <= 2; w++) {
    rp_name(fa, sizeof fa, "big", 0.1 * w);
    rp_name(fb, sizeof fb, "small", 0.1 * w);
    assert_int_equal(differing_values(fa, fb), 0);
  }
  rp_name(fa, sizeof fa, "big", 0.2);
  rp_name(fc, sizeof fc, "again", 0.2);
  RpFile f;
  assert_int_equal(read_rp(fa, &f), 0);
  printf("  buffered and restarted: %llu samples of %llu points bitwise equal\n",
         (unsigned long long)f.dims[0], (unsigned long long)f.dims[1]);
  free(f.data);
  assert_int_equal(differing_values(fa, fc), 0);
}

int main(void) {
  harness_scratch_dir("recordpoints");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_newton_inverts_curved_mapping),
      cmocka_unit_test(test_samples_of_advected_wave),
      cmocka_unit_test(test_flexi_def_file_is_read),
      cmocka_unit_test(test_bad_input_is_refused),
      cmocka_unit_test(test_buffer_and_restart_leave_files_unchanged),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
