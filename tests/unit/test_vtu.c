/* ParaView output: .vtu files of Lagrange hexahedra read back and checked against the element
 * maps, VTK's point ordering, the solution and the exact function; binary against ASCII; .pvd
 * series; state-file conversion. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "app/convert.h"
#include "basis/basis.h"
#include "io/state.h"
#include "io/vtu.h"
#include "physics/eos.h"
#include "regression/harness.h"
#include "vtu_test_util.h"

/* A curved box (NGeo = 2) of unequal edge lengths with Gauss nodes, so the visualization points
 * on the element faces are extrapolated, and the manufactured solution 4. */
static const char *const CURVED[] = {"ProjectName = vtu",
                                     "Backend = cpu",
                                     "MeshFile = box",
                                     "BoxElems = (/2,3,2/)",
                                     "BoxLower = (/0.,0.,0./)",
                                     "BoxUpper = (/1.,2.,1.5/)",
                                     "BoxPeriodic = (/T,T,T/)",
                                     "NGeo = 2",
                                     "BoxCurving = 0.05",
                                     "N = 3",
                                     "NodeType = GAUSS",
                                     "IniExactFunc = 4",
                                     "IniAmplitude = 0.1",
                                     "IniFrequency = 0.5",
                                     "AdvVel = (/1.,1.,1./)",
                                     "tend = 0.1",
                                     NULL};

/* An affine box (NGeo = 1) with Gauss-Lobatto nodes and a constant RefState. */
static const char *const AFFINE[] = {"ProjectName = vtuaffine",
                                     "Backend = cpu",
                                     "MeshFile = box",
                                     "BoxElems = (/3,2,2/)",
                                     "BoxLower = (/-1.,0.5,2./)",
                                     "BoxUpper = (/2.,1.5,4./)",
                                     "NGeo = 1",
                                     "N = 3",
                                     "NodeType = GAUSS-LOBATTO",
                                     "IniExactFunc = 1",
                                     "RefState = (/1.2, 0.3, -0.2, 0.1, 2.5/)",
                                     "tend = 0.1",
                                     NULL};

static const double AFFINE_LOWER[3] = {-1.0, 0.5, 2.0}, AFFINE_UPPER[3] = {2.0, 1.5, 4.0};
static const int AFFINE_ELEMS[3] = {3, 2, 2};

/* ---------------------------------------------------------------------------------------------
 * Reading .vtu files back (the arrays: vtu_test_util.h) */

typedef struct {
  long n_points, n_cells;
  double *points, *conn, *offsets, *types;
  double *vars[10];
} VtuData;

static const char *const VAR_NAMES[10] = {
    "Density",   "MomentumX", "MomentumY", "MomentumZ", "EnergyStagnationDensity",
    "VelocityX", "VelocityY", "VelocityZ", "Pressure",  "Temperature"};

static double *read_array(const char *text, long size, int binary, const char *name,
                          long expected) {
  long n = -1;
  double *v = binary ? binary_array(text, size, name, &n) : ascii_array(text, name, &n);
  assert_non_null(v);
  assert_int_equal(n, expected);
  return v;
}

static void vtu_read(const char *path, int binary, VtuData *d) {
  long size;
  char *text = slurp(path, &size);
  assert_non_null(text);
  assert_non_null(strstr(text, "<VTKFile type=\"UnstructuredGrid\" version=\"2.2\""));
  assert_non_null(strstr(text, "header_type=\"UInt64\""));
  const char *piece = strstr(text, "<Piece");
  assert_non_null(piece);
  d->n_points = attribute_long(piece, "NumberOfPoints");
  d->n_cells = attribute_long(piece, "NumberOfCells");
  d->points = read_array(text, size, binary, "Points", 3 * d->n_points);
  d->offsets = read_array(text, size, binary, "offsets", d->n_cells);
  long n_conn = d->n_cells ? (long)d->offsets[d->n_cells - 1] : 0;
  d->conn = read_array(text, size, binary, "connectivity", n_conn);
  d->types = read_array(text, size, binary, "types", d->n_cells);
  for (int v = 0; v < 10; v++)
    d->vars[v] = read_array(text, size, binary, VAR_NAMES[v], d->n_points);
  free(text);
}

static void vtu_data_free(VtuData *d) {
  free(d->points);
  free(d->conn);
  free(d->offsets);
  free(d->types);
  for (int v = 0; v < 10; v++)
    free(d->vars[v]);
}

/* ---------------------------------------------------------------------------------------------
 * Independent evaluations of the element maps and of the solution */

/* Position of reference point xi of element e from the mesh's NGeo equidistant nodes. */
static void geometry_map(const Mesh *m, int e, const double xi[3], double x[3]) {
  int ng = m->NGeo + 1;
  double xeq[HX_NPMAX], wb[HX_NPMAX], l[3][HX_NPMAX];
  basis_equidistant_nodes(m->NGeo, xeq);
  basis_barycentric_weights(m->NGeo, xeq, wb);
  for (int d = 0; d < 3; d++)
    basis_lagrange_eval(m->NGeo, xeq, wb, xi[d], l[d]);
  x[0] = x[1] = x[2] = 0.0;
  const double *nodes = &m->node_coords[3L * ng * ng * ng * e];
  for (int k = 0; k < ng; k++)
    for (int j = 0; j < ng; j++)
      for (int i = 0; i < ng; i++)
        for (int d = 0; d < 3; d++)
          x[d] += l[0][i] * l[1][j] * l[2][k] * nodes[3 * ((k * ng + j) * ng + i) + d];
}

static double max_abs3(const double *a, const double *b) {
  double m = 0.0;
  for (int d = 0; d < 3; d++)
    m = fmax(m, fabs(a[d] - b[d]));
  return m;
}

/* Structure, ordering, positions and solution of a file written from sim's solver. */
static void check_file(const Simulation *sim, const char *path, int binary, int n_visu) {
  const Solver *s = sim->solver;
  const Mesh *m = s->mesh;
  const int nv1 = n_visu + 1, npv = nv1 * nv1 * nv1;
  VtuData d;
  vtu_read(path, binary, &d);
  assert_int_equal(d.n_cells, m->n_elems);
  assert_int_equal(d.n_points, (long)m->n_elems * npv);
  int(*ijk)[3] = malloc(sizeof(int[3]) * npv);
  assert_int_equal(vtk_order_ijk(n_visu, ijk), npv);
  char *used = calloc(d.n_points, 1);
  double max_x_err = 0.0, max_u_err = 0.0, max_prim_err = 0.0;
  for (int c = 0; c < m->n_elems; c++) {
    assert_true(d.types[c] == VTU_LAGRANGE_HEXAHEDRON);
    assert_true(d.offsets[c] == (double)(c + 1) * npv);
    for (int p = 0; p < npv; p++) {
      long id = (long)d.conn[(long)c * npv + p];
      assert_true(id >= 0 && id < d.n_points);
      assert_int_equal(used[id], 0); /* every point belongs to exactly one cell */
      used[id] = 1;
      double xi[3], x_exp[3], u_exp[HX_NVAR], u_file[HX_NVAR], prim[HX_NPRIM];
      for (int a = 0; a < 3; a++)
        xi[a] = -1.0 + 2.0 * ijk[p][a] / n_visu;
      geometry_map(m, c, xi, x_exp);
      max_x_err = fmax(max_x_err, max_abs3(&d.points[3 * id], x_exp));
      solution_at(s, s->U, c, xi, u_exp);
      for (int v = 0; v < HX_NVAR; v++) {
        u_file[v] = d.vars[v][id];
        max_u_err = fmax(max_u_err, fabs(u_file[v] - u_exp[v]));
      }
      cons_to_prim(&s->phys, u_file, prim);
      for (int v = VEL1; v <= TEMP; v++)
        max_prim_err = fmax(max_prim_err, fabs(d.vars[HX_NVAR + v - VEL1][id] - prim[v]) /
                                              fmax(1.0, fabs(prim[v])));
    }
  }
  printf("  %s NVisu=%d: max |x - X(xi)| %.2e, |U - U_h(xi)| %.2e, primitive %.2e\n", path, n_visu,
         max_x_err, max_u_err, max_prim_err);
  assert_true(max_x_err < 1e-13);
  assert_true(max_u_err < 1e-12);
  assert_true(max_prim_err < 1e-13);
  free(used);
  free(ijk);
  vtu_data_free(&d);
}

static Simulation *make_sim(const char *const *lines) {
  Simulation *sim = harness_sim(lines, NULL, NULL);
  assert_non_null(sim);
  return sim;
}

static int write_ascii(const Simulation *sim, const char *path, int n_visu) {
  VtuExtra ascii = {NULL, NULL, 1, NULL, NULL};
  return vtu_write(path, sim->solver, sim->solver->U, n_visu, 0.25, &ascii);
}

/* ---------------------------------------------------------------------------------------------
 * Tests */

static void test_index_matches_vtk_listing(void **state) {
  (void)state;
  for (int n = 1; n <= 7; n++) {
    int npv = (n + 1) * (n + 1) * (n + 1);
    int(*ijk)[3] = malloc(sizeof(int[3]) * npv);
    assert_int_equal(vtk_order_ijk(n, ijk), npv);
    for (int p = 0; p < npv; p++)
      assert_int_equal(vtu_lagrange_hex_index(ijk[p][0], ijk[p][1], ijk[p][2], n), p);
    free(ijk);
  }
  /* the linear case is VTK's VTK_HEXAHEDRON numbering; spot checks of degree 2 (VTK 9 numbering:
   * edge 10 runs from corner 2 to corner 6, the mid-face of i=0 is point 20, the centre 26) */
  assert_int_equal(vtu_lagrange_hex_index(1, 1, 0, 1), 2);
  assert_int_equal(vtu_lagrange_hex_index(0, 1, 1, 1), 7);
  assert_int_equal(vtu_lagrange_hex_index(2, 2, 1, 2), 18);
  assert_int_equal(vtu_lagrange_hex_index(0, 2, 1, 2), 19);
  assert_int_equal(vtu_lagrange_hex_index(0, 1, 1, 2), 20);
  assert_int_equal(vtu_lagrange_hex_index(1, 1, 2, 2), 25);
  assert_int_equal(vtu_lagrange_hex_index(1, 1, 1, 2), 26);
}

static void test_curved_ascii(void **state) {
  (void)state;
  Simulation *sim = make_sim(CURVED);
  const int N = sim->solver->disc.N;
  int n_visu[2] = {N, 5};
  for (int t = 0; t < 2; t++) {
    char path[64];
    snprintf(path, sizeof path, "curved_%d.vtu", n_visu[t]);
    assert_int_equal(write_ascii(sim, path, n_visu[t]), HX_OK);
    check_file(sim, path, 0, n_visu[t]);
  }
  /* density against the exact function: only the interpolation error of degree N (about 1e-3
   * here), far below the amplitude that a mix-up of points and values would show */
  VtuData d;
  vtu_read("curved_5.vtu", 0, &d);
  double max_err = 0.0, amp = sim->solver->exact.amplitude;
  for (long q = 0; q < d.n_points; q++) {
    double u[HX_NVAR];
    exact_func(&sim->solver->exact, &sim->solver->phys, &d.points[3 * q], 0.0, u);
    max_err = fmax(max_err, fabs(d.vars[DENS][q] - u[DENS]));
  }
  printf("  density vs exact function: max error %.2e (amplitude %.2g)\n", max_err, amp);
  assert_true(max_err < 0.03 * amp);
  vtu_data_free(&d);
  simulation_destroy(sim);
}

/* The 8 corners of every cell are the element's corners in VTK's order (from the mesh nodes). */
static void test_corners_in_vtk_order(void **state) {
  (void)state;
  Simulation *sim = make_sim(CURVED);
  const Mesh *m = sim->solver->mesh;
  const int n_visu = 4, npv = 125, ng = m->NGeo + 1;
  assert_int_equal(write_ascii(sim, "corners.vtu", n_visu), HX_OK);
  VtuData d;
  vtu_read("corners.vtu", 0, &d);
  /* VTK_HEXAHEDRON corner order as node-lattice indices (i, j, k) in units of NGeo */
  static const int CORNERS[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                    {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  for (int c = 0; c < m->n_elems; c++)
    for (int v = 0; v < 8; v++) {
      int i = CORNERS[v][0] * m->NGeo, j = CORNERS[v][1] * m->NGeo, k = CORNERS[v][2] * m->NGeo;
      const double *node = &m->node_coords[3 * ((long)c * ng * ng * ng + (k * ng + j) * ng + i)];
      long id = (long)d.conn[(long)c * npv + v];
      assert_true(max_abs3(&d.points[3 * id], node) < 1e-13);
    }
  vtu_data_free(&d);
  simulation_destroy(sim);
}

/* Affine box: points are exactly the box map of the element lattice; constant state exact. */
static void test_affine_box_and_constant_state(void **state) {
  (void)state;
  Simulation *sim = make_sim(AFFINE);
  const Solver *s = sim->solver;
  const int n_visu = 3, npv = 64;
  assert_int_equal(write_ascii(sim, "affine.vtu", n_visu), HX_OK);
  check_file(sim, "affine.vtu", 0, n_visu);
  VtuData d;
  vtu_read("affine.vtu", 0, &d);
  int(*ijk)[3] = malloc(sizeof(int[3]) * npv);
  vtk_order_ijk(n_visu, ijk);
  const double *ref = s->exact.ref_prim[0];
  for (int c = 0; c < s->mesh->n_elems; c++) {
    /* the element's lattice position from its first corner point */
    long id0 = (long)d.conn[(long)c * npv];
    int lattice[3];
    double h[3];
    for (int a = 0; a < 3; a++) {
      h[a] = (AFFINE_UPPER[a] - AFFINE_LOWER[a]) / AFFINE_ELEMS[a];
      lattice[a] = (int)floor((d.points[3 * id0 + a] - AFFINE_LOWER[a]) / h[a] + 0.5);
      assert_true(lattice[a] >= 0 && lattice[a] < AFFINE_ELEMS[a]);
    }
    for (int p = 0; p < npv; p++) {
      long id = (long)d.conn[(long)c * npv + p];
      double x_box[3];
      for (int a = 0; a < 3; a++)
        x_box[a] = AFFINE_LOWER[a] + h[a] * (lattice[a] + (double)ijk[p][a] / n_visu);
      assert_true(max_abs3(&d.points[3 * id], x_box) < 1e-13);
      assert_true(fabs(d.vars[DENS][id] - ref[PDENS]) < 1e-13);
      for (int a = 0; a < 3; a++) {
        assert_true(fabs(d.vars[HX_NVAR + a][id] - ref[VEL1 + a]) < 1e-13);
        assert_true(fabs(d.vars[MOM1 + a][id] - ref[PDENS] * ref[VEL1 + a]) < 1e-13);
      }
      assert_true(fabs(d.vars[HX_NVAR + 3][id] - ref[PRES]) < 1e-12);
      assert_true(fabs(d.vars[HX_NVAR + 4][id] - ref[PRES] / (ref[PDENS] * s->phys.R)) < 1e-15);
    }
  }
  free(ijk);
  vtu_data_free(&d);
  simulation_destroy(sim);
}

/* Binary appended data holds exactly the ASCII file's values; the time and cell data are there. */
static void test_binary_equals_ascii_with_cell_data(void **state) {
  (void)state;
  Simulation *sim = make_sim(CURVED);
  const Solver *s = sim->solver;
  double *alpha = malloc(sizeof(double) * s->mesh->n_elems);
  for (int e = 0; e < s->mesh->n_elems; e++)
    alpha[e] = 0.5 * e + 0.125;
  VtuExtra bin = {"FV_alpha", alpha, 0, NULL, NULL}, ascii = {"FV_alpha", alpha, 1, NULL, NULL};
  assert_int_equal(vtu_write("bin.vtu", s, s->U, 4, 0.375, &bin), HX_OK);
  assert_int_equal(vtu_write("ascii.vtu", s, s->U, 4, 0.375, &ascii), HX_OK);
  check_file(sim, "bin.vtu", 1, 4);
  long size_b = 0, size_a = 0, n_b = 0, n_a = 0;
  char *tb = slurp("bin.vtu", &size_b), *ta = slurp("ascii.vtu", &size_a);
  const char *names[] = {"Points",   "connectivity", "offsets",     "types",
                         "FV_alpha", "Density",      "Temperature", "VelocityZ"};
  for (int a = 0; a < 8; a++) {
    double *vb = binary_array(tb, size_b, names[a], &n_b);
    double *va = ascii_array(ta, names[a], &n_a);
    assert_non_null(vb);
    assert_non_null(va);
    assert_int_equal(n_b, n_a);
    assert_memory_equal(vb, va, sizeof(double) * n_a);
    if (strcmp(names[a], "FV_alpha") == 0) assert_memory_equal(va, alpha, sizeof(double) * n_a);
    free(vb);
    free(va);
  }
  assert_non_null(strstr(tb, "<CellData>"));
  long n_time = 0;
  double *time = ascii_array(tb, "TimeValue", &n_time);
  assert_int_equal(n_time, 1);
  assert_true(time[0] == 0.375);
  assert_true(size_b < size_a); /* the point of binary output */
  free(time);
  free(tb);
  free(ta);
  free(alpha);
  simulation_destroy(sim);
}

/* Entries of a .pvd: (timestep, file) in file order. */
static int pvd_entries(const char *path, double *times, char files[][64]) {
  char *text = slurp(path, NULL);
  assert_non_null(text);
  int n = 0;
  for (const char *p = text; (p = strstr(p, "<DataSet")); p++, n++) {
    times[n] = strtod(strstr(p, "timestep=\"") + 10, NULL);
    const char *f = strstr(p, "file=\"") + 6;
    snprintf(files[n], 64, "%.*s", (int)(strchr(f, '"') - f), f);
  }
  free(text);
  return n;
}

static void test_pvd_series(void **state) {
  (void)state;
  remove("series.pvd");
  assert_int_equal(pvd_update("series.pvd", 0.5, "b.vtu"), HX_OK);
  assert_int_equal(pvd_update("series.pvd", 0.25, "a.vtu"), HX_OK);
  assert_int_equal(pvd_update("series.pvd", 1.0 / 3.0, "a&<\"b.vtu"), HX_OK);
  assert_int_equal(pvd_update("series.pvd", 0.75, "b.vtu"), HX_OK); /* replaces b.vtu at 0.5 */
  double times[8];
  char files[8][64];
  assert_int_equal(pvd_entries("series.pvd", times, files), 3);
  assert_true(times[0] == 0.25 && times[1] == 1.0 / 3.0 && times[2] == 0.75);
  assert_string_equal(files[0], "a.vtu");
  assert_string_equal(files[1], "a&amp;&lt;&quot;b.vtu");
  assert_string_equal(files[2], "b.vtu");
  /* the escaped name round-trips: re-adding it replaces rather than duplicates */
  assert_int_equal(pvd_update("series.pvd", 0.3, "a&<\"b.vtu"), HX_OK);
  assert_int_equal(pvd_entries("series.pvd", times, files), 3);
  assert_true(times[1] == 0.3);
  assert_int_equal(access("series.pvd.tmp", F_OK), -1);
  FILE *fp = fopen("notpvd.pvd", "w");
  fputs("hello\n", fp);
  fclose(fp);
  assert_int_equal(pvd_update("notpvd.pvd", 0.1, "x.vtu"), HX_ERR_INPUT);
}

static void test_run_output_names(void **state) {
  (void)state;
  Simulation *sim = make_sim(CURVED);
  assert_int_equal(vtu_write_output("vtu", sim->solver, sim->solver->U, 2, 1.5, NULL), HX_OK);
  assert_int_equal(access("vtu_Solution_0000001.500000000.vtu", R_OK), 0);
  double times[4];
  char files[4][64];
  assert_int_equal(pvd_entries("vtu_Solution.pvd", times, files), 1);
  assert_string_equal(files[0], "vtu_Solution_0000001.500000000.vtu");
  simulation_destroy(sim);
}

/* Converting a state file gives the same bytes as writing the solver's solution directly. */
static void test_convert_state(void **state) {
  (void)state;
  Simulation *sim = make_sim(CURVED);
  sim->t = 0.125;
  assert_int_equal(simulation_write_state(sim), HX_OK);
  assert_int_equal(vtu_write("direct.vtu", sim->solver, sim->solver->U, 5, 0.125, NULL), HX_OK);
  write_ini("case.ini", CURVED, "NVisu = 5");
  assert_int_equal(convert_state(sim->last_state, "case.ini", "converted.vtu", NULL), HX_OK);
  long n_direct, n_conv;
  char *direct = slurp("direct.vtu", &n_direct), *conv = slurp("converted.vtu", &n_conv);
  assert_int_equal(n_direct, n_conv);
  assert_memory_equal(direct, conv, n_direct);
  free(conv);
  /* --NVisu overrides the file's NVisu */
  const ConvertOptions nvisu2 = {2, NULL};
  assert_int_equal(convert_state(sim->last_state, "case.ini", "converted2.vtu", &nvisu2), HX_OK);
  conv = slurp("converted2.vtu", NULL);
  assert_int_equal(attribute_long(strstr(conv, "<Piece"), "NumberOfPoints"),
                   27L * sim->solver->mesh->n_elems);
  free(conv);
  free(direct);
  /* a parameter file of another discretization is refused */
  const char *other[64];
  int n = 0;
  for (; CURVED[n]; n++)
    other[n] = strcmp(CURVED[n], "N = 3") == 0 ? "N = 4" : CURVED[n];
  other[n] = NULL;
  write_ini("other.ini", other, NULL);
  assert_int_not_equal(convert_state(sim->last_state, "other.ini", "bad.vtu", NULL), HX_OK);
  assert_int_equal(access("bad.vtu", F_OK), -1);
  assert_int_not_equal(convert_state(sim->last_state, NULL, "bad.vtu", NULL), HX_OK);
  simulation_destroy(sim);
}

static void test_params(void **state) {
  (void)state;
  Params *p = params_create();
  assert_int_equal(vtu_define_params(p), HX_OK);
  int format, n_visu;
  assert_int_equal(vtu_read_params(p, 6, &format, &n_visu), HX_OK);
  assert_int_equal(format, OUTPUT_FORMAT_NONE);
  assert_int_equal(n_visu, 6); /* FLEXI: NVisu defaults to N */
  assert_int_equal(params_set(p, "OutputFormat", "paraview", "test"), HX_OK);
  assert_int_equal(params_set(p, "NVisu", "9", "test"), HX_OK);
  assert_int_equal(vtu_read_params(p, 6, &format, &n_visu), HX_OK);
  assert_int_equal(format, OUTPUT_FORMAT_PARAVIEW);
  assert_int_equal(n_visu, 9);
  assert_int_equal(params_set(p, "OutputFormat", "3", "test"), HX_OK); /* FLEXI's id */
  assert_int_equal(vtu_read_params(p, 6, &format, &n_visu), HX_OK);
  assert_int_equal(format, OUTPUT_FORMAT_PARAVIEW);
  assert_int_equal(params_set(p, "NVisu", "0", "test"), HX_OK);
  assert_int_equal(vtu_read_params(p, 6, &format, &n_visu), HX_ERR_INPUT);
  params_destroy(p);
}

static void test_errors_leave_no_files(void **state) {
  (void)state;
  Simulation *sim = make_sim(CURVED);
  const Solver *s = sim->solver;
  assert_int_equal(vtu_write("zero.vtu", s, s->U, 0, 0.0, NULL), HX_ERR_INPUT);
  assert_int_equal(access("zero.vtu", F_OK), -1);
  assert_int_equal(vtu_write("no_such_dir/x.vtu", s, s->U, 2, 0.0, NULL), HX_ERR_IO);
  assert_int_equal(access("no_such_dir/x.vtu.tmp", F_OK), -1);
  simulation_destroy(sim);
}

int main(void) {
  harness_scratch_dir("vtu");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_index_matches_vtk_listing),
      cmocka_unit_test(test_curved_ascii),
      cmocka_unit_test(test_corners_in_vtk_order),
      cmocka_unit_test(test_affine_box_and_constant_state),
      cmocka_unit_test(test_binary_equals_ascii_with_cell_data),
      cmocka_unit_test(test_pvd_series),
      cmocka_unit_test(test_run_output_names),
      cmocka_unit_test(test_convert_state),
      cmocka_unit_test(test_params),
      cmocka_unit_test(test_errors_leave_no_files),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
