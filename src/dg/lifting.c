/* BR1 lifting (Bassi & Rebay 1997, JCP 131): gradients q = grad w of the lifting variables
 * w = (u, v, w, T), in one of three forms (LiftingForm, physics/navierstokes.h):
 *   weak (conservative)     J q_c(i) = sum_d sum_l Dhat[i][l] (Ja^d_c w)_l + Lhat(i) w* n_c s
 *   strong, non-conservative J q_c(i) = sum_d Ja^d_c(i) sum_l D[i][l] w_l + Lhat(i) (w* - w^-) n_c s
 *   strong, conservative    J q_c(i) = sum_d sum_l D[i][l] (Ja^d_c (w - w_i))_l
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
 * metrics are exact (N >= 2 NGeo). */
#include <stdlib.h>

#include "dg/solver.h"
#include "parallel/exchange.h"
#include "physics/bc.h"
#include "physics/eos.h"
#include "physics/navierstokes.h"

static void face_lifting_point(const Solver *s, int side, int f, double t) {
  const Geometry *g = &s->geo;
  int n2 = s->n_dof_face;
  long blk = (long)s->n_var * n2;
  double uL[HX_NVAR], uR[HX_NVAR] = {0}, pL[HX_NPRIM], pR[HX_NPRIM], wL[HX_NLIFT], wR[HX_NLIFT];
  for (int v = 0; v < s->n_var; v++) uL[v] = s->U_master[blk * side + v * n2 + f];
  int bci = s->mesh->side_bc[side], bc = bci >= 0;
  cons_to_prim(&s->phys, uL, pL);
  lifting_variables(pL, wL);
  if (!bc) {
    for (int v = 0; v < s->n_var; v++) uR[v] = s->U_slave[blk * side + v * n2 + f];
    cons_to_prim(&s->phys, uR, pR);
    lifting_variables(pR, wR);
  } else {
    double x[3], n[3];
    for (int c = 0; c < 3; c++) {
      x[c] = g->face_x[((long)side * 3 + c) * n2 + f];
      n[c] = g->face_nvec[((long)side * 3 + c) * n2 + f];
    }
    bc_outer_state(s->bc_info[2 * bci], s->bc_info[2 * bci + 1], &s->exact, &s->phys, uL, n, x, t,
                   uR);
    bc_lifting_value(s->bc_info[2 * bci], &s->phys, uL, uR, wR);
  }
  double wf[HX_NLIFT];
  br1_face_value(s->lifting_form, bc, wL, wR, wf);
  double sf = g->face_surf[(long)side * n2 + f];
  double *out = &s->lift_flux[(long)side * HX_NGRAD * n2];
  for (int c = 0; c < 3; c++) {
    double nc = g->face_nvec[((long)side * 3 + c) * n2 + f] * sf;
    for (int v = 0; v < HX_NLIFT; v++) {
      out[(c * HX_NLIFT + v) * n2 + f] = wf[v] * nc;
    }
  }
}

/* J q from the volume term; w of every node of the element in wbuf ([lift][node]). */
static void lifting_volume_element(const Solver *s, const double *Uall, int e, double *wbuf) {
  int np = s->np, n3 = s->n_dof_elem, nv = s->n_var;
  const double *U = &Uall[(long)nv * n3 * e], *Ja = &s->geo.metrics[9L * n3 * e];
  double *q = &s->grad[(long)HX_NGRAD * n3 * e];
  for (int n = 0; n < n3; n++) {
    double u[HX_NVAR], pr[HX_NPRIM], w[HX_NLIFT];
    for (int v = 0; v < nv; v++) u[v] = U[v * n3 + n];
    cons_to_prim(&s->phys, u, pr);
    lifting_variables(pr, w);
    for (int v = 0; v < HX_NLIFT; v++) wbuf[v * n3 + n] = w[v];
  }
  const double *Dm = s->lifting_form == LIFT_WEAK ? s->disc.Dhat : s->disc.D;
  for (int k = 0; k < np; k++)
    for (int j = 0; j < np; j++)
      for (int i = 0; i < np; i++) {
        int n = (k * np + j) * np + i, idx[3] = {i, j, k};
        if (s->lifting_form == LIFT_STRONG) {
          double dw[3][HX_NLIFT]; /* reference-space derivatives (D w)_d */
          for (int d = 0; d < 3; d++) {
            int stride = d == 0 ? 1 : d == 1 ? np : np * np, base = n - idx[d] * stride;
            for (int v = 0; v < HX_NLIFT; v++) {
              double acc = 0.0;
              for (int l = 0; l < np; l++)
                acc += Dm[idx[d] * np + l] * wbuf[v * n3 + base + l * stride];
              dw[d][v] = acc;
            }
          }
          for (int c = 0; c < 3; c++)
            for (int v = 0; v < HX_NLIFT; v++) {
              double acc = 0.0;
              for (int d = 0; d < 3; d++) acc += Ja[(d * 3 + c) * n3 + n] * dw[d][v];
              q[(c * HX_NLIFT + v) * n3 + n] = acc;
            }
          continue;
        }
        for (int c = 0; c < 3; c++)
          for (int v = 0; v < HX_NLIFT; v++) {
            double acc = 0.0;
            for (int d = 0; d < 3; d++) {
              int stride = d == 0 ? 1 : d == 1 ? np : np * np, base = n - idx[d] * stride;
              const double *Jdc = &Ja[(d * 3 + c) * n3];
              double w0 = s->lifting_form == LIFT_STRONG_CONS ? wbuf[v * n3 + n] : 0.0;
              for (int l = 0; l < np; l++) {
                int nl = base + l * stride;
                acc += Dm[idx[d] * np + l] * Jdc[nl] * (wbuf[v * n3 + nl] - w0);
              }
            }
            q[(c * HX_NLIFT + v) * n3 + n] = acc;
          }
      }
}

/* Ut = - sum_d sum_l Dvol[i][l] G_il, G the contravariant viscous flux g_l (weak form) or its
 * two-point mean (g_i + g_l)/2 (split form, the standard-DG part of the split operator). */
static void viscous_volume_element(const Solver *s, const double *Uall, int e, double *gbuf,
                                   double *Ut) {
  int np = s->np, n3 = s->n_dof_elem, nv = s->n_var, split = s->disc.split != SPLIT_NONE;
  const double *U = &Uall[(long)nv * n3 * e], *Ja = &s->geo.metrics[9L * n3 * e];
  const double *q = &s->grad[(long)HX_NGRAD * n3 * e], *Dv = s->disc.Dvol;
  for (int n = 0; n < n3; n++) {
    double u[HX_NVAR], pr[HX_NPRIM], gr[3][HX_NLIFT], tau[9], cond[3];
    for (int v = 0; v < nv; v++) u[v] = U[v * n3 + n];
    cons_to_prim(&s->phys, u, pr);
    for (int c = 0; c < 3; c++)
      for (int v = 0; v < HX_NLIFT; v++) gr[c][v] = q[(c * HX_NLIFT + v) * n3 + n];
    viscous_stress(&s->phys, pr, gr[0], gr[1], gr[2], tau, cond);
    for (int d = 0; d < 3; d++) { /* contravariant flux Fv . Ja^d */
      double Jad[3] = {Ja[(d * 3) * n3 + n], Ja[(d * 3 + 1) * n3 + n], Ja[(d * 3 + 2) * n3 + n]};
      double F[HX_NVAR];
      viscous_flux_from_stress(pr, tau, cond, Jad, F);
      for (int v = 0; v < nv; v++) gbuf[(d * nv + v) * n3 + n] = F[v];
    }
  }
  double *ut = &Ut[(long)nv * n3 * e];
  for (int k = 0; k < np; k++)
    for (int j = 0; j < np; j++)
      for (int i = 0; i < np; i++) {
        int n = (k * np + j) * np + i, idx[3] = {i, j, k};
        for (int v = 0; v < nv; v++) {
          double acc = 0.0;
          for (int d = 0; d < 3; d++) {
            int stride = d == 0 ? 1 : d == 1 ? np : np * np, base = n - idx[d] * stride;
            const double *g = &gbuf[(d * nv + v) * n3];
            for (int l = 0; l < np; l++) {
              double G = split ? 0.5 * (g[n] + g[base + l * stride]) : g[base + l * stride];
              acc += Dv[idx[d] * np + l] * G;
            }
          }
          ut[v * n3 + n] = -acc;
        }
      }
}

static void face_lifting_range(const Solver *s, double t, int first, int last) {
  int n2 = s->n_dof_face;
#pragma omp parallel for schedule(static)
  for (int side = first; side < last; side++)
    for (int f = 0; f < n2; f++) face_lifting_point(s, side, f, t);
}

/* MPI sides: the volume part runs while U_slave is in flight; the master's rank computes the face
 * values of its MPI sides first and sends them; the slave sides' gradients go out first. */
void lifting(const Solver *s, const double *U, double *Ut, double t) {
  const Mesh *m = s->mesh;
  int n2 = s->n_dof_face, n3 = s->n_dof_elem;
  int first_mpi = mesh_first_mpi_side(m), first_yours = mesh_first_yours_side(m);
#pragma omp parallel
  {
    double *buf = malloc(sizeof(double) * 3 * s->n_var * n3);
#pragma omp for schedule(static)
    for (int e = 0; e < m->n_elems; e++) lifting_volume_element(s, U, e, buf);
    free(buf);
  }
  exchange_finish(s->exchange, EXCH_U);
  face_lifting_range(s, t, first_mpi, first_yours);
  exchange_start(s->exchange, EXCH_LIFT, s->lift_flux, (long)HX_NGRAD * n2, EXCH_TO_SLAVE);
  face_lifting_range(s, t, 0, first_mpi);
  exchange_finish(s->exchange, EXCH_LIFT);
  surface_integral_vars_signed(s, s->lift_flux, HX_NGRAD, s->lifting_form == LIFT_WEAK,
                               s->grad);
#pragma omp parallel for schedule(static)
  for (int e = 0; e < m->n_elems; e++) {
    const double *sJ = &s->geo.sJ[(long)n3 * e];
    double *q = &s->grad[(long)HX_NGRAD * n3 * e];
    for (int c = 0; c < HX_NGRAD; c++)
      for (int n = 0; n < n3; n++) q[c * n3 + n] *= sJ[n];
  }
  prolong_vars_to_face_range(s, s->grad, HX_NGRAD, s->grad_master, s->grad_slave, first_mpi,
                             m->n_sides);
  exchange_start(s->exchange, EXCH_GRAD, s->grad_slave, (long)HX_NGRAD * n2, EXCH_TO_MASTER);
  prolong_vars_to_face_range(s, s->grad, HX_NGRAD, s->grad_master, s->grad_slave, 0, first_mpi);
#pragma omp parallel
  {
    double *buf = malloc(sizeof(double) * 3 * s->n_var * n3);
#pragma omp for schedule(static)
    for (int e = 0; e < m->n_elems; e++) viscous_volume_element(s, U, e, buf, Ut);
    free(buf);
  }
}
