/* SurfInt: each element gathers the numerical fluxes of its six sides (no races, no atomics):
 * Ut += sign * Lhat_end[l] * flux, sign = +1 on the master, -1 on the slave (opposite normal);
 * the strong-form lifting stores a face value that both sides take with sign +1. */
#include "dg/faceops.h"
#include "dg/solver.h"

static void surfint_side(const Solver *s, const double *F, int nv, int locside, int flip,
                         int slave_negated, double *Ut) {
  const Disc *d = &s->disc;
  int np = d->np, n2 = np * np, n3 = s->n_dof_elem;
  int dir = side_normal_dir(locside), plus = side_is_plus(locside);
  int stride = dir == 0 ? 1 : dir == 1 ? np : np * np;
  double sign = flip == 0 || !slave_negated ? 1.0 : -1.0;
  const int *map = &s->s2v[(flip * 6 + locside) * n2];
  if (d->node_type == NODE_GAUSS_LOBATTO) { /* only the face nodes, all with the same weight */
    const double wgt = surface_weight(d, locside, plus ? d->N : 0);
    for (int v = 0; v < nv; v++)
      for (int f = 0; f < n2; f++)
        Ut[v * n3 + map[f]] += wgt * (sign * F[v * n2 + f]);
    return;
  }
  double wl[HX_NPMAX];
  for (int l = 0; l < np; l++)
    wl[l] = surface_weight(d, locside, l);
  for (int v = 0; v < nv; v++)
    for (int f = 0; f < n2; f++) {
      double fl = sign * F[v * n2 + f];
      int base = map[f] - (plus ? d->N : 0) * stride;
      for (int l = 0; l < np; l++)
        Ut[v * n3 + base + l * stride] += wl[l] * fl;
    }
}

void surface_integral_vars_signed(const Solver *s, const double *flux, int nv, int slave_negated,
                                  double *Ut) {
  const Mesh *m = s->mesh;
  long face_block = (long)nv * s->n_dof_face, elem_block = (long)nv * s->n_dof_elem;
#pragma omp parallel for schedule(static)
  for (int e = 0; e < m->n_elems; e++)
    for (int ls = 0; ls < 6; ls++) {
      int side = m->elem_to_side[6 * e + ls];
      surfint_side(s, &flux[face_block * side], nv, ls, m->elem_to_side_flip[6 * e + ls],
                   slave_negated, &Ut[elem_block * e]);
    }
}

void surface_integral_vars(const Solver *s, const double *flux, int nv, double *Ut) {
  surface_integral_vars_signed(s, flux, nv, 1, Ut);
}

void surface_integral(const Solver *s, double *Ut) {
  surface_integral_vars(s, s->flux, s->n_var, Ut);
}
