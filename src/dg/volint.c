/* VolInt: the volume integral of weak-form or split-form DGSEM, element by element; with shock
 * capturing, elements with alpha > 0 take (1 - alpha) DG + alpha FV (dg/fv.c). Only the advective
 * part is blended: the viscous volume term (lifting.c, in Ut when accumulate is set) is kept. */
#include <stdlib.h>

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
} VolScratch;

/* The node's primitive state; the mixture's temperature becomes the node's next Newton guess. */
static void node_prim(const Solver *s, long dof, const double *u, double *pr, double *Y) {
  double c;
  if (!s->mech)
    cons_to_prim(&s->phys, u, pr); /* no speed of sound: the volume integral needs none */
  else if (solver_node_prim(s, dof, u, pr, Y, &c) == 0)
    s->T_guess[dof] = pr[TEMP];
}

static void gather_state(const Solver *s, int e, const double *Ue, VolScratch *w) {
  int n3 = s->n_dof_elem, nv = s->n_var, ns = s->n_species;
  for (int q = 0; q < n3; q++) {
    double u[HX_NVAR_MAX], pr[HX_NPRIM], Y[HX_MAX_SPECIES];
    for (int v = 0; v < nv; v++) u[v] = w->u[v * n3 + q] = Ue[v * n3 + q];
    node_prim(s, (long)e * n3 + q, u, pr, Y);
    for (int v = 0; v < HX_NPRIM; v++) w->prim[v * n3 + q] = pr[v];
    for (int k = 0; k < ns; k++) w->Y[k * n3 + q] = Y[k];
    w->aux[q] = split_node_aux(s->disc.split, u, pr);
  }
}

static void load_node(const Solver *s, const VolScratch *w, int q, double *u, double *pr,
                      double *Y) {
  int n3 = s->n_dof_elem;
  for (int v = 0; v < s->n_var; v++) u[v] = w->u[v * n3 + q];
  for (int v = 0; v < HX_NPRIM; v++) pr[v] = w->prim[v * n3 + q];
  for (int k = 0; k < s->n_species; k++) Y[k] = w->Y[k * n3 + q];
}

/* Weak form: contravariant fluxes at every node, then Dhat along each direction. */
static void volint_weak(const Solver *s, const double *Ja, VolScratch *w, double *Ut,
                        int accumulate) {
  int np = s->np, n3 = s->n_dof_elem, nv = s->n_var;
  for (int q = 0; q < n3; q++) {
    double u[HX_NVAR_MAX], pr[HX_NPRIM], Y[HX_MAX_SPECIES], fxyz[3][HX_NVAR_MAX];
    load_node(s, w, q, u, pr, Y);
    euler_fluxes_xyz(u, pr, fxyz[0], fxyz[1], fxyz[2]);
    for (int d = 0; d < 3; d++) mix_species_flux(s->n_species, fxyz[d][DENS], Y, fxyz[d]);
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
    for (int q = 0; q < nv * n3; q++) Ut[q] = 0.0;
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

static void volint_dg(const Solver *s, const double *Ja, VolScratch *w, double *Ut,
                      int accumulate) {
  if (s->disc.split == SPLIT_NONE)
    volint_weak(s, Ja, w, Ut, accumulate);
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
  }
}
