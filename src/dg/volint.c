/* VolInt: the volume integral of weak-form or split-form DGSEM, element by element; with shock
 * capturing, elements with alpha > 0 take (1 - alpha) DG + alpha FV (dg/fv.c). Only the advective
 * part is blended: the viscous volume term (lifting.c, in Ut when accumulate is set) is kept. */
#include <stdlib.h>

#include "dg/cpuloops.h"
#include "dg/fv.h"
#include "dg/solver.h"
#include "physics/eos.h"
#include "physics/euler.h"
#include "physics/mixture.h"
#include "physics/splitflux.h"

typedef struct {
  double *u, *prim, *aux, *ft; /* [var][node], [prim][node], [node], [dir][var][node] */
  double *Y;                   /* mixture: [species][node] mass fractions */
  double *dg, *fv;             /* [var][node]: the two volume operators of a blended element */
  double *tr;                  /* KG/PI sweep of direction 0: transposed node data (KepNodes) */
} VolScratch;

/* The node's primitive state; the mixture's temperature becomes the node's next Newton guess. */
static void node_prim(const Solver *s, long dof, const double *u, double *pr, double *Y) {
  double c;
  if (!s->mech)
    cons_to_prim(&s->phys, u, pr); /* no speed of sound: the volume integral needs none */
  else if (solver_node_prim(s, dof, u, pr, Y, &c) == 0)
    s->T_guess[dof] = pr[TEMP];
}

/* gather_state of air: five variables as a constant, so that the node loop vectorizes. */
static void gather_state_air(const Solver *s, const double *Ue, VolScratch *w) {
  const int n3 = s->n_dof_elem, split = s->disc.split;
  HX_IVDEP
  for (int q = 0; q < n3; q++) {
    double u[HX_NVAR], pr[HX_NPRIM];
    for (int v = 0; v < HX_NVAR; v++)
      u[v] = w->u[v * n3 + q] = Ue[v * n3 + q];
    cons_to_prim(&s->phys, u, pr);
    for (int v = 0; v < HX_NPRIM; v++)
      w->prim[v * n3 + q] = pr[v];
    w->aux[q] = split_node_aux(split, u, pr);
  }
}

static void gather_state(const Solver *s, int e, const double *Ue, VolScratch *w) {
  int n3 = s->n_dof_elem, nv = s->n_var, ns = s->n_species;
  if (!s->mech) {
    gather_state_air(s, Ue, w);
    return;
  }
  for (int q = 0; q < n3; q++) {
    double u[HX_NVAR_MAX], pr[HX_NPRIM], Y[HX_MAX_SPECIES];
    for (int v = 0; v < nv; v++)
      u[v] = w->u[v * n3 + q] = Ue[v * n3 + q];
    node_prim(s, (long)e * n3 + q, u, pr, Y);
    for (int v = 0; v < HX_NPRIM; v++)
      w->prim[v * n3 + q] = pr[v];
    for (int k = 0; k < ns; k++)
      w->Y[k * n3 + q] = Y[k];
    w->aux[q] = split_node_aux(s->disc.split, u, pr);
  }
}

static void load_node(const Solver *s, const VolScratch *w, int q, double *u, double *pr,
                      double *Y) {
  int n3 = s->n_dof_elem;
  for (int v = 0; v < s->n_var; v++)
    u[v] = w->u[v * n3 + q];
  for (int v = 0; v < HX_NPRIM; v++)
    pr[v] = w->prim[v * n3 + q];
  for (int k = 0; k < s->n_species; k++)
    Y[k] = w->Y[k * n3 + q];
}

/* Weak form: contravariant fluxes at every node, then Dhat along each direction. */
static void volint_weak(const Solver *s, const double *Ja, VolScratch *w, double *Ut,
                        int accumulate) {
  int np = s->np, n3 = s->n_dof_elem, nv = s->n_var;
  for (int q = 0; q < n3; q++) {
    double u[HX_NVAR_MAX], pr[HX_NPRIM], Y[HX_MAX_SPECIES], fxyz[3][HX_NVAR_MAX];
    load_node(s, w, q, u, pr, Y);
    euler_fluxes_xyz(u, pr, fxyz[0], fxyz[1], fxyz[2]);
    for (int d = 0; d < 3; d++)
      mix_species_flux(s->n_species, fxyz[d][DENS], Y, fxyz[d]);
    for (int d = 0; d < 3; d++)
      for (int v = 0; v < nv; v++)
        w->ft[(d * nv + v) * n3 + q] = fxyz[0][v] * Ja[(d * 3 + 0) * n3 + q] +
                                       fxyz[1][v] * Ja[(d * 3 + 1) * n3 + q] +
                                       fxyz[2][v] * Ja[(d * 3 + 2) * n3 + q];
  }
  const double *Dv = s->disc.Dvol;
  for (int v = 0; v < nv; v++) {
    const double *f = &w->ft[(0 * nv + v) * n3], *g = &w->ft[(1 * nv + v) * n3],
                 *h = &w->ft[(2 * nv + v) * n3];
    for (int k = 0; k < np; k++)
      for (int j = 0; j < np; j++)
        for (int i = 0; i < np; i++) {
          double acc = 0.0;
          for (int l = 0; l < np; l++)
            acc += Dv[i * np + l] * f[(k * np + j) * np + l] +
                   Dv[j * np + l] * g[(k * np + l) * np + i] +
                   Dv[k * np + l] * h[(l * np + j) * np + i];
          double *out = &Ut[v * n3 + (k * np + j) * np + i];
          *out = accumulate ? *out + acc : acc;
        }
  }
}

/* Split form: two-point fluxes between all node pairs of a line, each pair computed once. */
static void volint_split(const Solver *s, const double *Ja, VolScratch *w, double *Ut,
                         int accumulate) {
  int np = s->np, n3 = s->n_dof_elem, nv = s->n_var;
  const double *Dv = s->disc.Dvol;
  if (!accumulate)
    for (int q = 0; q < nv * n3; q++)
      Ut[q] = 0.0;
  for (int d = 0; d < 3; d++) {
    int stride = d == 0 ? 1 : d == 1 ? np : np * np;
    for (int a = 0; a < np; a++)
      for (int b = 0; b < np; b++) {
        /* line of direction d through transverse indices (a, b) */
        int base = d == 0 ? (b * np + a) * np : d == 1 ? b * np * np + a : b * np + a;
        for (int i = 0; i < np; i++)
          for (int l = i; l < np; l++) {
            double di = Dv[i * np + l], dl = Dv[l * np + i];
            if (di == 0.0 && dl == 0.0) continue;
            int qi = base + i * stride, ql = base + l * stride;
            double ui[HX_NVAR_MAX], pi[HX_NPRIM], ul[HX_NVAR_MAX], pl[HX_NPRIM], mi[3], ml[3],
                F[HX_NVAR_MAX], Yi[HX_MAX_SPECIES], Yl[HX_MAX_SPECIES];
            load_node(s, w, qi, ui, pi, Yi);
            load_node(s, w, ql, ul, pl, Yl);
            for (int c = 0; c < 3; c++) {
              mi[c] = Ja[(d * 3 + c) * n3 + qi];
              ml[c] = Ja[(d * 3 + c) * n3 + ql];
            }
            split_volume_flux_aux(s->disc.split, &s->phys, ui, pi, w->aux[qi], ul, pl, w->aux[ql],
                                  mi, ml, F);
            if (s->mech)
              mix_split_species_flux(s->disc.split, s->n_species, ui, pi, Yi, ul, pl, Yl, mi, ml,
                                     F);
            for (int v = 0; v < nv; v++) {
              Ut[v * n3 + qi] += di * F[v];
              if (l != i) Ut[v * n3 + ql] += dl * F[v];
            }
          }
      }
  }
}

/* The node data of the KG/PI sweep, one array [node] each: density, velocity, pressure, the
 * per-node quantity (split_node_aux), the metric vector Ja^d of the sweep's direction d, and
 * the five components of Ut. */
typedef struct {
  const double *rho, *vel[3], *p, *aux, *m[3];
  double *ut[HX_NVAR];
} KepNodes;

/* Two-point KG/PI fluxes of all node pairs (a, b), a <= b, of the lines of one direction, with
 * the node index q = o * outer + a * pair + x: for every outer index o and pair, the inner loop
 * runs over the contiguous index x of n_inner lines at once, so that it vectorizes. Pairs are
 * taken in the order of volint_split, so that each node sums its contributions in the same
 * order. */
static HX_ALWAYS_INLINE void kep_sweep_n(const Solver *s, int np, const KepNodes *nd, int n_outer,
                                         int outer, int pair, int n_inner) {
  const int enthalpy = s->disc.split == SPLIT_PI;
  const double *Dv = s->disc.Dvol;
  const double *restrict rho = nd->rho, *restrict v0 = nd->vel[0], *restrict v1 = nd->vel[1],
                         *restrict v2 = nd->vel[2], *restrict pr = nd->p, *restrict aux = nd->aux,
                         *restrict m0 = nd->m[0], *restrict m1 = nd->m[1], *restrict m2 = nd->m[2];
  double *restrict ut0 = nd->ut[0], *restrict ut1 = nd->ut[1], *restrict ut2 = nd->ut[2],
                   *restrict ut3 = nd->ut[3], *restrict ut4 = nd->ut[4];
  for (int o = 0; o < n_outer; o++)
    for (int a = 0; a < np; a++)
      for (int b = a; b < np; b++) {
        const double da = Dv[a * np + b], db = Dv[b * np + a];
        if (da == 0.0 && db == 0.0) continue;
        const int qa0 = o * outer + a * pair, qb0 = o * outer + b * pair, both = a != b;
        /* no dependence: the lines are independent, rows a != b disjoint (pair >= n_inner) */
        HX_IVDEP
        for (int x = 0; x < n_inner; x++) {
          const int qa = qa0 + x, qb = qb0 + x;
          double UA[HX_NVAR], UB[HX_NVAR], PA[HX_NPRIM], PB[HX_NPRIM], F[HX_NVAR];
          UA[DENS] = rho[qa], UB[DENS] = rho[qb];
          PA[VEL1] = v0[qa], PA[VEL2] = v1[qa], PA[VEL3] = v2[qa], PA[PRES] = pr[qa];
          PB[VEL1] = v0[qb], PB[VEL2] = v1[qb], PB[VEL3] = v2[qb], PB[PRES] = pr[qb];
          const double m_avg[3] = {0.5 * (m0[qa] + m0[qb]), 0.5 * (m1[qa] + m1[qb]),
                                   0.5 * (m2[qa] + m2[qb])};
          split_flux_kg_pi_aux(enthalpy, UA, PA, aux[qa], UB, PB, aux[qb], m_avg, F);
          ut0[qa] += da * F[0], ut1[qa] += da * F[1], ut2[qa] += da * F[2];
          ut3[qa] += da * F[3], ut4[qa] += da * F[4];
          if (both) {
            ut0[qb] += db * F[0], ut1[qb] += db * F[1], ut2[qb] += db * F[2];
            ut3[qb] += db * F[3], ut4[qb] += db * F[4];
          }
        }
      }
}

/* kep_sweep_n with np a compile-time constant for N = 3..7. */
static void kep_sweep(const Solver *s, const KepNodes *nd, int n_outer, int outer, int pair,
                      int n_inner) {
  switch (s->np) {
  case 4:
    kep_sweep_n(s, 4, nd, n_outer, outer, pair, n_inner);
    break;
  case 5:
    kep_sweep_n(s, 5, nd, n_outer, outer, pair, n_inner);
    break;
  case 6:
    kep_sweep_n(s, 6, nd, n_outer, outer, pair, n_inner);
    break;
  case 7:
    kep_sweep_n(s, 7, nd, n_outer, outer, pair, n_inner);
    break;
  case 8:
    kep_sweep_n(s, 8, nd, n_outer, outer, pair, n_inner);
    break;
  default:
    kep_sweep_n(s, s->np, nd, n_outer, outer, pair, n_inner);
    break;
  }
}

/* out[k][i][j] = in[k][j][i] for n_arr arrays of n3 nodes (the transpose is its own inverse). */
static void transpose_ij(int np, int n_arr, const double *const *in, double *const *out) {
  for (int a = 0; a < n_arr; a++)
    for (int k = 0; k < np; k++)
      for (int j = 0; j < np; j++)
        for (int i = 0; i < np; i++)
          out[a][(k * np + i) * np + j] = in[a][(k * np + j) * np + i];
}

/* Split form with the KG or PI flux of air (five variables): volint_split with the pair loops of
 * each direction vectorized over lines. Direction 0 runs on a copy of the node data transposed
 * in (i, j), so that its lines too are contiguous in the inner index. */
static void volint_split_kep(const Solver *s, const double *Ja, VolScratch *w, double *Ut,
                             int accumulate) {
  const int np = s->np, n2 = np * np, n3 = s->n_dof_elem;
  if (!accumulate)
    for (int q = 0; q < HX_NVAR * n3; q++)
      Ut[q] = 0.0;
  KepNodes nd = {
      w->u + DENS * n3,    {w->prim + VEL1 * n3, w->prim + VEL2 * n3, w->prim + VEL3 * n3},
      w->prim + PRES * n3, w->aux,
      {NULL, NULL, NULL},  {Ut, Ut + n3, Ut + 2 * n3, Ut + 3 * n3, Ut + 4 * n3}};
  /* direction 0 on the transposed copy: 6 node arrays, 3 metric components, 5 of Ut */
  enum { N_TR = 6 + 3 + HX_NVAR };
  const double *src[N_TR] = {nd.rho, nd.vel[0], nd.vel[1], nd.vel[2],  nd.p,
                             nd.aux, Ja,        Ja + n3,   Ja + 2 * n3};
  double *dst[N_TR];
  for (int a = 0; a < N_TR; a++)
    dst[a] = w->tr + (long)a * n3;
  for (int v = 0; v < HX_NVAR; v++)
    src[9 + v] = nd.ut[v];
  transpose_ij(np, N_TR, src, dst);
  KepNodes tr = {dst[0], {dst[1], dst[2], dst[3]}, dst[4],
                 dst[5], {dst[6], dst[7], dst[8]}, {dst[9], dst[10], dst[11], dst[12], dst[13]}};
  kep_sweep(s, &tr, np, n2, np, np);
  transpose_ij(np, HX_NVAR, (const double *const *)tr.ut, nd.ut);
  for (int d = 1; d < 3; d++) {
    for (int c = 0; c < 3; c++)
      nd.m[c] = Ja + (d * 3 + c) * n3;
    if (d == 1)
      kep_sweep(s, &nd, np, n2, np, np); /* q = k n2 + j np + i */
    else
      kep_sweep(s, &nd, 1, 0, n2, n2); /* q = k n2 + (j np + i) */
  }
}

static void volint_dg(const Solver *s, const double *Ja, VolScratch *w, double *Ut,
                      int accumulate) {
  if (s->disc.split == SPLIT_NONE)
    volint_weak(s, Ja, w, Ut, accumulate);
  else if ((s->disc.split == SPLIT_PI || s->disc.split == SPLIT_KG) && !s->mech)
    volint_split_kep(s, Ja, w, Ut, accumulate);
  else
    volint_split(s, Ja, w, Ut, accumulate);
}

/* Convex blend of the DG and FV volume operators (Hennemann et al. 2021, eq. (20)). */
static void volint_blended(const Solver *s, int e, double alpha, const double *Ja, VolScratch *w,
                           double *Ut, int accumulate) {
  int n = s->n_var * s->n_dof_elem;
  volint_dg(s, Ja, w, w->dg, 0);
  fv_subcell_volume(s, e, w->prim, s->mech ? w->Y : NULL, w->fv);
  for (int q = 0; q < n; q++) {
    double blend = (1.0 - alpha) * w->dg[q] + alpha * w->fv[q];
    Ut[q] = accumulate ? Ut[q] + blend : blend;
  }
}

void volume_integral(const Solver *s, const double *U, double *Ut, int accumulate) {
  int n3 = s->n_dof_elem, nv = s->n_var;
#pragma omp parallel
  {
    VolScratch w;
    w.u = malloc(sizeof(double) * nv * n3);
    w.prim = malloc(sizeof(double) * HX_NPRIM * n3);
    w.aux = malloc(sizeof(double) * n3);
    w.Y = malloc(sizeof(double) * (s->n_species + 1) * n3);
    w.ft = malloc(sizeof(double) * 3 * nv * n3);
    w.dg = s->fv.enabled ? malloc(sizeof(double) * nv * n3) : NULL;
    w.fv = s->fv.enabled ? malloc(sizeof(double) * nv * n3) : NULL;
    w.tr = malloc(sizeof(double) * (9 + nv) * n3);
#pragma omp for schedule(static)
    for (int e = 0; e < s->mesh->n_elems; e++) {
      const double *Ja = &s->geo.metrics[9L * n3 * e];
      double alpha = s->fv.enabled ? s->fv.alpha[e] : 0.0;
      gather_state(s, e, &U[(long)nv * n3 * e], &w);
      if (alpha > 0.0)
        volint_blended(s, e, alpha, Ja, &w, &Ut[(long)nv * n3 * e], accumulate);
      else
        volint_dg(s, Ja, &w, &Ut[(long)nv * n3 * e], accumulate);
    }
    free(w.u);
    free(w.prim);
    free(w.aux);
    free(w.Y);
    free(w.ft);
    free(w.dg);
    free(w.fv);
    free(w.tr);
  }
}
