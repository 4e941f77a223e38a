/* FV subcell operator and positivity limiter of the thermally perfect mixture (physics/mixture.h):
 * the reconstruction, the interface flux and the admissible fraction of fvblend.h with the
 * species. Reconstructed variables: rho, u, v, w, p and the mass fractions Y_k (so that a
 * reconstructed state keeps sum Y_k = 1 where the nodes do: the limited slopes of a sum are not
 * the sum of the limited slopes, but the interface values are renormalised). Pointwise HD
 * functions. */
#ifndef HEXDG_FVBLEND_MIX_H
#define HEXDG_FVBLEND_MIX_H

#include <math.h>

#include "physics/fvblend.h"
#include "physics/riemann_mix.h"

/* Number of reconstructed variables of a mixture node: rho, u, v, w, p, Y_0..Y_{ns-1}. */
#define FV_MIX_NQ(ns) (5 + (ns))

/* Conservative state, primitive state and speed of sound of reconstructed variables q;
 * 0 if q is not admissible (rho, p <= 0, a mass fraction below -1e-14 or no temperature). */
HD static inline int fv_mix_state(const ChemMech *m, const double *q, double *U, double *prim,
                                  double *Y, double *c) {
  const int ns = m->n_species;
  if (!(q[PDENS] > 0.0 && q[PRES] > 0.0)) return 0;
  double sum = 0.0;
  for (int k = 0; k < ns; k++) {
    if (!(q[5 + k] >= -1e-14)) return 0;
    sum += q[5 + k];
  }
  for (int k = 0; k < ns; k++)
    Y[k] = q[5 + k] / sum;
  const double T = mix_temperature(m, q[PDENS], q[PRES], Y);
  if (!(T > CHEM_T_LOW && T < CHEM_T_HIGH)) return 0;
  mix_prim_to_cons(m, q[PDENS], q + VEL1, T, Y, U);
  for (int v = 0; v < 5; v++)
    prim[v] = q[v];
  prim[TEMP] = T;
  const double R_mix = CHEM_R / chem_mean_mw(m, Y, 1), cp = chem_cp_mass(m, T, Y, 1);
  *c = sqrt(cp / (cp - R_mix) * R_mix * T);
  return 1;
}

/* Flux through the subcell interface with vector mv between the reconstructed states qL, qR
 * (the node values nL, nR where a reconstruction is not admissible), times |mv|. */
HD static inline void fv_mix_interface_flux(int riemann, int split, const PhysParams *pp,
                                            const ChemMech *m, const double *qL,
                                            const double *qR, const double *nL, const double *nR,
                                            const double mv[3], double *F) {
  const int ns = m->n_species;
  double n[3], t1[3], t2[3], UL[HX_NVAR_MAX] = {0}, UR[HX_NVAR_MAX] = {0};
  double pL[HX_NPRIM] = {0}, pR[HX_NPRIM] = {0}, YL[HX_MAX_SPECIES], YR[HX_MAX_SPECIES];
  double cL = 0.0, cR = 0.0;
  const double area = fv_interface_frame(mv, n, t1, t2);
  if (!fv_mix_state(m, qL, UL, pL, YL, &cL) || !fv_mix_state(m, qR, UR, pR, YR, &cR)) {
    fv_mix_state(m, nL, UL, pL, YL, &cL);
    fv_mix_state(m, nR, UR, pR, YR, &cR);
  }
  riemann_mix_flux(riemann, split, pp, ns, UL, pL, YL, cL, UR, pR, YR, cR, n, t1, t2, F);
  for (int v = 0; v < HX_NVAR + ns; v++)
    F[v] *= area;
}

/* The subcell FV operator of the mixture along one line of np nodes (as fv_line_residual):
 * q[v * vs + base + i * stride] holds the reconstructed variables of node i (FV_MIX_NQ),
 * res[v * rvs + node] += (F_{i+1/2} - F_{i-1/2}) / w_i (or = when add is 0), mv[m * 3 + c]: the
 * N interface vectors. */
HD static inline void fv_mix_line_residual(int riemann, int split, int limiter,
                                           const PhysParams *pp, const ChemMech *m, int np,
                                           const FVLine *c, const double *q, int vs, double *res,
                                           int rvs, int base, int stride, const double *mv,
                                           int add) {
  const int ns = m->n_species, nq = FV_MIX_NQ(ns), nv = HX_NVAR + ns;
  double face_r[HX_NVAR_MAX], node_l[HX_NVAR_MAX], pend[HX_NVAR_MAX];
  for (int v = 0; v < nv; v++)
    pend[v] = 0.0;
  for (int i = 0; i < np; i++) {
    const int at = base + i * stride;
    const int im = i > 0 ? at - stride : at, ip = i < np - 1 ? at + stride : at;
    double face_l[HX_NVAR_MAX], face_i[HX_NVAR_MAX], node_c[HX_NVAR_MAX];
    for (int v = 0; v < nq; v++) {
      const double q_c = q[v * vs + at];
      const double slope = limiter == FV_LIM_FIRST_ORDER
                               ? 0.0
                               : fv_node_slope(limiter, np, c, i, q[v * vs + im], q_c,
                                               q[v * vs + ip]);
      node_c[v] = q_c;
      face_l[v] = q_c + slope * c->off_l[i];
      face_i[v] = q_c + slope * c->off_r[i];
    }
    if (i > 0) {
      double F[HX_NVAR_MAX];
      fv_mix_interface_flux(riemann, split, pp, m, face_r, face_l, node_l, node_c,
                            mv + (i - 1) * 3, F);
      for (int v = 0; v < nv; v++) {
        double *r = &res[v * rvs + at - stride];
        *r = (add ? *r : 0.0) + (pend[v] + F[v] * c->inv_w[i - 1]);
        pend[v] = -F[v] * c->inv_w[i];
      }
    }
    for (int v = 0; v < nq; v++) {
      face_r[v] = face_i[v];
      node_l[v] = node_c[v];
    }
  }
  for (int v = 0; v < nv; v++) {
    double *r = &res[v * rvs + base + (np - 1) * stride];
    *r = (add ? *r : 0.0) + pend[v];
  }
}

/* Internal energy above the floor CHEM_T_LOW (J/m^3): rho E - |rho u|^2 / (2 rho) -
 * sum_k rho Y_k u_k(T_floor). Concave in U (the kinetic part is convex, the rest linear), so the
 * admissible set {rho > 0, rho Y_k >= 0, this > 0} is convex: Zhang & Shu's limiter applies. */
HD static inline double fv_mix_energy_margin(const ChemMech *m, const double *U) {
  const double T_floor = 1.2 * CHEM_T_LOW;
  const double mom2 = U[MOM1] * U[MOM1] + U[MOM2] * U[MOM2] + U[MOM3] * U[MOM3];
  double floor_e = 0.0;
  for (int k = 0; k < m->n_species; k++)
    floor_e += U[HX_SPEC0 + k] / m->mw[k] *
               (chem_h_RT(m, k, T_floor) - 1.0) * CHEM_R * T_floor;
  return U[ENER] - 0.5 * mom2 / U[DENS] - floor_e;
}

/* The largest t in [0, 1] such that mean + t (u - mean) has rho >= eps_rho, every rho Y_k >= 0
 * and the energy margin >= eps_e (Zhang & Shu 2010, JCP 229, Sec. 2.3): exact for the linear
 * constraints, bisection for the concave margin. */
HD static inline double fv_mix_admissible_fraction(const ChemMech *m, const double *mean,
                                                   const double *u, double eps_rho,
                                                   double eps_e) {
  const int nv = HX_NVAR + m->n_species;
  double t = 1.0;
  if (u[DENS] < eps_rho) t = fmin(t, (mean[DENS] - eps_rho) / (mean[DENS] - u[DENS]));
  for (int k = 0; k < m->n_species; k++) {
    const double uk = u[HX_SPEC0 + k], mk = mean[HX_SPEC0 + k];
    if (uk < 0.0) t = fmin(t, mk / (mk - uk));
  }
  double x[HX_NVAR_MAX] = {0};
  for (int v = 0; v < nv; v++)
    x[v] = mean[v] + t * (u[v] - mean[v]);
  if (fv_mix_energy_margin(m, x) >= eps_e) return t;
  double lo = 0.0, hi = t;
  for (int it = 0; it < 40; it++) {
    const double mid = 0.5 * (lo + hi);
    for (int v = 0; v < nv; v++)
      x[v] = mean[v] + mid * (u[v] - mean[v]);
    if (fv_mix_energy_margin(m, x) >= eps_e)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* Whether a mixture node is admissible for the positivity limiter: rho > 0, every rho Y_k >= 0
 * and internal energy above the floor (fv_mix_energy_margin). */
HD static inline int fv_mix_node_admissible(const ChemMech *m, const double *u) {
  if (!(u[DENS] > 0.0) || !(fv_mix_energy_margin(m, u) > 0.0)) return 0;
  for (int k = 0; k < m->n_species; k++)
    if (u[HX_SPEC0 + k] < 0.0) return 0;
  return 1;
}

/* Zhang & Shu's limiter of one mixture element (the stage limiter of FV_PositivityLimiter): where
 * a node has rho <= 0, a negative rho Y_k or no internal energy above the floor, every node is
 * pulled towards the element mean (quadrature weights w_i w_j w_k / sJ) by the largest common
 * fraction that makes all of them admissible (fv_mix_admissible_fraction). ue[v * n3 + q];
 * returns 1 if the element was limited. An inadmissible mean is left alone (the next time-step
 * check stops the run). */
HD static inline int fv_mix_limit_element(const ChemMech *m, double *ue, int np, const double *w,
                                          const double *sJ) {
  const int n3 = np * np * np, ns = m->n_species, nv = HX_NVAR + ns;
  double mean[HX_NVAR_MAX] = {0}, vol = 0.0;
  int bad = 0;
  for (int q = 0; q < n3; q++) {
    double u[HX_NVAR_MAX] = {0};
    const double wq = w[q % np] * w[(q / np) % np] * w[q / (np * np)] / sJ[q];
    for (int v = 0; v < nv; v++)
      u[v] = ue[v * n3 + q];
    bad |= !fv_mix_node_admissible(m, u);
    vol += wq;
    for (int v = 0; v < nv; v++)
      mean[v] += wq * u[v];
  }
  if (!bad) return 0;
  for (int v = 0; v < nv; v++)
    mean[v] /= vol;
  const double margin = fv_mix_energy_margin(m, mean);
  if (!(mean[DENS] > 0.0 && margin > 0.0)) return 0;
  for (int k = 0; k < ns; k++)
    mean[HX_SPEC0 + k] = fmax(mean[HX_SPEC0 + k], 0.0);
  const double eps_rho = FV_POSITIVITY_EPS * mean[DENS], eps_e = FV_POSITIVITY_EPS * margin;
  double theta = 1.0;
  for (int q = 0; q < n3; q++) {
    double u[HX_NVAR_MAX] = {0};
    for (int v = 0; v < nv; v++)
      u[v] = ue[v * n3 + q];
    const double t = fv_mix_admissible_fraction(m, mean, u, eps_rho, eps_e);
    theta = t < theta ? t : theta;
  }
  for (int v = 0; v < nv; v++)
    for (int q = 0; q < n3; q++)
      ue[v * n3 + q] = mean[v] + theta * (ue[v * n3 + q] - mean[v]);
  return 1;
}

#endif
