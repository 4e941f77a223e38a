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
  double *tr;                  /* KG/PI sweep of direction 0: transposed node, metric, Ut data */
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

/* The KG/PI sweep reads three blocks of n3-node arrays: node (rho, u, v, w, p, -, aux: the
 * primitive block of VolScratch with the per-node quantity split_node_aux at KEP_AUX), m (the
 * metric vector Ja^d of the sweep's direction, 3 arrays) and ut (the 5 components of Ut). With
 * np a constant the offsets k n3 are constants: three pointers instead of fourteen. */
enum { KEP_AUX = HX_NPRIM, KEP_NODE = HX_NPRIM + 1 };

/* Two-point KG/PI fluxes of all node pairs (a, b), a <= b, of the lines of one direction, with
 * the node index q = o * outer + a * pair + x: for every outer index o and pair, the inner loop
 * runs over the contiguous index x of n_inner lines at once, so that it vectorizes. Pairs are
 * taken in the order of volint_split, so that each node sums its contributions in the same
 * order. */
static HX_ALWAYS_INLINE void kep_sweep_n(const Solver *s, int np, const double *restrict node,
                                         const double *restrict m, double *restrict ut, int n_outer,
                                         int outer, int pair, int n_inner) {
  const int enthalpy = s->disc.split == SPLIT_PI, n3 = np * np * np;
  const double *Dv = s->disc.Dvol;
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
          UA[DENS] = node[PDENS * n3 + qa], UB[DENS] = node[PDENS * n3 + qb];
          for (int c = VEL1; c <= PRES; c++) {
            PA[c] = node[c * n3 + qa];
            PB[c] = node[c * n3 + qb];
          }
          const double m_avg[3] = {0.5 * (m[qa] + m[qb]), 0.5 * (m[n3 + qa] + m[n3 + qb]),
                                   0.5 * (m[2 * n3 + qa] + m[2 * n3 + qb])};
          split_flux_kg_pi_aux(enthalpy, UA, PA, node[KEP_AUX * n3 + qa], UB, PB,
                               node[KEP_AUX * n3 + qb], m_avg, F);
          for (int v = 0; v < HX_NVAR; v++)
            ut[v * n3 + qa] += da * F[v];
          if (both)
            for (int v = 0; v < HX_NVAR; v++)
              ut[v * n3 + qb] += db * F[v];
        }
      }
}

/* kep_sweep_n with np a compile-time constant for N = 3..7. */
static void kep_sweep(const Solver *s, const double *node, const double *m, double *ut, int n_outer,
                      int outer, int pair, int n_inner) {
  switch (s->np) {
  case 4:
    kep_sweep_n(s, 4, node, m, ut, n_outer, outer, pair, n_inner);
    break;
  case 5:
    kep_sweep_n(s, 5, node, m, ut, n_outer, outer, pair, n_inner);
    break;
  case 6:
    kep_sweep_n(s, 6, node, m, ut, n_outer, outer, pair, n_inner);
    break;
  case 7:
    kep_sweep_n(s, 7, node, m, ut, n_outer, outer, pair, n_inner);
    break;
  case 8:
    kep_sweep_n(s, 8, node, m, ut, n_outer, outer, pair, n_inner);
    break;
  default:
    kep_sweep_n(s, s->np, node, m, ut, n_outer, outer, pair, n_inner);
    break;
  }
}

/* out[a][k][i][j] = in[a][k][j][i] for n_arr arrays of n3 nodes (its own inverse). */
static void transpose_ij(int np, int n_arr, const double *in, double *out) {
  const int n3 = np * np * np;
  for (int a = 0; a < n_arr; a++)
    for (int k = 0; k < np; k++)
      for (int j = 0; j < np; j++)
        for (int i = 0; i < np; i++)
          out[a * n3 + (k * np + i) * np + j] = in[a * n3 + (k * np + j) * np + i];
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
  /* direction 0 on the transposed copy [node block][3 metric][5 Ut] */
  double *tn = w->tr, *tm = tn + KEP_NODE * n3, *tu = tm + 3 * n3;
  transpose_ij(np, KEP_NODE, w->prim, tn);
  transpose_ij(np, 3, Ja, tm);
  transpose_ij(np, HX_NVAR, Ut, tu);
  kep_sweep(s, tn, tm, tu, np, n2, np, np);
  transpose_ij(np, HX_NVAR, tu, Ut);
  kep_sweep(s, w->prim, Ja + 3 * n3, Ut, np, n2, np, np); /* q = k n2 + j np + i */
  kep_sweep(s, w->prim, Ja + 6 * n3, Ut, 1, 0, n2, n2);   /* q = k n2 + (j np + i) */
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
    w.prim = malloc(sizeof(double) * KEP_NODE * n3); /* + aux: the KG/PI sweep's node block */
    w.aux = w.prim + KEP_AUX * n3;
    w.Y = malloc(sizeof(double) * (s->n_species + 1) * n3);
    w.ft = malloc(sizeof(double) * 3 * nv * n3);
    w.dg = s->fv.enabled ? malloc(sizeof(double) * nv * n3) : NULL;
    w.fv = s->fv.enabled ? malloc(sizeof(double) * nv * n3) : NULL;
    w.tr = malloc(sizeof(double) * (KEP_NODE + 3 + nv) * n3);
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
    free(w.Y);
    free(w.ft);
    free(w.dg);
    free(w.fv);
    free(w.tr);
  }
}
