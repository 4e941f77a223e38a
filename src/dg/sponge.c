/* Sponge zone (FLEXI's parameter names): Ut += -sigma(x) (U - U_base), sigma = damping * ramp(s)
 * with the C2 ramp 6s^5 - 15s^4 + 10s^3 of the scaled distance s in [0, 1] into the zone:
 *   SpongeShape = 1: s = (x - xStart) . SpongeDir / SpongeDistance  (planar)
 *   SpongeShape = 2: s = (r - SpongeRadius) / SpongeDistance, r the distance from the axis
 *                    through SpongeCenter along SpongeAxis          (cylindrical)
 * The base flow U_base (SpongeBaseFlow, FLEXI's codes): 1 the constant RefState SpongeRefState
 * (Solver.sponge_base), 2 the exact function SpongeExactFunc at t = 0, 3 the state in
 * SpongeRefFile, 4 Pruett's temporally filtered solution (tempFilterWidthSponge). Modes 2-4 keep a
 * per-node base over the sponge elements only (those with sigma > 0 at some node): the cascade's
 * zones hold a fraction of its 1e7 DOF. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dg/solver.h"
#include "dg/sponge.h"
#include "physics/eos.h"

static const char *const BASE_NAMES[] = {"constant", "exactfunction", "file", "pruett"};
static const int BASE_IDS[] = {SPONGE_BASE_CONSTANT, SPONGE_BASE_EXACTFUNC, SPONGE_BASE_FILE,
                               SPONGE_BASE_PRUETT};

int sponge_define_params(Params *p) {
  const char *s = "Sponge";
  HX_CHECK(params_define(p, s, "SpongeLayer", PARAM_LOGICAL, 0, "F", false,
                         "Damp the solution towards a base state in a sponge zone."));
  HX_CHECK(params_define(p, s, "damping", PARAM_REAL, 0, "1.", false,
                         "Sponge strength sigma_max (1/time)."));
  HX_CHECK(params_define(p, s, "SpongeShape", PARAM_INT, 0, "1", false,
                         "1: planar ramp from xStart along SpongeDir; 2: cylindrical zone "
                         "outside SpongeRadius around SpongeAxis through SpongeCenter."));
  HX_CHECK(params_define(p, s, "SpongeDistance", PARAM_REAL, 0, "1.", false,
                         "Length over which the sponge ramps up from 0 to damping."));
  HX_CHECK(params_define(p, s, "xStart", PARAM_REAL_ARRAY, 3, "(/0.,0.,0./)", false,
                         "Planar sponge: a point on the plane where the ramp starts."));
  HX_CHECK(params_define(p, s, "SpongeDir", PARAM_REAL_ARRAY, 3, "(/1.,0.,0./)", false,
                         "Planar sponge: direction into the sponge zone."));
  HX_CHECK(params_define(p, s, "SpongeRadius", PARAM_REAL, 0, "1.", false,
                         "Cylindrical sponge: radius where the ramp starts."));
  HX_CHECK(params_define(p, s, "SpongeCenter", PARAM_REAL_ARRAY, 3, "(/0.,0.,0./)", false,
                         "Cylindrical sponge: a point on the axis."));
  HX_CHECK(params_define(p, s, "SpongeAxis", PARAM_REAL_ARRAY, 3, "(/0.,0.,1./)", false,
                         "Cylindrical sponge: axis direction."));
  HX_CHECK(params_define(p, s, "SpongeRefState", PARAM_INT, 0, "1", false,
                         "RefState (counted from 1) that the sponge damps towards "
                         "(SpongeBaseFlow = constant)."));
  HX_CHECK(params_define_choice(
      p, s, "SpongeBaseFlow", "constant", 4, BASE_NAMES, BASE_IDS,
      "Base flow of the sponge (FLEXI's codes): 1 constant (RefState SpongeRefState), 2 "
      "exactfunction (SpongeExactFunc at t = 0), 3 file (DG_Solution of SpongeRefFile), 4 "
      "pruett (the solution filtered in time over tempFilterWidthSponge; docs/sponge.md)."));
  HX_CHECK(params_define(p, s, "SpongeExactFunc", PARAM_INT, 0, "", false,
                         "Exact function (IniExactFunc's codes, with IniRefState) of the base "
                         "flow, evaluated once at t = 0 (SpongeBaseFlow = exactfunction)."));
  HX_CHECK(params_define(p, s, "SpongeRefFile", PARAM_STRING, 0, "none", false,
                         "State file (same mesh, N, NodeType) whose DG_Solution is the base flow "
                         "(SpongeBaseFlow = file), or the initial filtered base flow "
                         "(SpongeBaseFlow = pruett; none: the initial state, or at a restart "
                         "<ProjectName>_BaseFlow_<time>.h5)."));
  HX_CHECK(params_define(p, s, "tempFilterWidthSponge", PARAM_REAL, 0, "", false,
                         "Temporal filter width Delta of the Pruett base flow: dU_b/dt = (U - "
                         "U_b) / Delta (SpongeBaseFlow = pruett)."));
  return HX_OK;
}

static double unit(double *v) {
  double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int c = 0; c < 3; c++)
    v[c] /= n;
  return n;
}

static double ramp(double s) {
  if (s <= 0.0) return 0.0;
  if (s >= 1.0) return 1.0;
  return s * s * s * (10.0 + s * (-15.0 + 6.0 * s));
}

/* SpongeExactFunc at t = 0 on the sponge elements, as FLEXI evaluates it once (sponge.f90). */
static int base_from_exact(const Params *p, Solver *s) {
  if (!params_is_set(p, "SpongeExactFunc"))
    return HX_ERROR(HX_ERR_INPUT, "SpongeBaseFlow = exactfunction needs SpongeExactFunc (an "
                                  "IniExactFunc code, e.g. 1 for the RefState IniRefState)");
  int which, n3 = s->n_dof_elem, nv = s->n_var;
  HX_CHECK(params_get_int(p, "SpongeExactFunc", &which));
  for (long e = 0; e < s->mesh->n_elems; e++) {
    if (s->sponge_elem[e] < 0) continue;
    const double *x = &s->geo.elem_x[3L * n3 * e];
    double *ub = &s->sponge_base_U[(long)s->sponge_elem[e] * nv * n3];
    for (int q = 0; q < n3; q++) {
      double xq[3] = {x[q], x[n3 + q], x[2 * n3 + q]}, u[HX_NVAR];
      exact_func_eval(&s->exact, &s->phys, which, s->exact.ref_state, xq, 0.0, u);
      for (int v = 0; v < nv; v++) {
        if (!isfinite(u[v]))
          return HX_ERROR(HX_ERR_INPUT,
                          "SpongeExactFunc = %d gives no state (unknown code, or "
                          "its RefState is missing)",
                          which);
        ub[v * n3 + q] = u[v];
      }
    }
  }
  return HX_OK;
}

/* Modes 2-4: the map of the sponge elements and their per-node base flow (modes 3 and 4 are
 * filled by sponge_set_base from the time layer, which reads the files). */
static int base_flow_init(const Params *p, Solver *s) {
  long n3 = s->n_dof_elem, ne = s->mesh->n_elems;
  s->sponge_elem = hx_malloc(sizeof(int) * (ne + 1), "sponge element map");
  HX_ALLOC_CHECK(s->sponge_elem);
  s->n_sponge_elems = 0;
  for (long e = 0; e < ne; e++) {
    int in = 0;
    for (long q = 0; q < n3; q++)
      in |= s->sponge[n3 * e + q] > 0.0;
    s->sponge_elem[e] = in ? s->n_sponge_elems++ : -1;
  }
  s->sponge_base_U =
      hx_calloc((size_t)s->n_sponge_elems * s->n_var * n3 + 1, sizeof(double), "sponge base flow");
  HX_ALLOC_CHECK(s->sponge_base_U);
  if (s->sponge_base_flow == SPONGE_BASE_EXACTFUNC) return base_from_exact(p, s);
  if (s->sponge_base_flow == SPONGE_BASE_PRUETT) {
    if (!params_is_set(p, "tempFilterWidthSponge"))
      return HX_ERROR(HX_ERR_INPUT, "SpongeBaseFlow = pruett needs tempFilterWidthSponge (the "
                                    "filter width Delta, a time longer than the periods to damp)");
    HX_CHECK(params_get_real(p, "tempFilterWidthSponge", &s->sponge_filter_width));
    if (!(s->sponge_filter_width > 0.0))
      return HX_ERROR(HX_ERR_INPUT, "tempFilterWidthSponge = %g must be > 0",
                      s->sponge_filter_width);
  }
  return HX_OK;
}

int sponge_init(const Params *p, Solver *s) {
  bool on;
  HX_CHECK(params_get_logical(p, "SpongeLayer", &on));
  if (!on) return HX_OK;
  int shape, ref;
  double damping, dist, x0[3], dir[3], radius, center[3], axis[3];
  HX_CHECK(params_get_real(p, "damping", &damping));
  HX_CHECK(params_get_int(p, "SpongeShape", &shape));
  HX_CHECK(params_get_real(p, "SpongeDistance", &dist));
  HX_CHECK(params_get_real_array(p, "xStart", 3, x0));
  HX_CHECK(params_get_real_array(p, "SpongeDir", 3, dir));
  HX_CHECK(params_get_real(p, "SpongeRadius", &radius));
  HX_CHECK(params_get_real_array(p, "SpongeCenter", 3, center));
  HX_CHECK(params_get_real_array(p, "SpongeAxis", 3, axis));
  HX_CHECK(params_get_int(p, "SpongeRefState", &ref));
  if (shape != 1 && shape != 2)
    return HX_ERROR(HX_ERR_INPUT, "SpongeShape = %d: use 1 (planar) or 2 (cylindrical)", shape);
  if (!(dist > 0.0) || damping < 0.0)
    return HX_ERROR(HX_ERR_INPUT, "SpongeDistance = %g must be > 0 and damping = %g >= 0", dist,
                    damping);
  if (ref < 1 || ref > s->exact.n_ref_states)
    return HX_ERROR(HX_ERR_INPUT, "SpongeRefState = %d, but %d RefState entries are given", ref,
                    s->exact.n_ref_states);
  if (unit(dir) == 0.0 || unit(axis) == 0.0)
    return HX_ERROR(HX_ERR_INPUT, "SpongeDir and SpongeAxis must not be zero vectors");
  prim_to_cons(&s->phys, s->exact.ref_prim[ref - 1], s->sponge_base);
  HX_CHECK(params_get_choice(p, "SpongeBaseFlow", &s->sponge_base_flow));
  long n3 = s->n_dof_elem;
  s->sponge = hx_malloc(sizeof(double) * n3 * s->mesh->n_elems, "sponge strength");
  HX_ALLOC_CHECK(s->sponge);
  for (long e = 0; e < s->mesh->n_elems; e++)
    for (long q = 0; q < n3; q++) {
      const double *x = &s->geo.elem_x[3 * n3 * e];
      double d[3] = {x[q] - (shape == 1 ? x0[0] : center[0]),
                     x[n3 + q] - (shape == 1 ? x0[1] : center[1]),
                     x[2 * n3 + q] - (shape == 1 ? x0[2] : center[2])};
      double sd;
      if (shape == 1) {
        sd = (d[0] * dir[0] + d[1] * dir[1] + d[2] * dir[2]) / dist;
      } else {
        double a = d[0] * axis[0] + d[1] * axis[1] + d[2] * axis[2];
        double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - a * a;
        sd = (sqrt(r2 > 0.0 ? r2 : 0.0) - radius) / dist;
      }
      s->sponge[n3 * e + q] = damping * ramp(sd);
    }
  return s->sponge_base_flow == SPONGE_BASE_CONSTANT ? HX_OK : base_flow_init(p, s);
}

void sponge_free(Solver *s) {
  free(s->sponge);
  free(s->sponge_elem);
  free(s->sponge_base_U);
  s->sponge = s->sponge_base_U = NULL;
  s->sponge_elem = NULL;
}

void sponge_apply(const Solver *s, int e, const double *u, double *ut) {
  int n3 = s->n_dof_elem, nv = s->n_var;
  const double *sig = &s->sponge[(long)n3 * e];
  if (s->sponge_base_U) {
    if (s->sponge_elem[e] < 0) return; /* sigma = 0 on every node of the element */
    const double *ub = &s->sponge_base_U[(long)s->sponge_elem[e] * nv * n3];
    for (int v = 0; v < nv; v++)
      for (int q = 0; q < n3; q++)
        ut[v * n3 + q] -= sig[q] * (u[v * n3 + q] - ub[v * n3 + q]);
    return;
  }
  for (int v = 0; v < nv; v++)
    for (int q = 0; q < n3; q++)
      ut[v * n3 + q] -= sig[q] * (u[v * n3 + q] - s->sponge_base[v]);
}

void sponge_set_base(Solver *s, const double *U_full) {
  long blk = (long)s->n_var * s->n_dof_elem;
  for (long e = 0; e < s->mesh->n_elems; e++)
    if (s->sponge_elem[e] >= 0)
      memcpy(&s->sponge_base_U[s->sponge_elem[e] * blk], &U_full[e * blk], sizeof(double) * blk);
}

void sponge_expand_base(const Solver *s, const double *U_fill, double *out) {
  long blk = (long)s->n_var * s->n_dof_elem;
  for (long e = 0; e < s->mesh->n_elems; e++) {
    const double *src =
        s->sponge_elem[e] >= 0 ? &s->sponge_base_U[s->sponge_elem[e] * blk] : &U_fill[e * blk];
    memcpy(&out[e * blk], src, sizeof(double) * blk);
  }
}

void sponge_pruett_update(Solver *s, const double *U, double dt) {
  long blk = (long)s->n_var * s->n_dof_elem;
  double fac = fmin(dt / s->sponge_filter_width, 1.0); /* FLEXI's limit: never past U */
#pragma omp parallel for schedule(static)
  for (long e = 0; e < s->mesh->n_elems; e++) {
    if (s->sponge_elem[e] < 0) continue;
    double *ub = &s->sponge_base_U[s->sponge_elem[e] * blk];
    const double *u = &U[e * blk];
    for (long q = 0; q < blk; q++)
      ub[q] += (u[q] - ub[q]) * fac;
  }
}
