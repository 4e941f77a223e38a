#include "analysis/maxpressure.h"

#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "io/state.h"
#include "parallel/parallel.h"

int maxpressure_define_params(Params *p) {
  return params_define(p, "Analyze", "RecordMaxPressure", PARAM_LOGICAL, 0, "F", false,
                       "record the maximum pressure of every node over the run (the numerical "
                       "soot foil of a detonation): FieldData MaxPressure in every state file, "
                       "carried through restarts; tools/soot_foil.py draws it");
}

/* p_max = max(p_max, p) at every node of U, in place (no per-step buffer). A node without a
 * pressure (a mixture state without a temperature) leaves its record as it is. */
static void fold_pressures(const Solver *s, double *p_max) {
#pragma omp parallel for
  for (long dof = 0; dof < s->n_dof; dof++) {
    double p;
    if (solver_node_pressure(s, dof, &p) == 0 && p > p_max[dof]) p_max[dof] = p;
  }
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
    for (long dof = 0; dof < s->n_dof; dof++)
      mp->p_max[dof] = -HUGE_VAL;
    fold_pressures(s, mp->p_max);
    if (restart_file && par_is_root())
      printf("hexdg: RecordMaxPressure = T but %s has no FieldData MaxPressure: the record "
             "starts at the restart\n",
             restart_file);
  }
  return HX_OK;
}

int maxpressure_update(MaxPressure *mp, const Solver *s) {
  if (mp->on) fold_pressures(s, mp->p_max);
  return HX_OK;
}

void maxpressure_free(MaxPressure *mp) {
  free(mp->p_max);
  mp->p_max = NULL;
}
