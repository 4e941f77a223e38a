/* Chapman-Jouguet detonation: the minimum wave speed over the equilibrium Hugoniot (see cj.h). */
#include "chem/cj.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chem/equil.h"
#include "chem/thermo.h"
#include "core/error.h"

#define CJ_X_LO 0.2 /* v2/v1 bracket of the search: CJ points of gases lie near 0.5-0.6 */
#define CJ_X_HI 0.95
#define CJ_X_TOL 1e-6     /* width of the final bracket in v2/v1 */
#define HUGONIOT_TOL 1e-9 /* |Hugoniot residual| / (p1 v1) */
#define HUGONIOT_MAX_IT 60

#define CJ_ERROR(m, T1, p1, fmt, ...)                                                              \
  HX_ERROR(HX_ERR_NUMERIC, "CJ detonation with mechanism %s, T1 %g K, p1 %g Pa: " fmt, (m)->path,  \
           (T1), (p1), __VA_ARGS__)

/* Products in equilibrium at internal energy u and specific volume v: the unburnt composition Y1
 * placed at (u, v) and handed to chem_equilibrate(UV), which keeps u and v. */
static int equilibrium_uv(const ChemMech *m, const double *Y1, double u, double v, double *T,
                          double *p, double *Y) {
  double T_in = 1000;
  if (chem_T_from_u(m, Y1, 1, u, &T_in)) return HX_ERR_NUMERIC;
  double p_in = CHEM_R * T_in / (v * chem_mean_mw(m, Y1, 1));
  memcpy(Y, Y1, sizeof(double) * (size_t)m->n_species);
  if (chem_equilibrate(m, CHEM_EQ_UV, &T_in, &p_in, Y)) return HX_ERR_NUMERIC;
  *T = T_in, *p = p_in;
  return HX_OK;
}

int chem_hugoniot_equilibrium(const ChemMech *m, double T1, double p1, const double *Y1, double x,
                              double *D, double *T2, double *p2, double *Y2) {
  if (!(T1 > 0 && p1 > 0 && isfinite(T1) && isfinite(p1) && x > 0 && x < 1))
    return CJ_ERROR(m, T1, p1, "need T1, p1 > 0 and a volume ratio v2/v1 = %g in (0, 1)", x);
  double v1 = CHEM_R * T1 / (p1 * chem_mean_mw(m, Y1, 1)), v2 = x * v1;
  double u1 = chem_u_mass(m, T1, Y1, 1), half_dv = 0.5 * (v1 - v2);
  double T = T1, p = p1;
  /* F(u) = u - u1 - (p1 + p_eq(u, v2))(v1 - v2)/2, the Hugoniot residual (Fickett & Davis eq. 2.9)
   * with dF/du = 1 - (v1 - v2)/2 dp/du|_v close to 1: secant from a fixed-point step */
  double u_a = u1 + 2 * half_dv * p1, u_b = 0, F_a = 0, F_b = 0;
  for (int it = 0; it <= HUGONIOT_MAX_IT; it++) {
    double u = it == 0 ? u_a : u_b;
    if (equilibrium_uv(m, Y1, u, v2, &T, &p, Y2))
      return CJ_ERROR(m, T1, p1, "no equilibrium at v2/v1 = %g, u2 = %g J/kg", x, u);
    double F = u - u1 - half_dv * (p1 + p);
    if (it > 0 && fabs(F) <= HUGONIOT_TOL * p1 * v1) {
      if (!(p > p1))
        return CJ_ERROR(m, T1, p1, "Hugoniot pressure %g Pa at v2/v1 = %g is not above p1", p, x);
      *D = v1 * sqrt((p - p1) / (v1 - v2)); /* mass and momentum across the wave */
      *T2 = T, *p2 = p;
      return HX_OK;
    }
    if (it == 0) {
      F_a = F, u_b = u_a - F; /* the fixed-point step u = u1 + (p1 + p)(v1 - v2)/2 */
      continue;
    }
    F_b = F;
    double u_next = F_b != F_a ? u_b - F_b * (u_b - u_a) / (F_b - F_a) : u_b - F_b;
    u_a = u_b, F_a = F_b, u_b = u_next;
  }
  return CJ_ERROR(m, T1, p1, "Hugoniot at v2/v1 = %g not converged in %d secant steps", x,
                  HUGONIOT_MAX_IT);
}

int chem_cj_detonation(const ChemMech *m, double T1, double p1, const double *Y1, double *D_cj,
                       double *T2, double *p2, double *Y2) {
  double *Y = hx_malloc(sizeof(double) * (size_t)m->n_species, "CJ product mass fractions");
  HX_ALLOC_CHECK(Y);
  /* golden-section search for the minimum of D(v2/v1) (Browne et al. 2008, sec. 4.2) */
  const double g = 0.5 * (sqrt(5.0) - 1);
  double a = CJ_X_LO, b = CJ_X_HI, c = b - g * (b - a), d = a + g * (b - a);
  double Dc, Dd, D, T, p;
  int rc = chem_hugoniot_equilibrium(m, T1, p1, Y1, c, &Dc, &T, &p, Y);
  if (!rc) rc = chem_hugoniot_equilibrium(m, T1, p1, Y1, d, &Dd, &T, &p, Y);
  while (!rc && b - a > CJ_X_TOL) {
    if (Dc < Dd) {
      b = d, d = c, Dd = Dc, c = b - g * (b - a);
      rc = chem_hugoniot_equilibrium(m, T1, p1, Y1, c, &Dc, &T, &p, Y);
    } else {
      a = c, c = d, Dc = Dd, d = a + g * (b - a);
      rc = chem_hugoniot_equilibrium(m, T1, p1, Y1, d, &Dd, &T, &p, Y);
    }
  }
  double x = 0.5 * (a + b);
  if (!rc && (x < CJ_X_LO + 0.01 || x > CJ_X_HI - 0.01))
    rc = CJ_ERROR(m, T1, p1, "the wave speed has no minimum inside v2/v1 in [%g, %g] (edge %g)",
                  CJ_X_LO, CJ_X_HI, x);
  if (!rc) rc = chem_hugoniot_equilibrium(m, T1, p1, Y1, x, &D, &T, &p, Y);
  if (rc) {
    free(Y);
    return CJ_ERROR(m, T1, p1, "%s", "no CJ state found (see the errors above)");
  }
  *D_cj = D, *T2 = T, *p2 = p;
  memcpy(Y2, Y, sizeof(double) * (size_t)m->n_species);
  free(Y);
  return HX_OK;
}
