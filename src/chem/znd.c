/* The ZND structure of a steady detonation (see znd.h). */
#include "chem/znd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chem/kinetics.h"
#include "chem/thermo.h"
#include "core/error.h"

#define ZND_ETA_END 1e-3     /* the sonic point: 1 - M^2 below this ends the profile */
#define ZND_RTOL 1e-8        /* relative tolerance of the steps (rho, x, the Y_k) */
#define ZND_ATOL_Y 1e-12     /* absolute tolerance of the mass fractions */
#define ZND_MAX_STEPS 2000000 /* beyond this the zone is too stiff for explicit steps */
#define ZND_SIGMA_DONE 1e-6  /* thermicity / its peak below which the reactions are done */

#define ZND_ERROR(m, T1, p1, D, fmt, ...)                                                          \
  HX_ERROR(HX_ERR_NUMERIC, "ZND profile with mechanism %s, T1 %g K, p1 %g Pa, D %g m/s: " fmt,     \
           (m)->path, (T1), (p1), (D), __VA_ARGS__)

/* ---------------------------------------------------------------------------------------------
 * The frozen shock: v2 = xr v1 on the Rayleigh line p2 = p1 + rho1 D^2 (1 - xr) and the Hugoniot
 * h2 = h1 + D^2 (1 - xr^2) / 2 (mass, momentum, energy; Fickett & Davis eq. 2.3); the state
 * equation p2 = rho2 R T2 / W closes it. The strong root is the first sign change of the state
 * equation's residual from small xr up (the weak one is xr = 1, no shock). */

typedef struct {
  const ChemMech *m;
  const double *Y1;
  double rho1, p1, h1, W1, D;
} ShockCtx;

static int shock_residual(const ShockCtx *s, double xr, double *T, double *res) {
  const double D2 = s->D * s->D;
  const double p2 = s->p1 + s->rho1 * D2 * (1.0 - xr);
  const double h2 = s->h1 + 0.5 * D2 * (1.0 - xr * xr);
  if (chem_T_from_h(s->m, s->Y1, 1, h2, T)) return HX_ERR_NUMERIC;
  *res = p2 - (s->rho1 / xr) * CHEM_R * (*T) / s->W1;
  return HX_OK;
}

int chem_frozen_shock(const ChemMech *m, double T1, double p1, const double *Y1, double D,
                      double *T2, double *p2, double *rho2, double *w2) {
  if (!(T1 > 0 && p1 > 0 && D > 0 && isfinite(T1) && isfinite(p1) && isfinite(D)))
    return ZND_ERROR(m, T1, p1, D, "%s", "need T1, p1 and D > 0");
  ShockCtx s = {m, Y1, 0, p1, chem_h_mass(m, T1, Y1, 1), chem_mean_mw(m, Y1, 1), D};
  s.rho1 = p1 * s.W1 / (CHEM_R * T1);
  double T = T1, a = 0, ra = 0;
  int found = 0;
  /* bracket the strong root from xr = 0.01 up, on points that crowd towards 1 (weak shocks) */
  for (int i = 1; i < 400 && !found; i++) {
    const double g = 1.0 - i / 400.0, xr = 1.0 - 0.99 * g * g;
    double r;
    if (shock_residual(&s, xr, &T, &r)) continue; /* h2 beyond the fits: stronger shocks only */
    if (i > 1 && ra < 0 && r >= 0) {
      double b = xr; /* bisection in [a, b] */
      for (int it = 0; it < 80; it++) {
        double c = 0.5 * (a + b), rc;
        if (shock_residual(&s, c, &T, &rc))
          return ZND_ERROR(m, T1, p1, D, "no temperature on the Hugoniot at v2/v1 = %g", c);
        if (rc < 0)
          a = c;
        else
          b = c;
      }
      a = 0.5 * (a + b);
      found = 1;
      break;
    }
    a = xr, ra = r;
  }
  if (!found)
    return ZND_ERROR(m, T1, p1, D, "%s", "no shock: D is not above the sound speed of the "
                                         "mixture, or the shock leaves the NASA fits");
  if (shock_residual(&s, a, &T, &ra))
    return ZND_ERROR(m, T1, p1, D, "no temperature on the Hugoniot at v2/v1 = %g", a);
  *T2 = T;
  *rho2 = s.rho1 / a;
  *w2 = D * a;
  *p2 = p1 + s.rho1 * D * D * (1.0 - a);
  return HX_OK;
}

/* ---------------------------------------------------------------------------------------------
 * The reaction zone: z = [rho, Y_0 .. Y_ns-1, x] over the particle time t. */

typedef struct {
  const ChemMech *m;
  double rho1, p1, h1, D;
  double *C, *wdot, *work; /* [ns], [ns], chem_kinetics_work */
} ZoneCtx;

/* dz/dt at z, and the thermicity, the sonic parameter and T, p, w there. Returns nonzero where
 * the state is not physical (T or p <= 0, or the flow sonic or supersonic: eta <= 0). */
static int zone_rhs(const ZoneCtx *c, const double *z, double *dz, double *sigma, double *eta,
                    double *T, double *p, double *w) {
  const ChemMech *m = c->m;
  const int ns = m->n_species;
  const double rho = z[0], *Y = z + 1;
  if (!(rho > 0)) return 1;
  *w = c->rho1 * c->D / rho;
  *p = c->p1 + c->rho1 * c->D * c->D - rho * (*w) * (*w);
  const double W = chem_mean_mw(m, Y, 1);
  *T = (*p) * W / (rho * CHEM_R);
  if (!(*T > CHEM_T_LOW && *T < m->T_hi && *p > 0)) return 1;
  for (int k = 0; k < ns; k++) c->C[k] = rho * Y[k] / m->mw[k];
  chem_wdot(m, *T, c->C, 1, c->wdot, 1, c->work, 1);
  const double cp = chem_cp_mass(m, *T, Y, 1);
  double s = 0;
  for (int k = 0; k < ns; k++) {
    const double dY = m->mw[k] * c->wdot[k] / rho;
    const double hk = chem_h_RT(m, k, *T) * CHEM_R * (*T) / m->mw[k];
    s += (W / m->mw[k] - hk / (cp * (*T))) * dY;
    dz[1 + k] = dY;
  }
  const double cv = cp - CHEM_R / W, c2 = cp / cv * (*p) / rho;
  *eta = 1.0 - (*w) * (*w) / c2;
  *sigma = s;
  if (!(*eta > 0)) return 1;
  dz[0] = -rho * s / (*eta);
  dz[1 + ns] = *w;
  return 0;
}

/* Dormand & Prince 1980, RK5(4)7M: the stages (the equations are autonomous, so the nodes are not
 * needed; the last row is the 5th-order weights, evaluated first-same-as-last) and the 4th-order
 * weights of the error estimate. */
static const double DP_A[7][6] = {
    {0},
    {1. / 5},
    {3. / 40, 9. / 40},
    {44. / 45, -56. / 15, 32. / 9},
    {19372. / 6561, -25360. / 2187, 64448. / 6561, -212. / 729},
    {9017. / 3168, -355. / 33, 46732. / 5247, 49. / 176, -5103. / 18656},
    {35. / 384, 0, 500. / 1113, 125. / 192, -2187. / 6784, 11. / 84}};
static const double DP_B4[7] = {5179. / 57600, 0,          7571. / 16695, 393. / 640,
                                -92097. / 339200, 187. / 2100, 1. / 40};

static int znd_append(ZndProfile *zp, long *cap, double t, const double *z, double T, double p,
                      double w, double sigma) {
  const int ns = zp->ns;
  if (zp->n == *cap) {
    long nc = *cap ? 2 * *cap : 1024;
    double **f[] = {&zp->x, &zp->t, &zp->T, &zp->p, &zp->rho, &zp->w, &zp->sigma};
    for (int i = 0; i < 7; i++) {
      double *q = realloc(*f[i], sizeof(double) * (size_t)nc);
      if (!q) return HX_ERROR(HX_ERR_MEM, "out of memory (ZND profile, %ld samples)", nc);
      *f[i] = q;
    }
    double *q = realloc(zp->Y, sizeof(double) * (size_t)nc * ns);
    if (!q) return HX_ERROR(HX_ERR_MEM, "out of memory (ZND profile, %ld samples)", nc);
    zp->Y = q;
    *cap = nc;
  }
  const long i = zp->n++;
  zp->x[i] = z[1 + ns], zp->t[i] = t, zp->T[i] = T, zp->p[i] = p, zp->rho[i] = z[0];
  zp->w[i] = w, zp->sigma[i] = sigma;
  memcpy(zp->Y + (size_t)i * ns, z + 1, sizeof(double) * ns);
  return HX_OK;
}

void chem_znd_free(ZndProfile *z) {
  free(z->x), free(z->t), free(z->T), free(z->p), free(z->rho), free(z->w), free(z->sigma);
  free(z->Y);
  memset(z, 0, sizeof *z);
}

/* The error of a step relative to the tolerances (max norm; <= 1 accepts it). */
static double step_error(const double *z, const double *z5, const double *z4, int nz) {
  double e = 0;
  for (int i = 0; i < nz; i++) {
    const double atol = (i >= 1 && i < nz - 1) ? ZND_ATOL_Y : 1e-12 * fabs(z[0]);
    const double sc = atol + ZND_RTOL * fmax(fabs(z[i]), fabs(z5[i]));
    e = fmax(e, fabs(z5[i] - z4[i]) / sc);
  }
  return e;
}

/* sum_k |Y_k - Y_k(0)| of sample i */
static double composition_change(const ZndProfile *zp, long i) {
  double d = 0;
  for (int k = 0; k < zp->ns; k++)
    d += fabs(zp->Y[(size_t)i * zp->ns + k] - zp->Y[k]);
  return d;
}

/* The samples' largest energy error and the two lengths of the zone. */
static void znd_summary(const ChemMech *m, double h1, ZndProfile *zp) {
  const int ns = zp->ns;
  const double D2h = 0.5 * zp->D * zp->D;
  long i_peak = 0;
  for (long i = 0; i < zp->n; i++) {
    const double e = chem_h_mass(m, zp->T[i], zp->Y + (size_t)i * ns, 1) +
                     0.5 * zp->w[i] * zp->w[i] - h1 - D2h;
    zp->energy_error = fmax(zp->energy_error, fabs(e) / D2h);
    if (zp->sigma[i] > zp->sigma[i_peak]) i_peak = i;
  }
  zp->x_induction = zp->x[i_peak];
  /* half the composition change: sum_k |Y_k - Y_k(von Neumann)| at half its end value */
  double prev = 0, half = 0.5 * composition_change(zp, zp->n - 1);
  zp->x_half = zp->x[zp->n - 1];
  for (long i = 1; i < zp->n; i++) {
    const double d = composition_change(zp, i);
    if (d >= half) {
      const double f = d > prev ? (half - prev) / (d - prev) : 1.0;
      zp->x_half = zp->x[i - 1] + f * (zp->x[i] - zp->x[i - 1]);
      break;
    }
    prev = d;
  }
}

int chem_znd(const ChemMech *m, double T1, double p1, const double *Y1, double D, double x_end,
             ZndProfile *zp) {
  memset(zp, 0, sizeof *zp);
  const int ns = m->n_species, nz = ns + 2;
  double T2, p2, rho2, w2;
  HX_CHECK(chem_frozen_shock(m, T1, p1, Y1, D, &T2, &p2, &rho2, &w2));
  if (!(x_end > 0)) return ZND_ERROR(m, T1, p1, D, "x_end %g m must be positive", x_end);
  ZoneCtx c = {m, p1 * chem_mean_mw(m, Y1, 1) / (CHEM_R * T1), p1, chem_h_mass(m, T1, Y1, 1), D,
               NULL, NULL, NULL};
  const size_t nwork = (size_t)(2 * ns + chem_kinetics_work(m) + 10 * nz);
  double *buf = calloc(nwork, sizeof(double));
  if (!buf) return HX_ERROR(HX_ERR_MEM, "out of memory (ZND profile)");
  c.C = buf, c.wdot = buf + ns, c.work = buf + 2 * ns;
  double *z = c.work + chem_kinetics_work(m), *zt = z + nz, *z4 = zt + nz, *k = z4 + nz; /* k: 7 */
  z[0] = rho2;
  memcpy(z + 1, Y1, sizeof(double) * ns);
  z[1 + ns] = 0;
  zp->ns = ns, zp->D = D;
  long cap = 0, steps = 0;
  double t = 0, h = 1e-12, sigma, eta, T, p, w, sigma_peak = 0;
  int rc = HX_OK;
  if (zone_rhs(&c, z, k, &sigma, &eta, &T, &p, &w))
    rc = ZND_ERROR(m, T1, p1, D, "%s", "the von Neumann state is not subsonic behind the shock");
  if (rc == HX_OK) rc = znd_append(zp, &cap, t, z, T, p, w, sigma);
  zp->end = 2;
  while (rc == HX_OK && z[1 + ns] < x_end) {
    if (++steps > ZND_MAX_STEPS) {
      rc = ZND_ERROR(m, T1, p1, D, "more than %d steps at x = %g m: the reaction zone is too "
                     "stiff for the explicit integration", ZND_MAX_STEPS, z[1 + ns]);
      break;
    }
    int bad = 0;
    double sg, et, TT, pp, ww; /* after stage 6: at zt, the new state if the step is accepted */
    for (int s = 1; s < 7 && !bad; s++) { /* stages 1..6 (stage 0: k, FSAL) */
      for (int i = 0; i < nz; i++) {
        double a = 0;
        for (int j = 0; j < s; j++) a += DP_A[s][j] * k[(size_t)j * nz + i];
        zt[i] = z[i] + h * a;
      }
      bad = zone_rhs(&c, zt, k + (size_t)s * nz, &sg, &et, &TT, &pp, &ww);
    }
    double err = 2;
    if (!bad) {
      for (int i = 0; i < nz; i++) { /* zt (stage 6's argument) is the 5th-order solution */
        double b4 = 0;
        for (int j = 0; j < 7; j++) b4 += DP_B4[j] * k[(size_t)j * nz + i];
        z4[i] = z[i] + h * b4;
      }
      err = step_error(z, zt, z4, nz);
    }
    if (err > 1) { /* rejected (or a stage went sonic): shorter steps */
      h *= bad ? 0.25 : fmax(0.2, 0.9 * pow(err, -0.2));
      if (h < 1e-16 * fmax(t, 1e-9)) { /* the sonic point: nothing more to integrate */
        zp->end = 1;
        break;
      }
      continue;
    }
    memcpy(z, zt, sizeof(double) * nz);
    memcpy(k, k + 6 * (size_t)nz, sizeof(double) * nz); /* FSAL */
    t += h;
    sigma = sg, eta = et, T = TT, p = pp, w = ww;
    rc = znd_append(zp, &cap, t, z, T, p, w, sigma);
    sigma_peak = fmax(sigma_peak, sigma);
    if (eta < ZND_ETA_END) {
      zp->end = 1;
      break;
    }
    if (sigma_peak > 0 && fabs(sigma) < ZND_SIGMA_DONE * sigma_peak && zp->T[zp->n - 1] > T2) {
      zp->end = 0;
      break;
    }
    h *= fmin(5.0, 0.9 * pow(fmax(err, 1e-10), -0.2));
  }
  free(buf);
  if (rc != HX_OK) {
    chem_znd_free(zp);
    return rc;
  }
  znd_summary(m, c.h1, zp);
  return HX_OK;
}
