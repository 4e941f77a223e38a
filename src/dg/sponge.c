/* Sponge zone (FLEXI's parameter names): Ut += -sigma(x) (U - U_base), sigma = damping * ramp(s)
 * with the C2 ramp 6s^5 - 15s^4 + 10s^3 of the scaled distance s in [0, 1] into the zone:
 *   SpongeShape = 1: s = (x - xStart) . SpongeDir / SpongeDistance  (planar)
 *   SpongeShape = 2: s = (r - SpongeRadius) / SpongeDistance, r the distance from the axis
 *                    through SpongeCenter along SpongeAxis          (cylindrical)
 * The base state is the constant RefState SpongeRefState. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "dg/solver.h"
#include "physics/eos.h"

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
                         "RefState (counted from 1) that the sponge damps towards."));
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
  return HX_OK;
}
