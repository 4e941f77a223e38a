/* FillFlux: numerical fluxes on all sides, scaled by the surface element (master orientation). */
#include "dg/solver.h"
#include "parallel/exchange.h"
#include "physics/eos.h"
#include "physics/navierstokes.h"
#include "physics/bc.h"
#include "physics/riemann.h"
#include "physics/mixture_bc.h"
#include "physics/navierstokes_mix.h"
#include "dg/mixture.h"
#include "dg/eddyvisc.h"
#include "physics/eddyvisc.h"

/* BR1 viscous flux (Bassi & Rebay 1997): the mean of both sides' viscous fluxes; on boundary sides
 * the boundary state with the inner gradients. Subtracted from the advective flux Fp. */
static void subtract_viscous_flux(const Solver *s, int side, int f, const double *uL,
                                  const double *uR, const double *n, double *Fp) {
  int n2 = s->n_dof_face, bc = s->mesh->side_bc[side] >= 0;
  const double *qL = &s->grad_master[(long)side * HX_NGRAD * n2 + f];
  const double *qR = bc ? qL : &s->grad_slave[(long)side * HX_NGRAD * n2 + f];
  double pL[HX_NPRIM], pR[HX_NPRIM], gL[3][HX_NLIFT], gR[3][HX_NLIFT], FL[HX_NVAR], FR[HX_NVAR];
  for (int c = 0; c < 3; c++)
    for (int v = 0; v < HX_NLIFT; v++) {
      gL[c][v] = qL[(c * HX_NLIFT + v) * n2];
      gR[c][v] = qR[(c * HX_NLIFT + v) * n2];
    }
  const EddyVisc *ev = s->sgs;
  double mu_tL = 0.0, mu_tR = 0.0; /* LES: each side's mu_t from its own face values */
  if (ev) {
    long at = (long)side * n2 + f;
    mu_tL = eddy_viscosity(ev->model, ev->coef_master[at], uL[DENS], gL[0], gL[1], gL[2]);
    if (!bc) mu_tR = eddy_viscosity(ev->model, ev->coef_slave[at], uR[DENS], gR[0], gR[1], gR[2]);
  }
  if (bc) { /* the inner side's eddy viscosity */
    bc_viscous_flux_sgs(s->bc_info[2 * s->mesh->side_bc[side]], &s->phys, uL, uR, ev != NULL, mu_tL,
                        ev ? ev->lambda_factor * mu_tL : 0.0, gL[0], gL[1], gL[2], n, FR);
    for (int v = 0; v < HX_NVAR; v++) Fp[v] -= FR[v];
    return;
  }
  cons_to_prim(&s->phys, uL, pL);
  cons_to_prim(&s->phys, uR, pR);
  if (ev) {
    viscous_flux_normal_les(&s->phys, pR, mu_tR, ev->lambda_factor * mu_tR, gR[0], gR[1], gR[2],
                            n, FR);
    viscous_flux_normal_les(&s->phys, pL, mu_tL, ev->lambda_factor * mu_tL, gL[0], gL[1], gL[2],
                            n, FL);
  } else {
    viscous_flux_normal(&s->phys, pR, gR[0], gR[1], gR[2], n, FR);
    viscous_flux_normal(&s->phys, pL, gL[0], gL[1], gL[2], n, FL);
  }
  for (int v = 0; v < HX_NVAR; v++) Fp[v] -= 0.5 * FL[v];
  for (int v = 0; v < HX_NVAR; v++) Fp[v] -= 0.5 * FR[v];
}

/* The mixture's BR1 viscous flux, as subtract_viscous_flux: the mean of both sides' fluxes, on
 * boundary sides mix_bc_viscous_flux of the inner state uL and the outer state uR with the inner
 * gradients. */
static void subtract_viscous_flux_mix(const Solver *s, int side, int f, const double *uL,
                                      const double *uR, const double *n, double *Fp) {
  const int n2 = s->n_dof_face, nl = s->n_lift, nv = s->n_var, bci = s->mesh->side_bc[side];
  const double *qL = &s->grad_master[(long)side * 3 * nl * n2 + f];
  const double *qR = bci >= 0 ? qL : &s->grad_slave[(long)side * 3 * nl * n2 + f];
  double pL[HX_NPRIM], pR[HX_NPRIM], YL[HX_MAX_SPECIES], YR[HX_MAX_SPECIES];
  double gL[3][HX_NLIFT_MAX], gR[3][HX_NLIFT_MAX], FL[HX_NVAR_MAX], FR[HX_NVAR_MAX];
  for (int d = 0; d < 3; d++)
    for (int v = 0; v < nl; v++) {
      gL[d][v] = qL[(d * nl + v) * n2];
      gR[d][v] = qR[(d * nl + v) * n2];
    }
  pL[TEMP] = pR[TEMP] = mixture_face_T_guess(s, side, f);
  mix_transport_state(s->mech, uR, pR, YR);
  mix_transport_state(s->mech, uL, pL, YL);
  if (bci >= 0) {
    mix_bc_viscous_flux(s->bc_info[2 * bci], &s->phys, s->mech, s->mix_transport, pL, YL, pR, YR,
                        gL[0], gL[1], gL[2], n, FR);
    for (int v = 0; v < nv; v++) Fp[v] -= FR[v];
    return;
  }
  mix_viscous_flux_normal(&s->phys, s->mech, s->mix_transport, pR, YR, gR[0], gR[1], gR[2], n, FR);
  mix_viscous_flux_normal(&s->phys, s->mech, s->mix_transport, pL, YL, gL[0], gL[1], gL[2], n, FL);
  for (int v = 0; v < nv; v++) Fp[v] -= 0.5 * FL[v];
  for (int v = 0; v < nv; v++) Fp[v] -= 0.5 * FR[v];
}

static void side_flux(const Solver *s, int side, double t) {
  const Mesh *m = s->mesh;
  const Geometry *g = &s->geo;
  int nv = s->n_var, n2 = s->n_dof_face;
  long blk = (long)nv * n2;
  const double *UL = &s->U_master[blk * side], *UR = &s->U_slave[blk * side];
  double *F = &s->flux[blk * side];
  int bc = m->side_bc[side];
  for (int f = 0; f < n2; f++) {
    double uL[HX_NVAR_MAX], uR[HX_NVAR_MAX], Fp[HX_NVAR_MAX], n[3], t1[3], t2[3];
    for (int c = 0; c < 3; c++) {
      long at = ((long)side * 3 + c) * n2 + f;
      n[c] = g->face_nvec[at];
      t1[c] = g->face_t1[at];
      t2[c] = g->face_t2[at];
    }
    for (int v = 0; v < nv; v++) uL[v] = UL[v * n2 + f];
    if (bc < 0) {
      for (int v = 0; v < nv; v++) uR[v] = UR[v * n2 + f];
    } else {
      double x[3];
      for (int c = 0; c < 3; c++) x[c] = g->face_x[((long)side * 3 + c) * n2 + f];
      if (s->mech)
        mixture_bc_outer_state(s, bc, mixture_face_T_guess(s, side, f), uL, n, x, t, uR);
      else
        bc_outer_state(s->bc_info[2 * bc], s->bc_info[2 * bc + 1], &s->exact, &s->phys, uL, n, x,
                       t, uR);
    }
    if (s->mech && bc < 0)
      mix_face_flux(s->riemann, s->disc.split, &s->phys, s->mech,
                    mixture_face_T_guess(s, side, f), uL, uR, n, t1, t2, Fp);
    else if (s->mech)
      mix_bc_advective_flux(s->bc_info[2 * bc], s->riemann_bc, s->disc.split, &s->phys, s->mech,
                            mixture_face_T_guess(s, side, f), uL, uR, n, t1, t2, Fp);
    else if (bc < 0)
      riemann_flux(s->riemann, s->disc.split, &s->phys, uL, uR, n, t1, t2, Fp);
    else
      bc_advective_flux(s->bc_info[2 * bc], s->riemann_bc, s->disc.split, &s->phys, uL, uR, n, t1,
                        t2, Fp);
    if (s->viscous && s->mech)
      subtract_viscous_flux_mix(s, side, f, uL, uR, n, Fp);
    else if (s->viscous)
      subtract_viscous_flux(s, side, f, uL, uR, n, Fp);
    double sf = g->face_surf[(long)side * n2 + f];
    for (int v = 0; v < nv; v++) F[v * n2 + f] = Fp[v] * sf;
  }
}

void fill_flux_range(const Solver *s, double t, int first, int last) {
#pragma omp parallel for schedule(static)
  for (int side = first; side < last; side++) side_flux(s, side, t);
}

void fill_flux_start(const Solver *s, double t) {
  const Mesh *m = s->mesh;
  int first_mpi = mesh_first_mpi_side(m), first_yours = mesh_first_yours_side(m);
  exchange_finish(s->exchange, EXCH_U);
  exchange_finish(s->exchange, EXCH_GRAD);
  fill_flux_range(s, t, first_mpi, first_yours); /* MPI sides first: their flux goes out */
  exchange_start(s->exchange, EXCH_FLUX, s->flux, (long)s->n_var * s->n_dof_face, EXCH_TO_SLAVE);
  fill_flux_range(s, t, 0, first_mpi);
}

void fill_flux(const Solver *s, double t) {
  fill_flux_start(s, t);
  exchange_finish(s->exchange, EXCH_FLUX);
}
