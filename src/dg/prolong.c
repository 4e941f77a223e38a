/* ProlongToFace: volume data -> master and slave face values (in master face coordinates). */
#include "dg/faceops.h"
#include "dg/solver.h"
#include "parallel/exchange.h"

static void prolong_one(const Solver *s, const double *U, int nv, int elem, int locside, int flip,
                        double *Uface) {
  const Disc *d = &s->disc;
  int n2 = d->np * d->np;
  const int *map = &s->s2v[(flip * 6 + locside) * n2];
  for (int v = 0; v < nv; v++) {
    const double *u = &U[((long)elem * nv + v) * s->n_dof_elem];
    if (d->node_type == NODE_GAUSS_LOBATTO) /* the face nodes themselves: a gather */
      for (int f = 0; f < n2; f++)
        Uface[v * n2 + f] = u[map[f]];
    else
      for (int f = 0; f < n2; f++)
        Uface[v * n2 + f] = prolong_to_face_point(d, u, map[f], locside);
  }
}

void prolong_vars_to_face_range(const Solver *s, const double *U, int nv, double *master,
                                double *slave, int first, int last) {
  const Mesh *m = s->mesh;
  long face_block = (long)nv * s->n_dof_face;
#pragma omp parallel for schedule(static)
  for (int side = first; side < last; side++) {
    if (m->side_master_elem[side] >= 0) /* -1: the master is on another rank */
      prolong_one(s, U, nv, m->side_master_elem[side], m->side_master_locside[side], 0,
                  &master[face_block * side]);
    if (m->side_slave_elem[side] >= 0)
      prolong_one(s, U, nv, m->side_slave_elem[side], m->side_slave_locside[side],
                  m->side_flip[side], &slave[face_block * side]);
  }
}

void prolong_vars_to_face(const Solver *s, const double *U, int nv, double *master, double *slave) {
  prolong_vars_to_face_range(s, U, nv, master, slave, 0, s->mesh->n_sides);
}

void prolong_to_face_start(const Solver *s, const double *U) {
  const Mesh *m = s->mesh;
  int first_mpi = mesh_first_mpi_side(m);
  prolong_vars_to_face_range(s, U, s->n_var, s->U_master, s->U_slave, first_mpi, m->n_sides);
  exchange_start(s->exchange, EXCH_U, s->U_slave, (long)s->n_var * s->n_dof_face, EXCH_TO_MASTER);
  prolong_vars_to_face_range(s, U, s->n_var, s->U_master, s->U_slave, 0, first_mpi);
}

void prolong_to_face(const Solver *s, const double *U) {
  prolong_to_face_start(s, U);
  exchange_finish(s->exchange, EXCH_U);
}
