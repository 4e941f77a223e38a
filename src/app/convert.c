/* `hexdg convert`: a state file to a ParaView .vtu (see convert.h). */
#define _POSIX_C_SOURCE 200809L

#include "app/convert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "chem/mech.h"
#include "core/error.h"
#include "core/params.h"
#include "dg/solver.h"
#include "io/state.h"
#include "io/vtu.h"
#include "time/simulation.h"

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static int readable(const char *path) {
  return path && path[0] && access(path, R_OK) == 0;
}

/* The mechanism file of a reacting-flow state (found->mechanism set): --mechanism, else the
 * state's Mechanism attribute, else the parameter file's Mechanism; it becomes the Mechanism of
 * p, so that the solver is built with it. An air state takes no --mechanism. */
static int choose_mechanism(Params *p, const StateHeader *found, const char *state_path,
                            const char *ini_path, const char *option) {
  if (!found->mechanism[0]) {
    if (option)
      return HX_ERROR(HX_ERR_INPUT,
                      "hexdg convert --mechanism %s: %s is not a reacting-flow state (it has no "
                      "Mechanism attribute); leave --mechanism out",
                      option, state_path);
    return HX_OK;
  }
  if (option) {
    if (!readable(option))
      return HX_ERROR(HX_ERR_IO, "hexdg convert --mechanism %s: cannot read that file", option);
    return params_set(p, "Mechanism", option, "--mechanism");
  }
  if (readable(found->mechanism))
    return params_set(p, "Mechanism", found->mechanism, "the state file's Mechanism attribute");
  const char *in_ini = NULL;
  HX_CHECK(params_get_string(p, "Mechanism", &in_ini));
  if (readable(in_ini)) return HX_OK;
  char also[4200] = "";
  if (in_ini && in_ini[0] && strcmp(in_ini, found->mechanism) != 0)
    snprintf(also, sizeof also, ", nor is %s's Mechanism = %s", ini_path, in_ini);
  return HX_ERROR(HX_ERR_IO,
                  "hexdg convert: %s is a reacting-flow state of the mechanism file '%s' "
                  "(MechanismHash %s), which cannot be read from this directory%s; point at that "
                  "file (or an identical copy) with --mechanism FILE: hexdg convert %s %s -o "
                  "out.vtu --mechanism FILE, or set Mechanism = FILE in %s",
                  state_path, found->mechanism, found->mechanism_hash, also, ini_path, state_path,
                  ini_path);
}

/* The state's species belong to its mechanism: the loaded file must have the state's hash. */
static int check_same_mechanism(const Solver *s, const StateHeader *found, const char *state_path,
                                const char *ini_path) {
  if (!s->mech && !found->mechanism[0]) return HX_OK;
  if (!s->mech)
    return HX_ERROR(HX_ERR_INPUT,
                    "hexdg convert: %s is a reacting-flow state (Mechanism = %s) but %s builds an "
                    "air case; use the run's parameter file",
                    state_path, found->mechanism, ini_path);
  if (!found->mechanism[0])
    return HX_ERROR(HX_ERR_INPUT,
                    "hexdg convert: %s is an air state (no Mechanism attribute) but %s sets "
                    "Mechanism = %s; use the run's parameter file",
                    state_path, ini_path, s->mech->path);
  if (strcasecmp(s->mech->hash, found->mechanism_hash) != 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "hexdg convert: the mechanism file %s (hash %s) is not the one %s was computed "
                    "with (%s, MechanismHash %s): the state's species and their order belong to "
                    "that file; point --mechanism at a copy of it",
                    s->mech->path, s->mech->hash, state_path, found->mechanism,
                    found->mechanism_hash);
  return HX_OK;
}

/* Read the state (and its FV blending factor, as cell data like the run's own output) into the
 * solver built from the parameter file, and write out_path. */
static int convert_with_solver(const Params *p, Solver *s, const StateHeader *found,
                               const char *state_path, const char *ini_path, const char *out_path,
                               int n_visu) {
  StateHeader expected;
  memset(&expected, 0, sizeof expected);
  expected.N = s->disc.N;
  expected.n_var = s->n_var;
  expected.n_elems = s->mesh->n_elems;
  snprintf(expected.node_type, sizeof expected.node_type, "%s",
           s->disc.node_type == NODE_GAUSS ? "GAUSS" : "GAUSS-LOBATTO");
  if (s->mech)
    snprintf(expected.mechanism_hash, sizeof expected.mechanism_hash, "%s", s->mech->hash);
  if (strcmp(base_name(found->mesh_file), base_name(s->mesh->source)) != 0)
    fprintf(stderr,
            "hexdg warning: state file %s was computed on mesh '%s' but %s names mesh '%s'; "
            "the geometry is taken from %s\n",
            state_path, found->mesh_file, ini_path, s->mesh->source, ini_path);
  int format, has_alpha = 0;
  int rc = state_read(state_path, &expected, s->U);
  double *alpha = hx_malloc(sizeof(double) * (s->mesh->n_elems ? s->mesh->n_elems : 1), "FV_alpha");
  if (!alpha) rc = HX_ERR_MEM;
  if (rc == HX_OK)
    rc = state_read_elem_data(state_path, "FV_alpha", s->mesh->n_elems, alpha, &has_alpha);
  /* LES states carry the eddy viscosity muSGS in FieldData: point data, as the run writes it */
  int has_mu = 0;
  double *mu = hx_malloc(sizeof(double) * s->n_dof_elem * (s->mesh->n_elems ? s->mesh->n_elems : 1),
                         "muSGS");
  if (!mu) rc = HX_ERR_MEM;
  if (rc == HX_OK)
    rc = state_read_field(state_path, "muSGS", s->disc.N, s->mesh->n_elems, s->mesh->n_elems, NULL,
                          mu, &has_mu);
  VtuExtra extra = {"FV_alpha", has_alpha ? alpha : NULL, 0, "muSGS", has_mu ? mu : NULL};
  if (rc == HX_OK && n_visu <= 0) rc = vtu_read_params(p, s->disc.N, &format, &n_visu);
  if (rc == HX_OK)
    rc = vtu_write(out_path, s, s->U, n_visu, found->time, has_alpha || has_mu ? &extra : NULL);
  free(alpha);
  free(mu);
  return rc;
}

static int convert_with_params(Params *p, const char *state_path, const char *ini_path,
                               const char *out_path, const ConvertOptions *opt) {
  HX_CHECK(params_read_file(p, ini_path));
  StateHeader found;
  HX_CHECK(state_read_header(state_path, &found));
  HX_CHECK(choose_mechanism(p, &found, state_path, ini_path, opt->mechanism));
  Solver *s = NULL;
  HX_CHECK(solver_create(p, &s));
  int rc = check_same_mechanism(s, &found, state_path, ini_path);
  if (rc == HX_OK)
    rc = convert_with_solver(p, s, &found, state_path, ini_path, out_path, opt->n_visu);
  solver_destroy(s);
  return rc;
}

int convert_state(const char *state_path, const char *ini_path, const char *out_path,
                  const ConvertOptions *opt) {
  const ConvertOptions defaults = {0, NULL};
  if (!opt) opt = &defaults;
  if (!ini_path)
    return HX_ERROR(HX_ERR_INPUT,
                    "converting %s needs the parameter file of the run for the mesh and the "
                    "discretization: hexdg convert case.ini state.h5 -o out.vtu [--NVisu n]",
                    state_path);
  Params *p = params_create();
  if (!p) return HX_ERROR(HX_ERR_MEM, "no memory for the parameters");
  int rc = simulation_define_params(p);
  if (rc == HX_OK) rc = convert_with_params(p, state_path, ini_path, out_path, opt);
  params_destroy(p);
  return rc;
}

int convert_command(int argc, char **argv) {
  const char *ini = NULL, *state = NULL, *out = NULL;
  ConvertOptions opt = {0, NULL};
  int bad = 0;
  for (int a = 0; a < argc && !bad; a++) {
    if (!strcmp(argv[a], "-o") && a + 1 < argc)
      out = argv[++a];
    else if (!strcmp(argv[a], "--NVisu") && a + 1 < argc)
      opt.n_visu = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--mechanism") && a + 1 < argc)
      opt.mechanism = argv[++a];
    else if (argv[a][0] == '-')
      bad = 1; /* an unknown option, or one without its value */
    else if (!ini)
      ini = argv[a];
    else if (!state)
      state = argv[a];
    else
      bad = 1; /* too many arguments */
  }
  if (bad || !ini || !state || !out) {
    fprintf(stderr, "usage: hexdg convert case.ini state.h5 -o out.vtu [--NVisu n] "
                    "[--mechanism FILE]\n");
    return 2;
  }
  return convert_state(state, ini, out, &opt) == HX_OK ? 0 : 1;
}
