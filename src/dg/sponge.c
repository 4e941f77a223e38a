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
#include "physics/mixture.h"

static const char *const BASE_NAMES[] = {"constant", "exactfunction", "file", "pruett"};
static const int BASE_IDS[] = {SPONGE_BASE_CONSTANT, SPONGE_BASE_EXACTFUNC, SPONGE_BASE_FILE,
                               SPONGE_BASE_PRUETT};

int sponge_define_params(Params *p) {
  const char *s = "Sponge";
  HX_CHECK(params_define(p, s, "SpongeLayer", PARAM_LOGICAL, 0, "F", false,
                         "Damp the solution towards a base state in a sponge zone."));
  HX_CHECK(
      params_define(p, s, "damping", PARAM_REAL, 0, "1.", true,
                    "Sponge strength sigma_max (1/time). The zone keys (damping, SpongeShape, "
                    "SpongeDistance, xStart, SpongeDir, SpongeRadius, SpongeCenter, SpongeAxis, "
                    "SpongeRefState) may be repeated: the k-th value belongs to zone k, a key "
                    "given once applies to every zone (docs/sponge.md)."));
  HX_CHECK(params_define(p, s, "SpongeShape", PARAM_INT, 0, "1", true,
                         "1: planar ramp from xStart along SpongeDir; 2: cylindrical zone "
                         "outside SpongeRadius around SpongeAxis through SpongeCenter."));
  HX_CHECK(params_define(p, s, "SpongeDistance", PARAM_REAL, 0, "1.", true,
                         "Length over which the sponge ramps up from 0 to damping."));
  HX_CHECK(params_define(p, s, "xStart", PARAM_REAL_ARRAY, 3, "(/0.,0.,0./)", true,
                         "Planar sponge: a point on the plane where the ramp starts."));
  HX_CHECK(params_define(p, s, "SpongeDir", PARAM_REAL_ARRAY, 3, "(/1.,0.,0./)", true,
                         "Planar sponge: direction into the sponge zone."));
  HX_CHECK(params_define(p, s, "SpongeRadius", PARAM_REAL, 0, "1.", true,
                         "Cylindrical sponge: radius where the ramp starts."));
  HX_CHECK(params_define(p, s, "SpongeCenter", PARAM_REAL_ARRAY, 3, "(/0.,0.,0./)", true,
                         "Cylindrical sponge: a point on the axis."));
  HX_CHECK(params_define(p, s, "SpongeAxis", PARAM_REAL_ARRAY, 3, "(/0.,0.,1./)", true,
                         "Cylindrical sponge: axis direction."));
  HX_CHECK(params_define(p, s, "SpongeRefState", PARAM_INT, 0, "1", true,
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
  if (s->mech && which != s->exact.which)
    return HX_ERROR(HX_ERR_INPUT,
                    "SpongeExactFunc = %d with a Mechanism: the mixture's base flow "
                    "is its initial state, so SpongeExactFunc must be IniExactFunc (%d)",
                    which, s->exact.which);
  for (long e = 0; e < s->mesh->n_elems; e++) {
    if (s->sponge_elem[e] < 0) continue;
    const double *x = &s->geo.elem_x[3L * n3 * e];
    double *ub = &s->sponge_base_U[(long)s->sponge_elem[e] * nv * n3];
    for (int q = 0; q < n3; q++) {
      double xq[3] = {x[q], x[n3 + q], x[2 * n3 + q]}, u[HX_NVAR_MAX];
      if (s->mech) /* the mixture's exact function (IniZND's profile included) */
        solver_exact_state(s, xq, 0.0, u);
      else
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

/* One sponge zone: its ramp geometry, strength and (SpongeBaseFlow = constant) RefState. */
typedef struct {
  int shape, ref;
  double damping, dist, x0[3], dir[3], radius, center[3], axis[3];
} SpongeZone;

/* The number of zones: the most values any zone key has; a key given once applies to all. */
static int zone_count(const Params *p) {
  static const char *const keys[] = {"damping",      "SpongeShape", "SpongeDistance",
                                     "xStart",       "SpongeDir",   "SpongeRadius",
                                     "SpongeCenter", "SpongeAxis",  "SpongeRefState"};
  int n = 1;
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    int c = params_count(p, keys[k]);
    if (c > n) n = c;
  }
  return n;
}

/* Zone z's value of a key: the key's z-th value where it has one per zone, else its only value or
 * its default (a key given once applies to every zone). */
static int zone_value(const Params *p, const char *key, int z, int n_zones, ParamType type,
                      void *out) {
  int c = params_count(p, key);
  if (c > 1 && c != n_zones)
    return HX_ERROR(HX_ERR_INPUT,
                    "%s is given %d times but the sponge has %d zones: give every zone key "
                    "once (shared by all zones) or once per zone",
                    key, c, n_zones);
  if (c <= 1) {
    if (type == PARAM_INT) return params_get_int(p, key, out);
    if (type == PARAM_REAL) return params_get_real(p, key, out);
    return params_get_real_array(p, key, 3, out);
  }
  if (type == PARAM_INT) return params_get_int_at(p, key, z, out);
  if (type == PARAM_REAL) return params_get_real_at(p, key, z, out);
  return params_get_real_array_at(p, key, z, 3, out);
}

static int zone_read(const Params *p, const Solver *s, int z, int nz, SpongeZone *zn) {
  HX_CHECK(zone_value(p, "damping", z, nz, PARAM_REAL, &zn->damping));
  HX_CHECK(zone_value(p, "SpongeDistance", z, nz, PARAM_REAL, &zn->dist));
  HX_CHECK(zone_value(p, "SpongeRadius", z, nz, PARAM_REAL, &zn->radius));
  HX_CHECK(zone_value(p, "xStart", z, nz, PARAM_REAL_ARRAY, zn->x0));
  HX_CHECK(zone_value(p, "SpongeDir", z, nz, PARAM_REAL_ARRAY, zn->dir));
  HX_CHECK(zone_value(p, "SpongeCenter", z, nz, PARAM_REAL_ARRAY, zn->center));
  HX_CHECK(zone_value(p, "SpongeAxis", z, nz, PARAM_REAL_ARRAY, zn->axis));
  HX_CHECK(zone_value(p, "SpongeShape", z, nz, PARAM_INT, &zn->shape));
  HX_CHECK(zone_value(p, "SpongeRefState", z, nz, PARAM_INT, &zn->ref));
  if (zn->shape != 1 && zn->shape != 2)
    return HX_ERROR(HX_ERR_INPUT,
                    "sponge zone %d: SpongeShape = %d: use 1 (planar) or 2 "
                    "(cylindrical)",
                    z + 1, zn->shape);
  if (!(zn->dist > 0.0) || zn->damping < 0.0)
    return HX_ERROR(HX_ERR_INPUT,
                    "sponge zone %d: SpongeDistance = %g must be > 0 and "
                    "damping = %g >= 0",
                    z + 1, zn->dist, zn->damping);
  if (zn->ref < 1 || zn->ref > s->exact.n_ref_states)
    return HX_ERROR(HX_ERR_INPUT,
                    "sponge zone %d: SpongeRefState = %d, but %d RefState entries "
                    "are given",
                    z + 1, zn->ref, s->exact.n_ref_states);
  if (unit(zn->dir) == 0.0 || unit(zn->axis) == 0.0)
    return HX_ERROR(HX_ERR_INPUT,
                    "sponge zone %d: SpongeDir and SpongeAxis must not be zero "
                    "vectors",
                    z + 1);
  return HX_OK;
}

/* sigma of one zone at x: damping * ramp of the scaled distance into the zone. */
static double zone_sigma(const SpongeZone *zn, const double x[3]) {
  const double *o = zn->shape == 1 ? zn->x0 : zn->center;
  double d[3] = {x[0] - o[0], x[1] - o[1], x[2] - o[2]}, sd;
  if (zn->shape == 1) {
    sd = (d[0] * zn->dir[0] + d[1] * zn->dir[1] + d[2] * zn->dir[2]) / zn->dist;
  } else {
    double a = d[0] * zn->axis[0] + d[1] * zn->axis[1] + d[2] * zn->axis[2];
    double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - a * a;
    sd = (sqrt(r2 > 0.0 ? r2 : 0.0) - zn->radius) / zn->dist;
  }
  return zn->damping * ramp(sd);
}

/* The zone that damps x most (the first of equals; zone 0 where none damps) and its sigma:
 * overlapping zones take the strongest damping, no sum, so sigma <= the largest damping. */
static int strongest_zone(const SpongeZone *zones, int nz, const double x[3], double *sigma) {
  int best = 0;
  *sigma = 0.0;
  for (int z = 0; z < nz; z++) {
    double sz = zone_sigma(&zones[z], x);
    if (sz > *sigma) {
      *sigma = sz;
      best = z;
    }
  }
  return best;
}

/* SpongeBaseFlow = constant with zones of different RefStates: the per-node base is the RefState
 * of the zone that damps the node most. */
static int base_from_zones(Solver *s, const SpongeZone *zones, int nz) {
  int n3 = s->n_dof_elem, nv = s->n_var;
  for (long e = 0; e < s->mesh->n_elems; e++) {
    if (s->sponge_elem[e] < 0) continue;
    const double *x = &s->geo.elem_x[3L * n3 * e];
    double *ub = &s->sponge_base_U[(long)s->sponge_elem[e] * nv * n3];
    for (int q = 0; q < n3; q++) {
      double xq[3] = {x[q], x[n3 + q], x[2 * n3 + q]}, sig, u[HX_NVAR];
      int z = strongest_zone(zones, nz, xq, &sig);
      const double *ref = u;
      if (s->mech) /* the mixture's conservative RefState, species included */
        ref = s->ref_U + (size_t)(zones[z].ref - 1) * nv;
      else
        prim_to_cons(&s->phys, s->exact.ref_prim[zones[z].ref - 1], u);
      for (int v = 0; v < nv; v++)
        ub[v * n3 + q] = ref[v];
    }
  }
  return HX_OK;
}

int sponge_init(const Params *p, Solver *s) {
  bool on;
  HX_CHECK(params_get_logical(p, "SpongeLayer", &on));
  if (!on) return HX_OK;
  int nz = zone_count(p);
  SpongeZone *zones = hx_malloc(sizeof(SpongeZone) * nz, "sponge zones");
  HX_ALLOC_CHECK(zones);
  int rc = HX_OK, mixed_refs = 0;
  for (int z = 0; z < nz && rc == HX_OK; z++) {
    rc = zone_read(p, s, z, nz, &zones[z]);
    if (rc == HX_OK && zones[z].ref != zones[0].ref) mixed_refs = 1;
  }
  if (rc == HX_OK) rc = params_get_choice(p, "SpongeBaseFlow", &s->sponge_base_flow);
  if (rc != HX_OK) {
    free(zones);
    return rc;
  }
  prim_to_cons(&s->phys, s->exact.ref_prim[zones[0].ref - 1], s->sponge_base);
  long n3 = s->n_dof_elem, nd = n3 * s->mesh->n_elems;
  s->sponge = hx_malloc(sizeof(double) * nd, "sponge strength");
  if (!s->sponge) {
    free(zones);
    return HX_ERROR(HX_ERR_MEM, "out of memory for the sponge strength");
  }
  for (long e = 0; e < s->mesh->n_elems; e++)
    for (long q = 0; q < n3; q++) {
      const double *x = &s->geo.elem_x[3 * n3 * e];
      double xq[3] = {x[q], x[n3 + q], x[2 * n3 + q]};
      strongest_zone(zones, nz, xq, &s->sponge[n3 * e + q]);
    }
  if (s->sponge_base_flow == SPONGE_BASE_CONSTANT && !mixed_refs && !s->mech) {
    rc = HX_OK; /* one constant air state: Solver.sponge_base, no per-node array */
  } else {
    rc = base_flow_init(p, s);
    if (rc == HX_OK && s->sponge_base_flow == SPONGE_BASE_CONSTANT)
      rc = base_from_zones(s, zones, nz);
  }
  free(zones);
  return rc;
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
