/* Navier-Stokes terms of FV switching on Gauss nodes (FLEXI's FV = SWITCH build with
 * NODETYPE = GAUSS and PARABOLIC = ON, VOLINT_VISC), CPU backend; docs/fv.md.
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

/* &slope of FV element e, direction d, lifting variable v, line (np + 1 interfaces). */
static double *slope_line(const Solver *s, int e, int d, int v, int line) {
  const int np = s->np;
  return &s->fv.gauss->slope[((((long)e * 3 + d) * HX_NLIFT + v) * np * np + line) * (np + 1)];
}

/* Index of volume node q along direction d. */
static int index_along(int np, int d, int q) {
  return d == 0 ? q % np : d == 1 ? (q / np) % np : q / (np * np);
}

/* Central d w / d xi_d of subcell q: the mean of the slopes across its two interfaces. */
static double central_slope(const Solver *s, int e, int d, int v, int q) {
  const int np = s->np, i = index_along(np, d, q);
  const double *sl = slope_line(s, e, d, v, fvg_line_of(np, d, q));
  return 0.5 * (sl[i] + sl[i + 1]);
}

/* d w / d xi of FV element e at interface m of subcell q's line in direction d: the slope across
 * it, and along it the mean of the central slopes of subcell q and of q2 (q2 = q at an element
 * face). */
static void interface_dxi(const Solver *s, int e, int d, int q, int q2, int m,
                          double dxi[3][HX_NLIFT]) {
  const int np = s->np;
  for (int v = 0; v < HX_NLIFT; v++)
    for (int dd = 0; dd < 3; dd++)
      dxi[dd][v] = dd == d ? slope_line(s, e, d, v, fvg_line_of(np, d, q))[m]
                           : 0.5 * (central_slope(s, e, dd, v, q) + central_slope(s, e, dd, v, q2));
}

/* Ja^d_c / J of FV element e, the mean of subcells q and q2. */
static void interface_metric(const Solver *s, int e, int q, int q2, double M[9]) {
  const long n3 = s->n_dof_elem;
  const struct FVGauss *g = s->fv.gauss;
  const double *sJ = &g->sJ[n3 * e], *Ja = &g->Ja[9 * n3 * e];
  for (int dc = 0; dc < 9; dc++)
    M[dc] = 0.5 * (Ja[dc * n3 + q] * sJ[q] + Ja[dc * n3 + q2] * sJ[q2]);
}

/* The slopes of FV element e (the ghosts gathered): inner interfaces (w_i - w_i-1) / h, the
 * element faces' from the ghosts at their physical distances. */
static void element_slopes(const Solver *s, const double *U, int e) {
  const struct FVGauss *g = s->fv.gauss;
  const int np = s->np, nv = s->n_var, n2 = s->n_dof_face, n3 = s->n_dof_elem;
  const double h = g->h;
  const double *gh = &g->ghost[(long)e * 6 * HX_NVAR * n2], *gd = &g->ghost_dx[(long)e * 6 * n2];
  double w[HX_NLIFT][HX_NPMAX * HX_NPMAX * HX_NPMAX];
  for (int q = 0; q < n3; q++) {
    double u[HX_NVAR], pr[HX_NPRIM], wq[HX_NLIFT];
    for (int v = 0; v < HX_NVAR; v++)
      u[v] = U[((long)e * nv + v) * n3 + q];
    cons_to_prim(&s->phys, u, pr);
    lifting_variables(pr, wq);
    for (int v = 0; v < HX_NLIFT; v++)
      w[v][q] = wq[v];
  }
  for (int d = 0; d < 3; d++) {
    const int st = d == 0 ? 1 : d == 1 ? np : np * np;
    const int lm = fvg_local_side(d, 0), lp = fvg_local_side(d, 1);
    for (int q = 0; q < n3; q++) {
      if (index_along(np, d, q) != 0) continue;
      const int line = fvg_line_of(np, d, q);
      const long at = ((long)e * 3 + d) * n3 + (long)line * np;
      double wl[HX_NLIFT], wr[HX_NLIFT];
      fvg_ghost_lifting(&s->phys, &gh[lm * HX_NVAR * n2 + line], n2, wl);
      fvg_ghost_lifting(&s->phys, &gh[lp * HX_NVAR * n2 + line], n2, wr);
      for (int v = 0; v < HX_NLIFT; v++) {
        double *sl = slope_line(s, e, d, v, line);
        const double *wv = &w[v][q];
        sl[0] = fvg_face_ref_slope(wl[v], wv[0], gd[lm * n2 + line], g->dx_l[at], h);
        for (int i = 1; i < np; i++)
          sl[i] = (wv[i * st] - wv[(i - 1) * st]) / h;
        sl[np] = fvg_face_ref_slope(wv[(np - 1) * st], wr[v], gd[lp * n2 + line],
                                    g->dx_r[at + np - 1], h);
      }
    }
  }
}

/* FV element e's face gradients at the face subcells of its six sides, from its boundary
 * subcells (FLEXI's FV_PrepareSurfGradient_Parabolic). */
static void face_gradients(const Solver *s, int e) {
  const Mesh *m = s->mesh;
  const int np = s->np, n2 = s->n_dof_face;
  for (int ls = 0; ls < 6; ls++) {
    const int side = m->elem_to_side[6 * e + ls], flip = m->elem_to_side_flip[6 * e + ls];
    const int d = side_normal_dir(ls), plus = side_is_plus(ls);
    double *out = &(flip == 0 ? s->grad_master : s->grad_slave)[(long)side * HX_NGRAD * n2];
    const int *map = &s->s2v[(flip * 6 + ls) * n2];
    for (int f = 0; f < n2; f++) {
      double dxi[3][HX_NLIFT], M[9], gr[3][HX_NLIFT];
      interface_dxi(s, e, d, map[f], map[f], plus ? np : 0, dxi);
      interface_metric(s, e, map[f], map[f], M);
      fvg_physical_gradient(M, dxi, gr);
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
  const int np = s->np, N = np - 1, n3 = s->n_dof_elem;
  const double *inv_w = s->fv.line.inv_w;
  for (int d = 0; d < 3; d++) {
    const int st = d == 0 ? 1 : d == 1 ? np : np * np;
    for (int q = 0; q < n3; q++) {
      const int i = index_along(np, d, q), line = fvg_line_of(np, d, q);
      if (i == N) continue;
      double dxi[3][HX_NLIFT], M[9], gr[3][HX_NLIFT], pL[HX_NPRIM], pR[HX_NPRIM], F[HX_NVAR];
      interface_dxi(s, e, d, q, q + st, i + 1, dxi);
      interface_metric(s, e, q, q + st, M);
      fvg_physical_gradient(M, dxi, gr);
      for (int v = 0; v < HX_NPRIM; v++) {
        pL[v] = prim[v * n3 + q];
        pR[v] = prim[v * n3 + q + st];
      }
      const double *mv = &s->fv.metrics[((((long)e * 3 + d) * np * np + line) * N + i) * 3];
      fvg_interface_viscous_flux(&s->phys, pL, pR, gr, mv, F);
      for (int v = 0; v < HX_NVAR; v++) { /* the viscous flux enters with the opposite sign */
        Ut[v * n3 + q] -= F[v] * inv_w[i];
        Ut[v * n3 + q + st] += F[v] * inv_w[i + 1];
      }
    }
  }
}

void fv_gauss_face_viscous_flux(const Solver *s, int side, int f, const FVGaussFacePoint *fp,
                                double t, double *F) {
  const long at0 = (long)HX_NGRAD * s->n_dof_face * side + f;
  double gr[3][HX_NLIFT];
  for (int c = 0; c < 3; c++)
    for (int v = 0; v < HX_NLIFT; v++) { /* the mean of both elements' face gradients */
      const long at = at0 + (long)(c * HX_NLIFT + v) * s->n_dof_face;
      gr[c][v] =
          fp->bc_type < 0 ? 0.5 * (s->grad_master[at] + s->grad_slave[at]) : s->grad_master[at];
    }
  fvg_face_subcell_viscous(fp->bc_type, fp->bc_state, &s->phys, &s->exact, fp->uL, fp->uR, gr,
                           fp->mv, fp->x, t, F);
}

void fv_gauss_face_lifting(const Solver *s, int side, double t) {
  const int n2 = s->n_dof_face;
  double wn[HX_NGRAD * HX_NPMAX * HX_NPMAX]; /* [comp][lift][face subcell]: w* n dS */
  for (int f = 0; f < n2; f++) {
    const FVGaussFacePoint fp = fv_gauss_face_point(s, side, f);
    double n[3], t1[3], t2[3], wf[HX_NLIFT];
    fv_interface_frame(fp.mv, n, t1, t2);
    br1_face_point(s->lifting_form, fp.bc_type, fp.bc_state, &s->exact, &s->phys, fp.uL, fp.uR, n,
                   fp.x, t, wf);
    for (int c = 0; c < 3; c++)
      for (int v = 0; v < HX_NLIFT; v++)
        wn[(c * HX_NLIFT + v) * n2 + f] = wf[v] * fp.mv[c];
  }
  for (int k = 0; k < HX_NGRAD; k++) /* the DG side: the polynomial with these subcell means */
    fv_gauss_face_means(s->np, s->fv.to_dg, &wn[k * n2],
                        &s->lift_flux[((long)side * HX_NGRAD + k) * n2]);
}
