/* ProlongToFace: volume data -> master and slave face values (in master face coordinates). */
#include "dg/faceops.h"
#include "dg/solver.h"

static void prolong_one(const Solver *s, const double *U, int nv, int elem, int locside, int flip,
                        double *Uface) {
  const Disc *d = &s->disc;
  int n2 = d->np * d->np;
  const int *map = &s->s2v[(flip * 6 + locside) * n2];
  for (int v = 0; v < nv; v++) {
    const double *u = &U[((long)elem * nv + v) * s->n_dof_elem];
    for (int f = 0; f < n2; f++) Uface[v * n2 + f] = prolong_to_face_point(d, u, map[f], locside);
  }
}

void prolong_vars_to_face(const Solver *s, const double *U, int nv, double *master,
                          double *slave) {
  const Mesh *m = s->mesh;
  long face_block = (long)nv * s->n_dof_face;
#pragma omp parallel for schedule(static)
  for (int side = 0; side < m->n_sides; side++) {
    prolong_one(s, U, nv, m->side_master_elem[side], m->side_master_locside[side], 0,
                &master[face_block * side]);
    if (m->side_slave_elem[side] >= 0)
      prolong_one(s, U, nv, m->side_slave_elem[side], m->side_slave_locside[side],
                  m->side_flip[side], &slave[face_block * side]);
  }
}

void prolong_to_face(const Solver *s, const double *U) {
  prolong_vars_to_face(s, U, s->n_var, s->U_master, s->U_slave);
}
