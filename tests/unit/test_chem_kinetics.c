/* Kinetics (src/chem/kinetics.h) against Cantera and against itself.
 *
 *  - rates: net production rates at 1000 random states per mechanism (T 300-3000 K, p 0.1-100 atm,
 *    log-uniform mole fractions; allrates also with slightly negative concentrations) equal
 *    Cantera's (tools/chem_reference.py) to 1e-10 of the state's largest rate;
 *  - Jacobian: each reaction's dwdC and dwdT columns equal central finite differences of that
 *    reaction's rates to 1e-6 of the column's largest entry (per column: scaling by the whole
 * matrix would hide the columns of major species, whose entries are small next to those of radicals
 * at tiny concentrations, the 1/C_j of mass action; per reaction: in a column of the whole
 *    mechanism the round-off of fast reactions drowns slow ones); the whole Jacobian is the sum;
 *  - element conservation: sum_k a_ke wdot_k = 0 to 1e-12 of the rate scale.
 *
 * Mechanisms: h2o2, Burke 2012, Li 2004 (../shared/data), allrates (every reaction type, here) with
 * their committed tables in tests/data/chem; GRI-Mech 3.0 and n-dodecane Reitz with tables in
 * .oracle/ref (tools/install_oracle.sh). Missing files skip with a message. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "chem/kinetics.h"
#include "chem/mech.h"
#include "chem_paths.h"
#include "core/error.h"

#define RATE_TOL 1e-10
#define JAC_TOL 1e-6
#define ELEM_TOL 1e-12

typedef struct {
  const char *name;  /* short name for chem_test_mech_path */
  const char *table; /* path of the reference CSV relative to the source tree */
  int n_jac;         /* states checked against finite differences */
} Case;

static const Case cases[] = {
    {"h2o2", "tests/data/chem/rates_h2o2.csv", 1000},
    {"burke", "tests/data/chem/rates_burke.csv", 1000},
    {"li", "tests/data/chem/rates_li.csv", 1000},
    {"allrates.yaml", "tests/data/chem/rates_allrates.csv", 1000},
    {"gri30", ".oracle/ref/rates_gri30.csv", 1000},
    {"dodecane", ".oracle/ref/rates_dodecane.csv", 1000},
};

/* A reference table in the mechanism's species order: C[s*ns + k], w[s*ns + k] */
typedef struct {
  int n, ns;
  double *T, *p, *C, *w;
} Table;

static void table_free(Table *t) {
  free(t->T);
  free(t->p);
  free(t->C);
  free(t->w);
}

/* Column c of the header names a quantity of species k: map "C_X"/"wdot_X" to X's index */
static int header_map(const ChemMech *m, char *header, int *col_sp, int *col_kind, int ncol_max) {
  int nc = 0;
  for (char *tok = strtok(header, ",\n"); tok; tok = strtok(NULL, ",\n")) {
    assert_true(nc < ncol_max);
    col_sp[nc] = -1;
    col_kind[nc] = -1;
    if (!strcmp(tok, "T"))
      col_kind[nc] = 0;
    else if (!strcmp(tok, "p"))
      col_kind[nc] = 1;
    else if (!strncmp(tok, "C_", 2))
      col_kind[nc] = 2, col_sp[nc] = chem_species_index(m, tok + 2);
    else if (!strncmp(tok, "wdot_", 5))
      col_kind[nc] = 3, col_sp[nc] = chem_species_index(m, tok + 5);
    if (col_kind[nc] >= 2 && col_sp[nc] < 0)
      fail_msg("column %s: species not in the mechanism", tok);
    nc++;
  }
  return nc;
}

/* Read tools/chem_reference.py's CSV; 0 if the file is absent */
static int table_read(const char *path, const ChemMech *m, Table *t) {
  FILE *f = fopen(path, "r");
  if (!f) {
    printf("  %s not found: skipped (generate with tools/install_oracle.sh)\n", path);
    return 0;
  }
  const int ns = m->n_species, ncol_max = 2 + 2 * ns;
  size_t cap = 1 << 16;
  char *line = malloc(cap);
  int *col_sp = malloc(sizeof(int) * ncol_max), *col_kind = malloc(sizeof(int) * ncol_max);
  int nc = 0, n = 0, n_alloc = 1024;
  memset(t, 0, sizeof *t);
  t->ns = ns;
  t->T = malloc(sizeof(double) * n_alloc);
  t->p = malloc(sizeof(double) * n_alloc);
  t->C = malloc(sizeof(double) * n_alloc * ns);
  t->w = malloc(sizeof(double) * n_alloc * ns);
  while (fgets(line, (int)cap, f)) {
    assert_non_null(strchr(line, '\n')); /* lines fit the buffer */
    if (line[0] == '#') continue;
    if (!nc) {
      nc = header_map(m, line, col_sp, col_kind, ncol_max);
      assert_int_equal(nc, ncol_max);
      continue;
    }
    assert_true(n < n_alloc);
    char *s = line;
    for (int c = 0; c < nc; c++) {
      char *end;
      double v = strtod(s, &end);
      assert_true(end != s);
      s = end + 1;
      if (col_kind[c] == 0)
        t->T[n] = v;
      else if (col_kind[c] == 1)
        t->p[n] = v;
      else if (col_kind[c] == 2)
        t->C[(size_t)n * ns + col_sp[c]] = v;
      else
        t->w[(size_t)n * ns + col_sp[c]] = v;
    }
    n++;
  }
  t->n = n;
  fclose(f);
  free(line);
  free(col_sp);
  free(col_kind);
  return 1;
}

/* Load the case's mechanism and table; 0 (skip) when either is missing */
static int load_case(const Case *c, ChemMech **m, Table *t) {
  char path[4096], table[4096];
  chem_test_mech_path(c->name, path, sizeof path);
  if (!chem_test_have(path)) return 0;
  assert_int_equal(chem_mech_load(path, NULL, m), HX_OK);
  snprintf(table, sizeof table, "%s/%s", HEXDG_SOURCE_DIR, c->table);
  if (!table_read(table, *m, t)) {
    chem_mech_free(*m);
    return 0;
  }
  return 1;
}

static double max_abs(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s = fmax(s, fabs(a[i]));
  return s;
}

static void test_rates_vs_cantera(void **state) {
  const Case *c = *state;
  ChemMech *m;
  Table t;
  if (!load_case(c, &m, &t)) skip();
  const int ns = m->n_species;
  double *w = malloc(sizeof(double) * ns), *work = malloc(sizeof(double) * chem_kinetics_work(m));
  double worst = 0, sum = 0;
  int worst_s = 0;
  for (int s = 0; s < t.n; s++) {
    const double *ref = t.w + (size_t)s * ns;
    chem_wdot(m, t.T[s], t.C + (size_t)s * ns, 1, w, 1, work, 1);
    double err = 0;
    for (int k = 0; k < ns; k++)
      err = fmax(err, fabs(w[k] - ref[k]));
    err /= fmax(max_abs(ref, ns), 1e-300);
    sum += err;
    if (!(err <= worst)) worst = err, worst_s = s;
  }
  printf("  %-14s %4d states, %3d species, %4d reactions: rates max rel. error %.2e (state %d, "
         "T %.1f K, p %.3g Pa), mean %.2e\n",
         c->name, t.n, ns, m->n_reactions, worst, worst_s, t.T[worst_s], t.p[worst_s], sum / t.n);
  assert_true(t.n >= 1000);
  assert_true(worst <= RATE_TOL);
  free(w);
  free(work);
  table_free(&t);
  chem_mech_free(m);
}

/* Reaction r alone, as a one-reaction mechanism: the per-reaction arrays shifted by r (the CSR
 * pointers keep indexing the shared entry arrays) */
static ChemMech reaction_view(const ChemMech *m, int r) {
  ChemMech v = *m;
  v.n_reactions = 1;
  v.rxn_type += r;
  v.reversible += r;
  v.rate += 3 * r;
  v.rate_low += 3 * r;
  v.falloff_kind += r;
  v.falloff_par += 5 * r;
  v.dnu += r;
  v.reac_ptr += r;
  v.prod_ptr += r;
  v.ord_ptr += r;
  v.tb_ptr += r;
  v.tb_default += r;
  v.plog_ptr += r;
  v.equations += r;
  v.equation_line += r;
  return v;
}

static int in_list(const int *ptr, const int *sp, int j) {
  for (int i = ptr[0]; i < ptr[1]; i++)
    if (sp[i] == j) return 1;
  return 0;
}

/* Forward and reverse rates of progress of the one-reaction mechanism v at (T, C) */
static void rop(const ChemMech *v, double T, const double *C, double *qf, double *qr,
                double *work) {
  chem_rates_of_progress(v, T, C, 1, qf, qr, 1, work, 1);
}

/* Central differences (step h) of the forward and reverse rates of progress of v along C_j or T */
static void rop_diff(const ChemMech *v, double T, const double *C, int j, double h, double *Cp,
                     double *work, double *dqf, double *dqr) {
  const int ns = v->n_species;
  double qfp, qrp, qfm, qrm;
  memcpy(Cp, C, sizeof(double) * ns);
  if (j < ns) {
    Cp[j] = C[j] + h;
    rop(v, T, Cp, &qfp, &qrp, work);
    Cp[j] = C[j] - h;
    rop(v, T, Cp, &qfm, &qrm, work);
  } else {
    rop(v, T + h, C, &qfp, &qrp, work);
    rop(v, T - h, C, &qfm, &qrm, work);
  }
  *dqf = (qfp - qfm) / (2 * h);
  *dqr = (qrp - qrm) / (2 * h);
}

/* Error of column j (C_j, or T for j = ns) of reaction r's Jacobian against Richardson-extrapolated
 * central differences (steps h and h/2, error O(h^4)) of its forward and reverse rates of progress,
 * taken apart so that a slow direction is not lost in the round-off of a fast one. Steps: 1e-4 of
 * T; of C_j for a species in the mass-action products (never across 0, where Cantera's rules for
 * C <= 0 switch); of [M] (at most C_total) for one acting only through [M]; of C_total for one
 * acting only through p = R T C_total (PLOG); T steps stay on one side of the NASA-7 T_mid of the
 * reaction's species (where g_k(T) has a kink). The error is relative to the column's size
 * nu_max (|dqf| + |dqr|), floored at 1e-7 nu_max (|qf| + |qr|) / h, times sum|eff C| / |[M]| when
 * [M] is a difference of larger terms: an entry that small changes the rates by less than 1e-7
 * over the step, and the round-off of the difference quotients reaches ~1e-13 (|qf| + |qr|) / h
 * (ln q is a sum of terms up to a few hundred: b ln T, Ea/RT, sum nu g/RT). */
static double column_error(const ChemMech *v, double T, const double *C, double C_total, int j,
                           const double *J, const double *dT, double *col, double *Cp,
                           double *work) {
  const int ns = v->n_species, type = v->rxn_type[0];
  int has_M = type == CHEM_RXN_THREE_BODY || type == CHEM_RXN_FALLOFF;
  double M = 0, M_abs = 0;
  if (has_M) {
    ChemKinState ks = chem_kin_state(v, T, C, 1);
    M = chem_third_body(v, 0, &ks, C, 1);
    double def = v->tb_default[0];
    for (int k = 0; k < ns; k++)
      M_abs += fabs(def * C[k]);
    for (int i = v->tb_ptr[0]; i < v->tb_ptr[1]; i++)
      M_abs += fabs((v->tb_eff[i] - def) * C[v->tb_sp[i]]);
  }
  int mass_action =
      j < ns && (in_list(v->ord_ptr, v->ord_sp, j) || in_list(v->prod_ptr, v->prod_sp, j));
  double h = j == ns ? T : mass_action ? fabs(C[j]) : has_M ? fmin(fabs(M), C_total) : C_total;
  h = 1e-4 * (h > 0 ? h : 1e-20 * C_total);
  if (j == ns) { /* stay on one side of every NASA-7 T_mid of the reaction (a kink of g_k(T)) */
    double dmin = h / 0.4;
    for (int i = v->reac_ptr[0]; i < v->reac_ptr[1]; i++)
      dmin = fmin(dmin, fabs(T - v->nasa[15 * v->reac_sp[i]]));
    for (int i = v->prod_ptr[0]; i < v->prod_ptr[1]; i++)
      dmin = fmin(dmin, fabs(T - v->nasa[15 * v->prod_sp[i]]));
    h = 0.4 * dmin;
    if (h < 1e-8 * T) return 0; /* T on a T_mid: no finite difference */
  }
  double qf0, qr0, dqf1, dqr1, dqf2, dqr2;
  rop(v, T, C, &qf0, &qr0, work);
  rop_diff(v, T, C, j, h, Cp, work, &dqf1, &dqr1);
  rop_diff(v, T, C, j, h / 2, Cp, work, &dqf2, &dqr2);
  double dqf = (4 * dqf2 - dqf1) / 3, dqr = (4 * dqr2 - dqr1) / 3, nu_max = 0;
  for (int k = 0; k < ns; k++)
    col[k] = 0;
  for (int i = v->reac_ptr[0]; i < v->reac_ptr[1]; i++) {
    col[v->reac_sp[i]] -= v->reac_nu[i] * (dqf - dqr);
    nu_max = fmax(nu_max, v->reac_nu[i]);
  }
  for (int i = v->prod_ptr[0]; i < v->prod_ptr[1]; i++) {
    col[v->prod_sp[i]] += v->prod_nu[i] * (dqf - dqr);
    nu_max = fmax(nu_max, v->prod_nu[i]);
  }
  double cancel = has_M && M_abs > fabs(M) ? M_abs / fabs(M) : 1.0;
  double scale =
      nu_max * (fabs(dqf) + fabs(dqr)) + 1e-7 * nu_max * (fabs(qf0) + fabs(qr0)) / h * cancel;
  double err = 0;
  for (int k = 0; k < ns; k++)
    err = fmax(err, fabs((j < ns ? J[k * ns + j] : dT[k]) - col[k]));
  return err / fmax(scale, 1e-300);
}

/* Every reaction's Jacobian against finite differences of that reaction alone (a column of the
 * whole mechanism's Jacobian mixes fast and slow reactions: the round-off of the fast ones would
 * hide the slow ones' errors), on the columns it depends on: its species, its listed colliders, one
 * other species (the default efficiency and the pressure of PLOG) and T. The whole mechanism's
 * Jacobian must then be the sum of the reactions' (checks the assembly, no differencing). */
static void test_jacobian_vs_fd(void **state) {
  const Case *c = *state;
  ChemMech *m;
  Table t;
  if (!load_case(c, &m, &t)) skip();
  const int ns = m->n_species, n = c->n_jac < t.n ? c->n_jac : t.n;
  const size_t nn = (size_t)ns * ns;
  double *J = malloc(sizeof(double) * nn), *Jr = malloc(sizeof(double) * nn);
  double *Jsum = malloc(sizeof(double) * nn), *Jabs = malloc(sizeof(double) * nn);
  double *dT = malloc(sizeof(double) * ns), *dTr = malloc(sizeof(double) * ns);
  double *dTsum = malloc(sizeof(double) * ns), *dTabs = malloc(sizeof(double) * ns);
  double *w = malloc(sizeof(double) * ns), *col = malloc(sizeof(double) * ns);
  double *Cp = malloc(sizeof(double) * ns), *wp = malloc(sizeof(double) * ns);
  double *wm = malloc(sizeof(double) * ns), *work = malloc(sizeof(double) * chem_kinetics_work(m));
  double worst_C = 0, worst_T = 0, worst_sum = 0, worst_w = 0;
  int worst_r = 0, worst_j = 0, worst_rT = 0;
  for (int s = 0; s < n; s++) {
    const double *C = t.C + (size_t)s * ns, T = t.T[s];
    double C_total = 0;
    for (int k = 0; k < ns; k++)
      C_total += C[k];
    chem_wdot_jac(m, T, C, 1, w, 1, J, 1, dT, work, 1);
    chem_wdot(m, T, C, 1, wp, 1, work, 1);
    for (int k = 0; k < ns; k++) /* the Jacobian's wdot is chem_wdot's */
      worst_w = fmax(worst_w, fabs(w[k] - wp[k]) / fmax(max_abs(wp, ns), 1e-300));
    memset(Jsum, 0, sizeof(double) * nn);
    memset(Jabs, 0, sizeof(double) * nn);
    memset(dTsum, 0, sizeof(double) * ns);
    memset(dTabs, 0, sizeof(double) * ns);
    for (int r = 0; r < m->n_reactions; r++) {
      ChemMech v = reaction_view(m, r);
      chem_wdot_jac(&v, T, C, 1, w, 1, Jr, 1, dTr, work, 1);
      for (size_t i = 0; i < nn; i++)
        Jsum[i] += Jr[i], Jabs[i] += fabs(Jr[i]);
      for (int k = 0; k < ns; k++)
        dTsum[k] += dTr[k], dTabs[k] += fabs(dTr[k]);
      int other = -1; /* a species acting only through the default efficiency or C_total */
      for (int j = 0; j < ns && other < 0; j++)
        if (!in_list(v.reac_ptr, v.reac_sp, j) && !in_list(v.prod_ptr, v.prod_sp, j) &&
            !in_list(v.ord_ptr, v.ord_sp, j) && !in_list(v.tb_ptr, v.tb_sp, j))
          other = j;
      for (int j = 0; j < ns; j++) {
        if (j != other && !in_list(v.reac_ptr, v.reac_sp, j) &&
            !in_list(v.prod_ptr, v.prod_sp, j) && !in_list(v.ord_ptr, v.ord_sp, j) &&
            !in_list(v.tb_ptr, v.tb_sp, j))
          continue;
        double e = column_error(&v, T, C, C_total, j, Jr, dTr, col, Cp, work);
        if (!(e <= worst_C)) worst_C = e, worst_r = r, worst_j = j;
      }
      double e = column_error(&v, T, C, C_total, ns, Jr, dTr, col, Cp, work);
      if (!(e <= worst_T)) worst_T = e, worst_rT = r;
    }
    /* relative to the row's largest |entry| summed over reactions: the dense part of a row
     * (default efficiency, PLOG pressure) is added to every column, a listed collider's part
     * cancels it, so an entry carries the round-off of its row */
    for (int k = 0; k < ns; k++) {
      double row = 0;
      for (int j = 0; j < ns; j++)
        row = fmax(row, Jabs[k * ns + j]);
      for (int j = 0; j < ns; j++)
        worst_sum = fmax(worst_sum, fabs(J[k * ns + j] - Jsum[k * ns + j]) / fmax(row, 1e-300));
      worst_sum = fmax(worst_sum, fabs(dT[k] - dTsum[k]) / fmax(dTabs[k], 1e-300));
    }
  }
  printf(
      "  %-14s %4d states: dwdC max col.-rel. error %.2e (reaction %d '%s', d/dC_%s), "
      "dwdT %.2e (reaction %d); whole = sum of reactions to %.1e, its wdot = chem_wdot to %.1e\n",
      c->name, n, worst_C, worst_r, m->equations[worst_r], m->species_names[worst_j], worst_T,
      worst_rT, worst_sum, worst_w);
  assert_true(n >= 1000);
  assert_true(worst_C <= JAC_TOL);
  assert_true(worst_T <= JAC_TOL);
  assert_true(worst_sum <= 1e-12);
  assert_true(worst_w <= 1e-14);
  free(J);
  free(Jr);
  free(Jsum);
  free(Jabs);
  free(dT);
  free(dTr);
  free(dTsum);
  free(dTabs);
  free(w);
  free(col);
  free(Cp);
  free(wp);
  free(wm);
  free(work);
  table_free(&t);
  chem_mech_free(m);
}

/* sum_k a_ke wdot_k = 0: scaled by sum_r |q_r| sum_k a_ke |nu_kr|, the size of the terms summed
 * (fast reactions near partial equilibrium make |wdot_k| much smaller than their q_r) */
static void test_element_conservation(void **state) {
  const Case *c = *state;
  ChemMech *m;
  Table t;
  if (!load_case(c, &m, &t)) skip();
  const int ns = m->n_species, ne = m->n_elements, nr = m->n_reactions;
  double *w = malloc(sizeof(double) * ns), *work = malloc(sizeof(double) * chem_kinetics_work(m));
  double *qf = malloc(sizeof(double) * nr), *qr = malloc(sizeof(double) * nr);
  double worst = 0, worst_w = 0;
  for (int s = 0; s < t.n; s++) {
    const double *C = t.C + (size_t)s * ns;
    chem_wdot(m, t.T[s], C, 1, w, 1, work, 1);
    chem_rates_of_progress(m, t.T[s], C, 1, qf, qr, 1, work, 1);
    for (int e = 0; e < ne; e++) {
      double sum = 0, scale = 0, scale_w = 0;
      for (int k = 0; k < ns; k++) {
        sum += m->elem_comp[k * ne + e] * w[k];
        scale_w += m->elem_comp[k * ne + e] * fabs(w[k]);
      }
      for (int r = 0; r < nr; r++) {
        double a = 0;
        for (int i = m->reac_ptr[r]; i < m->reac_ptr[r + 1]; i++)
          a += m->elem_comp[m->reac_sp[i] * ne + e] * m->reac_nu[i];
        for (int i = m->prod_ptr[r]; i < m->prod_ptr[r + 1]; i++)
          a += m->elem_comp[m->prod_sp[i] * ne + e] * m->prod_nu[i];
        scale += a * fabs(qf[r] - qr[r]);
      }
      if (scale > 0) worst = fmax(worst, fabs(sum) / scale);
      if (scale_w > 0) worst_w = fmax(worst_w, fabs(sum) / scale_w);
    }
  }
  printf("  %-14s element balance: max |sum_k a_ke wdot_k| %.1e of sum_r |q_r| a_e(r) "
         "(%.1e of sum_k a_ke |wdot_k|)\n",
         c->name, worst, worst_w);
  assert_true(worst <= ELEM_TOL);
  free(w);
  free(work);
  free(qf);
  free(qr);
  table_free(&t);
  chem_mech_free(m);
}

/* Lindemann falloff tends to k_inf at high and to k0 [M] at low pressure; every falloff k > 0 */
static void test_falloff_limits(void **state) {
  (void)state;
  ChemMech *m;
  char path[4096];
  chem_test_mech_path("allrates.yaml", path, sizeof path);
  if (!chem_test_have(path)) skip();
  assert_int_equal(chem_mech_load(path, NULL, &m), HX_OK);
  double C[64] = {0};
  assert_true(m->n_species <= 64);
  C[0] = 1.0;
  ChemKinState s = chem_kin_state(m, 1500.0, C, 1);
  for (int r = 0; r < m->n_reactions; r++) {
    if (m->rxn_type[r] != CHEM_RXN_FALLOFF) continue;
    double k_inf = chem_arrhenius(m->rate + 3 * r, &s),
           k0 = chem_arrhenius(m->rate_low + 3 * r, &s);
    /* high pressure: k -> k_inf F(Pr -> inf); low pressure: k / [M] -> k0 F(Pr -> 0) */
    double kh = chem_forward_k(m, r, &s, 1e12 * k_inf / k0, NULL);
    double kl = chem_forward_k(m, r, &s, 1e-12 * k_inf / k0, NULL) / (1e-12 * k_inf / k0);
    if (m->falloff_kind[r] == CHEM_FALLOFF_LINDEMANN) {
      assert_true(fabs(kh / k_inf - 1) < 1e-11);
      assert_true(fabs(kl / k0 - 1) < 1e-11);
    }
    assert_true(kl > 0 && kh > 0);
  }
  chem_mech_free(m);
}

int main(void) {
  enum { NC = sizeof cases / sizeof cases[0] };
  static const char *kinds[3] = {"rates_vs_cantera", "jacobian_vs_fd", "element_conservation"};
  static const CMUnitTestFunction funcs[3] = {test_rates_vs_cantera, test_jacobian_vs_fd,
                                              test_element_conservation};
  static char names[3 * NC][64];
  struct CMUnitTest tests[3 * NC + 1];
  for (int f = 0; f < 3; f++)
    for (int i = 0; i < NC; i++) {
      snprintf(names[f * NC + i], sizeof names[0], "%s_%s", kinds[f], cases[i].name);
      tests[f * NC + i] =
          (struct CMUnitTest){names[f * NC + i], funcs[f], NULL, NULL, (void *)&cases[i]};
    }
  tests[3 * NC] = (struct CMUnitTest)cmocka_unit_test(test_falloff_limits);
  return _cmocka_run_group_tests("chem_kinetics", tests, 3 * NC + 1, NULL, NULL);
}
