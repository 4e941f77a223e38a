/* ProlongToFace: volume solution -> master and slave face states (in master face coordinates). */
#include "dg/solver.h"
#include "mesh/facemap.h"

/* Value of variable block u (np^3) at the face point whose face-adjacent node is node0, on a
 * side of normal direction dir at the +1 (plus) or -1 end. */
static inline double face_value(const Disc *d, const double *u, int node0, int dir, int plus) {
  if (d->node_type == NODE_GAUSS_LOBATTO) return u[node0];
  int np = d->np, stride = dir == 0 ? 1 : dir == 1 ? np : np * np;
  int base = node0 - (plus ? d->N : 0) * stride;
  const double *L = plus ? d->L_plus : d->L_minus;
  double s = 0.0;
  for (int l = 0; l < np; l++) s += L[l] * u[base + l * stride];
  return s;
}

static void prolong_one(const Solver *s, const double *U, int elem, int locside, int flip,
                        double *Uface) {
  const Disc *d = &s->disc;
  int np = d->np, n2 = np * np, dir = side_normal_dir(locside), plus = side_is_plus(locside);
  const int *map = &s->s2v[(flip * 6 + locside) * n2];
  for (int v = 0; v < s->n_var; v++) {
    const double *u = &U[((long)elem * s->n_var + v) * s->n_dof_elem];
    for (int f = 0; f < n2; f++) Uface[v * n2 + f] = face_value(d, u, map[f], dir, plus);
  }
}

void prolong_to_face(const Solver *s, const double *U) {
  const Mesh *m = s->mesh;
  long face_block = (long)s->n_var * s->n_dof_face;
#pragma omp parallel for schedule(static)
  for (int side = 0; side < m->n_sides; side++) {
    prolong_one(s, U, m->side_master_elem[side], m->side_master_locside[side], 0,
                &s->U_master[face_block * side]);
    if (m->side_slave_elem[side] >= 0)
      prolong_one(s, U, m->side_slave_elem[side], m->side_slave_locside[side],
                  m->side_flip[side], &s->U_slave[face_block * side]);
  }
}
