#include "analysis/wallvelocity.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/bodyforces.h"
#include "core/error.h"
#include "parallel/parallel.h"
#include "physics/bc.h"

int wallvelocity_define_params(Params *p) {
  HX_CHECK(params_define(p, "Analyze", "CalcWallVelocity", PARAM_LOGICAL, 0, "F", false,
                         "At each analysis, on every wall BC (types 3, 4, 9): mean/min/max of the "
                         "velocity magnitude at the wall points (FLEXI's columns), of the friction "
                         "velocity u_tau = sqrt(|tau_w|/rho), and the mean wall shear stress."));
  return params_define(p, "Analyze", "WriteWallVelocity", PARAM_LOGICAL, 0, "T", false,
                       "With CalcWallVelocity: also append the values to "
                       "<ProjectName>_WallVel_<BCName>.csv (else print only).");
}

int wallvelocity_mode(const Params *p, const Solver *s, int *mode) {
  bool calc, write;
  HX_CHECK(params_get_logical(p, "CalcWallVelocity", &calc));
  HX_CHECK(params_get_logical(p, "WriteWallVelocity", &write));
  *mode = !calc ? WALLVEL_OFF : write ? WALLVEL_WRITE : WALLVEL_PRINT;
  int walls = 0;
  for (int b = 0; b < s->mesh->n_bcs; b++)
    walls += bc_is_wall(s->bc_info[2 * b]);
  if (calc && !walls)
    return HX_ERROR(HX_ERR_INPUT,
                    "CalcWallVelocity = T but mesh %s has no wall boundary (BC "
                    "types 3, 4, 9); set CalcWallVelocity = F",
                    s->mesh->source);
  return HX_OK;
}

/* |tau_w|: the viscous traction tau n less its normal part (n a unit normal). */
static double wall_shear_magnitude(const double *tau, const double *n) {
  double t[3], tn = 0.0, tw2 = 0.0;
  for (int i = 0; i < 3; i++) {
    t[i] = tau[3 * i] * n[0] + tau[3 * i + 1] * n[1] + tau[3 * i + 2] * n[2];
    tn += t[i] * n[i];
  }
  for (int i = 0; i < 3; i++)
    tw2 += (t[i] - tn * n[i]) * (t[i] - tn * n[i]);
  return sqrt(tw2);
}

/* Velocity magnitude, |tau_w| and u_tau at one wall face point. */
static void wall_point(const Solver *s, int side, int type, int fp, double *vel, double *tauw,
                       double *utau) {
  double prim[HX_NPRIM], n[3], tau[9];
  wall_point_state(s, side, fp, prim, n);
  *vel = sqrt(prim[VEL1] * prim[VEL1] + prim[VEL2] * prim[VEL2] + prim[VEL3] * prim[VEL3]);
  *tauw = *utau = 0.0;
  if (!s->viscous || type == BC_WALL_SLIP) return;
  wall_point_stress(s, side, fp, prim, tau);
  *tauw = wall_shear_magnitude(tau, n);
  *utau = sqrt(*tauw / prim[PDENS]); /* friction velocity, e.g. Pope 2000, eq. (7.24) */
}

int wallvelocity_compute(const Solver *s, double *vals) {
  const Mesh *m = s->mesh;
  int nb = m->n_bcs ? m->n_bcs : 1;
  /* per BC: sums (area, vel dA, utau dA, tauw dA), maxima (vel, utau, -vel, -utau) */
  double *sum = hx_calloc((size_t)nb * 8, sizeof(double), "wall velocity sums");
  HX_ALLOC_CHECK(sum);
  double *mx = sum + 4 * nb;
  for (int i = 0; i < 4 * nb; i++)
    mx[i] = -HUGE_VAL;
  for (int side = 0; side < m->n_bc_sides; side++) {
    int bc = m->side_bc[side], type = s->bc_info[2 * bc];
    if (!bc_is_wall(type)) continue;
    for (int q = 0; q < s->np; q++)
      for (int p = 0; p < s->np; p++) {
        int fp = q * s->np + p;
        double vel, tauw, utau;
        wall_point(s, side, type, fp, &vel, &tauw, &utau);
        double dA = s->disc.w[p] * s->disc.w[q] * s->geo.face_surf[(long)side * s->n_dof_face + fp];
        double add[4] = {dA, vel * dA, utau * dA, tauw * dA}, big[4] = {vel, utau, -vel, -utau};
        for (int i = 0; i < 4; i++) {
          sum[4 * bc + i] += add[i];
          mx[4 * bc + i] = fmax(mx[4 * bc + i], big[i]);
        }
      }
  }
  par_sum(sum, 4 * nb);
  par_max(mx, 4 * nb);
  memset(vals, 0, sizeof(double) * WALLVEL_NCOLS * m->n_bcs);
  for (int b = 0; b < m->n_bcs; b++) {
    double *v = &vals[WALLVEL_NCOLS * b], *sb = &sum[4 * b], *mb = &mx[4 * b];
    if (!bc_is_wall(s->bc_info[2 * b]) || sb[0] <= 0.0) continue;
    v[WALLVEL_MEAN_VEL] = sb[1] / sb[0];
    v[WALLVEL_MIN_VEL] = -mb[2];
    v[WALLVEL_MAX_VEL] = mb[0];
    v[WALLVEL_MEAN_UTAU] = sb[2] / sb[0];
    v[WALLVEL_MIN_UTAU] = -mb[3];
    v[WALLVEL_MAX_UTAU] = mb[1];
    v[WALLVEL_MEAN_TAUW] = sb[3] / sb[0];
  }
  free(sum);
  return HX_OK;
}

int wallvelocity_write(const Solver *s, const char *project, double t, const double *vals,
                       bool fresh) {
  return wall_csv_write(s, project, "WallVel",
                        "time,MeanVel,MinVel,MaxVel,MeanUtau,MinUtau,MaxUtau,MeanTauW", t, vals,
                        WALLVEL_NCOLS, fresh);
}

void wallvelocity_print(const Solver *s, const double *vals) {
  printf("  wall velocity (mean/min/max), u_tau (mean/min/max), mean tau_w:\n");
  for (int b = 0; b < s->mesh->n_bcs; b++) {
    if (!bc_is_wall(s->bc_info[2 * b])) continue;
    const double *v = &vals[WALLVEL_NCOLS * b];
    printf("    %-16s %.6e %.6e %.6e  %.6e %.6e %.6e  %.6e\n", s->mesh->bcs[b].name, v[0], v[1],
           v[2], v[3], v[4], v[5], v[6]);
  }
}
