#include "time/timedisc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dg/eddyvisc.h"
#include "dg/fv.h"
#include "dg/fv_gauss.h"
#include "dg/indicator.h"
#include "mesh/facemap.h"
#include "parallel/parallel.h"
#include "physics/eddyvisc.h"
#include "physics/eos.h"
#include "physics/mixture.h"
#include "physics/navierstokes.h"
#include "physics/navierstokes_mix.h"

int timedisc_define_params(Params *p) {
  const char *s = "TimeDisc";
  HX_CHECK(params_define(p, s, "TimeDiscMethod", PARAM_STRING, 0, "carpenterrk4-5", false,
                         "Low-storage Runge-Kutta scheme (FLEXI's names): standardrk3-3, "
                         "carpenterrk4-5, niegemannrk4-14, toulorgerk4-8c, toulorgerk3-7c, "
                         "toulorgerk4-8f (2N form), ketchesonrk4-20, ketchesonrk4-18 (3S* form: "
                         "one more register)."));
  HX_CHECK(params_define(p, s, "tend", PARAM_REAL, 0, NULL, false, "End time of the simulation."));
  HX_CHECK(params_define(p, s, "CFLscale", PARAM_REAL, 0, "0.9", false,
                         "Courant number; multiplied by an N- and scheme-dependent factor."));
  HX_CHECK(params_define(p, s, "DFLscale", PARAM_REAL, 0, "0.9", false,
                         "Diffusion number of the viscous time step (Navier-Stokes); multiplied "
                         "by an N- and scheme-dependent factor."));
  HX_CHECK(
      params_define(p, s, "Analyze_dt", PARAM_REAL, 0, "0.", false,
                    "Interval of analysis (error norms, totals, progress); 0: start/end only."));
  HX_CHECK(params_define(p, s, "nWriteData", PARAM_INT, 0, "1", false,
                         "Write a state file every nWriteData analysis intervals."));
  HX_CHECK(params_define(p, s, "maxIter", PARAM_INT, 0, "-1", false,
                         "Stop after this many time steps (-1: no limit); the state is written."));
  HX_CHECK(params_define(
      p, s, "Dimension", PARAM_INT, 0, "3", false,
      "3, or 2 for a case of FLEXI's 2-D build (FLEXI_2D = ON) on its one-layer mesh: the zeta "
      "direction is left out of the time step as in FLEXI's 2-D CALCTIMESTEP (the mesh must be "
      "one element thick in zeta: boundary or self-periodic zeta sides). hexdg regress sets it "
      "for FLEXI_2D builds."));
  HX_CHECK(params_define(
      p, s, "CheckAdmissibility", PARAM_LOGICAL, 0, "T", false,
      "T: the run stops at the first node with density or pressure <= 0 or NaN. F: as GALAEXI, "
      "which checks only for a NaN density: nodes with density or pressure <= 0 are left out of "
      "the time step and the run goes on (with a state that is not physical). hexdg regress sets "
      "F for checks built for GALAEXI (binary = ./bin/galaexi)."));
  return HX_OK;
}

/* Whether the time step reads blending factors: FV_Mode = blending of air (the mixture's GPU
 * time-step kernel has no blended limit yet, so both backends keep the DG limit there). */
static int blend_time_step(const Solver *s) {
  return s->fv.enabled && s->fv.mode == FV_MODE_BLENDING && !s->mech;
}

/* Dimension = 2: every element's zeta sides are boundary sides or lead back to the element itself
 * (periodic over one layer), as on the meshes of FLEXI's 2-D build. */
static int check_one_layer(const Mesh *m) {
  for (int e = 0; e < m->n_elems; e++)
    for (int ls = 0; ls < 6; ls++) {
      if (side_normal_dir(ls) != 2) continue;
      const int side = m->elem_to_side[6 * e + ls];
      if (side < m->n_bc_sides) continue;
      if (m->side_master_elem[side] == e && m->side_slave_elem[side] == e) continue;
      return HX_ERROR(HX_ERR_INPUT,
                      "Dimension = 2 needs a mesh one element thick in zeta (FLEXI's 2-D meshes), "
                      "but element %ld has a zeta neighbour other than itself; use Dimension = 3",
                      (long)m->elem_global_id[e]);
    }
  return HX_OK;
}

int timedisc_init(const Params *p, const Solver *s, TimeDisc *td) {
  const char *name;
  int max_iter;
  memset(td, 0, sizeof *td);
  HX_CHECK(params_get_string(p, "TimeDiscMethod", &name));
  td->rk = rk_find(name);
  if (!td->rk) {
    char list[512] = "";
    for (int i = 0; i < rk_count(); i++) {
      strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
      strncat(list, rk_at(i)->name, sizeof list - strlen(list) - 1);
    }
    return HX_ERROR(HX_ERR_INPUT, "TimeDiscMethod = %s is unknown; choose one of: %s", name, list);
  }
  HX_CHECK(params_get_real(p, "tend", &td->tend));
  HX_CHECK(params_get_real(p, "CFLscale", &td->cfl_scale));
  HX_CHECK(params_get_real(p, "DFLscale", &td->dfl_scale));
  if (!(td->dfl_scale > 0.0))
    return HX_ERROR(HX_ERR_INPUT, "DFLscale = %g must be positive", td->dfl_scale);
  HX_CHECK(params_get_real(p, "Analyze_dt", &td->analyze_dt));
  HX_CHECK(params_get_int(p, "nWriteData", &td->n_write_data));
  HX_CHECK(params_get_int(p, "maxIter", &max_iter));
  td->max_iter = max_iter;
  HX_CHECK(params_get_int(p, "Dimension", &td->dims));
  bool check;
  HX_CHECK(params_get_logical(p, "CheckAdmissibility", &check));
  td->check_admissible = check;
  if (td->dims != 2 && td->dims != 3)
    return HX_ERROR(HX_ERR_INPUT, "Dimension = %d: give 3, or 2 for a FLEXI 2-D case", td->dims);
  if (td->dims == 2) HX_CHECK(check_one_layer(s->mesh));
  if (!(td->cfl_scale > 0.0))
    return HX_ERROR(HX_ERR_INPUT, "CFLscale = %g must be positive", td->cfl_scale);
  if (td->analyze_dt < 0.0)
    return HX_ERROR(HX_ERR_INPUT, "Analyze_dt = %g must be >= 0", td->analyze_dt);
  if (td->n_write_data < 1)
    return HX_ERROR(HX_ERR_INPUT, "nWriteData = %d must be >= 1", td->n_write_data);
  if (td->rk->form == RK_3SSTAR && s->fv.enabled && s->fv.mode == FV_MODE_SWITCHING)
    return HX_ERROR(HX_ERR_INPUT,
                    "TimeDiscMethod = %s (a 3S* scheme) with FV_Mode = switching is not "
                    "implemented: the switch converts U and one register, the 3S* scheme has two; "
                    "use a 2N scheme (niegemannrk4-14, carpenterrk4-5, toulorgerk4-8c, ...)",
                    td->rk->name);
  long n = (long)s->n_var * s->n_dof;
  td->k = hx_calloc(n, sizeof(double), "Runge-Kutta register");
  HX_ALLOC_CHECK(td->k);
  if (blend_time_step(s)) {
    td->alpha_dt = hx_calloc(s->mesh->n_elems ? s->mesh->n_elems : 1, sizeof(double),
                             "blending factors of the time step");
    HX_ALLOC_CHECK(td->alpha_dt);
  }
  if (td->rk->form == RK_3SSTAR) { /* S3: the state at the start of the step */
    td->s3 = hx_calloc(n, sizeof(double), "Runge-Kutta register S3 (3S* scheme)");
    HX_ALLOC_CHECK(td->s3);
  }
  return HX_OK;
}

void timedisc_free(TimeDisc *td) {
  free(td->k);
  free(td->s3);
  free(td->alpha_dt);
  td->k = NULL;
  td->s3 = NULL;
  td->alpha_dt = NULL;
}

/* FLEXI's time-step estimate of one element: per direction the maximum over the nodes of the
 * convective spectral radius sJ (|v . Ja^d| + c |Ja^d|) and of the viscous one
 * coeff (sJ |Ja^d|)^2, summed over the directions (xi, eta and, unless dims = 2, zeta). An FV
 * element of Gauss-node switching holds subcell means: the subcells' metrics and Jacobians
 * (FLEXI's FVE = 1 metrics). lam[0] = -1 if the state is not admissible
 * (check = 0: only a NaN density; other inadmissible nodes are skipped). */
static void element_max_lambda(const Solver *s, int e, int dims, int check, double lam_sum[2]) {
  int n3 = s->n_dof_elem, nv = s->n_var;
  const double *U = &s->U[(long)nv * n3 * e], *Ja = fv_elem_metrics(s, e);
  const double *sJ = fv_elem_sJ(s, e);
  double lam[3] = {0, 0, 0}, lamv[3] = {0, 0, 0};
  lam_sum[0] = lam_sum[1] = 0.0;
  /* LES: the element's largest mu_t of the operator evaluations since the last step (FLEXI's
     muSGSMax in calctimestep.f90), read once and reset for the next step's stages */
  const double mu_t = s->sgs ? s->sgs->mu_t_max[e] : 0.0;
  const double lambda_t = s->sgs ? s->sgs->lambda_factor * mu_t : 0.0;
  if (s->sgs) s->sgs->mu_t_max[e] = 0.0;
  for (int q = 0; q < n3; q++) {
    double u[HX_NVAR_MAX], pr[HX_NPRIM], Y[HX_MAX_SPECIES], c;
    for (int v = 0; v < nv; v++)
      u[v] = U[v * n3 + q];
    solver_node_prim(s, (long)e * n3 + q, u, pr, Y, &c);
    const int status = timestep_node_status(check, pr[PDENS], pr[PRES]);
    if (status < 0) {
      lam_sum[0] = -1.0;
      return;
    }
    if (status == 0) continue;
    double coeff = !s->viscous ? 0.0
                   : s->mech   ? mix_viscous_spectral_coeff(&s->phys, s->mix_transport, pr, c)
                   : s->sgs    ? viscous_spectral_coeff_les(&s->phys, pr, mu_t, lambda_t)
                               : viscous_spectral_coeff(&s->phys, pr);
    for (int d = 0; d < dims; d++) {
      const double *m0 = &Ja[(d * 3 + 0) * n3], *m1 = &Ja[(d * 3 + 1) * n3],
                   *m2 = &Ja[(d * 3 + 2) * n3];
      double vn = pr[VEL1] * m0[q] + pr[VEL2] * m1[q] + pr[VEL3] * m2[q];
      double mn = sqrt(m0[q] * m0[q] + m1[q] * m1[q] + m2[q] * m2[q]);
      double l = sJ[q] * (fabs(vn) + c * mn), lv = coeff * (sJ[q] * mn) * (sJ[q] * mn);
      if (l > lam[d]) lam[d] = l;
      if (lv > lamv[d]) lamv[d] = lv;
    }
  }
  lam_sum[0] = lam[0] + lam[1] + lam[2];
  lam_sum[1] = lamv[0] + lamv[1] + lamv[2];
}

double timedisc_cfl_factor(const Solver *s, const LowStorageRK *rk, double cfl_scale) {
  const int N = s->disc.N;
  const double *alpha =
      s->disc.node_type == NODE_GAUSS ? rk->cfl_alpha_gauss : rk->cfl_alpha_lobatto;
  return cfl_scale * alpha[N] / (2.0 * N + 1.0) * 2.0;
}

/* 2 / MINVAL(FV_w), FV_w the subcell widths: N+1 for the equidistant subcells of Gauss-node
 * switching, 2 / (the smallest LGL weight) = N (N+1) for the LGL subcells (blending; FLEXI's
 * FV_CellType = same there). */
static double fv_two_over_min_width(const Solver *s) {
  if (s->disc.node_type == NODE_GAUSS) return s->disc.N + 1.0;
  double w_min = s->disc.w[0];
  for (int i = 1; i < s->np; i++)
    w_min = s->disc.w[i] < w_min ? s->disc.w[i] : w_min;
  return 2.0 / w_min;
}

/* The same for an FV element (FLEXI's CFLScale(1)), CFLScaleFV the scheme's Gauss alpha at N = 1:
 * FLEXI src/timedisc/timedisc_func.f90 (fillCFL_DFL): CFLScale(1)*CFLScaleFV*MINVAL(FV_w)/2. */
static double fv_cfl_factor(const Solver *s, const LowStorageRK *rk, double cfl_scale) {
  return cfl_scale * rk->cfl_alpha_gauss[1] / fv_two_over_min_width(s) * 2.0;
}

/* DG factor / FV factor: an FV element's spectral radius times this gives FLEXI's
 * dtElem = CFLScale(1) 2 / lambda with the DG factor. */
static double dg_over_fv_factor(const Solver *s, const LowStorageRK *rk) {
  return timedisc_cfl_factor(s, rk, 1.0) / fv_cfl_factor(s, rk, 1.0);
}

double timedisc_gauss_fv_scale(const Solver *s, const LowStorageRK *rk) {
  return dg_over_fv_factor(s, rk);
}

double timedisc_blend_scale(const Solver *s, const LowStorageRK *rk) {
  const double dg_over_fv = dg_over_fv_factor(s, rk);
  return dg_over_fv > 1.0 ? dg_over_fv : 1.0;
}

void timedisc_init_dt_alpha(Solver *s, TimeDisc *td, double t) {
  if (!td->alpha_dt) return;
  fv_compute_alpha_at(s, s->U, t);
  memcpy(td->alpha_dt, s->fv.alpha, sizeof(double) * s->mesh->n_elems);
}

double timedisc_viscous_factor(const Solver *s, const LowStorageRK *rk, double dfl_scale) {
  int N = s->disc.N;
  const double *alpha =
      s->disc.node_type == NODE_GAUSS ? rk->dfl_alpha_gauss : rk->dfl_alpha_lobatto;
  return dfl_scale * alpha[N] / ((2.0 * N + 1.0) * (2.0 * N + 1.0)) * 4.0;
}

double timedisc_calc_dt(const Solver *s, const TimeDisc *td) {
  double lmax = 0.0, lvmax = 0.0;
  const double dg_over_fv = dg_over_fv_factor(s, td->rk);
  const double blend_scale = timedisc_blend_scale(s, td->rk), *alpha = td->alpha_dt;
  int bad = -1;
#pragma omp parallel for schedule(static) reduction(max : lmax, lvmax, bad)
  for (int e = 0; e < s->mesh->n_elems; e++) {
    double l[2];
    element_max_lambda(s, e, td->dims, td->check_admissible, l);
    if (l[0] < 0.0 || l[0] != l[0] || l[1] != l[1]) bad = e > bad ? e : bad;
    /* FLEXI's dtElem = CFLScale(FVE) 2 / lambda: an FV element's radius scaled to the DG factor */
    if (fv_elem_is_gauss_fv(s, e)) l[0] *= dg_over_fv;
    /* blending: the smaller of the DG and the FV limit where alpha > FV_alpha_min */
    if (alpha) l[0] = fv_blend_dt_lambda(l[0], alpha[e], s->fv.alpha_min, blend_scale);
    if (l[0] > lmax) lmax = l[0];
    if (l[1] > lvmax) lvmax = l[1];
  }
  /* over the ranks: the largest eigenvalues and the largest global id of a bad element */
  double red[3] = {lmax, lvmax, bad >= 0 ? (double)s->mesh->elem_global_id[bad] : -1.0};
  par_max(red, 3);
  lmax = red[0];
  lvmax = red[1];
  if (red[2] >= 0.0) { /* every rank is here: the element's centroid from the rank holding it */
    long gid;
    double c[3];
    const int held = mesh_locate_elem(s->mesh, bad, &gid, c);
    if (par_is_root())
      HX_ERROR(HX_ERR_NUMERIC,
               "non-physical state (density or pressure <= 0, or NaN) in element %ld at "
               "(%.6g, %.6g, %.6g); reduce CFLscale or check the initial/boundary states",
               gid, c[0], c[1], c[2]);
    if (held) solver_report_bad_node(s, gid, s->U + (size_t)bad * s->n_var * s->n_dof_elem);
    return -1.0;
  }
  double dt = timedisc_cfl_factor(s, td->rk, td->cfl_scale) / lmax;
  if (s->viscous && lvmax > 0.0) {
    double dtv = timedisc_viscous_factor(s, td->rk, td->dfl_scale) / lvmax;
    if (dtv < dt) dt = dtv;
  }
  return dt;
}

/* One Williamson 2N stage update: k = A k + dt Ut, U += B k. */
static void update_2n(long n, double a, double b, double dt, const double *Ut, double *U,
                      double *k) {
#pragma omp parallel for schedule(static)
  for (long q = 0; q < n; q++) {
    k[q] = a * k[q] + dt * Ut[q];
    U[q] += b * k[q];
  }
}

/* One Ketcheson 3S* stage update (Ketcheson 2010, Alg. 3S*; S1 = U): stage 0 stores U in S2 and
 * S3, later stages S2 += delta U, U = gamma1 U + gamma2 S2 + gamma3 S3; then U += B dt Ut. */
static void update_3sstar(const LowStorageRK *rk, int st, long n, double dt, const double *Ut,
                          double *U, double *S2, double *S3) {
  const double bdt = rk->B[st] * dt;
  if (st == 0) {
#pragma omp parallel for schedule(static)
    for (long q = 0; q < n; q++) {
      S2[q] = S3[q] = U[q];
      U[q] += bdt * Ut[q];
    }
    return;
  }
  const double g1 = rk->gamma1[st], g2 = rk->gamma2[st], g3 = rk->gamma3[st], dl = rk->delta[st];
#pragma omp parallel for schedule(static)
  for (long q = 0; q < n; q++) {
    S2[q] += dl * U[q];
    U[q] = g1 * U[q] + g2 * S2[q] + g3 * S3[q] + bdt * Ut[q];
  }
}

void timedisc_rk_step(Solver *s, TimeDisc *td, double t, double dt) {
  const LowStorageRK *rk = td->rk;
  long n = (long)s->n_var * s->n_dof;
  for (int st = 0; st < rk->n_stages; st++) {
    if (s->fv.enabled && s->fv.mode == FV_MODE_SWITCHING) /* FLEXI: FV -> DG at stage 1 only */
      fv_switch(s, s->U, td->k, t + rk->c[st] * dt, st == 0 || s->fv.to_dg_in_rk);
    dg_time_derivative(s, s->U, s->Ut, t + rk->c[st] * dt);
    if (rk->form == RK_3SSTAR) /* k is S2 */
      update_3sstar(rk, st, n, dt, s->Ut, s->U, td->k, td->s3);
    else
      update_2n(n, rk->A[st], rk->B[st], dt, s->Ut, s->U, td->k);
    if (s->fv.positivity) fv_positivity_limit(s, s->U);
  }
  if (td->alpha_dt) /* the next step's time step reads the last stage's (GPU: the same) */
    memcpy(td->alpha_dt, s->fv.alpha, sizeof(double) * s->mesh->n_elems);
}
