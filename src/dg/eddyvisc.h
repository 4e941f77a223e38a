/* Eddy-viscosity LES (eddyViscType != none): model constants, filter width, wall distance and the
 * per-node coefficients coef = (C Delta damp)^2 that physics/eddyvisc.h turns into mu_t from the
 * lifted gradients. The CPU operator (lifting.c, fillflux.c) and the CUDA kernels evaluate mu_t
 * pointwise where the viscous flux needs it: at the volume nodes from the node's gradients, at
 * the face points from each side's face state and face gradients with that side's coefficient
 * (Gauss-Lobatto: the node's own values, so the face mu_t is the volume node's mu_t). */
#ifndef HEXDG_DG_EDDYVISC_H
#define HEXDG_DG_EDDYVISC_H

#include "dg/solver.h"

typedef struct EddyVisc {
  int model; /* SGS_* (physics/eddyvisc.h) */
  double CS, PrSGS;
  int van_driest;
  double lambda_factor; /* cp / PrSGS: lambda_t = lambda_factor mu_t */
  double *delta;        /* [elem]: filter width vol^(1/3) / (N + 1) */
  double *wall_dist;    /* [elem][k][j][i]: distance to the nearest no-slip wall (VanDriest) */
  double *coef;         /* [elem][k][j][i]: (C Delta damp)^2 */
  double *coef_master, *coef_slave; /* [side][q][p]: the same at the face points of each side */
  double *mu_t_max; /* [elem]: largest mu_t of the volume nodes over the operator evaluations
                       since the last time step read it (FLEXI's muSGSMax, for the DFL step) */
} EddyVisc;

int eddyvisc_define_params(Params *p);
/* After the geometry, the boundary table and the exchange exist; s->sgs stays NULL for none. */
int eddyvisc_init(const Params *p, Solver *s);
void eddyvisc_free(Solver *s);
/* mu_t_max of the current state alone (at the start, after a restart and at each output, as
 * FLEXI evaluates DGTimeDerivative before its first time step): the lifting of s->U at t; the
 * lifted gradients, their face values and Ut are overwritten. */
void eddyvisc_refresh(Solver *s, double t);
/* mu_t of s->U at every volume node, [elem][k][j][i] (FLEXI's muSGS): eddyvisc_refresh, then the
 * model from each node's gradients and density. */
void eddyvisc_node_field(Solver *s, double t, double *mu_t);

/* Distance of n points x[3 n] to the nearest face point of the no-slip walls (BC types 3, 4) of
 * every rank, refined to the wall's tangent plane there; HX_ERR_INPUT when there is no wall. */
int eddyvisc_wall_distance(const Solver *s, long n, const double *x, double *dist);

#endif
