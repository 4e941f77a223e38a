/* The pointwise parts of FV switching on Gauss nodes (dg/fv_gauss.h), host+device: the CPU loops
 * of src/dg/fv_gauss.c and the CUDA kernels of src/gpu/fv_gauss_kernels.cu call the same code.
 * FLEXI src/fv/fv_reconstruction.f90, fv_prolongtoface.f90, fv_volint.f90 (FV = SWITCH build with
 * NODETYPE = GAUSS); docs/fv.md. Layouts follow struct FVGauss (dg/fv_gauss.h). */
#ifndef HEXDG_FV_GAUSS_POINTWISE_H
#define HEXDG_FV_GAUSS_POINTWISE_H

#include "core/hd.h"
#include "mesh/facemap.h"
#include "physics/bc.h"
#include "physics/eos.h"
#include "physics/fvblend.h"
#include "physics/riemann.h"

/* The local side of direction d on the minus (plus = 0) or plus face. */
HD static inline int fvg_local_side(int d, int plus) {
  for (int ls = 0; ls < 6; ls++)
    if (side_normal_dir(ls) == d && side_is_plus(ls) == plus) return ls;
  return -1;
}

/* Line index (a np + b, as fv->metrics and FVGauss.dx_l) of volume node q in direction d. */
HD static inline int fvg_line_of(int np, int d, int q) {
  const int i = q % np, j = (q / np) % np, k = q / (np * np);
  return d == 0 ? j * np + k : d == 1 ? i * np + k : i * np + j;
}

/* Row p of the 1D matrix M applied to np entries stride apart: one pass of fvg_face_mean. */
HD static inline double fvg_mean_pass(int np, const double *M, const double *in, int stride,
                                      int p) {
  double t = 0.0;
  for (int m = 0; m < np; m++)
    t += M[p * np + m] * in[m * stride];
  return t;
}

/* Mean over face subcell (p, q) of an np x np face array (p fastest, entries stride apart): the 1D
 * matrix M (to_fv: subcell means, to_dg: their inverse) along p, then along q, the sums in the
 * order of two tensor passes (a caller may keep the first pass's values of line l, p and reuse
 * them for every q: the same sums). */
HD static inline double fvg_face_mean(int np, const double *M, const double *in, int stride, int p,
                                      int q) {
  double acc = 0.0;
  for (int l = 0; l < np; l++)
    acc += M[q * np + l] * fvg_mean_pass(np, M, in + l * np * stride, stride, p);
  return acc;
}

/* Limited slope of the boundary subcell in the inward direction (physical, FLEXI
 * src/fv/fv_prolongtoface.f90, FV_ProlongToDGFace): from the ghost g at distance gd beyond the
 * subcell's centre, its mean q0 and its inner neighbour q1 at distance d1. */
HD static inline double fvg_boundary_slope(int limiter, double sweby_beta, double g, double gd,
                                           double q0, double q1, double d1) {
  if (limiter == FV_LIM_FIRST_ORDER) return 0.0;
  return fv_limited_slope(limiter, (q0 - g) / gd, (q1 - q0) / d1, sweby_beta);
}

/* An FV element's state at one face subcell: its boundary subcell u0 (inner neighbour u1 at
 * distance d1) reconstructed over the distance dface to the face, the slope limited against the
 * primitive ghost gh[v * gs] at distance gd. Returns 0 (uf untouched: keep the mean) where the
 * reconstructed density or pressure is not positive. */
HD static inline int fvg_reconstruct_face(const PhysParams *pp, int limiter, double sweby_beta,
                                          const double *u0, const double *u1, const double *gh,
                                          int gs, double gd, double d1, double dface, double *uf) {
  double p0[HX_NPRIM], p1[HX_NPRIM], pf[HX_NPRIM];
  cons_to_prim(pp, u0, p0);
  cons_to_prim(pp, u1, p1);
  for (int v = 0; v < HX_NVAR; v++) /* from the centre to the face, against the inward slope */
    pf[v] =
        p0[v] - dface * fvg_boundary_slope(limiter, sweby_beta, gh[v * gs], gd, p0[v], p1[v], d1);
  if (!(pf[PDENS] > 0.0 && pf[PRES] > 0.0)) return 0;
  prim_to_cons(pp, pf, uf);
  return 1;
}

/* The ghost beyond a boundary face subcell (FLEXI's GetBoundaryFVgradient): the primitive
 * boundary state pr of the boundary subcell mean uL, with the face subcell's mean n dS mv and
 * position x. */
HD static inline void fvg_boundary_ghost(int type, int state, const ExactFuncParams *ef,
                                         const PhysParams *pp, const double *uL, const double mv[3],
                                         const double x[3], double t, double *pr) {
  double uR[HX_NVAR], n[3], t1[3], t2[3];
  fv_interface_frame(mv, n, t1, t2);
  bc_outer_state(type, state, ef, pp, uL, n, x, t, uR);
  cons_to_prim(pp, uR, pr);
}

/* Distance from a boundary subcell's centre to its ghost (FLEXI's FV_sdx_Face inverted): own, the
 * centre's distance from the face; at a boundary the ghost sits on the face, else beyond it at
 * the other element's distance (its first subcell centre or first Gauss node). */
HD static inline double fvg_ghost_distance(int boundary, double own, double other) {
  return boundary ? own : own + other;
}

/* Flux . n dS of one face subcell (inviscid air): mv the subcell mean of n dS, x its position;
 * inner sides (bc_type < 0) take the Riemann solver of uL, uR, boundaries the boundary flux of
 * the outer state of uL at time t. */
HD static inline void fvg_face_subcell_flux(int riemann, int riemann_bc, int split,
                                            const PhysParams *pp, const ExactFuncParams *ef,
                                            int bc_type, int bc_state, const double *uL,
                                            const double *uR_inner, const double mv[3],
                                            const double x[3], double t, double *F) {
  double uR[HX_NVAR], n[3], t1[3], t2[3];
  const double area = fv_interface_frame(mv, n, t1, t2);
  if (bc_type < 0) {
    for (int v = 0; v < HX_NVAR; v++)
      uR[v] = uR_inner[v];
    riemann_flux(riemann, split, pp, uL, uR, n, t1, t2, F);
  } else {
    bc_outer_state(bc_type, bc_state, ef, pp, uL, n, x, t, uR);
    bc_advective_flux(bc_type, riemann_bc, split, pp, uL, uR, n, t1, t2, F);
  }
  for (int v = 0; v < HX_NVAR; v++)
    F[v] *= area;
}

/* One line of an FV element (FLEXI src/fv/fv_reconstruction.f90, FV_CalcGradients, and
 * src/fv/fv_volint.f90): the limited physical slope of every subcell from the difference
 * quotients to its neighbours (the end subcells' to the ghosts gl[v * gs], gr[v * gs] at the
 * distances dgl, dgr), the subcell faces' states at the distances dxl, dxr from the centres, and
 * the interface fluxes with the interface vectors mv[m * ms + c]; prim[v * vs + base + i * stride]
 * the primitive subcell means, Ut[v * vs + ...] += the residual (fv_line_residual's convention;
 * inv_w: 1 / the subcell widths). */
HD static inline void fvg_line_residual(int riemann, int split, int limiter, double sweby_beta,
                                        const PhysParams *pp, int np, const double *inv_w,
                                        const double *prim, int vs, int base, int stride,
                                        const double *gl, const double *gr, int gs, double dgl,
                                        double dgr, const double *dxl, const double *dxr,
                                        const double *mv, int ms, double *Ut) {
  double slope[HX_NPMAX][HX_NVAR];
  for (int v = 0; v < HX_NVAR; v++) {
    const double *q = &prim[v * vs + base];
    double sd[HX_NPMAX + 1]; /* sd[i]: the difference quotient between subcells i - 1 and i */
    sd[0] = (q[0] - gl[v * gs]) / dgl;
    for (int i = 1; i < np; i++)
      sd[i] = (q[i * stride] - q[(i - 1) * stride]) / (dxr[i - 1] + dxl[i]);
    sd[np] = (gr[v * gs] - q[(np - 1) * stride]) / dgr;
    for (int i = 0; i < np; i++)
      slope[i][v] = limiter == FV_LIM_FIRST_ORDER
                        ? 0.0
                        : fv_limited_slope(limiter, sd[i], sd[i + 1], sweby_beta);
  }
  for (int i = 0; i + 1 < np; i++) { /* interface i + 1/2 */
    double pL[HX_NVAR], pR[HX_NVAR], nL[HX_NVAR], nR[HX_NVAR], F[HX_NVAR];
    for (int v = 0; v < HX_NVAR; v++) {
      nL[v] = prim[v * vs + base + i * stride];
      nR[v] = prim[v * vs + base + (i + 1) * stride];
      pL[v] = nL[v] + slope[i][v] * dxr[i];
      pR[v] = nR[v] - slope[i + 1][v] * dxl[i + 1];
    }
    fv_interface_flux(riemann, split, pp, pL, pR, nL, nR, &mv[i * ms], F);
    for (int v = 0; v < HX_NVAR; v++) {
      Ut[v * vs + base + i * stride] += F[v] * inv_w[i];
      Ut[v * vs + base + (i + 1) * stride] -= F[v] * inv_w[i + 1];
    }
  }
}

/* The lifting variables (u, v, w, T) of a primitive ghost g[v * gs] (rho, u, v, w, p: T from the
 * equation of state). */
HD static inline void fvg_ghost_lifting(const PhysParams *pp, const double *g, int gs, double *w) {
  double pr[HX_NPRIM];
  for (int v = 0; v < HX_NVAR; v++)
    pr[v] = g[v * gs];
  prim_set_temperature(pp, pr);
  lifting_variables(pr, w);
}

/* d w / d xi across an element face (FLEXI src/fv/fv_reconstruction.f90, FV_SurfCalcGradients):
 * the physical slope from w_minus to w_plus over their distance gd, times d s / d xi of the
 * boundary subcell, 2 dface / h (dface: its centre's distance from the face, h its width). */
HD static inline double fvg_face_ref_slope(double w_minus, double w_plus, double gd, double dface,
                                           double h) {
  return (w_plus - w_minus) / gd * (2.0 * dface / h);
}

/* Physical gradients g[c][v] = sum_d M[3 d + c] dxi[d][v] from the reference derivatives dxi,
 * M = Ja^d_c / J (FLEXI src/fv/fv_reconstruction.f90, FV_CalcGradients_Parabolic, step 3). */
HD static inline void fvg_physical_gradient(const double M[9], const double dxi[3][HX_NLIFT],
                                            double g[3][HX_NLIFT]) {
  for (int c = 0; c < 3; c++)
    for (int v = 0; v < HX_NLIFT; v++)
      g[c][v] = M[c] * dxi[0][v] + M[3 + c] * dxi[1][v] + M[6 + c] * dxi[2][v];
}

/* Viscous flux . n dS through an inner subcell interface (FLEXI src/fv/fv_volint.f90,
 * VOLINT_VISC): the viscous flux of the mean of both primitive subcell states pL, pR (rho, u, v,
 * w, p, T) with the interface gradient g, dotted with the interface vector mv. */
HD static inline void fvg_interface_viscous_flux(const PhysParams *pp, const double *pL,
                                                 const double *pR, const double g[3][HX_NLIFT],
                                                 const double mv[3], double *F) {
  double pm[HX_NPRIM];
  for (int v = 0; v < HX_NPRIM; v++)
    pm[v] = 0.5 * (pL[v] + pR[v]);
  viscous_flux_normal(pp, pm, g[0], g[1], g[2], mv, F);
}

/* F -= the viscous flux . n dS of one face subcell (FLEXI src/dg/fillflux.f90 with the face
 * gradient of src/fv/fv_reconstruction.f90, FV_SurfCalcGradients_Parabolic): inner sides
 * (bc_type < 0) the mean of both states' fluxes with the common gradient g, boundaries
 * bc_viscous_flux of the inner state uL and its outer state. */
HD static inline void fvg_face_subcell_viscous(int bc_type, int bc_state, const PhysParams *pp,
                                               const ExactFuncParams *ef, const double *uL,
                                               const double *uR_inner, const double g[3][HX_NLIFT],
                                               const double mv[3], const double x[3], double t,
                                               double *F) {
  double n[3], t1[3], t2[3], Fv[HX_NVAR];
  const double area = fv_interface_frame(mv, n, t1, t2);
  if (bc_type < 0) {
    double pL[HX_NPRIM], pR[HX_NPRIM], FR[HX_NVAR];
    cons_to_prim(pp, uL, pL);
    cons_to_prim(pp, uR_inner, pR);
    viscous_flux_normal(pp, pL, g[0], g[1], g[2], n, Fv);
    viscous_flux_normal(pp, pR, g[0], g[1], g[2], n, FR);
    for (int v = 0; v < HX_NVAR; v++)
      Fv[v] = 0.5 * (Fv[v] + FR[v]);
  } else {
    double uR[HX_NVAR];
    bc_outer_state(bc_type, bc_state, ef, pp, uL, n, x, t, uR);
    bc_viscous_flux(bc_type, pp, uL, uR, g[0], g[1], g[2], n, Fv);
  }
  for (int v = 0; v < HX_NVAR; v++)
    F[v] -= area * Fv[v];
}

/* Index of volume node q along direction d. */
HD static inline int fvg_index_along(int np, int d, int q) {
  return d == 0 ? q % np : d == 1 ? (q / np) % np : q / (np * np);
}

/* The slopes of one FV element, es = slope + e 3 HX_NLIFT np^2 (np + 1) (FVGauss.slope): the
 * np + 1 interfaces of direction d, lifting variable v, line. */
HD static inline const double *fvg_slope_line(int np, const double *es, int d, int v, int line) {
  return &es[((d * HX_NLIFT + v) * np * np + line) * (np + 1)];
}

/* The reference slopes d w / d xi of the lifting variables at the np + 1 interfaces of one line of
 * an FV element (FLEXI src/fv/fv_reconstruction.f90, FV_CalcGradients): the subcells' w from the
 * conservative means U[v * vs + base + i * stride], inner interfaces (w_i - w_i-1) / h, the element
 * faces' to the primitive ghosts gl[v * gs], gr[v * gs] at the distances dgl, dgr
 * (fvg_face_ref_slope; dxl0 and dxrN the end subcells' centre distances from the faces); into
 * sl[v * ss + m]. */
HD static inline void fvg_line_lifting_slopes(const PhysParams *pp, int np, double h,
                                              const double *U, int vs, int base, int stride,
                                              const double *gl, const double *gr, int gs,
                                              double dgl, double dgr, double dxl0, double dxrN,
                                              double *sl, int ss) {
  double w[HX_NPMAX][HX_NLIFT], wl[HX_NLIFT], wr[HX_NLIFT];
  for (int i = 0; i < np; i++) {
    double u[HX_NVAR], pr[HX_NPRIM];
    for (int v = 0; v < HX_NVAR; v++)
      u[v] = U[v * vs + base + i * stride];
    cons_to_prim(pp, u, pr);
    lifting_variables(pr, w[i]);
  }
  fvg_ghost_lifting(pp, gl, gs, wl);
  fvg_ghost_lifting(pp, gr, gs, wr);
  for (int v = 0; v < HX_NLIFT; v++) {
    double *s = &sl[v * ss];
    s[0] = fvg_face_ref_slope(wl[v], w[0][v], dgl, dxl0, h);
    for (int i = 1; i < np; i++)
      s[i] = (w[i][v] - w[i - 1][v]) / h;
    s[np] = fvg_face_ref_slope(w[np - 1][v], wr[v], dgr, dxrN, h);
  }
}

/* Central d w / d xi_d of subcell q: the mean of the slopes across its two interfaces. */
HD static inline double fvg_central_slope(int np, const double *es, int d, int v, int q) {
  const int i = fvg_index_along(np, d, q);
  const double *sl = fvg_slope_line(np, es, d, v, fvg_line_of(np, d, q));
  return 0.5 * (sl[i] + sl[i + 1]);
}

/* Physical gradient g[c][v] of an FV element (slopes es; sJ [n3], Ja [9][n3] its subcells') at
 * interface m of subcell q's line in direction d (FLEXI FV_CalcGradients_Parabolic): d w / d xi
 * across it the slope there, along it the mean of the central slopes of subcells q and q2 (q2 = q
 * at an element face), mapped with the mean of both subcells' Ja^d_c / J. */
HD static inline void fvg_subcell_gradient(int np, const double *es, const double *sJ,
                                           const double *Ja, int d, int q, int q2, int m,
                                           double g[3][HX_NLIFT]) {
  const int n3 = np * np * np;
  double dxi[3][HX_NLIFT], M[9];
  for (int v = 0; v < HX_NLIFT; v++)
    for (int dd = 0; dd < 3; dd++)
      dxi[dd][v] =
          dd == d
              ? fvg_slope_line(np, es, d, v, fvg_line_of(np, d, q))[m]
              : 0.5 * (fvg_central_slope(np, es, dd, v, q) + fvg_central_slope(np, es, dd, v, q2));
  for (int dc = 0; dc < 9; dc++)
    M[dc] = 0.5 * (Ja[dc * n3 + q] * sJ[q] + Ja[dc * n3 + q2] * sJ[q2]);
  fvg_physical_gradient(M, dxi, g);
}

/* Ut -= the viscous fluxes through the inner subcell interfaces of one line of an FV element
 * (FLEXI src/fv/fv_volint.f90, VOLINT_VISC), direction d, nodes base + i * stride: the gradient
 * fvg_subcell_gradient, the primitive means prim[v * n3 + node] (HX_NPRIM rows), the interface
 * vectors mv[i * ms + c], the interfaces in order (each node's sum in the CPU's order); inv_w: 1 /
 * the subcell widths. */
HD static inline void fvg_line_viscous(const PhysParams *pp, int np, const double *es,
                                       const double *sJ, const double *Ja, const double *inv_w,
                                       const double *prim, int d, int base, int stride,
                                       const double *mv, int ms, double *Ut) {
  const int n3 = np * np * np;
  for (int i = 0; i + 1 < np; i++) {
    const int q = base + i * stride, q2 = q + stride;
    double g[3][HX_NLIFT], pL[HX_NPRIM], pR[HX_NPRIM], F[HX_NVAR];
    fvg_subcell_gradient(np, es, sJ, Ja, d, q, q2, i + 1, g);
    for (int v = 0; v < HX_NPRIM; v++) {
      pL[v] = prim[v * n3 + q];
      pR[v] = prim[v * n3 + q2];
    }
    fvg_interface_viscous_flux(pp, pL, pR, g, &mv[i * ms], F);
    for (int v = 0; v < HX_NVAR; v++) { /* the viscous flux enters with the opposite sign */
      Ut[v * n3 + q] -= F[v] * inv_w[i];
      Ut[v * n3 + q2] += F[v] * inv_w[i + 1];
    }
  }
}

/* The face gradient of one face subcell of a side with an FV element
 * (FV_SurfCalcGradients_Parabolic): the mean of both elements' gm[k * gs], gs_[k * gs] (k = c
 * HX_NLIFT + v), on boundaries (boundary != 0) the inner element's. */
HD static inline void fvg_face_gradient_mean(int boundary, const double *gm, const double *gsl,
                                             int gs, double g[3][HX_NLIFT]) {
  for (int c = 0; c < 3; c++)
    for (int v = 0; v < HX_NLIFT; v++) {
      const int k = (c * HX_NLIFT + v) * gs;
      g[c][v] = boundary ? gm[k] : 0.5 * (gm[k] + gsl[k]);
    }
}

/* The lifting face values w* n dS of one face subcell (BR1, br1_face_point with the subcell mean
 * n dS mv): wn[c HX_NLIFT + v]. */
HD static inline void fvg_face_subcell_lifting(int form, int bc_type, int bc_state,
                                               const ExactFuncParams *ef, const PhysParams *pp,
                                               const double *uL, const double *uR_inner,
                                               const double mv[3], const double x[3], double t,
                                               double *wn) {
  double n[3], t1[3], t2[3], wf[HX_NLIFT];
  fv_interface_frame(mv, n, t1, t2);
  br1_face_point(form, bc_type, bc_state, ef, pp, uL, uR_inner, n, x, t, wf);
  for (int c = 0; c < 3; c++)
    for (int v = 0; v < HX_NLIFT; v++)
      wn[c * HX_NLIFT + v] = wf[v] * mv[c];
}

/* The surface term of an FV element's boundary subcell (fv_gauss_surface_end): the outward face
 * subcell flux over the subcell width, from the master's flux F; s_h = 1 / h. */
HD static inline double fvg_surface_term(int flip, double s_h, double F) {
  return (flip == 0 ? s_h : -s_h) * F;
}

#endif
