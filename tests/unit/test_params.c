/* Tests of the parameter registry and the FLEXI-syntax reader: parsing rules, expression
 * evaluation, repeated keys, and that every error names what the user needs to fix it. */
#define _XOPEN_SOURCE 700 /* mkstemp, dup, M_PI */
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

#include "core/error.h"
#include "core/params.h"

/* Riemann solver ids as in FLEXI (src/equations/navierstokes/riemann.f90, PRM_RIEMANN_*). */
static const char *const riemann_names[] = {"LF",  "HLLC", "Roe",  "RoeEntropyFix",
                                            "HLL", "HLLE", "HLLEM"};
static const int riemann_ids[] = {1, 2, 3, 33, 4, 5, 6};
static const char *const node_names[] = {"GAUSS", "GAUSS-LOBATTO"};
static const int node_ids[] = {1, 2};

/* Every key defined by define_all, in definition order, for the documentation tests. */
static const char *const all_keys[] = {
    "N",        "NodeType",     "MeshFile",     "BoxLower",    "TEnd",
    "CFLScale", "Riemann",      "doWriteData",  "ProjectName", "nSkip",
    "RefState", "BoundaryName", "BoundaryType", "Direction",   "Weights",
    "Flags"};
enum { N_KEYS = sizeof all_keys / sizeof all_keys[0] };

static Params *define_all(void) {
  Params *p = params_create();
  assert_non_null(p);
  assert_int_equal(params_define(p, "Discretization", "N", PARAM_INT, 0, "3", false,
                                 "Polynomial degree of the solution"),
                   HX_OK);
  assert_int_equal(params_define_choice(p, "Discretization", "NodeType", "GAUSS", 2, node_names,
                                        node_ids, "Interpolation nodes"),
                   HX_OK);
  assert_int_equal(
      params_define(p, "Mesh", "MeshFile", PARAM_STRING, 0, NULL, false, "HOPR mesh file (HDF5)"),
      HX_OK);
  assert_int_equal(params_define(p, "Mesh", "BoxLower", PARAM_REAL_ARRAY, 3, "(/0.,0.,0./)", false,
                                 "Lower corner of the box"),
                   HX_OK);
  assert_int_equal(params_define(p, "TimeDisc", "TEnd", PARAM_REAL, 0, "1.", false, "End time"),
                   HX_OK);
  assert_int_equal(params_define(p, "TimeDisc", "CFLScale", PARAM_REAL, 0, "0.9", false,
                                 "Scaling of the CFL time step | stability"),
                   HX_OK);
  assert_int_equal(params_define_choice(p, "Riemann", "Riemann", "RoeEntropyFix", 7, riemann_names,
                                        riemann_ids, "Riemann solver"),
                   HX_OK);
  assert_int_equal(
      params_define(p, "Output", "doWriteData", PARAM_LOGICAL, 0, "T", false, "Write state files"),
      HX_OK);
  assert_int_equal(params_define(p, "Output", "ProjectName", PARAM_STRING, 0, "", false,
                                 "Prefix of output files"),
                   HX_OK);
  assert_int_equal(params_define(p, "Output", "nSkip", PARAM_INT, 0, "", false, "Skip count"),
                   HX_OK);
  assert_int_equal(params_define(p, "Equation", "RefState", PARAM_REAL_ARRAY, 5, NULL, true,
                                 "Reference state (rho, u, v, w, p)"),
                   HX_OK);
  assert_int_equal(params_define(p, "Boundaries", "BoundaryName", PARAM_STRING, 0, "", true,
                                 "Name of a boundary to change"),
                   HX_OK);
  assert_int_equal(params_define(p, "Boundaries", "BoundaryType", PARAM_INT_ARRAY, 2, "", true,
                                 "New (type, state) of that boundary"),
                   HX_OK);
  assert_int_equal(
      params_define(p, "Mesh", "Direction", PARAM_INT_ARRAY, 3, "(/1, 0, 0/)", false, "Direction"),
      HX_OK);
  assert_int_equal(params_define(p, "Mesh", "Weights", PARAM_REAL_ARRAY, -1, "(/ 1. /)", false,
                                 "Weights of any number"),
                   HX_OK);
  assert_int_equal(
      params_define(p, "Output", "Flags", PARAM_LOGICAL_ARRAY, 2, "(/T,F/)", false, "Two flags"),
      HX_OK);
  return p;
}

/* Writes content to a new temporary file and returns its (malloc'd) path. */
static char *write_temp(const char *content) {
  char *path = malloc(64);
  assert_non_null(path);
  strcpy(path, "/tmp/hexdg_params_XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  size_t len = strlen(content);
  assert_int_equal(write(fd, content, len), (ssize_t)len);
  close(fd);
  return path;
}

/* Redirects stderr into a temporary file until capture_end returns its text (malloc'd). */
typedef struct {
  int saved_fd;
  char path[64];
} StderrCapture;

static void capture_begin(StderrCapture *c) {
  fflush(stderr);
  strcpy(c->path, "/tmp/hexdg_stderr_XXXXXX");
  int fd = mkstemp(c->path);
  assert_true(fd >= 0);
  c->saved_fd = dup(STDERR_FILENO);
  dup2(fd, STDERR_FILENO);
  close(fd);
}

static char *capture_end(StderrCapture *c) {
  fflush(stderr);
  dup2(c->saved_fd, STDERR_FILENO);
  close(c->saved_fd);
  FILE *f = fopen(c->path, "r");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  rewind(f);
  char *text = calloc((size_t)size + 1, 1);
  assert_non_null(text);
  assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
  fclose(f);
  unlink(c->path);
  return text;
}

static int count_lines(const char *text) {
  int n = 0;
  for (; *text; text++)
    n += *text == '\n';
  return n;
}

/* Reads content with the standard definitions; returns the code and the captured stderr. */
static int read_capturing(Params *p, const char *content, char **path_out, char **err_out) {
  char *path = write_temp(content);
  StderrCapture c;
  capture_begin(&c);
  int rc = params_read_file(p, path);
  char *err = capture_end(&c);
  if (path_out)
    *path_out = path;
  else {
    unlink(path);
    free(path);
  }
  if (err_out)
    *err_out = err;
  else
    free(err);
  return rc;
}

/* Expects that reading content fails with HX_ERR_INPUT and one message containing each needle;
 * "@" in a needle stands for the file's path. */
static void expect_read_error(const char *content, int n_needles, ...) {
  Params *p = define_all();
  char *path, *err;
  assert_int_equal(read_capturing(p, content, &path, &err), HX_ERR_INPUT);
  assert_int_equal(count_lines(err), 1);
  va_list ap;
  va_start(ap, n_needles);
  for (int i = 0; i < n_needles; i++) {
    const char *needle = va_arg(ap, const char *);
    char expanded[256];
    if (needle[0] == '@')
      snprintf(expanded, sizeof expanded, "%s%s", path, needle + 1);
    else
      snprintf(expanded, sizeof expanded, "%s", needle);
    if (!strstr(err, expanded)) fail_msg("'%s' not in message: %s", expanded, err);
  }
  va_end(ap);
  unlink(path);
  free(path);
  free(err);
  params_destroy(p);
}

static void test_comments_whitespace_crlf(void **state) {
  (void)state;
  Params *p = define_all();
  assert_int_equal(read_capturing(p,
                                  "! header comment\n\n   N = 5   ! trailing comment\r\n"
                                  "MeshFile=Box_Mesh.h5\r\n\t\r\n  ! indented comment\n"
                                  "TEnd= 2.5!no space before comment",
                                  NULL, NULL),
                   HX_OK);
  int n;
  const char *mesh;
  double t_end;
  assert_int_equal(params_get_int(p, "N", &n), HX_OK);
  assert_int_equal(n, 5);
  assert_int_equal(params_get_string(p, "MeshFile", &mesh), HX_OK);
  assert_string_equal(mesh, "Box_Mesh.h5");
  assert_int_equal(params_get_real(p, "TEnd", &t_end), HX_OK);
  assert_true(t_end == 2.5);
  params_destroy(p);
}

static void test_keys_case_insensitive_values_keep_case(void **state) {
  (void)state;
  Params *p = define_all();
  assert_int_equal(read_capturing(p, "n = 4\nMESHFILE = My_Mesh.H5\ndowritedata = f\n", NULL, NULL),
                   HX_OK);
  int n;
  const char *mesh;
  bool write_data = true;
  assert_int_equal(params_get_int(p, "N", &n), HX_OK);
  assert_int_equal(n, 4);
  assert_int_equal(params_get_string(p, "meshfile", &mesh), HX_OK);
  assert_string_equal(mesh, "My_Mesh.H5");
  assert_int_equal(params_get_logical(p, "DOWRITEDATA", &write_data), HX_OK);
  assert_false(write_data);
  assert_true(params_is_set(p, "MeshFile"));
  params_destroy(p);
}

static void test_logicals(void **state) {
  (void)state;
  const char *const true_forms[] = {"T", "t", ".true.", ".TRUE.", "true", "True"};
  const char *const false_forms[] = {"F", "f", ".false.", ".False.", "false", "FALSE"};
  Params *p = define_all();
  for (int i = 0; i < 6; i++) {
    bool value = false;
    assert_int_equal(params_set(p, "doWriteData", true_forms[i], "test"), HX_OK);
    assert_int_equal(params_get_logical(p, "doWriteData", &value), HX_OK);
    assert_true(value);
    assert_int_equal(params_set(p, "doWriteData", false_forms[i], "test"), HX_OK);
    assert_int_equal(params_get_logical(p, "doWriteData", &value), HX_OK);
    assert_false(value);
  }
  StderrCapture c;
  capture_begin(&c);
  assert_int_equal(params_set(p, "doWriteData", "yes", "--doWriteData"), HX_ERR_INPUT);
  free(capture_end(&c));
  params_destroy(p);
}

static void test_arrays(void **state) {
  (void)state;
  Params *p = define_all();
  assert_int_equal(read_capturing(p,
                                  "BoxLower = (/0.,-1.d0,2*pi/)\nDirection=(/ 0 , -1 , 2 /)\n"
                                  "Flags = (/F, .true./)\nWeights = (/ 0.5,0.25 , 0.125, 1/8 /)",
                                  NULL, NULL),
                   HX_OK);
  double lower[3], weights[4];
  int direction[3];
  bool flags[2];
  assert_int_equal(params_get_real_array(p, "BoxLower", 3, lower), HX_OK);
  assert_true(lower[0] == 0.0 && lower[1] == -1.0 && lower[2] == 2.0 * M_PI);
  assert_int_equal(params_get_int_array(p, "Direction", 3, direction), HX_OK);
  assert_true(direction[0] == 0 && direction[1] == -1 && direction[2] == 2);
  assert_int_equal(params_get_logical_array(p, "Flags", 2, flags), HX_OK);
  assert_true(!flags[0] && flags[1]);
  assert_int_equal(params_array_len(p, "Weights"), 4);
  assert_int_equal(params_get_real_array(p, "Weights", 4, weights), HX_OK);
  assert_true(weights[0] == 0.5 && weights[2] == 0.125 && weights[3] == weights[2]);
  params_destroy(p);
}

static void test_eval_expressions(void **state) {
  (void)state;
  double v;
  assert_int_equal(params_eval_real("2*pi", &v), HX_OK);
  assert_true(fabs(v - 2 * M_PI) <= 1e-15);
  assert_int_equal(params_eval_real("-pi/2", &v), HX_OK);
  assert_true(v == -M_PI / 2);
  assert_int_equal(params_eval_real("1.d-3", &v), HX_OK);
  assert_true(v == 1e-3);
  assert_int_equal(params_eval_real("2.5D+2", &v), HX_OK);
  assert_true(v == 250.0);
  assert_int_equal(params_eval_real(" .5e1 ", &v), HX_OK);
  assert_true(v == 5.0);
  assert_int_equal(params_eval_real("PI", &v), HX_OK);
  assert_true(v == M_PI);
  /* precedence and left associativity */
  assert_int_equal(params_eval_real("1+2*3", &v), HX_OK);
  assert_true(v == 7.0);
  assert_int_equal(params_eval_real("(1+2)*3", &v), HX_OK);
  assert_true(v == 9.0);
  assert_int_equal(params_eval_real("8/2/2", &v), HX_OK);
  assert_true(v == 2.0);
  assert_int_equal(params_eval_real("2-3-4", &v), HX_OK);
  assert_true(v == -5.0);
  assert_int_equal(params_eval_real("2*-3", &v), HX_OK);
  assert_true(v == -6.0);
  assert_int_equal(params_eval_real("-(pi-pi)+1", &v), HX_OK);
  assert_true(v == 1.0);
  const char *const bad[] = {"",    "2pi", "1+",  "(1",  "1)",    "abc",
                             "1/0", "1e",  "1.d", "pix", "1e999", "3 4"};
  StderrCapture c;
  capture_begin(&c);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    if (params_eval_real(bad[i], &v) != HX_ERR_INPUT) fail_msg("'%s' was accepted", bad[i]);
  char *err = capture_end(&c);
  assert_int_equal(count_lines(err), (int)(sizeof bad / sizeof bad[0]));
  assert_non_null(strstr(err, "'2pi'"));
  free(err);
}

static void test_multiple_keys_count_and_order(void **state) {
  (void)state;
  Params *p = define_all();
  assert_int_equal(read_capturing(p,
                                  "RefState = (/1., 0.3, 0., 0., 0.71428571/)\n"
                                  "BoundaryName = BC_inflow\nBoundaryType = (/2, 1/)\n"
                                  "refstate = (/1.2, 0., 0., 0., 1./)\n"
                                  "BoundaryName = BC_outflow\nBoundaryType = (/24, 2/)\n",
                                  NULL, NULL),
                   HX_OK);
  assert_int_equal(params_count(p, "RefState"), 2);
  assert_int_equal(params_count(p, "BoundaryName"), 2);
  assert_int_equal(params_count(p, "BoundaryType"), 2);
  assert_int_equal(params_count(p, "N"), 0);
  double ref[5];
  assert_int_equal(params_get_real_array_at(p, "RefState", 0, 5, ref), HX_OK);
  assert_true(ref[0] == 1.0 && ref[1] == 0.3);
  assert_int_equal(params_get_real_array_at(p, "RefState", 1, 5, ref), HX_OK);
  assert_true(ref[0] == 1.2 && ref[4] == 1.0);
  const char *name;
  int type[2];
  assert_int_equal(params_get_string_at(p, "BoundaryName", 1, &name), HX_OK);
  assert_string_equal(name, "BC_outflow");
  assert_int_equal(params_get_int_array_at(p, "BoundaryType", 1, 2, type), HX_OK);
  assert_true(type[0] == 24 && type[1] == 2);
  assert_int_equal(params_get_string_at(p, "BoundaryName", 0, &name), HX_OK);
  assert_string_equal(name, "BC_inflow");
  /* params_set appends to a multiple key */
  assert_int_equal(params_set(p, "BoundaryName", "BC_wall", "--set"), HX_OK);
  assert_int_equal(params_count(p, "BoundaryName"), 3);
  assert_int_equal(params_get_string_at(p, "BoundaryName", 2, &name), HX_OK);
  assert_string_equal(name, "BC_wall");
  assert_int_equal(params_get_string(p, "BoundaryName", &name), HX_OK); /* plain getter: last */
  assert_string_equal(name, "BC_wall");
  StderrCapture c;
  capture_begin(&c);
  assert_int_not_equal(params_get_string_at(p, "BoundaryName", 3, &name), HX_OK);
  free(capture_end(&c));
  params_destroy(p);
}

static void test_repeated_key_names_both_lines(void **state) {
  (void)state;
  expect_read_error("N = 3\nTEnd = 1.\nn = 4\n", 3, "@:3", "@:1", "'N'");
}

static void test_unknown_key_suggests_closest(void **state) {
  (void)state;
  expect_read_error("N = 3\nNn = 4\n", 3, "@:2", "unknown parameter 'Nn'", "did you mean 'N'?");
  expect_read_error("TEnf = 4\n", 2, "@:1", "did you mean 'TEnd'?");
  expect_read_error("boundarynam = x\n", 1, "did you mean 'BoundaryName'?");
  expect_read_error("Riemannsolver = 1\n", 1, "did you mean 'Riemann'?");
}

static void test_bad_values_name_file_line_key_value(void **state) {
  (void)state;
  expect_read_error("\nN = abc\n", 4, "@:2", "'N'", "'abc'", "integer");
  expect_read_error("N = 4.\n", 3, "@:1", "'4.'", "integer");
  expect_read_error("TEnd = 1..2\n", 3, "@:1", "'TEnd'", "real number");
  expect_read_error("doWriteData = yes\n", 3, "@:1", "'yes'", "T or F");
  expect_read_error("Direction = (/1, 2.5, 0/)\n", 4, "@:1", "'Direction'", "2.5", "entry 2");
  expect_read_error("BoxLower = 0.\n", 2, "@:1", "(/ a, b, ... /)");
  expect_read_error("Direction = (/1,,0/)\n", 1, "entry 2");
  expect_read_error("N 3\n", 2, "@:1", "Key = value");
  expect_read_error(" = 3\n", 1, "@:1");
  expect_read_error("DEFVAR=(INT):  n = 3\n", 2, "@:1", "DEFVAR");
}

static void test_array_length_mismatch(void **state) {
  (void)state;
  expect_read_error("BoxLower = (/0., 1./)\n", 4, "@:1", "'BoxLower'", "3 entries", "got 2");
  expect_read_error("RefState = (/1., 0., 0., 0., 1., 2./)\n", 2, "5 entries", "got 6");
  Params *p = define_all();
  double lower[4], weights[2];
  StderrCapture c;
  capture_begin(&c);
  assert_int_equal(params_get_real_array(p, "BoxLower", 2, lower), HX_ERR_INTERNAL);
  assert_int_equal(params_set(p, "Weights", "(/1., 2., 3./)", "--weights"), HX_OK);
  assert_int_equal(params_get_real_array(p, "Weights", 2, weights), HX_ERR_INPUT);
  char *err = capture_end(&c);
  assert_non_null(strstr(err, "'BoxLower'"));
  assert_non_null(strstr(err, "--weights"));
  free(err);
  params_destroy(p);
}

static void test_missing_mandatory(void **state) {
  (void)state;
  Params *p = define_all();
  char *path;
  assert_int_equal(read_capturing(p, "N = 2\n", &path, NULL), HX_OK);
  const char *mesh = NULL;
  double ref[5];
  StderrCapture c;
  capture_begin(&c);
  assert_int_equal(params_get_string(p, "MeshFile", &mesh), HX_ERR_INPUT);
  char *err = capture_end(&c);
  assert_int_equal(count_lines(err), 1);
  assert_non_null(strstr(err, "'MeshFile'"));
  assert_non_null(strstr(err, "HOPR mesh file (HDF5)"));
  assert_non_null(strstr(err, path));
  free(err);
  capture_begin(&c);
  assert_int_equal(params_check_mandatory(p), HX_ERR_INPUT);
  assert_int_equal(params_get_real_array_at(p, "RefState", 0, 5, ref), HX_ERR_INPUT);
  err = capture_end(&c);
  assert_non_null(strstr(err, "MeshFile"));
  assert_non_null(strstr(err, "RefState"));
  free(err);
  assert_int_equal(params_set(p, "MeshFile", "mesh.h5", "--mesh"), HX_OK);
  assert_int_equal(params_set(p, "RefState", "(/1.,0.,0.,0.,1./)", "--refstate"), HX_OK);
  assert_int_equal(params_check_mandatory(p), HX_OK);
  unlink(path);
  free(path);
  params_destroy(p);
}

static void test_choice_by_name_and_id(void **state) {
  (void)state;
  Params *p = define_all();
  assert_int_equal(
      read_capturing(p, "Riemann = roeENTROPYfix\nNodeType = GAUSS-LOBATTO\n", NULL, NULL), HX_OK);
  int id;
  assert_int_equal(params_get_choice(p, "Riemann", &id), HX_OK);
  assert_int_equal(id, 33);
  assert_string_equal(params_choice_name(p, "Riemann", id), "RoeEntropyFix");
  assert_int_equal(params_get_choice(p, "NodeType", &id), HX_OK);
  assert_string_equal(params_choice_name(p, "NodeType", id), "GAUSS-LOBATTO");
  assert_string_equal(params_choice_name(p, "Riemann", 99), "?");
  for (int i = 0; i < 7; i++) { /* every id given as a number maps to itself */
    char text[16];
    snprintf(text, sizeof text, "%d", riemann_ids[i]);
    assert_int_equal(params_set(p, "Riemann", text, "test"), HX_OK);
    assert_int_equal(params_get_choice(p, "Riemann", &id), HX_OK);
    assert_int_equal(id, riemann_ids[i]);
    assert_string_equal(params_choice_name(p, "Riemann", id), riemann_names[i]);
  }
  params_destroy(p);
}

static void test_invalid_choice_lists_names(void **state) {
  (void)state;
  expect_read_error("Riemann = Rusanov\n", 6, "@:1", "'Rusanov'", "LF (1)", "RoeEntropyFix (33)",
                    "HLLEM (6)", "HLLC");
  expect_read_error("Riemann = 7\n", 2, "@:1", "HLLE (5)");
}

static void test_set_overrides_file_and_defaults(void **state) {
  (void)state;
  Params *p = define_all();
  int n, id;
  double cfl, lower[3];
  bool write_data;
  const char *project;
  /* defaults, before anything is set */
  assert_int_equal(params_get_int(p, "N", &n), HX_OK);
  assert_int_equal(n, 3);
  assert_int_equal(params_get_real(p, "CFLScale", &cfl), HX_OK);
  assert_true(cfl == 0.9);
  assert_int_equal(params_get_logical(p, "doWriteData", &write_data), HX_OK);
  assert_true(write_data);
  assert_int_equal(params_get_choice(p, "Riemann", &id), HX_OK);
  assert_int_equal(id, 33);
  assert_int_equal(params_get_real_array(p, "BoxLower", 3, lower), HX_OK);
  assert_true(lower[0] == 0.0 && lower[1] == 0.0 && lower[2] == 0.0);
  assert_int_equal(params_get_string(p, "ProjectName", &project), HX_OK);
  assert_string_equal(project, "");
  assert_false(params_is_set(p, "N"));
  assert_false(params_is_set(p, "ProjectName"));
  /* a command-line value wins over the file, whichever comes first */
  assert_int_equal(params_set(p, "tend", " 3*pi ", "--tend"), HX_OK);
  assert_int_equal(read_capturing(p, "N = 5\nTEnd = 1.\nCFLScale = 0.5\n", NULL, NULL), HX_OK);
  assert_int_equal(params_set(p, "N", "7", "--N"), HX_OK);
  double t_end;
  assert_int_equal(params_get_int(p, "N", &n), HX_OK);
  assert_int_equal(n, 7);
  assert_int_equal(params_get_real(p, "TEnd", &t_end), HX_OK);
  assert_true(t_end == 3 * M_PI);
  assert_int_equal(params_get_real(p, "CFLScale", &cfl), HX_OK);
  assert_true(cfl == 0.5);
  /* errors of params_set name the source; the old value stays */
  StderrCapture c;
  capture_begin(&c);
  assert_int_equal(params_set(p, "N", "seven", "--N"), HX_ERR_INPUT);
  assert_int_equal(params_set(p, "NodeTyp", "GAUSS", "--NodeTyp"), HX_ERR_INPUT);
  char *err = capture_end(&c);
  assert_non_null(strstr(err, "--N: bad value 'seven'"));
  assert_non_null(strstr(err, "--NodeTyp: unknown parameter 'NodeTyp'; did you mean 'NodeType'?"));
  free(err);
  assert_int_equal(params_get_int(p, "N", &n), HX_OK);
  assert_int_equal(n, 7);
  params_destroy(p);
}

static void test_type_mismatch_and_misuse(void **state) {
  (void)state;
  Params *p = define_all();
  int n;
  double x;
  StderrCapture c;
  capture_begin(&c);
  assert_int_equal(params_get_int(p, "TEnd", &n), HX_ERR_INTERNAL);
  assert_int_equal(params_get_real(p, "N", &x), HX_ERR_INTERNAL);
  assert_int_equal(params_get_int(p, "NotDefined", &n), HX_ERR_INTERNAL);
  assert_int_equal(params_get_int(p, "nSkip", &n), HX_ERR_INTERNAL); /* optional, not set */
  assert_int_equal(params_define(p, "Other", "n", PARAM_INT, 0, "1", false, "again"),
                   HX_ERR_INTERNAL);
  assert_int_equal(params_define(p, "Other", "Bad", PARAM_INT, 0, "1.5", false, "bad default"),
                   HX_ERR_INTERNAL);
  assert_int_equal(params_define(p, "Other", "Vec", PARAM_REAL_ARRAY, 0, "", false, "no length"),
                   HX_ERR_INTERNAL);
  char *err = capture_end(&c);
  assert_non_null(strstr(err, "'TEnd' is of type real"));
  assert_non_null(strstr(err, "'nSkip'"));
  free(err);
  assert_false(params_is_set(p, "Bad"));
  assert_int_equal(params_set(p, "nSkip", "2", "test"), HX_OK);
  assert_true(params_is_set(p, "nSkip"));
  assert_int_equal(params_get_int(p, "nSkip", &n), HX_OK);
  assert_int_equal(n, 2);
  params_destroy(p);
}

static void test_missing_file_and_second_read(void **state) {
  (void)state;
  Params *p = define_all();
  StderrCapture c;
  capture_begin(&c);
  assert_int_equal(params_read_file(p, "/tmp/hexdg_no_such_dir/run.ini"), HX_ERR_INPUT);
  char *err = capture_end(&c);
  assert_non_null(strstr(err, "'/tmp/hexdg_no_such_dir/run.ini'"));
  free(err);
  assert_int_equal(read_capturing(p, "N = 2\n", NULL, NULL), HX_OK);
  assert_int_equal(read_capturing(p, "N = 2\n", NULL, NULL), HX_ERR_INTERNAL);
  params_destroy(p);
}

/* Writes the help or markdown into memory. */
static char *render(const Params *p, bool markdown) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  assert_non_null(f);
  if (markdown)
    params_write_markdown(p, f);
  else
    params_print_help(p, f);
  fclose(f);
  return text;
}

static void test_markdown_and_help(void **state) {
  (void)state;
  Params *p = define_all();
  char *md = render(p, true), *md_again = render(p, true), *help = render(p, false);
  assert_string_equal(md, md_again); /* deterministic */
  assert_true(strncmp(md, "# hexdg parameters\n", 19) == 0);
  const char *sections[] = {"## Discretization", "## Mesh",     "## TimeDisc",  "## Riemann",
                            "## Output",         "## Equation", "## Boundaries"};
  const char *previous = md;
  for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) { /* first-definition order */
    const char *at = strstr(md, sections[i]);
    assert_non_null(at);
    assert_true(at > previous);
    previous = at;
  }
  int tables = 0;
  for (const char *s = md; (s = strstr(s, "| Parameter | Type | Default | Description |")); s++)
    tables++;
  assert_int_equal(tables, 7);
  for (int i = 0; i < N_KEYS; i++) {
    char cell[64];
    snprintf(cell, sizeof cell, "| `%s` |", all_keys[i]);
    if (!strstr(md, cell)) fail_msg("%s missing in markdown", all_keys[i]);
    snprintf(cell, sizeof cell, "  %s ", all_keys[i]);
    if (!strstr(help, cell)) fail_msg("%s missing in help", all_keys[i]);
  }
  /* within a section, definition order: MeshFile, BoxLower, Direction, Weights */
  assert_true(strstr(md, "`MeshFile`") < strstr(md, "`BoxLower`"));
  assert_true(strstr(md, "`BoxLower`") < strstr(md, "`Direction`"));
  assert_true(strstr(md, "`Direction`") < strstr(md, "`Weights`"));
  assert_non_null(strstr(md, "`RoeEntropyFix` (33)"));
  assert_non_null(strstr(md, "*mandatory*"));
  assert_non_null(strstr(md, "time step \\| stability")); /* '|' escaped inside a cell */
  assert_non_null(strstr(help, "[int, default: 3]  Polynomial degree"));
  assert_non_null(strstr(help, "[string, mandatory]"));
  assert_non_null(strstr(help, "[real[5], mandatory, may repeat]"));
  assert_non_null(strstr(help, "GAUSS-LOBATTO (2)"));
  free(md);
  free(md_again);
  free(help);
  params_destroy(p);
}

static void test_no_fixed_limits(void **state) {
  (void)state;
  Params *p = define_all();
  enum { N_EXTRA = 600, N_WEIGHTS = 2000, LONG_NAME = 5000 };
  for (int i = 0; i < N_EXTRA; i++) {
    char name[32];
    snprintf(name, sizeof name, "Extra%d", i);
    assert_int_equal(params_define(p, "Extra", name, PARAM_INT, 0, "0", false, "extra"), HX_OK);
  }
  size_t cap = (size_t)N_EXTRA * 32 + (size_t)N_WEIGHTS * 8 + LONG_NAME + 200;
  char *content = calloc(cap, 1);
  assert_non_null(content);
  size_t len = 0;
  for (int i = 0; i < N_EXTRA; i++)
    len += (size_t)sprintf(content + len, "Extra%d = %d\n", i, i);
  len += (size_t)sprintf(content + len, "ProjectName = ");
  memset(content + len, 'x', LONG_NAME);
  len += LONG_NAME;
  len += (size_t)sprintf(content + len, "\nWeights = (/");
  for (int i = 0; i < N_WEIGHTS; i++)
    len += (size_t)sprintf(content + len, "%s%d", i ? "," : "", i);
  sprintf(content + len, "/)\n");
  assert_int_equal(read_capturing(p, content, NULL, NULL), HX_OK);
  free(content);
  int value;
  assert_int_equal(params_get_int(p, "extra599", &value), HX_OK);
  assert_int_equal(value, 599);
  const char *project;
  assert_int_equal(params_get_string(p, "ProjectName", &project), HX_OK);
  assert_int_equal(strlen(project), LONG_NAME);
  assert_int_equal(params_array_len(p, "Weights"), N_WEIGHTS);
  double *weights = malloc(N_WEIGHTS * sizeof *weights);
  assert_int_equal(params_get_real_array(p, "Weights", N_WEIGHTS, weights), HX_OK);
  assert_true(weights[N_WEIGHTS - 1] == N_WEIGHTS - 1);
  free(weights);
  params_destroy(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_comments_whitespace_crlf),
      cmocka_unit_test(test_keys_case_insensitive_values_keep_case),
      cmocka_unit_test(test_logicals),
      cmocka_unit_test(test_arrays),
      cmocka_unit_test(test_eval_expressions),
      cmocka_unit_test(test_multiple_keys_count_and_order),
      cmocka_unit_test(test_repeated_key_names_both_lines),
      cmocka_unit_test(test_unknown_key_suggests_closest),
      cmocka_unit_test(test_bad_values_name_file_line_key_value),
      cmocka_unit_test(test_array_length_mismatch),
      cmocka_unit_test(test_missing_mandatory),
      cmocka_unit_test(test_choice_by_name_and_id),
      cmocka_unit_test(test_invalid_choice_lists_names),
      cmocka_unit_test(test_set_overrides_file_and_defaults),
      cmocka_unit_test(test_type_mismatch_and_misuse),
      cmocka_unit_test(test_missing_file_and_second_read),
      cmocka_unit_test(test_markdown_and_help),
      cmocka_unit_test(test_no_fixed_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
