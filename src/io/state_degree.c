/* Restart from a state of another degree or node type (see state_degree.h). */
#include "io/state_degree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basis/basis.h"
#include "basis/tensor.h"
#include "core/error.h"
#include "parallel/parallel.h"

static int node_type_of(const char *path, const char *name, NodeType *out) {
  if (strcmp(name, "GAUSS") == 0)
    *out = NODE_GAUSS;
  else if (strcmp(name, "GAUSS-LOBATTO") == 0)
    *out = NODE_GAUSS_LOBATTO;
  else
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s': NodeType '%s' is neither GAUSS nor GAUSS-LOBATTO; its "
                    "solution cannot be interpolated to this run's nodes",
                    path, name);
  return HX_OK;
}

/* Every element and variable of in (degree n_in - 1) to out (degree n_out - 1) by M per direction.
 */
static void change_degree(const double *M, int n_in, int n_out, long n_blocks, const double *in,
                          double *out) {
  const size_t in_size = (size_t)n_in * n_in * n_in, out_size = (size_t)n_out * n_out * n_out;
  for (long b = 0; b < n_blocks; b++)
    tensor_interp_3d(n_in, n_out, M, in + (size_t)b * in_size, out + (size_t)b * out_size);
}

/* global_id NULL: every element of the file, in order */
static int read_part(const char *path, const StateHeader *h, double *U, long n_local,
                     const long *global_id) {
  return global_id ? state_read_part(path, h, U, n_local, global_id) : state_read(path, h, U);
}

int state_read_part_any_degree(const char *path, const StateHeader *expected, double *U,
                               long n_local, const long *global_id, bool *changed) {
  StateHeader found;
  *changed = false;
  HX_CHECK(state_read_header(path, &found));
  if (found.N == expected->N && strcmp(found.node_type, expected->node_type) == 0)
    return read_part(path, expected, U, n_local, global_id);
  NodeType t_in = NODE_GAUSS, t_out = NODE_GAUSS;
  HX_CHECK(node_type_of(path, found.node_type, &t_in));
  HX_CHECK(node_type_of(path, expected->node_type, &t_out));
  if (t_in == NODE_GAUSS_LOBATTO && found.N < 1)
    return HX_ERROR(HX_ERR_INPUT, "state file '%s': N = %d on GAUSS-LOBATTO nodes is not a state",
                    path, found.N);
  double M[HX_NPMAX * HX_NPMAX];
  HX_CHECK(basis_change_degree_matrix(found.N, t_in, expected->N, t_out, M));
  StateHeader at_file = *expected; /* the file's degree and nodes; everything else checked */
  at_file.N = found.N;
  snprintf(at_file.node_type, sizeof at_file.node_type, "%s", found.node_type);
  const int n_in = found.N + 1;
  const long n_blocks = n_local * expected->n_var;
  double *buf = hx_malloc(sizeof(double) * (size_t)n_blocks * n_in * n_in * n_in,
                          "restart state at the file's degree");
  HX_ALLOC_CHECK(buf);
  int rc = read_part(path, &at_file, buf, n_local, global_id);
  if (rc == HX_OK) {
    change_degree(M, n_in, expected->N + 1, n_blocks, buf, U);
    *changed = true;
    if (par_is_root())
      printf("hexdg: %s has N = %d (%s); this run's N = %d (%s): the solution is %s\n", path,
             found.N, found.node_type, expected->N, expected->node_type,
             expected->N >= found.N ? "interpolated (exactly)"
                                    : "projected onto the lower degree (L2, modal cut-off)");
  }
  free(buf);
  return rc;
}
