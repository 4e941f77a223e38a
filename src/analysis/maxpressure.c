#include "analysis/maxpressure.h"

#include <stdlib.h>

#include "core/error.h"
#include "io/state.h"
#include "parallel/parallel.h"
#include "physics/mixture.h"

int maxpressure_define_params(Params *p) {
  return params_define(p, "Analyze", "RecordMaxPressure", PARAM_LOGICAL, 0, "F", false,
                       "record the maximum pressure of every node over the run (the numerical "
                       "soot foil of a detonation): FieldData MaxPressure in every state file, "
                       "carried through restarts; tools/soot_foil.py draws it");
}

/* The pressure of every node of U into p (n_dof values). Returns the number of nodes without a
 * pressure (a mixture state without a temperature); those get -inf, so they never raise p_max. */
static long node_pressures(const Solver *s, double *p) {
  long bad = 0;
#pragma omp parallel for reduction(+ : bad)
  for (long dof = 0; dof < s->n_dof; dof++) {
    const long e = dof / s->n_dof_elem, q = dof % s->n_dof_elem;
    double u[HX_NVAR_MAX], pr[HX_NPRIM], Y[HX_MAX_SPECIES], c;
    for (int v = 0; v < s->n_var; v++)
      u[v] = s->U[(e * s->n_var + v) * s->n_dof_elem + q];
    if (solver_node_prim(s, dof, u, pr, Y, &c) != 0) {
      p[dof] = -HUGE_VAL;
      bad++;
    } else {
      p[dof] = pr[PRES];
    }
  }
  return bad;
}

int maxpressure_init(const Params *p, const Solver *s, const char *restart_file, MaxPressure *mp) {
  mp->p_max = NULL;
  HX_CHECK(params_get_logical(p, "RecordMaxPressure", &mp->on));
  if (!mp->on) return HX_OK;
  mp->p_max = hx_malloc(sizeof(double) * (size_t)(s->n_dof > 0 ? s->n_dof : 1), "MaxPressure");
  HX_ALLOC_CHECK(mp->p_max);
  int found = 0;
  if (restart_file)
    HX_CHECK(state_read_field(restart_file, "MaxPressure", s->disc.N, s->mesh->n_global_elems,
                              s->mesh->n_elems, s->mesh->elem_global_id, mp->p_max, &found));
  if (par_any(!found)) { /* every rank starts afresh when one lacks the record */
    node_pressures(s, mp->p_max);
    if (restart_file && par_is_root())
      printf("hexdg: RecordMaxPressure = T but %s has no FieldData MaxPressure: the record "
             "starts at the restart\n",
             restart_file);
  }
  return HX_OK;
}

int maxpressure_update(MaxPressure *mp, const Solver *s) {
  if (!mp->on) return HX_OK;
  double *p = hx_malloc(sizeof(double) * (size_t)(s->n_dof > 0 ? s->n_dof : 1), "pressure");
  HX_ALLOC_CHECK(p);
  node_pressures(s, p);
  for (long dof = 0; dof < s->n_dof; dof++)
    if (p[dof] > mp->p_max[dof]) mp->p_max[dof] = p[dof];
  free(p);
  return HX_OK;
}

void maxpressure_free(MaxPressure *mp) {
  free(mp->p_max);
  mp->p_max = NULL;
}
