/* A-priori indicator and blending factor of the FV subcell shock capturing (Hennemann et al. 2021,
 * JCP 426, Sec. 4). */
#include "dg/indicator.h"

#include "parallel/exchange.h"
#include "parallel/parallel.h"
#include "physics/fvblend.h"
#include "physics/mixture.h"

/* One pass of the nodal -> modal transform along direction d (np^3 values). */
static void modal_pass(int np, const double *Vinv, int d, const double *in, double *out) {
  for (int q = 0; q < np * np * np; q++) out[q] = fv_modal_pass_node(np, Vinv, d, in, q);
}

double fv_element_energy(const Solver *s, int e, const double *Ue) {
  int np = s->np, n3 = s->n_dof_elem, N = np - 1;
  double a[HX_NPMAX * HX_NPMAX * HX_NPMAX], b[HX_NPMAX * HX_NPMAX * HX_NPMAX];
  for (int q = 0; q < n3; q++) {
    double u[HX_NVAR_MAX];
    for (int v = 0; v < s->n_var; v++) u[v] = Ue[v * n3 + q];
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
  for (int q = 0; q < n3; q++) fv_modal_energy_add(np, q, b[q], sums);
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
        double other = m->elem_to_side_flip[6 * e + ls] == 0 ? fv->alpha_slave[side]
                                                             : fv->alpha_master[side];
        if (fv->ext_scale * other > a) a = fv->ext_scale * other;
      }
      /* the sides hold the values before this pass, so alpha can be updated in place */
      fv->alpha[e] = a < fv->alpha_max ? a : fv->alpha_max;
    }
  }
}

void fv_compute_alpha(Solver *s, const double *U) {
  FVBlend *fv = &s->fv;
  int n3 = s->n_dof_elem, nv = s->n_var;
#pragma omp parallel for schedule(static)
  for (int e = 0; e < s->mesh->n_elems; e++) {
    if (fv->indicator == FV_INDICATOR_FIXED) {
      fv->alpha[e] = fv->alpha_fix;
      continue;
    }
    double E = fv_element_energy(s, e, &U[(long)nv * n3 * e]);
    fv->alpha[e] = fv_alpha_from_energy(E, s->disc.N, fv->alpha_min, fv->alpha_max);
  }
  if (fv->extend && fv->indicator != FV_INDICATOR_FIXED) extend_alpha(s);
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
