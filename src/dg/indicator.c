/* A-priori indicator and blending factor of the FV subcell shock capturing (Hennemann et al. 2021,
 * JCP 426, Sec. 4), FLEXI's indicators (physics/indicators.h) and the FV switching. */
#include "dg/indicator.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "basis/basis.h"
#include "basis/tensor.h"
#include "core/error.h"
#include "dg/fv_gauss.h"
#include "mesh/facemap.h"
#include "parallel/exchange.h"
#include "parallel/parallel.h"
#include "physics/fvblend.h"
#include "physics/indicators.h"
#include "physics/mixture.h"

/* One pass of the nodal -> modal transform along direction d (np^3 values). */
static void modal_pass(int np, const double *Vinv, int d, const double *in, double *out) {
  for (int q = 0; q < np * np * np; q++)
    out[q] = fv_modal_pass_node(np, Vinv, d, in, q);
}

double fv_element_energy(const Solver *s, int e, const double *Ue) {
  int np = s->np, n3 = s->n_dof_elem, N = np - 1;
  double a[HX_NPMAX * HX_NPMAX * HX_NPMAX], b[HX_NPMAX * HX_NPMAX * HX_NPMAX];
  for (int q = 0; q < n3; q++) {
    double u[HX_NVAR_MAX];
    for (int v = 0; v < s->n_var; v++)
      u[v] = Ue[v * n3 + q];
    if (s->mech) {
      double pr[HX_NPRIM], Y[HX_MAX_SPECIES], c;
      solver_node_prim(s, (long)e * n3 + q, u, pr, Y, &c);
      a[q] = fv_indicator_quantity_prim(s->fv.ind_var, pr);
    } else {
      a[q] = fv_indicator_quantity(s->fv.ind_var, s->phys.kappa_m1, u);
    }
  }
  modal_pass(np, s->fv.Vinv, 0, a, b);
  modal_pass(np, s->fv.Vinv, 1, b, a);
  modal_pass(np, s->fv.Vinv, 2, a, b);
  double sums[3] = {0.0, 0.0, 0.0};
  for (int q = 0; q < n3; q++)
    fv_modal_energy_add(np, q, b[q], sums);
  return fv_modal_energy(N, sums[0], sums[1], sums[2]);
}

/* alpha = max(alpha, FV_alpha_ExtScale * alpha of each face neighbour), FV_nExtendAlpha times
 * (Hennemann et al. 2021, Sec. 4: a shock about to enter an element is caught in time). The
 * side arrays carry both elements' values; MPI sides get the other rank's value by the exchange. */
static void extend_alpha(Solver *s) {
  const Mesh *m = s->mesh;
  FVBlend *fv = &s->fv;
  for (int pass = 0; pass < fv->n_extend; pass++) {
#pragma omp parallel for schedule(static)
    for (int side = 0; side < m->n_sides; side++) {
      int em = m->side_master_elem[side], es = m->side_slave_elem[side];
      fv->alpha_master[side] = em >= 0 ? fv->alpha[em] : 0.0;
      fv->alpha_slave[side] = es >= 0 ? fv->alpha[es] : 0.0;
    }
    exchange_start(s->exchange, EXCH_ALPHA, fv->alpha_slave, 1, EXCH_TO_MASTER);
    exchange_finish(s->exchange, EXCH_ALPHA);
    exchange_start(s->exchange, EXCH_ALPHA, fv->alpha_master, 1, EXCH_TO_SLAVE);
    exchange_finish(s->exchange, EXCH_ALPHA);
#pragma omp parallel for schedule(static)
    for (int e = 0; e < m->n_elems; e++) {
      double a = fv->alpha[e];
      for (int ls = 0; ls < 6; ls++) {
        int side = m->elem_to_side[6 * e + ls];
        double other =
            m->elem_to_side_flip[6 * e + ls] == 0 ? fv->alpha_slave[side] : fv->alpha_master[side];
        if (fv->ext_scale * other > a) a = fv->ext_scale * other;
      }
      /* the sides hold the values before this pass, so alpha can be updated in place */
      fv->alpha[e] = a < fv->alpha_max ? a : fv->alpha_max;
    }
  }
}

/* Jameson: the IndVar quantity at every side's face points of both elements, then the other
 * rank's values on MPI sides (the exchange of the blending factors' slot). */
static void fill_ghost_faces(Solver *s, const double *U) {
  const Mesh *m = s->mesh;
  FVBlend *fv = &s->fv;
  int n3 = s->n_dof_elem, n2 = s->n_dof_face, nv = s->n_var;
#pragma omp parallel for schedule(static)
  for (int side = 0; side < m->n_sides; side++)
    for (int which = 0; which < 2; which++) {
      int e = which ? m->side_slave_elem[side] : m->side_master_elem[side];
      if (e < 0) continue;
      int ls = which ? m->side_slave_locside[side] : m->side_master_locside[side];
      int flip = which ? m->side_flip[side] : 0;
      const int *map = &s->s2v[(flip * 6 + ls) * n2];
      double *out = which ? &fv->ghost_slave[(long)n2 * side] : &fv->ghost_master[(long)n2 * side];
      for (int f = 0; f < n2; f++) {
        double u[HX_NVAR];
        for (int v = 0; v < HX_NVAR; v++)
          u[v] = U[((long)e * nv + v) * n3 + map[f]];
        out[f] = ind_quantity(fv->ind_code, s->phys.kappa_m1, u);
      }
    }
  exchange_start(s->exchange, EXCH_ALPHA, fv->ghost_slave, n2, EXCH_TO_MASTER);
  exchange_finish(s->exchange, EXCH_ALPHA);
  exchange_start(s->exchange, EXCH_ALPHA, fv->ghost_master, n2, EXCH_TO_SLAVE);
  exchange_finish(s->exchange, EXCH_ALPHA);
}

/* The ghost layer of element e (ind_ghost_index order): the other element's face values; at a
 * boundary the element's own (FLEXI's BC sides). */
static void gather_ghost(const Solver *s, int e, double *ghost) {
  const Mesh *m = s->mesh;
  const FVBlend *fv = &s->fv;
  int np = s->np, n2 = s->n_dof_face;
  for (int ls = 0; ls < 6; ls++) {
    int side = m->elem_to_side[6 * e + ls], flip = m->elem_to_side_flip[6 * e + ls];
    int boundary = m->side_bc[side] >= 0;
    const double *other = (boundary || flip != 0) ? fv->ghost_master : fv->ghost_slave;
    const int *map = &s->s2v[(flip * 6 + ls) * n2];
    int dir = side_normal_dir(ls), plus = side_is_plus(ls);
    for (int f = 0; f < n2; f++) {
      int q = map[f], i = q % np, j = (q / np) % np, k = q / (np * np);
      ghost[ind_ghost_index(np, dir, plus, i, j, k)] = other[(long)n2 * side + f];
    }
  }
}

/* Scratch of one thread for ind_value_element. */
typedef struct {
  double *u, *a, *b, *ghost;
} IndScratch;

/* IndVar at the n3 nodes of the element state Ue. */
static void nodal_quantity(const Solver *s, const double *Ue, double *a) {
  int n3 = s->n_dof_elem;
  for (int q = 0; q < n3; q++) {
    double u[HX_NVAR];
    for (int v = 0; v < HX_NVAR; v++)
      u[v] = Ue[v * n3 + q];
    a[q] = ind_quantity(s->fv.ind_code, s->phys.kappa_m1, u);
  }
}

/* Persson's value of the state Ue (n3 nodes of IndVar, modal in the scratch). */
static double persson_value(const Solver *s, const double *Ue, IndScratch *w) {
  nodal_quantity(s, Ue, w->a);
  ind_to_modal(s->np, s->fv.Vinv, w->a, w->b);
  return ind_persson_modal(s->np, s->fv.n_modes, w->a);
}

static double jameson_value(const Solver *s, int e, const double *Ue, IndScratch *w) {
  nodal_quantity(s, Ue, w->a);
  gather_ghost(s, e, w->ghost);
  return ind_jameson_element(s->np, w->a, w->ghost, s->disc.w, &s->geo.sJ[(long)s->n_dof_elem * e]);
}

static double ducros_value(const Solver *s, int e, const double *Ue, IndScratch *w) {
  int n3 = s->n_dof_elem;
  return ind_ducros_element(s->np, s->disc.D, s->disc.w, &s->geo.metrics[9L * n3 * e],
                            &s->geo.sJ[(long)n3 * e], Ue, w->b);
}

/* Element e's state u converted DG -> FV (to_fv) or back, on the LGL or the Gauss subcells. */
static void convert_element(const Solver *s, int e, int to_fv, double *u, double *tmp) {
  const FVBlend *fv = &s->fv;
  if (fv->gauss) {
    fv_gauss_switch_element(s, e, to_fv, u, tmp);
    return;
  }
  fv_switch_element(s->np, to_fv ? fv->to_fv : fv->to_dg, s->n_var,
                    &s->geo.sJ[(long)s->n_dof_elem * e], fv->switch_conservative, u, tmp);
}

/* IndValue of element e (Ue its state; an FV element's modal indicators see its DG form, as in
 * FLEXI). */
static double ind_value_element(const Solver *s, int e, const double *Ue, IndScratch *w) {
  const FVBlend *fv = &s->fv;
  int n3 = s->n_dof_elem, nv = s->n_var;
  int modal = fv->indicator == FV_INDICATOR_PERSSON || fv->indicator == FV_INDICATOR_HENNEMANN;
  if (modal && fv->fv_elems && fv->fv_elems[e]) {
    memcpy(w->u, Ue, sizeof(double) * nv * n3);
    convert_element(s, e, 0, w->u, w->a);
    Ue = w->u;
  }
  switch (fv->indicator) {
  case FV_INDICATOR_FV:
    return IND_VALUE_FV;
  case FV_INDICATOR_PERSSON:
    return persson_value(s, Ue, w);
  case FV_INDICATOR_HALFHALF:
    return ind_halfhalf(s->geo.elem_x[3L * n3 * e]);
  case FV_INDICATOR_CHECKERBOARD:
    return ind_checkerboard(s->mesh->elem_global_id[e]);
  case FV_INDICATOR_JAMESON:
    return jameson_value(s, e, Ue, w);
  case FV_INDICATOR_DUCROS:
    return ducros_value(s, e, Ue, w);
  case FV_INDICATOR_DUCROS_JST:
    return jameson_value(s, e, Ue, w) * ducros_value(s, e, Ue, w);
  case FV_INDICATOR_HENNEMANN:
    return fv_alpha_from_energy(fv_element_energy(s, e, Ue), s->disc.N, fv->alpha_min,
                                fv->alpha_max);
  case FV_INDICATOR_FIXED:
    return fv->alpha_fix;
  default:
    return IND_VALUE_DG;
  }
}

void fv_compute_ind_value(Solver *s, const double *U, double t) {
  FVBlend *fv = &s->fv;
  int n3 = s->n_dof_elem, nv = s->n_var, np = s->np;
  /* FLEXI: HUGE before IndStartTime, FV everywhere; not at the default 0, where a stage time of
   * the first step below 0 (ketchesonrk4-18 has c = -0.12) would switch FV on for that stage */
  if (fv->ind_start_time > 0.0 && t < fv->ind_start_time) {
    for (int e = 0; e < s->mesh->n_elems; e++)
      fv->ind_value[e] = HUGE_VAL;
    return;
  }
  if (fv->indicator == FV_INDICATOR_JAMESON || fv->indicator == FV_INDICATOR_DUCROS_JST)
    fill_ghost_faces(s, U);
#pragma omp parallel
  {
    IndScratch w;
    w.u = malloc(sizeof(double) * nv * n3);
    w.a = malloc(sizeof(double) * 3 * n3);
    w.b = malloc(sizeof(double) * 3 * n3);
    w.ghost = malloc(sizeof(double) * 6 * np * np);
#pragma omp for schedule(static)
    for (int e = 0; e < s->mesh->n_elems; e++)
      fv->ind_value[e] = ind_boundary_value(fv->fv_boundary && fv->fv_boundary[e],
                                            ind_value_element(s, e, &U[(long)nv * n3 * e], &w));
    free(w.u);
    free(w.a);
    free(w.b);
    free(w.ghost);
  }
}

void fv_compute_alpha_at(Solver *s, const double *U, double t) {
  FVBlend *fv = &s->fv;
  int n_elems = s->mesh->n_elems;
  if (fv->mode == FV_MODE_SWITCHING) {
    for (int e = 0; e < n_elems; e++)
      fv->alpha[e] = fv->fv_elems[e] ? 1.0 : 0.0;
    return;
  }
  fv_compute_ind_value(s, U, t);
  int direct = fv->indicator == FV_INDICATOR_HENNEMANN || fv->indicator == FV_INDICATOR_FIXED;
  for (int e = 0; e < n_elems; e++)
    fv->alpha[e] = fv_alpha_of_ind_value(direct, fv->ind_value[e], fv->ind_upper, fv->alpha_max);
  if (fv->extend && fv->indicator != FV_INDICATOR_FIXED) extend_alpha(s);
}

void fv_compute_alpha(Solver *s, const double *U) {
  fv_compute_alpha_at(s, U, HUGE_VAL);
}

long fv_switch(Solver *s, double *U, double *k, double t, int allow_to_dg) {
  FVBlend *fv = &s->fv;
  int n3 = s->n_dof_elem, nv = s->n_var;
  long n_switched = 0;
  fv_compute_ind_value(s, U, t);
#pragma omp parallel reduction(+ : n_switched)
  {
    IndScratch w;
    w.u = malloc(sizeof(double) * nv * n3);
    w.a = malloc(sizeof(double) * 3 * n3);
    w.b = malloc(sizeof(double) * 3 * n3);
    w.ghost = NULL;
#pragma omp for schedule(static)
    for (int e = 0; e < s->mesh->n_elems; e++) {
      int was_fv = fv->fv_elems[e];
      int now_fv =
          fv_switch_decide(was_fv, fv->ind_value[e], fv->ind_upper, fv->ind_lower, allow_to_dg);
      if (now_fv == was_fv) continue;
      double *ue = &U[(long)nv * n3 * e];
      if (!now_fv && fv->to_dg_indicator) { /* FLEXI: the DG state must be smooth by Persson */
        memcpy(w.u, ue, sizeof(double) * nv * n3);
        convert_element(s, e, 0, w.u, w.a);
        if (persson_value(s, w.u, &w) > fv->to_dg_limit) continue;
      }
      convert_element(s, e, now_fv, ue, w.a);
      if (k) convert_element(s, e, now_fv, &k[(long)nv * n3 * e], w.a);
      fv->fv_elems[e] = now_fv;
      n_switched++;
    }
    free(w.u);
    free(w.a);
    free(w.b);
  }
  return n_switched;
}

#define SUPERSAMPLE 4 /* Gauss points per direction in each subcell */

/* The subcell bounds in reference coordinates, one direction: FLEXI's equidistant subcells on
 * Gauss nodes, the LGL cells (widths = the weights) on Gauss-Lobatto nodes (dg/fv.c). */
static void subcell_bounds(const Solver *s, double *b) {
  b[0] = -1.0;
  for (int i = 0; i < s->np; i++)
    b[i + 1] = s->fv.gauss ? -1.0 + 2.0 * (i + 1) / s->np : b[i] + s->disc.w[i];
}

/* Element e's subcell means of the exact function at time t into u, in the form the switch gives
 * (conservative: the reference mean of J U times the FV element's 1/J; else the mean of U). The
 * element's x and J at the sample points are interpolated from its nodes by V; wg: the weights
 * of the Gauss rule in each subcell. scratch: 4 (np S)^3. */
static void supersample_element(const Solver *s, int e, double t, const double *V,
                                const double *wg, double *u, double *scratch) {
  const int np = s->np, n3 = s->n_dof_elem, nv = s->n_var, ns = np * SUPERSAMPLE;
  const long m3 = (long)ns * ns * ns;
  double J[HX_NPMAX * HX_NPMAX * HX_NPMAX];
  const double *x = &s->geo.elem_x[3L * n3 * e], *sJ = &s->geo.sJ[(long)n3 * e];
  for (int q = 0; q < n3; q++) J[q] = 1.0 / sJ[q];
  for (int c = 0; c < 3; c++) tensor_interp_3d(np, ns, V, &x[(long)c * n3], &scratch[c * m3]);
  tensor_interp_3d(np, ns, V, J, &scratch[3 * m3]);
  const int cons = s->fv.switch_conservative;
  const double *sJ_fv = fv_elem_sJ(s, e);
  for (int k = 0; k < np; k++)
    for (int j = 0; j < np; j++)
      for (int i = 0; i < np; i++) {
        double sum[HX_NVAR_MAX] = {0.0}, vol = 0.0;
        for (int c = 0; c < SUPERSAMPLE; c++)
          for (int b = 0; b < SUPERSAMPLE; b++)
            for (int a = 0; a < SUPERSAMPLE; a++) {
              long m = ((long)(k * SUPERSAMPLE + c) * ns + j * SUPERSAMPLE + b) * ns +
                       i * SUPERSAMPLE + a;
              double xm[3] = {scratch[m], scratch[m3 + m], scratch[2 * m3 + m]}, um[HX_NVAR_MAX];
              solver_exact_state(s, xm, t, um);
              double w = wg[a] * wg[b] * wg[c] * (cons ? scratch[3 * m3 + m] : 1.0);
              for (int v = 0; v < nv; v++) sum[v] += w * um[v];
              vol += wg[a] * wg[b] * wg[c];
            }
        int q = (k * np + j) * np + i;
        for (int v = 0; v < nv; v++)
          u[(long)v * n3 + q] = sum[v] / vol * (cons ? sJ_fv[q] : 1.0);
      }
}

long fv_switch_initial(Solver *s, double t) {
  long n = fv_switch(s, s->U, NULL, t, 1);
  if (!s->fv.ini_supersample || !s->fv.fv_elems) return n;
  const int np = s->np, ns = np * SUPERSAMPLE, nv = s->n_var, n3 = s->n_dof_elem;
  /* V: Lagrange values of the nodes at every sample position of one direction */
  double b[HX_NPMAX + 1], xg[SUPERSAMPLE], wg[SUPERSAMPLE];
  double *V = hx_malloc(sizeof(double) * ns * np, "supersampling matrix");
  if (!V) return n;
  subcell_bounds(s, b);
  basis_nodes_weights(SUPERSAMPLE - 1, NODE_GAUSS, xg, wg);
  for (int i = 0; i < np; i++)
    for (int a = 0; a < SUPERSAMPLE; a++) {
      double xi = b[i] + 0.5 * (b[i + 1] - b[i]) * (xg[a] + 1.0);
      basis_lagrange_eval(s->disc.N, s->disc.x, s->disc.wb, xi, &V[(i * SUPERSAMPLE + a) * np]);
    }
#pragma omp parallel
  {
    double *scratch = malloc(sizeof(double) * 4 * ns * ns * ns);
#pragma omp for schedule(dynamic)
    for (int e = 0; e < s->mesh->n_elems; e++)
      if (scratch && s->fv.fv_elems[e])
        supersample_element(s, e, t, V, wg, &s->U[(long)nv * n3 * e], scratch);
    free(scratch);
  }
  free(V);
  return n;
}

void fv_alpha_range(const Solver *s, double *alpha_min, double *alpha_max, long *n_active) {
  double lo = 1.0, hi = 0.0, count = 0.0;
  if (s->fv.enabled)
    for (int e = 0; e < s->mesh->n_elems; e++) {
      double a = s->fv.alpha[e];
      lo = a < lo ? a : lo;
      hi = a > hi ? a : hi;
      count += a > 0.0;
    }
  double red[2] = {-lo, hi};
  par_max(red, 2);
  par_sum(&count, 1);
  *alpha_min = s->fv.enabled ? -red[0] : 0.0;
  *alpha_max = red[1];
  *n_active = (long)count;
}
