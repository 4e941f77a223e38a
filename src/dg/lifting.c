/* BR1 lifting (Bassi & Rebay 1997, JCP 131): gradients q = grad w of the lifting variables
 * w = (u, v, w, T), in one of three forms (LiftingForm, physics/navierstokes.h):
 *   weak (conservative)     J q_c(i) = sum_d sum_l Dhat[i][l] (Ja^d_c w)_l + Lhat(i) w* n_c s
 *   strong, non-conservative J q_c(i) = sum_d Ja^d_c(i) sum_l D[i][l] w_l + Lhat(i) (w* - w^-) n_c
 * s strong, conservative    J q_c(i) = sum_d sum_l D[i][l] (Ja^d_c (w - w_i))_l
 *                                      + Lhat(i) (w* - w^-) n_c s
 * with w* the mean of both sides on inner faces and the boundary state on boundary faces; then the
 * viscous part of the volume integral. The surface term is the advective surface integral applied
 * to the 12 face values times n_c s (for the strong forms with the same sign on both sides).
 * The strong non-conservative form is FLEXI's default (doWeakLifting = F,
 * doConservativeLifting = F); it needs no metric identities: a constant w has zero gradient.
 * The metrics (mesh/metrics.h) satisfy the identities in the weak sense, with face normals that
 * may differ from the volume metrics on the face by the truncation error; sum_d D (Ja^d) then is
 * not zero node by node, and the strong conservative form subtracts w_i sum_d D (Ja^d) (the
 * "- w_i" above) so that a constant w keeps a zero gradient. It is the textbook form wherever the
 * metrics are exact (N >= 2 NGeo).
 * The mixture (Mechanism set) lifts n_lift = 4 + ns variables, w = (u, v, w, T, Y_0 .. Y_ns-1),
 * with the same loops; its node and face states come from the mixture's equation of state and
 * its fluxes from physics/navierstokes_mix.h. */
#include <stdlib.h>
#include <string.h>

#include "dg/cpuloops.h"
#include "dg/eddyvisc.h"
#include "dg/fv_gauss.h"
#include "dg/mixture.h"
#include "dg/solver.h"
#include "parallel/exchange.h"
#include "physics/bc.h"
#include "physics/eddyvisc.h"
#include "physics/eos.h"
#include "physics/navierstokes.h"
#include "physics/navierstokes_mix.h"

/* lift_flux of face point f: the face value wf[n_lift] times n_c s. */
static inline void store_lift_flux(const Solver *s, int side, int f, int n_lift, const double *wf) {
  const Geometry *g = &s->geo;
  int n2 = s->n_dof_face;
  double sf = g->face_surf[(long)side * n2 + f];
  double *out = &s->lift_flux[(long)side * 3 * n_lift * n2];
  for (int c = 0; c < 3; c++) {
    double nc = g->face_nvec[((long)side * 3 + c) * n2 + f] * sf;
    for (int v = 0; v < n_lift; v++) {
      out[(c * n_lift + v) * n2 + f] = wf[v] * nc;
    }
  }
}

static void face_lifting_point(const Solver *s, int side, int f, double t) {
  const Geometry *g = &s->geo;
  int n2 = s->n_dof_face;
  long blk = (long)s->n_var * n2;
  double uL[HX_NVAR], uR[HX_NVAR] = {0}, x[3], n[3], wf[HX_NLIFT];
  int bci = s->mesh->side_bc[side];
  for (int v = 0; v < s->n_var; v++) {
    uL[v] = s->U_master[blk * side + v * n2 + f];
    if (bci < 0) uR[v] = s->U_slave[blk * side + v * n2 + f];
  }
  for (int c = 0; c < 3; c++) {
    x[c] = g->face_x[((long)side * 3 + c) * n2 + f];
    n[c] = g->face_nvec[((long)side * 3 + c) * n2 + f];
  }
  br1_face_point(s->lifting_form, bci < 0 ? -1 : s->bc_info[2 * bci],
                 bci < 0 ? 0 : s->bc_info[2 * bci + 1], &s->exact, &s->phys, uL, uR, n, x, t, wf);
  store_lift_flux(s, side, f, HX_NLIFT, wf);
}

/* face_lifting_point for the mixture: both sides' temperatures start from the face's guess. */
static void face_lifting_point_mix(const Solver *s, int side, int f, double t) {
  const Geometry *g = &s->geo;
  int n2 = s->n_dof_face, nv = s->n_var, ns = s->n_species, n_lift = s->n_lift;
  long blk = (long)nv * n2;
  double uL[HX_NVAR_MAX], uR[HX_NVAR_MAX], pL[HX_NPRIM], pR[HX_NPRIM], YL[HX_MAX_SPECIES],
      YR[HX_MAX_SPECIES], wL[HX_NLIFT_MAX], wR[HX_NLIFT_MAX], wf[HX_NLIFT_MAX];
  for (int v = 0; v < nv; v++)
    uL[v] = s->U_master[blk * side + v * n2 + f];
  int bci = s->mesh->side_bc[side], bc = bci >= 0;
  pL[TEMP] = pR[TEMP] = mixture_face_T_guess(s, side, f);
  mix_transport_state(s->mech, uL, pL, YL);
  mix_lifting_variables(ns, pL, YL, wL);
  if (!bc) {
    for (int v = 0; v < nv; v++)
      uR[v] = s->U_slave[blk * side + v * n2 + f];
  } else {
    double x[3], n[3];
    for (int c = 0; c < 3; c++) {
      x[c] = g->face_x[((long)side * 3 + c) * n2 + f];
      n[c] = g->face_nvec[((long)side * 3 + c) * n2 + f];
    }
    mixture_bc_outer_state(s, bci, mixture_face_T_guess(s, side, f), uL, n, x, t, uR);
  }
  mix_transport_state(s->mech, uR, pR, YR);
  mix_lifting_variables(ns, pR, YR, wR);
  if (bc) {
    double wo[HX_NLIFT_MAX];
    for (int v = 0; v < n_lift; v++)
      wo[v] = wR[v];
    mix_bc_lifting_value(s->bc_info[2 * bci], n_lift, wL, wo, wR);
  }
  br1_face_value_n(s->lifting_form, bc, n_lift, wL, wR, wf);
  store_lift_flux(s, side, f, n_lift, wf);
}

/* The lifting variables of every node of element e into wbuf ([lift][node]). */
static void lifting_variables_element(const Solver *s, const double *Uall, int e, double *wbuf) {
  int n3 = s->n_dof_elem, nv = s->n_var;
  const double *U = &Uall[(long)nv * n3 * e];
  for (int n = 0; n < n3; n++) {
    double u[HX_NVAR], pr[HX_NPRIM], w[HX_NLIFT];
    for (int v = 0; v < HX_NVAR; v++) /* air: nv == HX_NVAR, a constant the loop vectorizes with */
      u[v] = U[v * n3 + n];
    cons_to_prim(&s->phys, u, pr);
    lifting_variables(pr, w);
    for (int v = 0; v < HX_NLIFT; v++)
      wbuf[v * n3 + n] = w[v];
  }
}

/* The same for the mixture; its temperatures become the nodes' next Newton guesses. */
static void lifting_variables_element_mix(const Solver *s, const double *Uall, int e,
                                          double *wbuf) {
  int n3 = s->n_dof_elem, nv = s->n_var;
  const double *U = &Uall[(long)nv * n3 * e];
  for (int n = 0; n < n3; n++) {
    long dof = (long)e * n3 + n;
    double u[HX_NVAR_MAX], pr[HX_NPRIM], Y[HX_MAX_SPECIES], w[HX_NLIFT_MAX];
    for (int v = 0; v < nv; v++)
      u[v] = U[v * n3 + n];
    pr[TEMP] = s->T_guess[dof];
    if (mix_transport_state(s->mech, u, pr, Y) == 0) s->T_guess[dof] = pr[TEMP];
    mix_lifting_variables(s->n_species, pr, Y, w);
    for (int v = 0; v < s->n_lift; v++)
      wbuf[v * n3 + n] = w[v];
  }
}

/* The terms of the 1D sums along one direction (node n, its partner nl on the line, matrix
 * entry D): D w_l; D Ja_l w_l (weak lifting); D Ja_l (w_l - w_n) (strong conservative lifting);
 * D (w_n + w_l) with D = Dvol / 2 (the split form's viscous two-point mean). */
enum { TERM_D_W, TERM_DJ_W, TERM_DJ_DIFF, TERM_D_MEAN };

static inline double line_term(int term, double D, double J, double wl, double wn) {
  switch (term) {
  case TERM_DJ_W:
    return D * J * (wl - 0.0);
  case TERM_DJ_DIFF:
    return D * J * (wl - wn);
  case TERM_D_MEAN: /* D holds the matrix times 1/2: D (wn + wl) = D_orig (wn + wl) / 2 exactly */
    return D * (wn + wl);
  default:
    return D * wl;
  }
}

/* out[n] += sum_l M[idx_d(n)][l] term(w_l, J_l) along direction d, l ascending, with the inner
 * loop over the contiguous index i (direction 0: over i of the row M[i][.], from Mt = M^T).
 * J: the metric component of the term (unused by TERM_D_*). */
static HX_ALWAYS_INLINE void line_sums_n(int np, int d, int term, const double *M, const double *Mt,
                                         const double *restrict J, const double *restrict w,
                                         double *restrict out) {
  const int n2 = np * np;
  if (d == 0) {
    for (int kj = 0; kj < n2; kj++)
      for (int l = 0; l < np; l++) {
        const int nl = kj * np + l;
        const double wl = w[nl], Jl = term == TERM_DJ_W || term == TERM_DJ_DIFF ? J[nl] : 0.0;
        HX_IVDEP
        for (int i = 0; i < np; i++)
          out[kj * np + i] += line_term(term, Mt[l * np + i], Jl, wl, w[kj * np + i]);
      }
  } else if (d == 1) {
    for (int k = 0; k < np; k++)
      for (int j = 0; j < np; j++)
        for (int l = 0; l < np; l++) {
          const double D = M[j * np + l];
          const double *wl = &w[k * n2 + l * np], *Jl = J ? &J[k * n2 + l * np] : NULL;
          double *o = &out[k * n2 + j * np];
          const double *wn = &w[k * n2 + j * np];
          HX_IVDEP
          for (int i = 0; i < np; i++)
            o[i] += line_term(term, D, Jl ? Jl[i] : 0.0, wl[i], wn[i]);
        }
  } else {
    for (int k = 0; k < np; k++)
      for (int l = 0; l < np; l++) {
        const double D = M[k * np + l];
        const double *wl = &w[l * n2], *Jl = J ? &J[l * n2] : NULL;
        HX_IVDEP
        for (int x = 0; x < n2; x++)
          out[k * n2 + x] += line_term(term, D, Jl ? Jl[x] : 0.0, wl[x], w[k * n2 + x]);
      }
  }
}

/* line_sums_n with np a compile-time constant for N = 3..7 (the loops then unroll into whole
 * vectors); other N take the general loops. Always inlined, so a constant term folds too. */
static HX_ALWAYS_INLINE void line_sums(int np, int d, int term, const double *M, const double *Mt,
                                       const double *J, const double *w, double *out) {
  switch (np) {
  case 4:
    line_sums_n(4, d, term, M, Mt, J, w, out);
    break;
  case 5:
    line_sums_n(5, d, term, M, Mt, J, w, out);
    break;
  case 6:
    line_sums_n(6, d, term, M, Mt, J, w, out);
    break;
  case 7:
    line_sums_n(7, d, term, M, Mt, J, w, out);
    break;
  case 8:
    line_sums_n(8, d, term, M, Mt, J, w, out);
    break;
  default:
    line_sums_n(np, d, term, M, Mt, J, w, out);
    break;
  }
}

/* M^T of an np x np matrix. */
static void transpose_matrix(int np, const double *M, double *Mt) {
  for (int i = 0; i < np; i++)
    for (int l = 0; l < np; l++)
      Mt[l * np + i] = M[i * np + l];
}

/* J q of element e from the n_lift lifting variables of its nodes in wbuf ([lift][node]): the
 * volume part of the lifting form; tmp holds 3 node arrays. */
static void lifting_volume_gradients(const Solver *s, int e, int n_lift, const double *wbuf,
                                     double *tmp) {
  int np = s->np, n3 = s->n_dof_elem;
  const double *Ja = &s->geo.metrics[9L * n3 * e];
  double *q = &s->grad[3L * n_lift * n3 * e];
  const double *Dm = s->lifting_form == LIFT_WEAK ? s->disc.Dhat : s->disc.D;
  double Dt[HX_NPMAX * HX_NPMAX];
  transpose_matrix(np, Dm, Dt);
  for (int v = 0; v < n_lift; v++) {
    const double *wv = &wbuf[v * n3];
    if (s->lifting_form == LIFT_STRONG) { /* reference-space derivatives (D w)_d, then Ja */
      for (int x = 0; x < 3 * n3; x++)
        tmp[x] = 0.0;
      for (int d = 0; d < 3; d++)
        line_sums(np, d, TERM_D_W, Dm, Dt, NULL, wv, &tmp[d * n3]);
      for (int c = 0; c < 3; c++) {
        const double *J0 = &Ja[c * n3], *J1 = &Ja[(3 + c) * n3], *J2 = &Ja[(6 + c) * n3];
        double *qc = &q[(c * n_lift + v) * n3];
        for (int n = 0; n < n3; n++)
          qc[n] = 0.0 + J0[n] * tmp[n] + J1[n] * tmp[n3 + n] + J2[n] * tmp[2 * n3 + n];
      }
      continue;
    }
    const int cons = s->lifting_form == LIFT_STRONG_CONS;
    for (int c = 0; c < 3; c++) {
      double *qc = &q[(c * n_lift + v) * n3];
      for (int n = 0; n < n3; n++)
        qc[n] = 0.0;
      for (int d = 0; d < 3; d++)
        if (cons)
          line_sums(np, d, TERM_DJ_DIFF, Dm, Dt, &Ja[(d * 3 + c) * n3], wv, qc);
        else
          line_sums(np, d, TERM_DJ_W, Dm, Dt, &Ja[(d * 3 + c) * n3], wv, qc);
    }
  }
}

/* J q from the volume term; w of every node of the element in wbuf ([lift][node]). */
static void lifting_volume_element(const Solver *s, const double *Uall, int e, double *wbuf,
                                   double *tmp) {
  if (s->mech)
    lifting_variables_element_mix(s, Uall, e, wbuf);
  else
    lifting_variables_element(s, Uall, e, wbuf);
  lifting_volume_gradients(s, e, s->n_lift, wbuf, tmp);
}

/* Ut = - sum_d sum_l Dvol[i][l] G_il, G the contravariant viscous flux g_l (weak form) or its
 * two-point mean (g_i + g_l)/2 (split form, the standard-DG part of the split operator), from
 * the fluxes in gbuf ([dir][var][node]). */
static inline void viscous_volume_divergence(const Solver *s, int e, const double *gbuf,
                                             double *Ut) {
  int np = s->np, n3 = s->n_dof_elem, nv = s->n_var;
  const int split = s->disc.split != SPLIT_NONE;
  double Dv[HX_NPMAX * HX_NPMAX], Dt[HX_NPMAX * HX_NPMAX];
  for (int x = 0; x < np * np; x++) /* the two-point mean's 1/2 folded into the matrix */
    Dv[x] = split ? 0.5 * s->disc.Dvol[x] : s->disc.Dvol[x];
  transpose_matrix(np, Dv, Dt);
  double *ut = &Ut[(long)nv * n3 * e];
  for (int v = 0; v < nv; v++) {
    double *u = &ut[v * n3];
    for (int n = 0; n < n3; n++)
      u[n] = 0.0;
    for (int d = 0; d < 3; d++)
      if (split)
        line_sums(np, d, TERM_D_MEAN, Dv, Dt, NULL, &gbuf[(d * nv + v) * n3], u);
      else
        line_sums(np, d, TERM_D_W, Dv, Dt, NULL, &gbuf[(d * nv + v) * n3], u);
    for (int n = 0; n < n3; n++)
      u[n] = -u[n];
  }
}

/* The viscous volume term of element e: contravariant viscous fluxes Fv . Ja^d of its nodes into
 * gbuf ([dir][var][node]), then their divergence into Ut. */
static void viscous_volume_element(const Solver *s, const double *Uall, int e, double *gbuf,
                                   double *tmp, double *Ut) {
  int n3 = s->n_dof_elem, nv = s->n_var;
  const double *U = &Uall[(long)nv * n3 * e], *Ja = &s->geo.metrics[9L * n3 * e];
  const double *q = &s->grad[(long)HX_NGRAD * n3 * e];
  double *vel = tmp, *mu = tmp + 3 * n3, *lambda = tmp + 4 * n3; /* [comp][node], [node] */
  /* the nodes' velocities and transport coefficients first: the viscosity law's branches and
   * the eddy viscosity stay out of the vectorized flux loop */
  for (int n = 0; n < n3; n++) {
    double u[HX_NVAR], pr[HX_NPRIM];
    for (int v = 0; v < HX_NVAR; v++)
      u[v] = U[v * n3 + n];
    cons_to_prim(&s->phys, u, pr);
    for (int c = 0; c < 3; c++)
      vel[c * n3 + n] = pr[VEL1 + c];
    mu[n] = viscosity(&s->phys, pr[TEMP]);
    lambda[n] = heat_conductivity(&s->phys, mu[n]);
    if (s->sgs) { /* LES: mu_t of the node from its own gradients (physics/navierstokes.h) */
      const EddyVisc *ev = s->sgs;
      double gr[3][HX_NLIFT];
      for (int c = 0; c < 3; c++)
        for (int v = 0; v < HX_NLIFT; v++)
          gr[c][v] = q[(c * HX_NLIFT + v) * n3 + n];
      double mu_t =
          eddy_viscosity(ev->model, ev->coef[(long)e * n3 + n], pr[DENS], gr[0], gr[1], gr[2]);
      if (mu_t > ev->mu_t_max[e]) ev->mu_t_max[e] = mu_t; /* for the DFL step (timedisc.c) */
      mu[n] += mu_t;
      lambda[n] += ev->lambda_factor * mu_t;
    }
  }
  HX_IVDEP
  for (int n = 0; n < n3; n++) {
    double pr[HX_NPRIM], gr[3][HX_NLIFT], tau[9], cond[3];
    for (int c = 0; c < 3; c++)
      pr[VEL1 + c] = vel[c * n3 + n];
    for (int c = 0; c < 3; c++)
      for (int v = 0; v < HX_NLIFT; v++)
        gr[c][v] = q[(c * HX_NLIFT + v) * n3 + n];
    viscous_stress_with(mu[n], lambda[n], gr[0], gr[1], gr[2], tau, cond);
    for (int d = 0; d < 3; d++) { /* contravariant flux Fv . Ja^d */
      double Jad[3] = {Ja[(d * 3) * n3 + n], Ja[(d * 3 + 1) * n3 + n], Ja[(d * 3 + 2) * n3 + n]};
      double F[HX_NVAR];
      viscous_flux_from_stress(pr, tau, cond, Jad, F);
      for (int v = 0; v < HX_NVAR; v++)
        gbuf[(d * HX_NVAR + v) * n3 + n] = F[v];
    }
  }
  viscous_volume_divergence(s, e, gbuf, Ut);
}

/* The same for the mixture (T from the guess the lifting left in T_guess). */
static void viscous_volume_element_mix(const Solver *s, const double *Uall, int e, double *gbuf,
                                       double *Ut) {
  int n3 = s->n_dof_elem, nv = s->n_var, n_lift = s->n_lift, ns = s->n_species;
  const double *U = &Uall[(long)nv * n3 * e], *Ja = &s->geo.metrics[9L * n3 * e];
  const double *q = &s->grad[3L * n_lift * n3 * e];
  for (int n = 0; n < n3; n++) {
    double u[HX_NVAR_MAX], pr[HX_NPRIM], Y[HX_MAX_SPECIES], h[HX_MAX_SPECIES], gr[3][HX_NLIFT_MAX],
        tau[9], cond[3], lambda;
    for (int v = 0; v < nv; v++)
      u[v] = U[v * n3 + n];
    pr[TEMP] = s->T_guess[(long)e * n3 + n];
    mix_transport_state(s->mech, u, pr, Y);
    for (int c = 0; c < 3; c++)
      for (int v = 0; v < n_lift; v++)
        gr[c][v] = q[(c * n_lift + v) * n3 + n];
    const double mu = mix_transport_point(&s->phys, s->mech, pr, Y, &lambda, h);
    viscous_stress_with(mu, lambda, gr[0], gr[1], gr[2], tau, cond);
    for (int d = 0; d < 3; d++) {
      double Jad[3] = {Ja[(d * 3) * n3 + n], Ja[(d * 3 + 1) * n3 + n], Ja[(d * 3 + 2) * n3 + n]};
      double F[HX_NVAR_MAX];
      mix_viscous_flux_from_stress(ns, s->mix_transport, mu, pr, Y, h, tau, cond, gr[0], gr[1],
                                   gr[2], Jad, F);
      for (int v = 0; v < nv; v++)
        gbuf[(d * nv + v) * n3 + n] = F[v];
    }
  }
  viscous_volume_divergence(s, e, gbuf, Ut);
}

static void face_lifting_range(const Solver *s, double t, int first, int last) {
  int n2 = s->n_dof_face;
#pragma omp parallel for schedule(static)
  for (int side = first; side < last; side++) {
    if (fv_side_is_gauss(s, side)) { /* an FV element on Gauss nodes: at the face subcells */
      fv_gauss_face_lifting(s, side, t);
      continue;
    }
    for (int f = 0; f < n2; f++) {
      if (s->mech)
        face_lifting_point_mix(s, side, f, t);
      else
        face_lifting_point(s, side, f, t);
    }
  }
}

/* MPI sides: the volume part runs while U_slave is in flight; the master's rank computes the face
 * values of its MPI sides first and sends them; the slave sides' gradients go out first. */
void lifting(const Solver *s, const double *U, double *Ut, double t) {
  const Mesh *m = s->mesh;
  int n2 = s->n_dof_face, n3 = s->n_dof_elem, ng = 3 * s->n_lift;
  int first_mpi = mesh_first_mpi_side(m), first_yours = mesh_first_yours_side(m);
#pragma omp parallel
  {
    double *buf = malloc(sizeof(double) * (3 * s->n_var + 3) * n3);
#pragma omp for schedule(static)
    for (int e = 0; e < m->n_elems; e++)
      lifting_volume_element(s, U, e, buf, buf + 3 * s->n_var * n3);
    free(buf);
  }
  exchange_finish(s->exchange, EXCH_U);
  face_lifting_range(s, t, first_mpi, first_yours);
  exchange_start(s->exchange, EXCH_LIFT, s->lift_flux, (long)ng * n2, EXCH_TO_SLAVE);
  face_lifting_range(s, t, 0, first_mpi);
  exchange_finish(s->exchange, EXCH_LIFT);
  surface_integral_vars_signed(s, s->lift_flux, ng, s->lifting_form == LIFT_WEAK, s->grad);
#pragma omp parallel for schedule(static)
  for (int e = 0; e < m->n_elems; e++) {
    const double *sJ = &s->geo.sJ[(long)n3 * e];
    double *q = &s->grad[(long)ng * n3 * e];
    for (int c = 0; c < ng; c++)
      for (int n = 0; n < n3; n++)
        q[c * n3 + n] *= sJ[n];
  }
  prolong_vars_to_face_range(s, s->grad, ng, s->grad_master, s->grad_slave, first_mpi, m->n_sides);
  exchange_start(s->exchange, EXCH_GRAD, s->grad_slave, (long)ng * n2, EXCH_TO_MASTER);
  prolong_vars_to_face_range(s, s->grad, ng, s->grad_master, s->grad_slave, 0, first_mpi);
#pragma omp parallel
  {
    double *buf = malloc(sizeof(double) * (3 * s->n_var + 5) * n3);
#pragma omp for schedule(static)
    for (int e = 0; e < m->n_elems; e++) {
      if (fv_elem_is_gauss_fv(s, e)) /* its viscous fluxes: the subcells' (fv_gauss_visc.c) */
        memset(&Ut[(long)s->n_var * n3 * e], 0, sizeof(double) * s->n_var * n3);
      else if (s->mech)
        viscous_volume_element_mix(s, U, e, buf, Ut);
      else
        viscous_volume_element(s, U, e, buf, buf + 3 * s->n_var * n3, Ut);
    }
    free(buf);
  }
}
