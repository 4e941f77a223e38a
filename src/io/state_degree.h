/* Restart from a state of another polynomial degree or node type (FLEXI's restart interpolates
 * such a file too): read it at its own N and take it to the run's N element by element. */
#ifndef HEXDG_STATE_DEGREE_H
#define HEXDG_STATE_DEGREE_H

#include <stdbool.h>

#include "io/state.h"

/* As state_read_part, but the file's N and NodeType may differ from expected's (expected->N and
 * node_type are the run's; node_type must be set). Then the solution is interpolated (file
 * N <= run N; exact) or L2-projected onto the run's degree (file N > run N; modal cut-off, in the
 * reference element), and *changed is set; a notice on rank 0 says which. global_id NULL: every
 * element of the file, in order (n_local = the file's count). */
int state_read_part_any_degree(const char *path, const StateHeader *expected, double *U,
                               long n_local, const long *global_id, bool *changed);

#endif
