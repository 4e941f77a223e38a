/* Navier-Stokes terms of FV switching on Gauss nodes (FLEXI's FV = SWITCH build with
 * NODETYPE = GAUSS and PARABOLIC = ON, VOLINT_VISC), CPU backend (the CUDA twin:
 * gpu/fv_gauss_kernels.cu; the pointwise parts in dg/fv_gauss_pointwise.h); docs/fv.md.
 * - An FV element's gradients of the lifting variables w = (u, v, w, T) come from the difference
 *   quotients of its subcell means: d w / d xi across every subcell interface, across the element
 *   faces to the ghosts of the reconstruction (FLEXI src/fv/fv_reconstruction.f90,
 *   FV_CalcGradients, FV_SurfCalcGradients); at an interface the derivative across it and the
 *   mean of both subcells' central derivatives along it, mapped with Ja / J
 *   (FV_CalcGradients_Parabolic).
 * - The viscous flux through an inner subcell interface is that of the mean of both primitive
 *   states with this gradient (src/fv/fv_volint.f90, VOLINT_VISC), added to the Riemann flux.
 * - On a side with an FV element the face gradient is the mean of both elements' (an FV
 *   element's from its boundary subcell, a DG element's lifted gradient averaged over the face
 *   subcells; FV_SurfCalcGradients_Parabolic), the viscous flux BR1's mean of both states' fluxes
 *   with it, at the face subcells beside the Riemann flux (src/dg/fillflux.f90).
 * - A DG neighbour lifts with the BR1 face values of the face subcells (the DG polynomial with
 *   their means of w* n dS, as the advective flux); an FV element has no DG lifting and no DG
 *   viscous volume term (src/dg/lifting/lifting_br1.t90 leaves FV elements out of the surface
 *   integral). */
#include <string.h>

#include "dg/fv_gauss.h"
#include "dg/fv_gauss_pointwise.h"
#include "mesh/facemap.h"
#include "parallel/exchange.h"

/* The slopes of FV element e (FVGauss.slope, fvg_slope_line's layout). */
static const double *elem_slopes(const Solver *s, int e) {
  const int np = s->np;
  return &s->fv.gauss->slope[(long)e * 3 * HX_NLIFT * np * np * (np + 1)];
}

/* The slopes of FV element e (the ghosts gathered), line by line (fvg_line_lifting_slopes). */
static void element_slopes(const Solver *s, const double *U, int e) {
  const struct FVGauss *g = s->fv.gauss;
  const int np = s->np, n2 = s->n_dof_face, n3 = s->n_dof_elem;
  const double *gh = &g->ghost[(long)e * 6 * HX_NVAR * n2], *gd = &g->ghost_dx[(long)e * 6 * n2];
  const double *Ue = &U[(long)e * s->n_var * n3];
  for (int d = 0; d < 3; d++) {
    const int st = d == 0 ? 1 : d == 1 ? np : np * np;
    const int lm = fvg_local_side(d, 0), lp = fvg_local_side(d, 1);
    for (int q = 0; q < n3; q++) {
      if (fvg_index_along(np, d, q) != 0) continue;
      const int line = fvg_line_of(np, d, q);
      const long at = ((long)e * 3 + d) * n3 + (long)line * np;
      fvg_line_lifting_slopes(&s->phys, np, g->h, Ue, n3, q, st, &gh[lm * HX_NVAR * n2 + line],
                              &gh[lp * HX_NVAR * n2 + line], n2, gd[lm * n2 + line],
                              gd[lp * n2 + line], g->dx_l[at], g->dx_r[at + np - 1],
                              &g->slope[(((long)e * 3 + d) * HX_NLIFT * n2 + line) * (np + 1)],
                              n2 * (np + 1));
    }
  }
}

/* FV element e's face gradients at the face subcells of its six sides, from its boundary
 * subcells (FLEXI's FV_PrepareSurfGradient_Parabolic). */
static void face_gradients(const Solver *s, int e) {
  const Mesh *m = s->mesh;
  const struct FVGauss *g = s->fv.gauss;
  const int np = s->np, n2 = s->n_dof_face, n3 = s->n_dof_elem;
  const double *es = elem_slopes(s, e), *sJ = &g->sJ[(long)n3 * e], *Ja = &g->Ja[9L * n3 * e];
  for (int ls = 0; ls < 6; ls++) {
    const int side = m->elem_to_side[6 * e + ls], flip = m->elem_to_side_flip[6 * e + ls];
    const int d = side_normal_dir(ls), plus = side_is_plus(ls);
    double *out = &(flip == 0 ? s->grad_master : s->grad_slave)[(long)side * HX_NGRAD * n2];
    const int *map = &s->s2v[(flip * 6 + ls) * n2];
    for (int f = 0; f < n2; f++) {
      double gr[3][HX_NLIFT];
      fvg_subcell_gradient(np, es, sJ, Ja, d, map[f], map[f], plus ? np : 0, gr);
      for (int c = 0; c < 3; c++)
        for (int v = 0; v < HX_NLIFT; v++)
          out[(c * HX_NLIFT + v) * n2 + f] = gr[c][v];
    }
  }
}

/* A DG element's lifted face gradients on a side with an FV element: their face subcell means. */
static void dg_face_gradients(const Solver *s, double *grad) {
  const int n2 = s->n_dof_face;
  for (int k = 0; k < HX_NGRAD; k++) {
    double tmp[HX_NPMAX * HX_NPMAX];
    memcpy(tmp, &grad[k * n2], sizeof(double) * n2);
    fv_gauss_face_means(s->np, s->fv.to_fv, tmp, &grad[k * n2]);
  }
}

void fv_gauss_viscous_gradients(const Solver *s, const double *U) {
  const Mesh *m = s->mesh;
  const long blk = (long)HX_NGRAD * s->n_dof_face;
  const int *fv = s->fv.fv_elems;
#pragma omp parallel for schedule(static)
  for (int e = 0; e < m->n_elems; e++)
    if (fv[e]) element_slopes(s, U, e);
#pragma omp parallel for schedule(static)
  for (int e = 0; e < m->n_elems; e++)
    if (fv[e]) face_gradients(s, e);
#pragma omp parallel for schedule(static)
  for (int side = 0; side < m->n_sides; side++) {
    if (!fv_side_is_gauss(s, side)) continue;
    const int em = m->side_master_elem[side], es = m->side_slave_elem[side];
    if (em >= 0 && !fv[em]) dg_face_gradients(s, &s->grad_master[blk * side]);
    if (es >= 0 && !fv[es]) dg_face_gradients(s, &s->grad_slave[blk * side]);
  }
  exchange_start(s->exchange, EXCH_GRAD, s->grad_slave, blk, EXCH_TO_MASTER);
  exchange_finish(s->exchange, EXCH_GRAD);
}

void fv_gauss_viscous_volume(const Solver *s, int e, const double *prim, double *Ut) {
  const struct FVGauss *g = s->fv.gauss;
  const int np = s->np, N = np - 1, n3 = s->n_dof_elem;
  const double *es = elem_slopes(s, e), *sJ = &g->sJ[(long)n3 * e], *Ja = &g->Ja[9L * n3 * e];
  for (int d = 0; d < 3; d++) {
    const int st = d == 0 ? 1 : d == 1 ? np : np * np;
    for (int q = 0; q < n3; q++) {
      if (fvg_index_along(np, d, q) != 0) continue;
      const int line = fvg_line_of(np, d, q);
      const double *mv = &s->fv.metrics[(((long)e * 3 + d) * np * np + line) * N * 3];
      fvg_line_viscous(&s->phys, np, es, sJ, Ja, s->fv.line.inv_w, prim, d, q, st, mv, 3, Ut);
    }
  }
}

void fv_gauss_face_viscous_flux(const Solver *s, int side, int f, const FVGaussFacePoint *fp,
                                double t, double *F) {
  const long at = (long)HX_NGRAD * s->n_dof_face * side + f;
  double gr[3][HX_NLIFT]; /* the mean of both elements' face gradients */
  fvg_face_gradient_mean(fp->bc_type >= 0, &s->grad_master[at], &s->grad_slave[at], s->n_dof_face,
                         gr);
  fvg_face_subcell_viscous(fp->bc_type, fp->bc_state, &s->phys, &s->exact, fp->uL, fp->uR, gr,
                           fp->mv, fp->x, t, F);
}

void fv_gauss_face_lifting(const Solver *s, int side, double t) {
  const int n2 = s->n_dof_face;
  double wn[HX_NGRAD * HX_NPMAX * HX_NPMAX]; /* [comp][lift][face subcell]: w* n dS */
  for (int f = 0; f < n2; f++) {
    const FVGaussFacePoint fp = fv_gauss_face_point(s, side, f);
    double w[HX_NGRAD];
    fvg_face_subcell_lifting(s->lifting_form, fp.bc_type, fp.bc_state, &s->exact, &s->phys, fp.uL,
                             fp.uR, fp.mv, fp.x, t, w);
    for (int k = 0; k < HX_NGRAD; k++)
      wn[k * n2 + f] = w[k];
  }
  for (int k = 0; k < HX_NGRAD; k++) /* the DG side: the polynomial with these subcell means */
    fv_gauss_face_means(s->np, s->fv.to_dg, &wn[k * n2],
                        &s->lift_flux[((long)side * HX_NGRAD + k) * n2]);
}
