/* FillFlux: numerical fluxes on all sides, scaled by the surface element (master orientation). */
#include "dg/solver.h"
#include "physics/riemann.h"

static void side_flux(const Solver *s, int side, double t) {
  const Mesh *m = s->mesh;
  const Geometry *g = &s->geo;
  int nv = s->n_var, n2 = s->n_dof_face;
  long blk = (long)nv * n2;
  const double *UL = &s->U_master[blk * side], *UR = &s->U_slave[blk * side];
  double *F = &s->flux[blk * side];
  int bc = m->side_bc[side];
  for (int f = 0; f < n2; f++) {
    double uL[HX_NVAR], uR[HX_NVAR], Fp[HX_NVAR], n[3], t1[3], t2[3];
    for (int c = 0; c < 3; c++) {
      long at = ((long)side * 3 + c) * n2 + f;
      n[c] = g->face_nvec[at];
      t1[c] = g->face_t1[at];
      t2[c] = g->face_t2[at];
    }
    for (int v = 0; v < nv; v++) uL[v] = UL[v * n2 + f];
    if (bc < 0) {
      for (int v = 0; v < nv; v++) uR[v] = UR[v * n2 + f];
    } else { /* BC type 2: exact function as the outer state of a Riemann problem */
      double x[3];
      for (int c = 0; c < 3; c++) x[c] = g->face_x[((long)side * 3 + c) * n2 + f];
      exact_func(&s->exact, &s->phys, x, t, uR);
    }
    riemann_flux(bc < 0 ? s->riemann : s->riemann_bc, s->disc.split, &s->phys, uL, uR, n, t1, t2,
                 Fp);
    double sf = g->face_surf[(long)side * n2 + f];
    for (int v = 0; v < nv; v++) F[v * n2 + f] = Fp[v] * sf;
  }
}

void fill_flux(const Solver *s, double t) {
#pragma omp parallel for schedule(static)
  for (int side = 0; side < s->mesh->n_sides; side++) side_flux(s, side, t);
}
