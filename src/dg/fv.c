/* FV subcell operator on the LGL subcells (subcell widths = LGL weights), its set-up and the
 * positivity stage limiter. Reference: Hennemann, Rueda-Ramirez, Hindenlang & Gassner 2021,
 * JCP 426, Sec. 3 (first order); second order: limited linear reconstruction of the primitive
 * variables on the subcells. */
#include "dg/fv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dg/indicator.h"
#include "physics/eos.h"
#include "physics/fvblend.h"
#include "physics/fvblend_mix.h"
#include "physics/riemann.h"

static const char *const INDICATOR_NAMES[] = {"none", "hennemann", "fixed"};
static const int INDICATOR_IDS[] = {FV_INDICATOR_NONE, FV_INDICATOR_HENNEMANN, FV_INDICATOR_FIXED};
static const char *const INDVAR_NAMES[] = {"DensityTimesPressure", "Density", "Pressure",
                                           "Temperature"};
static const int INDVAR_IDS[] = {FV_INDVAR_DENSITY_PRESSURE, FV_INDVAR_DENSITY,
                                 FV_INDVAR_PRESSURE, FV_INDVAR_TEMPERATURE};
static const char *const LIMITER_NAMES[] = {"FirstOrder", "none",     "MinMod",
                                            "vanLeer",    "Superbee", "Central"};
static const int LIMITER_IDS[] = {FV_LIM_FIRST_ORDER, FV_LIM_FIRST_ORDER, FV_LIM_MINMOD,
                                  FV_LIM_VANLEER,     FV_LIM_SUPERBEE,    FV_LIM_CENTRAL};

int fv_define_params(Params *p) {
  const char *s = "Shock capturing";
  HX_CHECK(params_define_choice(
      p, s, "IndicatorType", "none", 3, INDICATOR_NAMES, INDICATOR_IDS,
      "FV subcell shock capturing (needs NodeType = GAUSS-LOBATTO): none (pure DG); hennemann: "
      "blending factor from the modal energy of IndVar (Hennemann et al. 2021); fixed: alpha = "
      "FV_alpha_fix in every element."));
  HX_CHECK(params_define_choice(p, s, "IndVar", "DensityTimesPressure", 4, INDVAR_NAMES,
                                INDVAR_IDS,
                                "Quantity of the modal indicator (hennemann): rho p, rho, p or "
                                "T (Temperature: reacting flow only)."));
  HX_CHECK(params_define(p, s, "FV_alpha_min", PARAM_REAL, 0, "0.01", false,
                         "Blending factors below this are set to 0 (pure DG in the element)."));
  HX_CHECK(params_define(p, s, "FV_alpha_max", PARAM_REAL, 0, "0.5", false,
                         "Largest blending factor (1: pure FV possible)."));
  HX_CHECK(params_define(p, s, "FV_alpha_fix", PARAM_REAL, 0, "1.", false,
                         "Blending factor of every element for IndicatorType = fixed."));
  HX_CHECK(params_define(p, s, "FV_doExtendAlpha", PARAM_LOGICAL, 0, "F", false,
                         "Spread the blending factor to the face neighbours: alpha = max(alpha, "
                         "FV_alpha_ExtScale * alpha of the neighbour)."));
  HX_CHECK(params_define(p, s, "FV_nExtendAlpha", PARAM_INT, 0, "1", false,
                         "Number of spreading passes (each reaches one more layer of elements)."));
  HX_CHECK(params_define(p, s, "FV_alpha_ExtScale", PARAM_REAL, 0, "0.5", false,
                         "Factor on the neighbour's blending factor when spreading (0..1)."));
  HX_CHECK(params_define_choice(p, s, "FV_LimiterType", "MinMod", 6, LIMITER_NAMES, LIMITER_IDS,
                                "Subcell reconstruction: FirstOrder (constant), or second order "
                                "with the slope limiter MinMod, vanLeer, Superbee or Central "
                                "(unlimited). FLEXI's codes: none 0, minmod 1, central 9."));
  HX_CHECK(params_define(p, s, "FV_PositivityLimiter", PARAM_LOGICAL, 0, "T", false,
                         "With shock capturing on: after every Runge-Kutta stage, pull the nodes "
                         "of an element towards its mean where density or pressure would not be "
                         "positive (conservative; Zhang & Shu 2010)."));
  return HX_OK;
}

static int read_fv_params(const Params *p, const Solver *s, FVBlend *fv) {
  bool extend, positivity;
  HX_CHECK(params_get_choice(p, "IndVar", &fv->ind_var));
  HX_CHECK(params_get_real(p, "FV_alpha_min", &fv->alpha_min));
  HX_CHECK(params_get_real(p, "FV_alpha_max", &fv->alpha_max));
  HX_CHECK(params_get_real(p, "FV_alpha_fix", &fv->alpha_fix));
  HX_CHECK(params_get_logical(p, "FV_doExtendAlpha", &extend));
  HX_CHECK(params_get_int(p, "FV_nExtendAlpha", &fv->n_extend));
  HX_CHECK(params_get_real(p, "FV_alpha_ExtScale", &fv->ext_scale));
  HX_CHECK(params_get_choice(p, "FV_LimiterType", &fv->limiter));
  HX_CHECK(params_get_logical(p, "FV_PositivityLimiter", &positivity));
  fv->extend = extend;
  fv->positivity = positivity;
  if (s->disc.node_type != NODE_GAUSS_LOBATTO)
    return HX_ERROR(HX_ERR_INPUT, "IndicatorType = %s needs NodeType = GAUSS-LOBATTO (the FV "
                                  "subcells are the LGL quadrature cells); set NodeType = "
                                  "GAUSS-LOBATTO or IndicatorType = none",
                    params_choice_name(p, "IndicatorType", fv->indicator));
  if (!(fv->alpha_min >= 0.0 && fv->alpha_max <= 1.0 && fv->alpha_min <= fv->alpha_max))
    return HX_ERROR(HX_ERR_INPUT, "FV_alpha_min = %g and FV_alpha_max = %g must satisfy 0 <= "
                                  "FV_alpha_min <= FV_alpha_max <= 1",
                    fv->alpha_min, fv->alpha_max);
  if (!(fv->alpha_fix >= 0.0 && fv->alpha_fix <= 1.0))
    return HX_ERROR(HX_ERR_INPUT, "FV_alpha_fix = %g must lie in [0, 1]", fv->alpha_fix);
  if (fv->n_extend < 1)
    return HX_ERROR(HX_ERR_INPUT, "FV_nExtendAlpha = %d must be >= 1", fv->n_extend);
  if (!(fv->ext_scale >= 0.0 && fv->ext_scale <= 1.0))
    return HX_ERROR(HX_ERR_INPUT, "FV_alpha_ExtScale = %g must lie in [0, 1]", fv->ext_scale);
  return HX_OK;
}

static int line_base(int d, int np, int a, int b) {
  return d == 0 ? (b * np + a) * np : d == 1 ? b * np * np + a : b * np + a;
}

/* Contravariant vectors at the subcell interfaces: m_{-1/2} = Ja^d(node 0) and
 * m_{i+1/2} = m_{i-1/2} + w_i sum_l D_il Ja^d_l. With the SBP property this ends at Ja^d(node N),
 * and the inner ones equal -sum_{k<=i} sum_l w_l D_lk Ja^d_l; with the weak discrete metric
 * identities of the metrics (mesh/metrics.h: the end subcells meet the face normals) the FV
 * operator keeps a free stream (Hennemann et al. 2021, Sec. 3, the telescoping form of the metric
 * terms). */
static void subcell_metrics(const Solver *s, FVBlend *fv) {
  int np = s->np, N = np - 1, n3 = s->n_dof_elem;
  const double *D = s->disc.D, *w = s->disc.w;
#pragma omp parallel for schedule(static)
  for (int e = 0; e < s->mesh->n_elems; e++) {
    const double *Ja = &s->geo.metrics[9L * n3 * e];
    for (int d = 0; d < 3; d++) {
      int stride = d == 0 ? 1 : d == 1 ? np : np * np;
      for (int a = 0; a < np; a++)
        for (int b = 0; b < np; b++) {
          int base = line_base(d, np, a, b);
          double *out = &fv->metrics[(((long)e * 3 + d) * np * np + a * np + b) * N * 3];
          for (int c = 0; c < 3; c++) {
            const double *m = &Ja[(d * 3 + c) * n3 + base];
            double acc = m[0];
            for (int i = 0; i < N; i++) {
              double dm = 0.0;
              for (int l = 0; l < np; l++) dm += D[i * np + l] * m[l * stride];
              acc += w[i] * dm;
              out[i * 3 + c] = acc;
            }
          }
        }
    }
  }
}

int fv_init(const Params *p, Solver *s) {
  FVBlend *fv = &s->fv;
  memset(fv, 0, sizeof *fv);
  HX_CHECK(params_get_choice(p, "IndicatorType", &fv->indicator));
  fv->enabled = fv->indicator != FV_INDICATOR_NONE;
  if (!fv->enabled) return HX_OK;
  HX_CHECK(read_fv_params(p, s, fv));
  int np = s->np, N = np - 1;
  double V[HX_NPMAX * HX_NPMAX];
  basis_legendre_vandermonde(N, s->disc.x, V, fv->Vinv);
  fv_line_init(np, s->disc.x, s->disc.w, &fv->line);
  const Mesh *m = s->mesh;
  fv->alpha = hx_calloc(m->n_elems, sizeof(double), "FV blending factor");
  fv->alpha_master = hx_calloc(m->n_sides > 0 ? m->n_sides : 1, sizeof(double), "FV side alpha");
  fv->alpha_slave = hx_calloc(m->n_sides > 0 ? m->n_sides : 1, sizeof(double), "FV side alpha");
  fv->metrics = hx_malloc(sizeof(double) * 9 * (size_t)np * np * N * m->n_elems,
                          "FV subcell metrics");
  if (!fv->alpha || !fv->alpha_master || !fv->alpha_slave || !fv->metrics) return HX_ERR_MEM;
  subcell_metrics(s, fv);
  return HX_OK;
}

void fv_free(Solver *s) {
  free(s->fv.alpha);
  free(s->fv.alpha_master);
  free(s->fv.alpha_slave);
  free(s->fv.metrics);
  memset(&s->fv, 0, sizeof s->fv);
}

void fv_subcell_volume(const Solver *s, int e, const double *prim, const double *Y, double *Ut) {
  const FVBlend *fv = &s->fv;
  int np = s->np, N = np - 1, n3 = s->n_dof_elem;
  double *q = NULL; /* mixture: the reconstructed variables (rho, u, v, w, p, Y_k) of the nodes */
  if (s->mech) {
    q = malloc(sizeof(double) * FV_MIX_NQ(s->n_species) * n3);
    if (!q) return;
    memcpy(q, prim, sizeof(double) * 5 * n3);
    memcpy(q + 5 * n3, Y, sizeof(double) * s->n_species * n3);
  }
  for (int d = 0; d < 3; d++) {
    int stride = d == 0 ? 1 : d == 1 ? np : np * np;
    for (int a = 0; a < np; a++)
      for (int b = 0; b < np; b++) {
        int base = line_base(d, np, a, b);
        const double *mv = &fv->metrics[(((long)e * 3 + d) * np * np + a * np + b) * N * 3];
        if (q)
          fv_mix_line_residual(s->riemann, s->disc.split, fv->limiter, &s->phys, s->mech, np,
                               &fv->line, q, n3, Ut, n3, base, stride, mv, d > 0);
        else
          fv_line_residual(s->riemann, s->disc.split, fv->limiter, &s->phys, np, &fv->line, prim,
                           n3, Ut, n3, base, stride, 0, mv, 3, d > 0);
      }
  }
  free(q);
}

/* The quadrature weights of element e's nodes (the mean is the integral over the volume). */
static double node_volume_weight(const Solver *s, int e, int q) {
  int np = s->np;
  const double *w = s->disc.w;
  return w[q % np] * w[(q / np) % np] * w[q / (np * np)] / s->geo.sJ[(long)s->n_dof_elem * e + q];
}

/* ue = mean + theta (ue - mean) for nv variables of n3 nodes: the conservative limiting step. */
static void pull_to_mean(double *ue, const double *mean, int nv, int n3, double theta) {
  for (int v = 0; v < nv; v++)
    for (int q = 0; q < n3; q++) ue[v * n3 + q] = mean[v] + theta * (ue[v * n3 + q] - mean[v]);
}

/* The mixture's stage limiter: rho, every rho Y_k and the internal energy above its floor
 * (fv_mix_limit_element). */
static long fv_positivity_limit_mix(const Solver *s, double *U) {
  int n3 = s->n_dof_elem, nv = s->n_var;
  long n_limited = 0;
#pragma omp parallel for schedule(static) reduction(+ : n_limited)
  for (int e = 0; e < s->mesh->n_elems; e++)
    n_limited += fv_mix_limit_element(s->mech, &U[(long)nv * n3 * e], s->np, s->disc.w,
                                      &s->geo.sJ[(long)n3 * e]);
  return n_limited;
}

long fv_positivity_limit(const Solver *s, double *U) {
  if (s->mech) return fv_positivity_limit_mix(s, U);
  int n3 = s->n_dof_elem, nv = s->n_var;
  long n_limited = 0;
#pragma omp parallel for schedule(static) reduction(+ : n_limited)
  for (int e = 0; e < s->mesh->n_elems; e++) {
    double *ue = &U[(long)nv * n3 * e], mean[HX_NVAR] = {0}, vol = 0.0, rho_min = 1e300,
           p_min = 1e300;
    for (int q = 0; q < n3; q++) {
      double u[HX_NVAR];
      for (int v = 0; v < HX_NVAR; v++) u[v] = ue[v * n3 + q];
      double p = pressure_from_cons(&s->phys, u);
      rho_min = u[DENS] < rho_min ? u[DENS] : rho_min;
      p_min = p < p_min ? p : p_min;
      double wq = node_volume_weight(s, e, q);
      vol += wq;
      for (int v = 0; v < HX_NVAR; v++) mean[v] += wq * u[v];
    }
    for (int v = 0; v < HX_NVAR; v++) mean[v] /= vol;
    double p_mean = pressure_from_cons(&s->phys, mean);
    double eps_rho = FV_POSITIVITY_EPS * mean[DENS], eps_p = FV_POSITIVITY_EPS * p_mean;
    if (rho_min >= eps_rho && p_min >= eps_p) continue;
    if (!(mean[DENS] > 0.0 && p_mean > 0.0)) continue;
    double theta = 1.0;
    for (int q = 0; q < n3; q++) {
      double u[HX_NVAR];
      for (int v = 0; v < HX_NVAR; v++) u[v] = ue[v * n3 + q];
      double t = fv_admissible_fraction(&s->phys, mean, u, eps_rho, eps_p);
      theta = t < theta ? t : theta;
    }
    pull_to_mean(ue, mean, HX_NVAR, n3, theta);
    n_limited++;
  }
  return n_limited;
}
