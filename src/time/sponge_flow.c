/* The sponge base flow's files and its time filter. As FLEXI (baseflow.f90), the Pruett base flow
 * is written to its own file <ProjectName>_BaseFlow_<t>.h5 at every state output, in the state
 * layout (DG_Solution = the base flow; the solution outside the sponge elements), and a restart
 * from the state of t reads the base flow file of t: both files come from the same step, so a
 * restart continues the filter bitwise. A separate file keeps the state file FLEXI's and lets a
 * run start its filter from any state or time average (SpongeRefFile). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "dg/sponge.h"
#include "io/state.h"
#include "io/state_degree.h"
#include "time/sponge_flow.h"

/* FLEXI's TIMESTAMP name of the base flow file of time t. */
static void base_file_name(char *buf, size_t len, const char *project, double t) {
  char state[64];
  state_file_name(state, sizeof state, "", t); /* "_State_<t>.h5" */
  snprintf(buf, len, "%s_BaseFlow%s", project, state + strlen("_State"));
}

static int read_base(Simulation *sim, const char *file, const char *key) {
  Solver *s = sim->solver;
  if (access(file, R_OK) != 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "%s = %s: no such readable file; give a state file of this "
                    "mesh, N and NodeType",
                    key, file);
  StateHeader expected;
  simulation_base_header(sim, &expected);
  double *full = hx_malloc(sizeof(double) * s->n_var * s->n_dof, "sponge base flow file");
  HX_ALLOC_CHECK(full);
  bool changed; /* a base flow of another N or NodeType is interpolated as the restart state */
  int rc = state_read_part_any_degree(file, &expected, full, s->mesh->n_elems,
                                      s->mesh->elem_global_id, &changed);
  if (rc == HX_OK) sponge_set_base(s, full);
  free(full);
  if (rc != HX_OK)
    return HX_ERROR(rc,
                    "%s = %s: the sponge base flow must be a state of the same mesh and "
                    "variables (see the message above)",
                    key, file);
  return HX_OK;
}

int sponge_flow_load(const Params *p, Simulation *sim, const char *restart_file) {
  Solver *s = sim->solver;
  if (!s->sponge_base_U || s->sponge_base_flow == SPONGE_BASE_EXACTFUNC ||
      s->sponge_base_flow == SPONGE_BASE_CONSTANT) /* fixed per-node base: zones' RefStates */
    return HX_OK;
  const char *file;
  HX_CHECK(params_get_string(p, "SpongeRefFile", &file));
  const int none = strcmp(file, "none") == 0;
  if (s->sponge_base_flow == SPONGE_BASE_FILE) {
    if (none)
      return HX_ERROR(HX_ERR_INPUT, "SpongeBaseFlow = file needs SpongeRefFile (a state or "
                                    "time-average file of this mesh, N and NodeType)");
    return read_base(sim, file, "SpongeRefFile");
  }
  if (!none) return read_base(sim, file, "SpongeRefFile");
  if (!restart_file) { /* a fresh run: the filter starts from the initial state */
    sponge_set_base(s, s->U);
    return HX_OK;
  }
  char name[1400];
  base_file_name(name, sizeof name, sim->project, sim->t);
  if (access(name, R_OK) != 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "SpongeBaseFlow = pruett: restart from %s, but its base flow "
                    "file %s is missing; set SpongeRefFile to a base flow file, or "
                    "to %s to restart the filter from the restart state",
                    restart_file, name, restart_file);
  return read_base(sim, name, "the Pruett base flow file");
}

int sponge_flow_step(Simulation *sim, double dt) {
  Solver *s = sim->solver;
  if (!s->sponge_base_U || s->sponge_base_flow != SPONGE_BASE_PRUETT) return HX_OK;
  if (sim->backend == BACKEND_CUDA) return gpu_sponge_pruett_update(sim->gpu, dt);
  sponge_pruett_update(s, s->U, dt);
  return HX_OK;
}

int sponge_flow_write(Simulation *sim) {
  Solver *s = sim->solver;
  if (!s->sponge_base_U || s->sponge_base_flow != SPONGE_BASE_PRUETT) return HX_OK;
  if (sim->backend == BACKEND_CUDA) HX_CHECK(gpu_sponge_base_get(sim->gpu, s->sponge_base_U));
  double *full = hx_malloc(sizeof(double) * s->n_var * s->n_dof, "sponge base flow output");
  HX_ALLOC_CHECK(full);
  sponge_expand_base(s, s->U, full);
  StateHeader h;
  simulation_base_header(sim, &h);
  char name[1400];
  base_file_name(name, sizeof name, sim->project, sim->t);
  const char **names = malloc(sizeof(char *) * s->n_var);
  int rc = names ? HX_OK : HX_ERR_MEM;
  for (int v = 0; names && v < s->n_var; v++)
    names[v] = s->var_names[v];
  if (rc == HX_OK)
    rc = state_write_part(name, &h, names, full, s->mesh->n_elems, s->mesh->elem_global_id);
  free(names);
  free(full);
  return rc;
}
