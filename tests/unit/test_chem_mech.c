/* Tests of the Cantera YAML mechanism reader: counts of the shipped and oracle mechanisms,
 * conservation properties of every reaction, unit conversions against numbers worked out by hand
 * from the files, every rate type of tests/data/chem/allrates.yaml, composition strings, the
 * device rebase, and one bad input per error, each naming the file, the line and the culprit. */
#define _XOPEN_SOURCE 700 /* mkstemp, dup */
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

#include "chem/mech.h"
#include "chem_paths.h"
#include "core/error.h"

void chem_fnv1a64_hex(const unsigned char *bytes, size_t n, char hex[17]); /* mech.c */

/* Unit factors worked out by hand: cm^3/mol -> m^3/kmol is 1e-3 per order above one;
 * 1 cal/mol = 4184 J/kmol, 1 kJ/mol = 1e6 J/kmol; Ea/R in K. */
#define CM3_MOL 1e-3
#define CAL_MOL_K (4184.0 / CHEM_R)
#define KJ_MOL_K (1e6 / CHEM_R)

static void assert_rel(double got, double want, double tol) {
  double scale = fabs(want) > 0 ? fabs(want) : 1.0;
  if (fabs(got - want) > tol * scale) fail_msg("got %.17g, want %.17g (tol %g)", got, want, tol);
}

static ChemMech *load_or_skip(const char *name, const char *phase) {
  char path[4096];
  chem_test_mech_path(name, path, sizeof path);
  if (!chem_test_have(path)) return NULL;
  ChemMech *m = NULL;
  assert_int_equal(chem_mech_load(path, phase, &m), HX_OK);
  assert_non_null(m);
  return m;
}

static int rxn_index(const ChemMech *m, const char *equation) {
  for (int r = 0; r < m->n_reactions; r++)
    if (!strcmp(m->equations[r], equation)) return r;
  fail_msg("reaction '%s' not found", equation);
  return -1;
}

/* Stoichiometric coefficient of species `name` among the reactants (side 0) or products (1) */
static double nu_of(const ChemMech *m, int r, int side, const char *name) {
  int k = chem_species_index(m, name);
  const int *ptr = side ? m->prod_ptr : m->reac_ptr, *sp = side ? m->prod_sp : m->reac_sp;
  const double *nu = side ? m->prod_nu : m->reac_nu;
  for (int i = ptr[r]; i < ptr[r + 1]; i++)
    if (sp[i] == k) return nu[i];
  return 0;
}

static double order_of(const ChemMech *m, int r, const char *name) {
  int k = chem_species_index(m, name);
  for (int i = m->ord_ptr[r]; i < m->ord_ptr[r + 1]; i++)
    if (m->ord_sp[i] == k) return m->ord_val[i];
  return 0;
}

/* Efficiency of `name` in reaction r: its tb entry or the default */
static double eff_of(const ChemMech *m, int r, const char *name) {
  int k = chem_species_index(m, name);
  for (int i = m->tb_ptr[r]; i < m->tb_ptr[r + 1]; i++)
    if (m->tb_sp[i] == k) return m->tb_eff[i];
  return m->tb_default[r];
}

/* Properties every loaded mechanism has: molar masses from the atoms, balanced elements,
 * consistent CSR lists, dnu, increasing PLOG pressures, NASA-7 T_mid inside the fit range. */
static void check_invariants(const ChemMech *m) {
  int ns = m->n_species, ne = m->n_elements;
  for (int k = 0; k < ns; k++) {
    double w = 0;
    for (int e = 0; e < ne; e++)
      w += m->elem_comp[k * ne + e] * m->elem_mw[e];
    assert_rel(m->mw[k], w, 1e-14);
    assert_true(m->t_range[2 * k] < m->t_range[2 * k + 1]);
    assert_true(m->nasa[15 * k] > m->t_range[2 * k] && m->nasa[15 * k] <= m->t_range[2 * k + 1]);
  }
  for (int r = 0; r < m->n_reactions; r++) {
    assert_true(m->reac_ptr[r] < m->reac_ptr[r + 1] && m->prod_ptr[r] < m->prod_ptr[r + 1]);
    double dnu = 0;
    for (int e = 0; e < ne; e++) {
      double in = 0, out = 0;
      for (int i = m->reac_ptr[r]; i < m->reac_ptr[r + 1]; i++)
        in += m->reac_nu[i] * m->elem_comp[m->reac_sp[i] * ne + e];
      for (int i = m->prod_ptr[r]; i < m->prod_ptr[r + 1]; i++)
        out += m->prod_nu[i] * m->elem_comp[m->prod_sp[i] * ne + e];
      assert_rel(in, out, 1e-12);
    }
    for (int i = m->reac_ptr[r]; i < m->reac_ptr[r + 1]; i++)
      dnu -= m->reac_nu[i];
    for (int i = m->prod_ptr[r]; i < m->prod_ptr[r + 1]; i++)
      dnu += m->prod_nu[i];
    assert_rel(m->dnu[r], dnu, 1e-14);
    for (int i = m->ord_ptr[r]; i < m->ord_ptr[r + 1]; i++)
      assert_true(m->ord_val[i] != 0);
    for (int i = m->tb_ptr[r]; i < m->tb_ptr[r + 1]; i++)
      assert_true(m->tb_eff[i] != m->tb_default[r]);
    if (m->rxn_type[r] == CHEM_RXN_PLOG)
      assert_true(m->plog_ptr[r + 1] > m->plog_ptr[r]);
    else
      assert_int_equal(m->plog_ptr[r + 1], m->plog_ptr[r]);
    for (int i = m->plog_ptr[r] + 1; i < m->plog_ptr[r + 1]; i++)
      assert_true(m->plog[4 * i] >= m->plog[4 * (i - 1)]);
    assert_true(m->equation_line[r] > 0);
  }
  assert_int_equal(strlen(m->hash), 16);
  assert_true((char *)m->plog + 4 * sizeof(double) * (size_t)m->plog_ptr[m->n_reactions] <=
              (char *)m->block + m->block_bytes);
}

/* Counts as Cantera 3.2 reports them (ct.Solution(file).n_species, n_elements, n_reactions) */
static void test_counts(void **state) {
  (void)state;
  static const struct {
    const char *name;
    int ns, ne, nr;
  } cases[] = {{"h2o2", 10, 4, 29},       {"burke", 13, 6, 27},      {"li", 9, 3, 21},
               {"gri30", 53, 5, 325},     {"dodecane", 100, 4, 553}, {"allrates.yaml", 10, 4, 23},
               {"sections.yaml", 8, 2, 4}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ChemMech *m = load_or_skip(cases[i].name, NULL);
    if (!m) continue;
    assert_int_equal(m->n_species, cases[i].ns);
    assert_int_equal(m->n_elements, cases[i].ne);
    assert_int_equal(m->n_reactions, cases[i].nr);
    check_invariants(m);
    chem_mech_free(m);
  }
}

/* h2o2.yaml (units cm, mol, cal/mol): values worked out from the file by hand */
static void test_h2o2_values(void **state) {
  (void)state;
  ChemMech *m = load_or_skip("h2o2", NULL);
  if (!m) skip();
  assert_int_equal(chem_species_index(m, "H2O"), 5);
  assert_int_equal(chem_species_index(m, "h2o"), -1);
  assert_int_equal(chem_element_index(m, "Ar"), 2);
  assert_rel(m->mw[chem_species_index(m, "H2O")], 2 * 1.008 + 15.999, 1e-14);
  assert_rel(m->mw[chem_species_index(m, "AR")], 39.95, 1e-14);
  int h2 = chem_species_index(m, "H2");
  assert_rel(m->nasa[15 * h2], 1000.0, 0);
  assert_rel(m->nasa[15 * h2 + 1], 2.34433112, 0);      /* low range a0 */
  assert_rel(m->nasa[15 * h2 + 8 + 6], -3.20502331, 0); /* high range a6 */
  assert_rel(m->t_range[2 * h2 + 1], 3500.0, 0);

  int r = rxn_index(m, "O + H2 <=> H + OH");
  assert_int_equal(m->rxn_type[r], CHEM_RXN_ELEMENTARY);
  assert_rel(m->rate[3 * r], 3.87e4 * CM3_MOL, 1e-14);
  assert_rel(m->rate[3 * r + 1], 2.7, 0);
  assert_rel(m->rate[3 * r + 2], 6260.0 * CAL_MOL_K, 1e-14);
  assert_int_equal(m->equation_line[r], 254);

  r = rxn_index(m, "2 O + M <=> O2 + M");
  assert_int_equal(m->rxn_type[r], CHEM_RXN_THREE_BODY);
  assert_rel(m->rate[3 * r], 1.2e17 * CM3_MOL * CM3_MOL, 1e-14);
  assert_rel(nu_of(m, r, 0, "O"), 2, 0);
  assert_rel(eff_of(m, r, "H2O"), 15.4, 0);
  assert_rel(eff_of(m, r, "O2"), 1.0, 0);

  r = rxn_index(m, "2 OH (+M) <=> H2O2 (+M)");
  assert_int_equal(m->rxn_type[r], CHEM_RXN_FALLOFF);
  assert_int_equal(m->falloff_kind[r], CHEM_FALLOFF_TROE);
  assert_rel(m->rate[3 * r], 7.4e13 * CM3_MOL, 1e-14);
  assert_rel(m->rate_low[3 * r], 2.3e18 * CM3_MOL * CM3_MOL, 1e-14);
  assert_rel(m->rate_low[3 * r + 2], -1700.0 * CAL_MOL_K, 1e-14);
  assert_rel(m->falloff_par[5 * r + 3], 5182.0, 0);
  assert_rel(m->falloff_par[5 * r + 4], 1.0, 0);
  assert_rel(eff_of(m, r, "AR"), 0.7, 0);
  chem_mech_free(m);
}

/* Molar masses from the IUPAC atomic weights by hand, for species of the larger mechanisms */
static void test_molar_masses(void **state) {
  (void)state;
  ChemMech *m = load_or_skip("gri30", NULL);
  if (m) {
    assert_rel(m->mw[chem_species_index(m, "CH4")], 12.011 + 4 * 1.008, 1e-14);
    assert_rel(m->mw[chem_species_index(m, "CH2(S)")], 12.011 + 2 * 1.008, 1e-14);
    assert_rel(m->mw[chem_species_index(m, "N2")], 2 * 14.007, 1e-14);
    int r = rxn_index(m, "H + CH2 (+M) <=> CH3 (+M)");
    assert_int_equal(m->rxn_type[r], CHEM_RXN_FALLOFF);
    chem_mech_free(m);
  }
  m = load_or_skip("dodecane", NULL); /* the first ideal-gas phase: nDodecane_IG */
  if (m) {
    assert_rel(m->mw[chem_species_index(m, "c12h26")], 12 * 12.011 + 26 * 1.008, 1e-14);
    chem_mech_free(m);
  }
}

/* Every rate type and unit form of allrates.yaml (units cm, mol, kJ/mol, atm) */
static void test_allrates(void **state) {
  (void)state;
  ChemMech *m = load_or_skip("allrates.yaml", NULL);
  if (!m) skip();
  int r = rxn_index(m, "O + H + M <=> OH + M"); /* three-body without `type` */
  assert_int_equal(m->rxn_type[r], CHEM_RXN_THREE_BODY);
  assert_rel(m->tb_default[r], 0.5, 0);
  assert_int_equal(m->tb_ptr[r + 1] - m->tb_ptr[r], 3);
  assert_rel(eff_of(m, r, "AR"), 0.7, 0);
  assert_rel(eff_of(m, r, "N2"), 0.5, 0);

  r = rxn_index(m, "H + O2 + AR <=> HO2 + AR"); /* explicit collision partner */
  assert_int_equal(m->rxn_type[r], CHEM_RXN_THREE_BODY);
  assert_rel(nu_of(m, r, 0, "AR"), 0, 0);
  assert_rel(nu_of(m, r, 1, "AR"), 0, 0);
  assert_rel(m->tb_default[r], 0, 0);
  assert_rel(eff_of(m, r, "AR"), 1, 0);
  assert_rel(m->rate[3 * r], 7.0e17 * CM3_MOL * CM3_MOL, 1e-14);
  assert_int_equal(m->equation_line[r], 128);

  r = rxn_index(m, "O + H2 <=> H + OH");
  assert_rel(m->rate[3 * r + 2], 26.19184 * KJ_MOL_K, 1e-14);
  r = rxn_index(m, "H + O2 => O + OH");
  assert_int_equal(m->reversible[r], 0);
  r = rxn_index(m, "OH + H2 <=> H + H2O"); /* A: 2.16e+08 cm^3/mol/s, Ea: 3430.0 cal/mol */
  assert_rel(m->rate[3 * r], 2.16e8 * CM3_MOL, 1e-14);
  assert_rel(m->rate[3 * r + 2], 3430.0 * CAL_MOL_K, 1e-14);
  r = rxn_index(m, "O + H2O2 <=> OH + HO2"); /* A: 9.63e+03 m^3/kmol/s, Ea: 4.0 kcal/mol */
  assert_rel(m->rate[3 * r], 9.63e3, 1e-14);
  assert_rel(m->rate[3 * r + 2], 4000.0 * CAL_MOL_K, 1e-14);
  r = rxn_index(m, "H + H2O2 <=> HO2 + H2"); /* Ea: 2616.7 K */
  assert_rel(m->rate[3 * r + 2], 2616.7, 1e-14);

  r = rxn_index(m, "H + O2 (+M) <=> HO2 (+M)"); /* Troe without T2 */
  assert_int_equal(m->falloff_kind[r], CHEM_FALLOFF_TROE);
  assert_rel(m->falloff_par[5 * r + 4], 0, 0);
  assert_rel(m->rate_low[3 * r], 6.366e20 * CM3_MOL * CM3_MOL, 1e-14);
  r = rxn_index(m, "H + OH (+M) <=> H2O (+M)");
  assert_int_equal(m->falloff_kind[r], CHEM_FALLOFF_LINDEMANN);
  r = rxn_index(m, "2 H (+M) <=> H2 (+M)"); /* SRI, 3 parameters: d = 1, e = 0 */
  assert_int_equal(m->falloff_kind[r], CHEM_FALLOFF_SRI);
  assert_rel(m->falloff_par[5 * r + 2], 979.0, 0);
  assert_rel(m->falloff_par[5 * r + 3], 1.0, 0);
  assert_rel(m->falloff_par[5 * r + 4], 0.0, 0);
  r = rxn_index(m, "O + OH (+M) <=> HO2 (+M)"); /* SRI, 5 parameters */
  assert_rel(m->falloff_par[5 * r + 3], 1.1, 0);
  assert_rel(m->falloff_par[5 * r + 4], 0.2, 0);
  assert_rel(m->tb_default[r], 1.0, 0);
  r = rxn_index(m, "H + HO2 (+AR) <=> H2O2 (+AR)"); /* falloff with an explicit partner */
  assert_int_equal(m->rxn_type[r], CHEM_RXN_FALLOFF);
  assert_rel(m->tb_default[r], 0, 0);
  assert_rel(eff_of(m, r, "AR"), 1, 0);
  assert_rel(m->rate_low[3 * r], 3.0e17 * CM3_MOL * CM3_MOL, 1e-14);
  assert_rel(m->rate[3 * r + 2], 4.0 * KJ_MOL_K, 1e-14);

  /* PLOG: P 10 (atm, the units block), 1 atm, 101325 Pa, 0.1 bar, 100 -> sorted by pressure,
   * the two entries at 1 atm in file order */
  r = rxn_index(m, "H + HO2 <=> 2 OH");
  assert_int_equal(m->rxn_type[r], CHEM_RXN_PLOG);
  const double *pl = m->plog + 4 * m->plog_ptr[r];
  assert_int_equal(m->plog_ptr[r + 1] - m->plog_ptr[r], 5);
  const double want_p[5] = {1e4, CHEM_P_ATM, CHEM_P_ATM, 10 * CHEM_P_ATM, 100 * CHEM_P_ATM};
  const double want_A[5] = {5.0e13, 6.0e13, 2.4e13, 9.0e13, 1.0e14};
  for (int i = 0; i < 5; i++) {
    assert_rel(pl[4 * i], log(want_p[i]), 1e-14);
    assert_rel(pl[4 * i + 1], want_A[i] * CM3_MOL, 1e-14);
  }
  assert_rel(pl[4 * 1 + 3], 2.0 * KJ_MOL_K, 1e-14);

  r = rxn_index(m, "OH + HO2 <=> O2 + H2O"); /* the first of a duplicate pair */
  assert_rel(m->rate[3 * (r + 1)], -1.0e12 * CM3_MOL, 1e-14);
  assert_string_equal(m->equations[r + 1], m->equations[r]);

  r = rxn_index(m, "H2 + O2 => 2 OH"); /* non-integer orders, total 2 */
  assert_rel(order_of(m, r, "H2"), 0.75, 0);
  assert_rel(order_of(m, r, "O2"), 1.25, 0);
  assert_rel(m->rate[3 * r], 1.7e12 * CM3_MOL, 1e-14);

  int ar = chem_species_index(m, "AR"); /* one NASA-7 range: both sets equal, T_mid = T_max */
  assert_rel(m->nasa[15 * ar], 5000.0, 0);
  for (int j = 0; j < 7; j++)
    assert_rel(m->nasa[15 * ar + 1 + j], m->nasa[15 * ar + 8 + j], 0);
  chem_mech_free(m);
}

/* Species and reactions from named sections, Ea in K, "(+ M)" with a space, phase choice */
static void test_sections_and_phases(void **state) {
  (void)state;
  ChemMech *m = load_or_skip("sections.yaml", NULL);
  if (!m) skip();
  assert_int_equal(chem_species_index(m, "H2O2"), 7);
  int r = rxn_index(m, "O + H2 <=> H + OH");
  assert_rel(m->rate[3 * r + 2], 3150.0, 0);
  r = rxn_index(m, "2 OH (+ M) <=> H2O2 (+ M)");
  assert_int_equal(m->rxn_type[r], CHEM_RXN_FALLOFF);
  r = rxn_index(m, "H + HO2 <=> 2 OH"); /* rate-constant as a list [A, b, Ea] */
  assert_rel(m->rate[3 * r], 8.4e13 * CM3_MOL, 1e-14);
  chem_mech_free(m);
  m = load_or_skip("sections.yaml", "gas");
  assert_int_equal(m->n_species, 8);
  chem_mech_free(m);
}

/* Orders of a non-reactant with the flag; A's units follow the total order 2.2 */
static void test_nonreactant_orders(void **state) {
  (void)state;
  ChemMech *m = load_or_skip("orders_nonreactant.yaml", NULL);
  if (!m) skip();
  int r = rxn_index(m, "2 H2 + O2 => 2 H2O");
  assert_rel(order_of(m, r, "H2O"), 0.2, 0);
  assert_rel(order_of(m, r, "H2"), 1.5, 0);
  assert_rel(m->rate[3 * r], 1.0e12 * pow(CM3_MOL, 1.2), 1e-14);
  chem_mech_free(m);
}

static void test_rebase_and_hash(void **state) {
  (void)state;
  ChemMech *m = load_or_skip("allrates.yaml", NULL);
  if (!m) skip();
  void *copy = aligned_alloc(64, m->block_bytes);
  assert_non_null(copy);
  memcpy(copy, m->block, m->block_bytes);
  ChemMech dev;
  chem_mech_rebase(m, copy, &dev);
  assert_ptr_equal(dev.block, copy);
  assert_true((char *)dev.plog >= (char *)copy && (char *)dev.plog < (char *)copy + m->block_bytes);
  assert_null(dev.species_names);
  for (int r = 0; r < m->n_reactions; r++) {
    assert_rel(dev.rate[3 * r], m->rate[3 * r], 0);
    assert_int_equal(dev.tb_ptr[r + 1], m->tb_ptr[r + 1]);
  }
  assert_rel(dev.nasa[15 * 3 + 4], m->nasa[15 * 3 + 4], 0);
  free(copy);
  /* FNV-1a 64 test vectors (Fowler-Noll-Vo reference): "" and "a" */
  char hex[17];
  chem_fnv1a64_hex((const unsigned char *)"", 0, hex);
  assert_string_equal(hex, "cbf29ce484222325");
  chem_fnv1a64_hex((const unsigned char *)"a", 1, hex);
  assert_string_equal(hex, "af63dc4c8601ec8c");
  ChemMech *again = load_or_skip("allrates.yaml", NULL);
  assert_string_equal(again->hash, m->hash);
  chem_mech_free(again);
  again = load_or_skip("sections.yaml", NULL);
  assert_string_not_equal(again->hash, m->hash);
  chem_mech_free(again);
  chem_mech_free(m);
}

/* ---------------------------------------------------------------------------------------------
 * Errors: stderr captured into a temporary file */
typedef struct {
  int saved_fd;
  char path[64];
} StderrCapture;

static void capture_begin(StderrCapture *c) {
  fflush(stderr);
  strcpy(c->path, "/tmp/hexdg_chem_stderr_XXXXXX");
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

/* Loads tests/data/chem/<file>; asserts code `want` and that the message holds every string of
 * the NULL-terminated list (the file name is always checked). */
static void expect_load_error(const char *file, int want, ...) {
  char path[4096];
  chem_test_mech_path(file, path, sizeof path);
  StderrCapture cap;
  capture_begin(&cap);
  ChemMech *m = (ChemMech *)&cap; /* must be reset to NULL */
  int rc = chem_mech_load(path, NULL, &m);
  char *text = capture_end(&cap);
  if (rc != want) fail_msg("%s: code %d, want %d; stderr: %s", file, rc, want, text);
  assert_null(m);
  if (!strstr(text, file)) fail_msg("message does not name %s: %s", file, text);
  va_list ap;
  va_start(ap, want);
  for (const char *s = va_arg(ap, const char *); s; s = va_arg(ap, const char *))
    if (!strstr(text, s)) fail_msg("message lacks '%s': %s", s, text);
  va_end(ap);
  free(text);
}

static void test_error_unsupported_type(void **state) {
  (void)state;
  expect_load_error("bad_chebyshev.yaml", HX_ERR_INPUT, "line 79", "'H + O2 <=> O + OH'",
                    "Chebyshev", "falloff", NULL);
}

static void test_error_no_thermo(void **state) {
  (void)state;
  expect_load_error("bad_no_thermo.yaml", HX_ERR_INPUT, "line 64", "'OH'", "thermo", "NASA7", NULL);
}

static void test_error_unknown_unit(void **state) {
  (void)state;
  expect_load_error("bad_unit.yaml", HX_ERR_INPUT, "line 79", "'fortnight'", "OH + H2 <=> H + H2O",
                    NULL);
}

static void test_error_imbalance(void **state) {
  (void)state;
  expect_load_error("bad_imbalance.yaml", HX_ERR_INPUT, "line 78", "'O + H2 <=> H + H2O'",
                    "element 'H'", "2 atoms", "3 in the products", NULL);
}

static void test_error_trange(void **state) {
  (void)state;
  expect_load_error("bad_trange.yaml", HX_ERR_INPUT, "line 58", "'OH'", "temperature-ranges", NULL);
}

static void test_error_species_not_in_phase(void **state) {
  (void)state;
  expect_load_error("bad_species_not_in_phase.yaml", HX_ERR_INPUT, "line 78", "'HO2'",
                    "'H + HO2 <=> 2 OH'", NULL);
}

static void test_error_chemkin(void **state) {
  (void)state;
  expect_load_error("bad_chemkin.inp", HX_ERR_INPUT, "line 1", "ck2yaml", NULL);
}

static void test_error_nonreactant_order(void **state) {
  (void)state;
  expect_load_error("bad_nonreactant_order.yaml", HX_ERR_INPUT, "line 80", "'H2O'",
                    "nonreactant-orders", "2 H2 + O2 => 2 H2O", NULL);
}

static void test_error_missing_file(void **state) {
  (void)state;
  expect_load_error("no_such_mechanism.yaml", HX_ERR_IO, "cannot open", NULL);
}

/* Broken YAML and the wrong phase name, written to temporary files */
static void test_error_not_yaml_and_phase(void **state) {
  (void)state;
  char path[] = "/tmp/hexdg_chem_bad_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  const char *text = "phases:\n- name: gas\n  thermo: [ideal-gas\n";
  assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
  close(fd);
  StderrCapture cap;
  capture_begin(&cap);
  ChemMech *m = NULL;
  int rc = chem_mech_load(path, NULL, &m);
  char *err = capture_end(&cap);
  assert_int_equal(rc, HX_ERR_INPUT);
  assert_non_null(strstr(err, path));
  assert_non_null(strstr(err, "not valid YAML"));
  free(err);
  unlink(path);

  char mech[4096];
  chem_test_mech_path("sections.yaml", mech, sizeof mech);
  capture_begin(&cap);
  rc = chem_mech_load(mech, "nope", &m);
  err = capture_end(&cap);
  assert_int_equal(rc, HX_ERR_INPUT);
  assert_non_null(strstr(err, "'nope'"));
  assert_non_null(strstr(err, "'liquid-ish' (Redlich-Kwong)"));
  free(err);
  capture_begin(&cap);
  rc = chem_mech_load(mech, "liquid-ish", &m);
  err = capture_end(&cap);
  assert_int_equal(rc, HX_ERR_INPUT);
  assert_non_null(strstr(err, "ideal-gas"));
  free(err);
}

/* A small mechanism written to a temporary file (path returned in path[64]) */
static void write_temp(const char *text, char *path) {
  strcpy(path, "/tmp/hexdg_chem_mech_XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
  close(fd);
}

#define TINY_SPECIES(name, comp)                                                                   \
  "- name: " name "\n  composition: " comp "\n  thermo:\n    model: NASA7\n"                       \
  "    temperature-ranges: [300.0, 5000.0]\n    data:\n    - [2.5, 0, 0, 0, 0, 0, 1.0]\n"

/* Loads text; with needle == NULL expects success, else an input error naming the temporary
 * file, the line and needle. */
static ChemMech *load_text(const char *text, int line, const char *needle) {
  char path[64], where[32];
  write_temp(text, path);
  StderrCapture cap;
  capture_begin(&cap);
  ChemMech *m = NULL;
  int rc = chem_mech_load(path, NULL, &m);
  char *err = capture_end(&cap);
  unlink(path);
  snprintf(where, sizeof where, "line %d", line);
  if (!needle && rc != HX_OK) fail_msg("unexpected error: %s", err);
  if (needle &&
      (rc != HX_ERR_INPUT || !strstr(err, path) || !strstr(err, where) || !strstr(err, needle)))
    fail_msg("code %d, want an error naming %s, '%s', '%s': %s", rc, path, where, needle, err);
  free(err);
  return m;
}

static void test_error_species_and_sections(void **state) {
  (void)state;
  const char *head = "phases:\n- name: gas\n  thermo: ideal-gas\n  elements: [O, H]\n";
  char text[2048];
  /* a species listed by the phase but not defined (line 5: the list) */
  snprintf(text, sizeof text, "%s  species: [H2, XX]\nspecies:\n" TINY_SPECIES("H2", "{H: 2}"),
           head);
  load_text(text, 5, "'XX'");
  /* no species section at all */
  snprintf(text, sizeof text, "%s  species: [H2]\n", head);
  load_text(text, 5, "section 'species'");
  /* an element the phase does not declare (line 8: the composition key) */
  snprintf(text, sizeof text, "%s  species: [N2]\nspecies:\n" TINY_SPECIES("N2", "{N: 2}"), head);
  load_text(text, 8, "element 'N'");
  /* a thermo model other than NASA7 (line 10: the model) */
  snprintf(text, sizeof text,
           "%s  species: [H2]\nspecies:\n- name: H2\n  composition: {H: 2}\n  thermo:\n"
           "    model: NASA9\n    temperature-ranges: [200, 1000]\n    data: [[1, 2, 3, 4, 5, "
           "6, 7, 8, 9]]\n",
           head);
  load_text(text, 10, "'NASA9'");
  /* six coefficients instead of seven */
  snprintf(text, sizeof text,
           "%s  species: [H2]\nspecies:\n- name: H2\n  composition: {H: 2}\n  thermo:\n"
           "    model: NASA7\n    temperature-ranges: [200, 1000]\n    data:\n    - [1, 2, 3, "
           "4, 5, 6]\n",
           head);
  load_text(text, 13, "needs 7");
  /* an unknown unit in the units block (line 1) */
  snprintf(text, sizeof text,
           "units: {length: furlong}\n%s  species: [H2]\nspecies:\n" TINY_SPECIES("H2", "{H: 2}"),
           head);
  load_text(text, 1, "'furlong'");
}

/* "2O" (coefficient written against the name) and "2 O" read the same */
static void test_coefficient_prefix(void **state) {
  (void)state;
  char text[2048];
  snprintf(
      text, sizeof text,
      "phases:\n- name: gas\n  thermo: ideal-gas\n  elements: [O]\n  species: [O, O2]\n"
      "  kinetics: gas\nspecies:\n" TINY_SPECIES("O", "{O: 1}") TINY_SPECIES(
          "O2", "{O: 2}") "reactions:\n- equation: 2O <=> O2\n  rate-constant: {A: 1.0e+10, b: 0, "
                          "Ea: 0}\n"
                          "- equation: O2 => 2 O\n  rate-constant: {A: 1.0e+10, b: 0, Ea: 0}\n");
  ChemMech *m = load_text(text, 0, NULL);
  assert_int_equal(m->n_reactions, 2);
  assert_rel(nu_of(m, 0, 0, "O"), 2, 0);
  assert_rel(nu_of(m, 1, 1, "O"), 2, 0);
  assert_rel(m->rate[0], 1.0e10, 0); /* default units: kmol, m, s */
  chem_mech_free(m);
}

/* A jump of the NASA-7 fit at T_mid is a warning naming the species, not an error */
static void test_nasa_jump_warning(void **state) {
  (void)state;
  char path[4096];
  chem_test_mech_path("dodecane", path, sizeof path);
  if (!chem_test_have(path)) skip();
  StderrCapture cap;
  capture_begin(&cap);
  ChemMech *m = NULL;
  int rc = chem_mech_load(path, NULL, &m);
  char *err = capture_end(&cap);
  assert_int_equal(rc, HX_OK);
  assert_non_null(strstr(err, "warning"));
  assert_non_null(strstr(err, "c12h26"));
  free(err);
  chem_mech_free(m);
}

static void test_composition(void **state) {
  (void)state;
  ChemMech *m = load_or_skip("h2o2", NULL);
  if (!m) skip();
  double x[16];
  assert_int_equal(chem_parse_composition(m, "H2:2, O2:1,N2:3.76", "--X", x), HX_OK);
  assert_rel(x[chem_species_index(m, "H2")], 2 / 6.76, 1e-15);
  assert_rel(x[chem_species_index(m, "N2")], 3.76 / 6.76, 1e-15);
  assert_rel(x[chem_species_index(m, "OH")], 0, 0);
  double sum = 0;
  for (int k = 0; k < m->n_species; k++)
    sum += x[k];
  assert_rel(sum, 1.0, 1e-15);

  static const struct {
    const char *spec, *needle;
  } bad[] = {{"H2:1,XX:1", "'XX'"}, {"H2:-1,O2:1", "negative"}, {"", "empty"},
             {"H2:0", "zero"},      {"H2:abc", "not a number"}, {"H2:1,H2:2", "twice"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    StderrCapture cap;
    capture_begin(&cap);
    int rc = chem_parse_composition(m, bad[i].spec, "--X", x);
    char *err = capture_end(&cap);
    assert_int_equal(rc, HX_ERR_INPUT);
    if (!strstr(err, bad[i].needle) || !strstr(err, "--X"))
      fail_msg("'%s': message lacks '%s' or '--X': %s", bad[i].spec, bad[i].needle, err);
    free(err);
  }
  chem_mech_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_counts),
      cmocka_unit_test(test_h2o2_values),
      cmocka_unit_test(test_molar_masses),
      cmocka_unit_test(test_allrates),
      cmocka_unit_test(test_sections_and_phases),
      cmocka_unit_test(test_nonreactant_orders),
      cmocka_unit_test(test_rebase_and_hash),
      cmocka_unit_test(test_error_unsupported_type),
      cmocka_unit_test(test_error_no_thermo),
      cmocka_unit_test(test_error_unknown_unit),
      cmocka_unit_test(test_error_imbalance),
      cmocka_unit_test(test_error_trange),
      cmocka_unit_test(test_error_species_not_in_phase),
      cmocka_unit_test(test_error_chemkin),
      cmocka_unit_test(test_error_nonreactant_order),
      cmocka_unit_test(test_error_missing_file),
      cmocka_unit_test(test_error_not_yaml_and_phase),
      cmocka_unit_test(test_error_species_and_sections),
      cmocka_unit_test(test_coefficient_prefix),
      cmocka_unit_test(test_nasa_jump_warning),
      cmocka_unit_test(test_composition),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
