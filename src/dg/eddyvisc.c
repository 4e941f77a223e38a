/* Eddy-viscosity LES set-up (FLEXI's EddyViscParameters): the filter width of every element, the
 * wall distance of every node for Van Driest's damping, and the per-node coefficients
 * coef = (C Delta damp)^2 that physics/eddyvisc.h multiplies with rho D(grad u). */
#include "dg/eddyvisc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "parallel/exchange.h"
#include "parallel/parallel.h"
#include "physics/bc.h"
#include "physics/eddyvisc.h"

static const char *const SGS_NAMES[] = {"none", "smagorinsky", "dynsmagorinsky", "vreman", "sigma"};
static const int SGS_IDS[] = {SGS_NONE, SGS_SMAGORINSKY, SGS_DYNSMAG, SGS_VREMAN, SGS_SIGMA};

int eddyvisc_define_params(Params *p) {
  const char *s = "EddyViscParameters";
  HX_CHECK(params_define_choice(p, s, "eddyViscType", "none", 5, SGS_NAMES, SGS_IDS,
                                "Subgrid-scale eddy-viscosity model of LES (FLEXI's names and "
                                "integer codes): none, smagorinsky (Smagorinsky 1963), vreman "
                                "(Vreman 2004), sigma (Nicoud et al. 2011); dynsmagorinsky is "
                                "FLEXI's code 2 and not implemented. Needs mu0 > 0."));
  HX_CHECK(params_define(p, s, "CS", PARAM_REAL, 0, "", false,
                         "Model constant: the Smagorinsky constant C_s for smagorinsky and "
                         "vreman (Vreman's c = 2.5 C_s^2), C_sigma for sigma (Nicoud et al. "
                         "2011: 1.35). Mandatory with eddyViscType != none, as in FLEXI."));
  HX_CHECK(params_define(p, s, "PrSGS", PARAM_REAL, 0, "0.7", false,
                         "Turbulent Prandtl number: heat conductivity cp mu_t / PrSGS."));
  HX_CHECK(params_define(p, s, "VanDriest", PARAM_LOGICAL, 0, "F", false,
                         "Smagorinsky only: damp C_s Delta by 1 - exp(-y+/26), y+ = y / mu0 "
                         "with y the distance to the nearest no-slip wall (BC 3, 4), i.e. "
                         "FLEXI's channel scaling rho = u_tau = 1."));
  return HX_OK;
}

/* Element volumes from the quadrature of J; filter width vol^(1/3)/(N+1) (FLEXI's DeltaS). */
static void filter_widths(const Solver *s, double *delta) {
  const int np = s->np, n3 = s->n_dof_elem;
  const double *w = s->disc.w;
  for (int e = 0; e < s->mesh->n_elems; e++) {
    const double *sJ = &s->geo.sJ[(long)n3 * e];
    double vol = 0.0;
    for (int k = 0; k < np; k++)
      for (int j = 0; j < np; j++)
        for (int i = 0; i < np; i++)
          vol += w[i] * w[j] * w[k] / sJ[(k * np + j) * np + i];
    delta[e] = sgs_filter_width(vol, s->disc.N);
  }
}

/* Wall face points (position, unit normal, spacing radius) of every rank: [n][7]. */
typedef struct {
  double *pts;
  long n;
} WallPoints;

static int is_noslip_wall(const Solver *s, int side) {
  int b = s->mesh->side_bc[side];
  if (b < 0) return 0;
  int type = s->bc_info[2 * b];
  return type == BC_WALL_ADIABATIC || type == BC_WALL_ISOTHERMAL;
}

/* Radius of face point f: its largest distance to a neighbouring point of the face grid. */
static double face_point_radius(const Solver *s, int side, int f) {
  const int np = s->np, n2 = s->n_dof_face, p = f % np, q = f / np;
  const double *x = &s->geo.face_x[(long)side * 3 * n2];
  double r = 0.0;
  const int nb[4][2] = {{p - 1, q}, {p + 1, q}, {p, q - 1}, {p, q + 1}};
  for (int k = 0; k < 4; k++) {
    if (nb[k][0] < 0 || nb[k][0] >= np || nb[k][1] < 0 || nb[k][1] >= np) continue;
    int g = nb[k][1] * np + nb[k][0];
    double d2 = 0.0;
    for (int c = 0; c < 3; c++)
      d2 += (x[c * n2 + g] - x[c * n2 + f]) * (x[c * n2 + g] - x[c * n2 + f]);
    r = fmax(r, sqrt(d2));
  }
  return r;
}

/* Gathered over the ranks with sums of zero-padded blocks (set-up only). */
/* Lexicographic order of two wall points (position, normal, radius). */
static int compare_wall_points(const void *a, const void *b) {
  const double *p = a, *q = b;
  for (int c = 0; c < 7; c++)
    if (p[c] != q[c]) return p[c] < q[c] ? -1 : 1;
  return 0;
}

static int gather_wall_points(const Solver *s, WallPoints *wp) {
  const Mesh *m = s->mesh;
  const int n2 = s->n_dof_face, nr = par_size(), me = par_rank();
  long local = 0;
  for (int side = 0; side < m->n_bc_sides; side++)
    local += is_noslip_wall(s, side) ? n2 : 0;
  double *counts = hx_calloc(nr, sizeof(double), "wall point counts");
  HX_ALLOC_CHECK(counts);
  counts[me] = (double)local;
  par_sum(counts, nr);
  long first = 0, total = 0;
  for (int r = 0; r < nr; r++) {
    if (r < me) first += (long)counts[r];
    total += (long)counts[r];
  }
  free(counts);
  wp->n = total;
  wp->pts = hx_calloc(7 * (total ? total : 1), sizeof(double), "wall points");
  HX_ALLOC_CHECK(wp->pts);
  long at = first;
  for (int side = 0; side < m->n_bc_sides; side++) {
    if (!is_noslip_wall(s, side)) continue;
    for (int f = 0; f < n2; f++, at++) {
      double *o = &wp->pts[7 * at];
      for (int c = 0; c < 3; c++) {
        o[c] = s->geo.face_x[((long)side * 3 + c) * n2 + f];
        o[3 + c] = s->geo.face_nvec[((long)side * 3 + c) * n2 + f];
      }
      o[6] = face_point_radius(s, side, f);
    }
  }
  if (nr > 1) par_sum(wp->pts, (int)(7 * total));
  /* one order for any rank layout: a point of an edge or corner stands in several faces with
     other normals, and the tree's choice among such ties must not depend on the partition */
  qsort(wp->pts, (size_t)total, 7 * sizeof(double), compare_wall_points);
  return HX_OK;
}

/* k-d tree over the wall points: idx permuted so that every range [lo, hi) splits at its middle
 * mid along axis[mid] (smaller coordinates before, larger after); O(log n) nearest-point queries.
 */
#define KD_LEAF 8
typedef struct {
  const double *pts; /* [n][7] */
  long *idx;
  unsigned char *axis;
} KdTree;

static double kd_coord(const KdTree *t, long i, int ax) {
  return t->pts[7 * t->idx[i] + ax];
}

static void kd_swap(long *a, long i, long j) {
  long tmp = a[i];
  a[i] = a[j];
  a[j] = tmp;
}

/* Quickselect: the k-th smallest coordinate of [lo, hi) along ax at position k. */
static void kd_select(KdTree *t, long lo, long hi, long k, int ax) {
  while (hi - lo > 1) {
    double pivot = kd_coord(t, lo + (hi - lo) / 2, ax);
    long i = lo, j = hi - 1;
    while (i <= j) {
      while (kd_coord(t, i, ax) < pivot)
        i++;
      while (kd_coord(t, j, ax) > pivot)
        j--;
      if (i <= j) kd_swap(t->idx, i++, j--);
    }
    if (k <= j)
      hi = j + 1;
    else if (k >= i)
      lo = i;
    else
      return;
  }
}

static void kd_build(KdTree *t, long lo, long hi) {
  if (hi - lo <= KD_LEAF) return;
  double mn[3], mx[3];
  for (int d = 0; d < 3; d++)
    mn[d] = mx[d] = kd_coord(t, lo, d);
  for (long i = lo + 1; i < hi; i++)
    for (int d = 0; d < 3; d++) {
      mn[d] = fmin(mn[d], kd_coord(t, i, d));
      mx[d] = fmax(mx[d], kd_coord(t, i, d));
    }
  int ax = 0; /* the widest extent */
  for (int d = 1; d < 3; d++)
    if (mx[d] - mn[d] > mx[ax] - mn[ax]) ax = d;
  long mid = lo + (hi - lo) / 2;
  kd_select(t, lo, hi, mid, ax);
  t->axis[mid] = (unsigned char)ax;
  kd_build(t, lo, mid);
  kd_build(t, mid + 1, hi);
}

static void kd_visit(const KdTree *t, long i, const double *x, long *best, double *best_d2) {
  const double *w = &t->pts[7 * t->idx[i]];
  double d2 = 0.0;
  for (int d = 0; d < 3; d++)
    d2 += (x[d] - w[d]) * (x[d] - w[d]);
  if (d2 < *best_d2) {
    *best_d2 = d2;
    *best = t->idx[i];
  }
}

static void kd_nearest(const KdTree *t, long lo, long hi, const double *x, long *best,
                       double *best_d2) {
  if (hi - lo <= KD_LEAF) {
    for (long i = lo; i < hi; i++)
      kd_visit(t, i, x, best, best_d2);
    return;
  }
  long mid = lo + (hi - lo) / 2;
  int ax = t->axis[mid];
  double diff = x[ax] - kd_coord(t, mid, ax);
  kd_visit(t, mid, x, best, best_d2);
  if (diff < 0.0) {
    kd_nearest(t, lo, mid, x, best, best_d2);
    if (diff * diff < *best_d2) kd_nearest(t, mid + 1, hi, x, best, best_d2);
  } else {
    kd_nearest(t, mid + 1, hi, x, best, best_d2);
    if (diff * diff < *best_d2) kd_nearest(t, lo, mid, x, best, best_d2);
  }
}

/* Distance to the nearest wall point, or to its tangent plane where the foot of the normal lies
 * within the point's radius (exact for plane walls whose face points sit below the node). */
static double wall_point_distance(const double *w, const double *x) {
  double r[3], d2 = 0.0, dn = 0.0;
  for (int d = 0; d < 3; d++) {
    r[d] = x[d] - w[d];
    d2 += r[d] * r[d];
    dn += r[d] * w[3 + d];
  }
  double lateral2 = d2 - dn * dn;
  if (lateral2 <= w[6] * w[6]) return fabs(dn);
  return sqrt(d2);
}

int eddyvisc_wall_distance(const Solver *s, long n, const double *x, double *dist) {
  WallPoints wp = {0};
  KdTree t = {0};
  int rc = gather_wall_points(s, &wp);
  if (rc == HX_OK && wp.n == 0)
    rc = HX_ERROR(HX_ERR_INPUT,
                  "VanDriest = T needs a no-slip wall (BC type 3 or 4) in mesh %s "
                  "for the wall distance; set VanDriest = F or add a wall",
                  s->mesh->source);
  if (rc == HX_OK) {
    t.pts = wp.pts;
    t.idx = hx_malloc(sizeof(long) * wp.n, "wall point tree");
    t.axis = hx_calloc(wp.n, 1, "wall point tree");
    if (!t.idx || !t.axis) rc = HX_ERR_MEM;
  }
  if (rc == HX_OK) {
    for (long i = 0; i < wp.n; i++)
      t.idx[i] = i;
    kd_build(&t, 0, wp.n);
#pragma omp parallel for schedule(dynamic, 256)
    for (long i = 0; i < n; i++) {
      long k = 0;
      double d2 = INFINITY;
      kd_nearest(&t, 0, wp.n, &x[3 * i], &k, &d2);
      dist[i] = wall_point_distance(&wp.pts[7 * k], &x[3 * i]);
    }
  }
  free(wp.pts);
  free(t.idx);
  free(t.axis);
  return rc;
}

/* Van Driest's damping of the node at wall distance y: y+ = y rho u_tau / mu0 with FLEXI's
 * channel scaling rho = u_tau = 1 (smagorinsky.f90: yPlus = (1 - |y|) / mu0). */
static double node_damping(const Solver *s, double y) {
  return van_driest_damping(y / s->phys.mu0);
}

static double model_constant2(const EddyVisc *ev) {
  double c2 = ev->CS * ev->CS;
  return ev->model == SGS_VREMAN ? SGS_VREMAN_FACTOR * c2 : c2;
}

/* Positions of the face points of one half of every side: the element's own face points. */
static int volume_coefficients(Solver *s, EddyVisc *ev) {
  const int n3 = s->n_dof_elem, ne = s->mesh->n_elems;
  const long n = (long)n3 * ne;
  const double c2 = model_constant2(ev);
  ev->coef = hx_malloc(sizeof(double) * n, "eddy-viscosity coefficients");
  HX_ALLOC_CHECK(ev->coef);
  if (ev->van_driest) {
    double *x = hx_malloc(sizeof(double) * 3 * n, "node positions");
    ev->wall_dist = hx_malloc(sizeof(double) * n, "wall distance");
    if (!x || !ev->wall_dist) {
      free(x);
      return HX_ERR_MEM;
    }
    for (int e = 0; e < ne; e++)
      for (int q = 0; q < n3; q++)
        for (int c = 0; c < 3; c++)
          x[3 * ((long)e * n3 + q) + c] = s->geo.elem_x[(3L * e + c) * n3 + q];
    int rc = eddyvisc_wall_distance(s, n, x, ev->wall_dist);
    free(x);
    HX_CHECK(rc);
  }
  for (int e = 0; e < ne; e++)
    for (int q = 0; q < n3; q++) {
      long dof = (long)e * n3 + q;
      double damp = ev->van_driest ? node_damping(s, ev->wall_dist[dof]) : 1.0;
      ev->coef[dof] = c2 * ev->delta[e] * ev->delta[e] * damp * damp;
    }
  return HX_OK;
}

/* coef at the face points of the side's element on this rank (master, slave or both), the
 * slave's of "mine" MPI sides received from the neighbour. */
static int face_coefficients(Solver *s, EddyVisc *ev) {
  const Mesh *m = s->mesh;
  const int n2 = s->n_dof_face;
  const long nf = (long)n2 * m->n_sides;
  const double c2 = model_constant2(ev);
  ev->coef_master = hx_calloc(nf, sizeof(double), "face eddy-viscosity coefficients");
  ev->coef_slave = hx_calloc(nf, sizeof(double), "face eddy-viscosity coefficients");
  HX_ALLOC_CHECK(ev->coef_master);
  HX_ALLOC_CHECK(ev->coef_slave);
  double *damp = hx_malloc(sizeof(double) * nf, "face damping");
  HX_ALLOC_CHECK(damp);
  for (long i = 0; i < nf; i++)
    damp[i] = 1.0;
  if (ev->van_driest) {
    double *x = hx_malloc(sizeof(double) * 3 * nf, "face positions");
    if (!x) {
      free(damp);
      return HX_ERR_MEM;
    }
    for (int side = 0; side < m->n_sides; side++)
      for (int f = 0; f < n2; f++)
        for (int c = 0; c < 3; c++)
          x[3 * ((long)side * n2 + f) + c] = s->geo.face_x[((long)side * 3 + c) * n2 + f];
    int rc = eddyvisc_wall_distance(s, nf, x, damp);
    free(x);
    if (rc != HX_OK) {
      free(damp);
      return rc;
    }
    for (long i = 0; i < nf; i++)
      damp[i] = node_damping(s, damp[i]);
  }
  for (int side = 0; side < m->n_sides; side++) {
    int em = m->side_master_elem[side], es = m->side_slave_elem[side];
    for (int f = 0; f < n2; f++) {
      long at = (long)side * n2 + f;
      if (em >= 0) ev->coef_master[at] = c2 * ev->delta[em] * ev->delta[em] * damp[at] * damp[at];
      if (es >= 0) ev->coef_slave[at] = c2 * ev->delta[es] * ev->delta[es];
    }
  }
  exchange_start(s->exchange, EXCH_GRAD, ev->coef_slave, n2, EXCH_TO_MASTER);
  exchange_finish(s->exchange, EXCH_GRAD);
  /* the damping of the face points on the master's rank, which holds their positions (a rank
     with only the slave of an MPI side has none) */
  for (int side = 0; side < m->n_sides; side++)
    if (m->side_master_elem[side] >= 0)
      for (int f = 0; f < n2; f++) {
        long at = (long)side * n2 + f;
        ev->coef_slave[at] *= damp[at] * damp[at];
      }
  free(damp);
  return HX_OK;
}

static int read_params(const Params *p, const Solver *s, EddyVisc *ev) {
  bool vd;
  HX_CHECK(params_get_real(p, "PrSGS", &ev->PrSGS));
  HX_CHECK(params_get_logical(p, "VanDriest", &vd));
  ev->van_driest = vd;
  if (!params_is_set(p, "CS"))
    return HX_ERROR(HX_ERR_INPUT,
                    "eddyViscType = %s needs the model constant CS (typical: 0.1..0.17 for "
                    "smagorinsky and vreman, 1.35 for sigma)",
                    params_choice_name(p, "eddyViscType", ev->model));
  HX_CHECK(params_get_real(p, "CS", &ev->CS));
  if (!(ev->CS > 0.0))
    return HX_ERROR(HX_ERR_INPUT, "CS = %g: the eddy-viscosity constant must be positive", ev->CS);
  if (!(ev->PrSGS > 0.0))
    return HX_ERROR(HX_ERR_INPUT, "PrSGS = %g: the turbulent Prandtl number must be positive",
                    ev->PrSGS);
  if (ev->van_driest && ev->model != SGS_SMAGORINSKY)
    return HX_ERROR(HX_ERR_INPUT,
                    "VanDriest = T damps the Smagorinsky model only (the %s model "
                    "vanishes at walls by itself); set VanDriest = F",
                    params_choice_name(p, "eddyViscType", ev->model));
  if (!s->viscous)
    return HX_ERROR(HX_ERR_INPUT,
                    "eddyViscType = %s needs the Navier-Stokes equations: set "
                    "mu0 > 0",
                    params_choice_name(p, "eddyViscType", ev->model));
  if (s->mech)
    return HX_ERROR(HX_ERR_INPUT,
                    "eddyViscType = %s is not available for reacting mixtures "
                    "(Mechanism is set); use eddyViscType = none (implicit LES)",
                    params_choice_name(p, "eddyViscType", ev->model));
  ev->lambda_factor = s->phys.cp / ev->PrSGS;
  return HX_OK;
}

int eddyvisc_init(const Params *p, Solver *s) {
  int model;
  HX_CHECK(params_get_choice(p, "eddyViscType", &model));
  if (model == SGS_NONE) return HX_OK;
  if (model == SGS_DYNSMAG)
    return HX_ERROR(HX_ERR_INPUT, "eddyViscType = dynsmagorinsky (2) is FLEXI's dynamic "
                                  "Smagorinsky model, not implemented in hexdg; use smagorinsky, "
                                  "vreman or sigma");
  EddyVisc *ev = hx_calloc(1, sizeof(EddyVisc), "eddy viscosity");
  HX_ALLOC_CHECK(ev);
  s->sgs = ev;
  ev->model = model;
  HX_CHECK(read_params(p, s, ev));
  ev->delta =
      hx_malloc(sizeof(double) * (s->mesh->n_elems ? s->mesh->n_elems : 1), "filter widths");
  HX_ALLOC_CHECK(ev->delta);
  filter_widths(s, ev->delta);
  HX_CHECK(volume_coefficients(s, ev));
  ev->mu_t_max = hx_calloc(s->mesh->n_elems ? s->mesh->n_elems : 1, sizeof(double),
                           "largest eddy viscosity per element");
  HX_ALLOC_CHECK(ev->mu_t_max);
  return face_coefficients(s, ev);
}

void eddyvisc_refresh(Solver *s, double t) {
  if (!s->sgs) return;
  memset(s->sgs->mu_t_max, 0, sizeof(double) * s->mesh->n_elems);
  prolong_to_face(s, s->U);
  lifting(s, s->U, s->Ut, t); /* records mu_t_max (lifting.c) */
  exchange_finish(s->exchange, EXCH_GRAD);
}

void eddyvisc_node_field(Solver *s, double t, double *mu_t) {
  const EddyVisc *ev = s->sgs;
  const int n3 = s->n_dof_elem;
  eddyvisc_refresh(s, t);
#pragma omp parallel for schedule(static)
  for (int e = 0; e < s->mesh->n_elems; e++) {
    const double *g = &s->grad[(long)HX_NGRAD * n3 * e], *rho = &s->U[(long)s->n_var * n3 * e];
    for (int n = 0; n < n3; n++) {
      double q[3][HX_NLIFT];
      for (int c = 0; c < 3; c++)
        for (int v = 0; v < HX_NLIFT; v++)
          q[c][v] = g[(c * HX_NLIFT + v) * n3 + n];
      mu_t[(long)e * n3 + n] =
          eddy_viscosity(ev->model, ev->coef[(long)e * n3 + n], rho[n], q[0], q[1], q[2]);
    }
  }
}

void eddyvisc_free(Solver *s) {
  EddyVisc *ev = s->sgs;
  if (!ev) return;
  free(ev->delta);
  free(ev->wall_dist);
  free(ev->coef);
  free(ev->coef_master);
  free(ev->coef_slave);
  free(ev->mu_t_max);
  free(ev);
  s->sgs = NULL;
}
