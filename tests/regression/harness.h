/* Shared set-up for end-to-end tests: build a case from "Key = value" lines (as a parameter file
 * would hold them), run it quietly in a scratch directory, inspect the solver. */
#ifndef HEXDG_TEST_HARNESS_H
#define HEXDG_TEST_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "core/params.h"
#include "physics/eos.h"
#include "time/simulation.h"

/* lines: NULL-terminated "Key = value" strings, later ones override earlier ones. */
static inline Params *harness_params(const char *const *lines) {
  Params *p = params_create();
  if (!p || simulation_define_params(p) != HX_OK) return NULL;
  for (int i = 0; lines[i]; i++) {
    char key[128], val[512];
    const char *eq = strchr(lines[i], '=');
    if (!eq) return NULL;
    snprintf(key, sizeof key, "%.*s", (int)(eq - lines[i]), lines[i]);
    snprintf(val, sizeof val, "%s", eq + 1);
    for (int k = (int)strlen(key) - 1; k >= 0 && key[k] == ' '; k--) key[k] = 0;
    if (params_set(p, key, val, "test") != HX_OK) return NULL;
  }
  return p;
}

/* Index of the boundary condition called name in the mesh, -1 if there is none. */
static inline int harness_bc_index(const Mesh *m, const char *name) {
  for (int b = 0; b < m->n_bcs; b++)
    if (strcmp(m->bcs[b].name, name) == 0) return b;
  return -1;
}

/* Create a simulation from lines plus overrides (both NULL-terminated). */
static inline Simulation *harness_sim(const char *const *base, const char *const *extra,
                                      const char *restart) {
  const char *all[128];
  int n = 0;
  for (int i = 0; base && base[i]; i++) all[n++] = base[i];
  for (int i = 0; extra && extra[i]; i++) all[n++] = extra[i];
  all[n] = NULL;
  Params *p = harness_params(all);
  if (!p) return NULL;
  Simulation *sim = NULL;
  int rc = simulation_create(p, restart, &sim);
  params_destroy(p);
  if (rc != HX_OK) return NULL;
  sim->quiet = 1;
  return sim;
}

/* max |U - ref[var]| over every node: the distance from a uniform state ref. */
static inline double harness_max_deviation(const Solver *s, const double *ref) {
  double dev = 0.0;
  for (long q = 0; q < (long)s->n_var * s->n_dof; q++)
    dev = fmax(dev, fabs(s->U[q] - ref[(q / s->n_dof_elem) % s->n_var]));
  return dev;
}

/* The same from the exact function at the origin at t = 0 (IniExactFunc 1: the free stream). */
static inline double harness_freestream_deviation(const Solver *s) {
  double ref[HX_NVAR], x[3] = {0, 0, 0};
  exact_func(&s->exact, &s->phys, x, 0.0, ref);
  return harness_max_deviation(s, ref);
}

/* Run the case base + extra to its end and return a copy of U (n: its length), NULL if the case
 * cannot be set up or the run fails. */
static inline double *harness_run_copy(const char *const *base, const char *const *extra,
                                       long *n) {
  *n = 0;
  Simulation *sim = harness_sim(base, extra, NULL);
  if (!sim) return NULL;
  double *u = NULL;
  if (simulation_run(sim) == HX_OK) {
    *n = (long)sim->solver->n_var * sim->solver->n_dof;
    u = malloc(sizeof(double) * *n);
    if (u) memcpy(u, sim->solver->U, sizeof(double) * *n);
  }
  simulation_destroy(sim);
  return u;
}

/* How many of n values differ bitwise between a and b. */
static inline long harness_count_differing(const double *a, const double *b, long n) {
  long differing = 0;
  for (long q = 0; q < n; q++)
    differing += memcmp(&a[q], &b[q], sizeof(double)) != 0;
  return differing;
}

/* ||a - b|| / ||b|| over n values. */
static inline double harness_rel_l2_diff(const double *a, const double *b, long n) {
  double num = 0.0, den = 0.0;
  for (long q = 0; q < n; q++) {
    num += (a[q] - b[q]) * (a[q] - b[q]);
    den += b[q] * b[q];
  }
  return sqrt(num / den);
}

/* Smallest density and pressure over every node of s->U. */
static inline void harness_min_rho_p(const Solver *s, double *rho_min, double *p_min) {
  int n3 = s->n_dof_elem;
  *rho_min = *p_min = 1e300;
  for (int e = 0; e < s->mesh->n_elems; e++)
    for (int q = 0; q < n3; q++) {
      double u[HX_NVAR];
      for (int v = 0; v < HX_NVAR; v++) u[v] = s->U[((long)e * HX_NVAR + v) * n3 + q];
      *rho_min = fmin(*rho_min, u[DENS]);
      *p_min = fmin(*p_min, pressure_from_cons(&s->phys, u));
    }
}

/* Move into a fresh scratch directory so that output files do not collide between tests. */
static inline void harness_scratch_dir(const char *name) {
  char dir[512];
  snprintf(dir, sizeof dir, "scratch_%s", name);
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
  if (system(cmd) != 0 || chdir(dir) != 0) {
    fprintf(stderr, "cannot create scratch directory %s\n", dir);
    exit(1);
  }
}

#endif
