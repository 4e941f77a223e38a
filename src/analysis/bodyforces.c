#include "analysis/bodyforces.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "parallel/parallel.h"
#include "physics/bc.h"

int bodyforces_define_params(Params *p) {
  return params_define(p, "Analyze", "CalcBodyForces", PARAM_LOGICAL, 0, "F", false,
                       "Write pressure and viscous forces on every wall BC (types 3, 4, 9) to "
                       "<ProjectName>_BodyForces_<BCName>.csv at each analysis.");
}

int bodyforces_enabled(const Params *p, const Solver *s, bool *enabled) {
  HX_CHECK(params_get_logical(p, "CalcBodyForces", enabled));
  int walls = 0;
  for (int b = 0; b < s->mesh->n_bcs; b++)
    walls += bc_is_wall(s->bc_info[2 * b]);
  if (*enabled && !walls)
    return HX_ERROR(HX_ERR_INPUT,
                    "CalcBodyForces = T but mesh %s has no wall boundary (BC types "
                    "3, 4, 9)",
                    s->mesh->source);
  return HX_OK;
}

void wall_point_state(const Solver *s, int side, int fp, double *prim, double *n) {
  const int n2 = s->n_dof_face;
  double u[HX_NVAR];
  for (int v = 0; v < HX_NVAR; v++)
    u[v] = s->U_master[((long)side * s->n_var + v) * n2 + fp];
  for (int c = 0; c < 3; c++)
    n[c] = s->geo.face_nvec[((long)side * 3 + c) * n2 + fp];
  cons_to_prim(&s->phys, u, prim);
}

void wall_point_stress(const Solver *s, int side, int fp, const double *prim, double *tau) {
  const int n2 = s->n_dof_face;
  double gr[3][HX_NLIFT], cond[3];
  for (int c = 0; c < 3; c++)
    for (int v = 0; v < HX_NLIFT; v++)
      gr[c][v] = s->grad_master[((long)side * HX_NGRAD + c * HX_NLIFT + v) * n2 + fp];
  viscous_stress(&s->phys, prim, gr[0], gr[1], gr[2], tau, cond);
}

/* Force of one face point on the wall, weighted by the face quadrature. */
static void face_point_force(const Solver *s, int side, int type, int p, int q, double *f6) {
  const int fp = q * s->np + p;
  double prim[HX_NPRIM], n[3], tau[9];
  wall_point_state(s, side, fp, prim, n);
  double wA = s->disc.w[p] * s->disc.w[q] * s->geo.face_surf[(long)side * s->n_dof_face + fp];
  for (int c = 0; c < 3; c++)
    f6[c] += wA * prim[PRES] * n[c];
  if (!s->viscous || type == BC_WALL_SLIP) return;
  wall_point_stress(s, side, fp, prim, tau);
  for (int i = 0; i < 3; i++)
    f6[3 + i] -= wA * (tau[3 * i] * n[0] + tau[3 * i + 1] * n[1] + tau[3 * i + 2] * n[2]);
}

void bodyforces_compute(const Solver *s, double *forces) {
  const Mesh *m = s->mesh;
  memset(forces, 0, sizeof(double) * 6 * m->n_bcs);
  for (int side = 0; side < m->n_bc_sides; side++) {
    int bc = m->side_bc[side], type = s->bc_info[2 * bc];
    if (!bc_is_wall(type)) continue;
    for (int q = 0; q < s->np; q++)
      for (int p = 0; p < s->np; p++)
        face_point_force(s, side, type, p, q, &forces[6 * bc]);
  }
  par_sum(forces, 6 * m->n_bcs);
}

int bc_csv_write(const Solver *s, const char *project, const char *kind, const char *header,
                 double t, const double *rows, int ncols, bool fresh, bool (*want)(int type)) {
  const Mesh *m = s->mesh;
  for (int b = 0; b < m->n_bcs; b++) {
    if (!want(s->bc_info[2 * b])) continue;
    char path[1400];
    snprintf(path, sizeof path, "%s_%s_%s.csv", project, kind, m->bcs[b].name);
    FILE *f = fopen(path, fresh ? "w" : "a");
    if (!f) return HX_ERROR(HX_ERR_IO, "cannot open %s for writing", path);
    if (fresh) fprintf(f, "%s\n", header);
    fprintf(f, "%.17g", t);
    for (int c = 0; c < ncols; c++)
      fprintf(f, ",%.12e", rows[(size_t)ncols * b + c]);
    fprintf(f, "\n");
    if (fclose(f) != 0) return HX_ERROR(HX_ERR_IO, "error writing %s (disk full?)", path);
  }
  return HX_OK;
}

static bool wall_bc(int type) {
  return bc_is_wall(type);
}

int wall_csv_write(const Solver *s, const char *project, const char *kind, const char *header,
                   double t, const double *rows, int ncols, bool fresh) {
  return bc_csv_write(s, project, kind, header, t, rows, ncols, fresh, wall_bc);
}

int bodyforces_write(const Solver *s, const char *project, double t, const double *forces,
                     bool fresh) {
  const int n = s->mesh->n_bcs;
  double *rows = malloc(sizeof(double) * 9 * (n > 0 ? n : 1));
  HX_ALLOC_CHECK(rows);
  for (int b = 0; b < n; b++) /* pressure, viscous and total force */
    for (int c = 0; c < 3; c++) {
      const double *F = &forces[6 * b];
      rows[9 * b + c] = F[c];
      rows[9 * b + 3 + c] = F[3 + c];
      rows[9 * b + 6 + c] = F[c] + F[3 + c];
    }
  int rc = wall_csv_write(s, project, "BodyForces",
                          "time,Fp_x,Fp_y,Fp_z,Fv_x,Fv_y,Fv_z,F_x,F_y,F_z", t, rows, 9, fresh);
  free(rows);
  return rc;
}
