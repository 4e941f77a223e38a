/* Pointwise and per-element parts of FLEXI's shock indicators (IndicatorType persson, jameson,
 * ducros, ducrostimesjst, halfhalf, checkerboard) and of the FV switching (FV_Mode = switching):
 * HD functions shared by the CPU driver (src/dg/indicator.c) and the CUDA kernels
 * (src/gpu/indicator_kernels.cu). Element data are [var][k][j][i] with n3 = np^3 nodes. */
#ifndef HEXDG_INDICATORS_H
#define HEXDG_INDICATORS_H

#include <float.h>
#include <math.h>

#include "core/hd.h"
#include "physics/fvblend.h"
#include "physics/physics.h"

/* IndVar: FLEXI's codes (1..5 the conservative variables, 6 the pressure), then hexdg's own. */
enum {
  IND_VAR_DENSITY = 1,
  IND_VAR_MOMENTUM_X = 2,
  IND_VAR_MOMENTUM_Y = 3,
  IND_VAR_MOMENTUM_Z = 4,
  IND_VAR_ENERGY = 5,
  IND_VAR_PRESSURE = 6,
  IND_VAR_DENSITY_PRESSURE = 7,
  IND_VAR_TEMPERATURE = 8
};

/* IndValue of the indicators that mark an element as a whole (FLEXI's +-100: above and below
 * any sensible threshold). */
#define IND_VALUE_FV 100.0
#define IND_VALUE_DG -100.0
/* IndValue of an element at an FVBoundaries boundary (FLEXI's 100.E3: FV in any case). */
#define IND_VALUE_BOUNDARY 1e5

/* The indicator quantity of IndVar at one node of air (U: the 5 conservative variables). */
HD static inline double ind_quantity(int ind_var, double kappa_m1, const double *U) {
  if (ind_var >= IND_VAR_DENSITY && ind_var <= IND_VAR_ENERGY) return U[ind_var - 1];
  const double mom2 = U[MOM1] * U[MOM1] + U[MOM2] * U[MOM2] + U[MOM3] * U[MOM3];
  const double p = kappa_m1 * (U[ENER] - 0.5 * mom2 / U[DENS]);
  return ind_var == IND_VAR_DENSITY_PRESSURE ? U[DENS] * p : p;
}

/* Nodal values a (n3) -> orthonormal Legendre modes, in a (b: scratch of n3). */
HD static inline void ind_to_modal(int np, const double *Vinv, double *a, double *b) {
  const int n3 = np * np * np;
  for (int q = 0; q < n3; q++)
    b[q] = fv_modal_pass_node(np, Vinv, 0, a, q);
  for (int q = 0; q < n3; q++)
    a[q] = fv_modal_pass_node(np, Vinv, 1, b, q);
  for (int q = 0; q < n3; q++)
    b[q] = fv_modal_pass_node(np, Vinv, 2, a, q);
  for (int q = 0; q < n3; q++)
    a[q] = b[q];
}

/* Persson & Peraire 2006 (AIAA 2006-112, eq. (5)), per direction as FLEXI evaluates it: the
 * largest share of the energy in mode N - m of one direction among modes 0..N - m of it,
 * m < nModes, as log10 (the floor DBL_MIN: a polynomial of low degree gives about -307.7). c: the
 * modal coefficients [k][j][i]. */
HD static inline double ind_persson_modal(int np, int n_modes, const double *c) {
  const int N = np - 1;
  double value = DBL_MIN;
  for (int m = 0; m < n_modes; m++)
    for (int d = 0; d < 3; d++) {
      double top = 0.0, all = 0.0;
      for (int k = 0; k < np; k++)
        for (int j = 0; j < np; j++)
          for (int i = 0; i < np; i++) {
            const int deg = d == 0 ? i : d == 1 ? j : k;
            const double c2 = c[(k * np + j) * np + i] * c[(k * np + j) * np + i];
            if (deg == N - m) top += c2;
            if (deg <= N - m) all += c2;
          }
      const double r = top / (all + DBL_EPSILON);
      value = r > value ? r : value;
    }
  return log10(value);
}

/* Index of node (i, j, k) of the ghost layer of face (dir, plus): [2 dir + plus][b][a], (a, b)
 * the two tangential indices in increasing direction order. */
HD static inline int ind_ghost_index(int np, int dir, int plus, int i, int j, int k) {
  const int a = dir == 0 ? j : i, b = dir == 2 ? j : k;
  return (2 * dir + plus) * np * np + b * np + a;
}

/* Value at the neighbour of node (i, j, k) shifted by s = +-1 in direction dir: inside the element
 * from v, across the face from the ghost layer (the neighbour's face value). */
HD static inline double ind_neighbour(int np, const double *v, const double *ghost, int dir, int s,
                                      int i, int j, int k) {
  int idx[3] = {i, j, k};
  const int n = idx[dir] + s;
  if (n < 0 || n > np - 1) return ghost[ind_ghost_index(np, dir, n > 0, i, j, k)];
  idx[dir] = n;
  return v[(idx[2] * np + idx[1]) * np + idx[0]];
}

/* Pressure sensor of Jameson, Schmidt & Turkel 1981 (AIAA 81-1259, eq. (9)) on the node stencil:
 * |vmin - 2 v + vmax| / |vmin + 2 v + vmax| with the min and max over the node and its six
 * neighbours, averaged over the element with the quadrature weights w_i w_j w_k / sJ (FLEXI's
 * per-element form). v: the IndVar quantity (n3), ghost: the neighbours' face values (6 np^2). */
HD static inline double ind_jameson_element(int np, const double *v, const double *ghost,
                                            const double *w, const double *sJ) {
  double sum = 0.0, vol = 0.0;
  for (int k = 0; k < np; k++)
    for (int j = 0; j < np; j++)
      for (int i = 0; i < np; i++) {
        const int q = (k * np + j) * np + i;
        double vmin = v[q], vmax = v[q];
        for (int d = 0; d < 3; d++)
          for (int s = -1; s <= 1; s += 2) {
            const double x = ind_neighbour(np, v, ghost, d, s, i, j, k);
            vmin = x < vmin ? x : vmin;
            vmax = x > vmax ? x : vmax;
          }
        const double wq = w[i] * w[j] * w[k] / sJ[q];
        vol += wq;
        sum += fabs(vmin - 2.0 * v[q] + vmax) / fabs(vmin + 2.0 * v[q] + vmax) * wq;
      }
  return sum / vol;
}

/* Ducros et al. 1999 (JCP 152, eq. (3.3)): (div u)^2 / ((div u)^2 + |curl u|^2), averaged over the
 * element; as FLEXI: |curl u|^2 < 100 counts as 0 and nodes with (div u)^2 < 100 add 0. The
 * velocity gradient is the element's own: grad f = sJ sum_d Ja^d df/dxi^d (D: the nodal
 * derivative matrix, Ja: [dir][comp][n3], U: [var][n3]; vel: scratch of 3 n3). */
HD static inline double ind_ducros_element(int np, const double *D, const double *w,
                                           const double *Ja, const double *sJ, const double *U,
                                           double *vel) {
  const int n3 = np * np * np;
  for (int q = 0; q < n3; q++)
    for (int c = 0; c < 3; c++)
      vel[c * n3 + q] = U[(MOM1 + c) * n3 + q] / U[DENS * n3 + q];
  double sum = 0.0, vol = 0.0;
  for (int k = 0; k < np; k++)
    for (int j = 0; j < np; j++)
      for (int i = 0; i < np; i++) {
        const int q = (k * np + j) * np + i, idx[3] = {i, j, k};
        double g[3][3] = {{0.0}}; /* g[c][m] = d u_c / d x_m */
        for (int d = 0; d < 3; d++) {
          const int stride = d == 0 ? 1 : d == 1 ? np : np * np, base = q - idx[d] * stride;
          for (int c = 0; c < 3; c++) {
            double dxi = 0.0;
            for (int l = 0; l < np; l++)
              dxi += D[idx[d] * np + l] * vel[c * n3 + base + l * stride];
            for (int m = 0; m < 3; m++)
              g[c][m] += sJ[q] * Ja[(d * 3 + m) * n3 + q] * dxi;
          }
        }
        const double wx = g[2][1] - g[1][2], wy = g[0][2] - g[2][0], wz = g[1][0] - g[0][1];
        double vort2 = wx * wx + wy * wy + wz * wz;
        const double div = g[0][0] + g[1][1] + g[2][2], div2 = div * div;
        const double wq = w[i] * w[j] * w[k] / sJ[q];
        vol += wq;
        if (vort2 < 100.0) vort2 = 0.0;
        if (div2 < 100.0) continue;
        sum += div2 / (div2 + vort2) * wq;
      }
  return sum / vol;
}

/* halfhalf (FLEXI's test indicator): FV where the element's first node lies at x > 0. */
HD static inline double ind_halfhalf(double x_first_node) {
  return x_first_node > 0.0 ? IND_VALUE_FV : IND_VALUE_DG;
}

/* checkerboard (FLEXI's test indicator): DG for even global ids (1-based), FV for odd ones. */
HD static inline double ind_checkerboard(long global_id) {
  return global_id % 2 == 0 ? IND_VALUE_DG : IND_VALUE_FV;
}

/* The switched representation of one element (FV_Mode = switching): u [nv][n3] -> M applied along
 * each direction, where M is the 1D matrix of the switch (np x np; DG -> FV: the subcell means of
 * the nodal polynomial, FV -> DG: its inverse). conservative (FV_SwitchConservative): the matrix
 * acts on u J, J = 1/sJ_in of the representation converted from, and the result is divided by
 * J = 1/sJ_out of the one converted to, so that the element's integral of J u is kept exactly
 * (Gauss-node switching: the DG nodes' and the subcells' Jacobians, dg/fv_gauss.h). tmp: 2 n3
 * doubles. */
HD static inline void fv_switch_element_between(int np, const double *M, int nv,
                                                const double *sJ_in, const double *sJ_out,
                                                int conservative, double *u, double *tmp) {
  const int n3 = np * np * np;
  double *a = tmp, *b = tmp + n3;
  for (int v = 0; v < nv; v++) {
    double *uv = u + (long)v * n3;
    for (int q = 0; q < n3; q++)
      a[q] = conservative ? uv[q] / sJ_in[q] : uv[q];
    for (int q = 0; q < n3; q++)
      b[q] = fv_modal_pass_node(np, M, 0, a, q);
    for (int q = 0; q < n3; q++)
      a[q] = fv_modal_pass_node(np, M, 1, b, q);
    for (int q = 0; q < n3; q++)
      b[q] = fv_modal_pass_node(np, M, 2, a, q);
    for (int q = 0; q < n3; q++)
      uv[q] = conservative ? b[q] * sJ_out[q] : b[q];
  }
}

/* The same where both representations share the nodes' Jacobians (the LGL subcells). */
HD static inline void fv_switch_element(int np, const double *M, int nv, const double *sJ,
                                        int conservative, double *u, double *tmp) {
  fv_switch_element_between(np, M, nv, sJ, sJ, conservative, u, tmp);
}

/* FVBoundaries: the IndValue of an element flagged at such a boundary. */
HD static inline double ind_boundary_value(int flagged, double ind_value) {
  return flagged && ind_value < IND_VALUE_BOUNDARY ? IND_VALUE_BOUNDARY : ind_value;
}

/* Hysteresis of the switch (FLEXI's FV_IndUpperThreshold / FV_IndLowerThreshold): the new state of
 * an element (1 FV, 0 DG) from its state and IndValue; allow_to_dg: FV -> DG permitted now. */
HD static inline int fv_switch_decide(int is_fv, double ind_value, double upper, double lower,
                                      int allow_to_dg) {
  if (!is_fv) return ind_value > upper;
  return !(allow_to_dg && ind_value < lower);
}

/* Blending factor of IndValue (FV_Mode = blending): sigmoid (hennemann, fixed: IndValue is the
 * blending factor already), else FV_alpha_max above FV_IndUpperThreshold; FV_alpha_max before
 * IndStartTime (IndValue HUGE_VAL) and at FVBoundaries (IND_VALUE_BOUNDARY). */
HD static inline double fv_alpha_of_ind_value(int is_blending_factor, double ind_value,
                                              double upper, double alpha_max) {
  if (ind_value >= IND_VALUE_BOUNDARY) return alpha_max; /* IndStartTime, FVBoundaries */
  if (is_blending_factor) return ind_value;
  return ind_value > upper ? alpha_max : 0.0;
}

#endif
