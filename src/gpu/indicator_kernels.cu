/* FLEXI's shock indicators and the FV switching on the device, the twin of src/dg/indicator.c:
 * one thread per element runs the element functions of src/physics/indicators.h (the same code
 * as the CPU) on a scratch block of its own in global memory. Jameson's ghost layer is gathered
 * from the neighbour elements' states directly; across an MPI side from ind_ghost, the other
 * rank's face values (launch_ind_ghost_faces, exchanged by gpu_mpi_fv.cu).
 *   launch_ind_alpha   after each stage's update (fv_kernels.cu's post-update): IndValue and,
 *                      with FV_Mode = blending, alpha of the FLEXI indicators;
 *   launch_fv_switch   at the start of every stage with FV_Mode = switching: IndValue at the
 *                      stage's time, the hysteresis, the conservative conversion of U and of the
 *                      Runge-Kutta register k, alpha = FV_Elems. */
#include "gpu/gpu_internal.cuh"

extern "C" {
#include "dg/indicator.h"
#include "mesh/facemap.h"
#include "parallel/parallel.h"
#include "physics/eos.h"
#include "physics/fvblend.h"
#include "physics/indicators.h"
}

#define IND_THREADS 128

/* Doubles of an element's scratch: a state copy (nvar n3), a and b (3 n3 each), the ghost layer. */
__host__ __device__ static inline size_t ind_scratch_size(int nvar, int n3, int n2) {
  return (size_t)(nvar + 6) * n3 + 6 * (size_t)n2;
}

/* IndVar at the face points of element e's neighbours (the element's own values at boundaries),
 * in ind_ghost_index order: gather_ghost of indicator.c without the face arrays, but for a
 * neighbour on another rank (its half of ind_ghost, the face points in the master's order as
 * the map's f). */
__device__ static void gather_ghost_dev(const DevData &d, const PhysParams &pp, int e,
                                        double *ghost) {
  const int np = d.np, n2 = d.n2, n3 = d.n3;
  for (int ls = 0; ls < 6; ls++) {
    const int side = d.elem_sides[2 * (6 * e + ls)], flip = d.elem_sides[2 * (6 * e + ls) + 1];
    const int *si = d.side_info + 6 * side;
    int oe = e, ols = ls, oflip = flip; /* boundary: the element itself */
    if (si[5] < 0) {
      oe = flip == 0 ? si[2] : si[0];
      ols = flip == 0 ? si[3] : si[1];
      oflip = flip == 0 ? si[4] : 0;
    }
    const int dir = side_normal_dir(ls), plus = side_is_plus(ls);
    const double *remote = oe < 0 ? d.ind_ghost + ((size_t)(flip == 0) * d.n_sides + side) * n2
                                  : NULL; /* the slave's half when e is the master */
    const int *map = d.s2v + (flip * 6 + ls) * n2;
    const int *omap = remote ? map : d.s2v + (oflip * 6 + ols) * n2;
    for (int f = 0; f < n2; f++) {
      const int q = map[f], i = q % np, j = (q / np) % np, k = q / (np * np);
      double *g = &ghost[ind_ghost_index(np, dir, plus, i, j, k)];
      if (remote) {
        *g = remote[f];
        continue;
      }
      double u[HX_NVAR];
      for (int v = 0; v < HX_NVAR; v++)
        u[v] = d.U[((size_t)oe * d.nvar + v) * n3 + omap[f]];
      *g = ind_quantity(d.ind_code, pp.kappa_m1, u);
    }
  }
}

/* The Jacobians of element e's FV representation: the equidistant subcells' on Gauss nodes
 * (dg/fv_gauss.h), else the nodes' own (the LGL subcells). */
__device__ static inline const double *fv_rep_sJ(const DevData &d, int e) {
  return (d.fvg_sJ ? d.fvg_sJ : d.sJ) + (size_t)e * d.n3;
}

__device__ static double persson_dev(const DevData &d, const PhysParams &pp, const double *Ue,
                                     double *a, double *b) {
  for (int q = 0; q < d.n3; q++) {
    double u[HX_NVAR];
    for (int v = 0; v < HX_NVAR; v++)
      u[v] = Ue[v * d.n3 + q];
    a[q] = ind_quantity(d.ind_code, pp.kappa_m1, u);
  }
  ind_to_modal(d.np, d.fv_vinv, a, b);
  return ind_persson_modal(d.np, d.n_modes, a);
}

/* hennemann's blending factor (fv_element_energy + fv_alpha_from_energy of the CPU, air). */
__device__ static double hennemann_dev(const DevData &d, const PhysParams &pp, const double *Ue,
                                       double *a, double *b) {
  for (int q = 0; q < d.n3; q++) {
    double u[HX_NVAR];
    for (int v = 0; v < HX_NVAR; v++)
      u[v] = Ue[v * d.n3 + q];
    a[q] = fv_indicator_quantity(d.fv_ind_var, pp.kappa_m1, u);
  }
  ind_to_modal(d.np, d.fv_vinv, a, b);
  double sums[3] = {0.0, 0.0, 0.0};
  for (int q = 0; q < d.n3; q++)
    fv_modal_energy_add(d.np, q, a[q], sums);
  return fv_alpha_from_energy(fv_modal_energy(d.N, sums[0], sums[1], sums[2]), d.N, d.fv_alpha_min,
                              d.fv_alpha_max);
}

__device__ static double jameson_dev(const DevData &d, const PhysParams &pp, int e,
                                     const double *Ue, double *a, double *ghost) {
  for (int q = 0; q < d.n3; q++) {
    double u[HX_NVAR];
    for (int v = 0; v < HX_NVAR; v++)
      u[v] = Ue[v * d.n3 + q];
    a[q] = ind_quantity(d.ind_code, pp.kappa_m1, u);
  }
  gather_ghost_dev(d, pp, e, ghost);
  return ind_jameson_element(d.np, a, ghost, d.disc->w, d.sJ + (size_t)e * d.n3);
}

/* IndValue of element e at time t before FVBoundaries (ind_value_element of indicator.c). */
__device__ static double ind_value_raw_dev(const DevData &d, const PhysParams &pp, int e,
                                           double t) {
  if (d.ind_start_time > 0.0 && t < d.ind_start_time) return HUGE_VAL; /* as indicator.c */
  const int n3 = d.n3, nv = d.nvar;
  double *w = d.ind_scratch + ind_scratch_size(nv, n3, d.n2) * e;
  double *u = w, *a = w + (size_t)nv * n3, *b = a + 3 * n3, *ghost = b + 3 * n3;
  const double *Ue = d.U + (size_t)e * nv * n3, *sJ = d.sJ + (size_t)e * n3;
  const int modal =
      d.fv_indicator == FV_INDICATOR_PERSSON || d.fv_indicator == FV_INDICATOR_HENNEMANN;
  if (modal && d.fv_elems && d.fv_elems[e]) { /* an FV element's modes: its DG form */
    for (int q = 0; q < nv * n3; q++)
      u[q] = Ue[q];
    fv_switch_element_between(d.np, d.fv_to_dg, nv, fv_rep_sJ(d, e), sJ, d.switch_conservative, u,
                              a);
    Ue = u;
  }
  switch (d.fv_indicator) {
  case FV_INDICATOR_PERSSON:
    return persson_dev(d, pp, Ue, a, b);
  case FV_INDICATOR_JAMESON:
    return jameson_dev(d, pp, e, Ue, a, ghost);
  case FV_INDICATOR_DUCROS:
    return ind_ducros_element(d.np, d.disc->D, d.disc->w, d.metrics + 9 * (size_t)n3 * e, sJ, Ue,
                              b);
  case FV_INDICATOR_DUCROS_JST: {
    const double jst = jameson_dev(d, pp, e, Ue, a, ghost);
    return jst * ind_ducros_element(d.np, d.disc->D, d.disc->w, d.metrics + 9 * (size_t)n3 * e, sJ,
                                    Ue, b);
  }
  case FV_INDICATOR_HENNEMANN:
    return hennemann_dev(d, pp, Ue, a, b);
  case FV_INDICATOR_FIXED:
    return d.fv_alpha_fix;
  default: /* fv, halfhalf, checkerboard: fixed patterns */
    return d.ind_static[e];
  }
}

/* IndValue of element e at time t (fv_compute_ind_value of indicator.c). */
__device__ static double ind_value_dev(const DevData &d, const PhysParams &pp, int e, double t) {
  return ind_boundary_value(d.ind_boundary && d.ind_boundary[e], ind_value_raw_dev(d, pp, e, t));
}

__global__ static void ind_alpha_kernel(DevData d, DevPhysics ph) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= d.n_elems) return;
  const double value = ind_value_dev(d, ph.pp, e, d.sc->t);
  d.ind_value[e] = value;
  const int direct =
      d.fv_indicator == FV_INDICATOR_HENNEMANN || d.fv_indicator == FV_INDICATOR_FIXED;
  d.alpha[e] = fv_alpha_of_ind_value(direct, value, d.ind_upper, d.fv_alpha_max);
}

__global__ static void switch_kernel(DevData d, DevPhysics ph, double c_stage, int allow_to_dg) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= d.n_elems) return;
  const double value = ind_value_dev(d, ph.pp, e, d.sc->t + c_stage * d.sc->dt);
  d.ind_value[e] = value;
  const int n3 = d.n3, nv = d.nvar, was_fv = d.fv_elems[e];
  int now_fv = fv_switch_decide(was_fv, value, d.ind_upper, d.ind_lower, allow_to_dg);
  const double *sJ = d.sJ + (size_t)e * n3, *sJ_fv = fv_rep_sJ(d, e);
  double *w = d.ind_scratch + ind_scratch_size(nv, n3, d.n2) * e;
  double *u = w, *a = w + (size_t)nv * n3, *b = a + 3 * n3;
  double *ue = d.U + (size_t)e * nv * n3;
  if (now_fv != was_fv && !now_fv && d.to_dg_indicator) { /* FLEXI: the DG state must be smooth */
    for (int q = 0; q < nv * n3; q++)
      u[q] = ue[q];
    fv_switch_element_between(d.np, d.fv_to_dg, nv, sJ_fv, sJ, d.switch_conservative, u, a);
    if (persson_dev(d, ph.pp, u, a, b) > d.to_dg_limit) now_fv = 1;
  }
  if (now_fv != was_fv) {
    const double *M = now_fv ? d.fv_to_fv : d.fv_to_dg;
    const double *sJ_in = now_fv ? sJ : sJ_fv, *sJ_out = now_fv ? sJ_fv : sJ;
    fv_switch_element_between(d.np, M, nv, sJ_in, sJ_out, d.switch_conservative, ue, a);
    fv_switch_element_between(d.np, M, nv, sJ_in, sJ_out, d.switch_conservative,
                              d.k + (size_t)e * nv * n3, a);
    d.fv_elems[e] = now_fv;
  }
  d.alpha[e] = now_fv ? 1.0 : 0.0;
}

/* One thread per face point of an MPI side: IndVar of this rank's element there into its half
 * of ind_ghost (fill_ghost_faces of indicator.c on these sides). */
__global__ static void ghost_faces_kernel(DevData d, DevPhysics ph) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (d.n_sides - d.first_mpi) * d.n2) return;
  const int side = d.first_mpi + gid / d.n2, f = gid % d.n2;
  const int *si = d.side_info + 6 * side, slot = si[0] < 0; /* "yours": the slave is here */
  const int e = si[2 * slot], ls = si[2 * slot + 1], flip = slot ? si[4] : 0;
  const int q = d.s2v[(flip * 6 + ls) * d.n2 + f];
  double u[HX_NVAR];
  for (int v = 0; v < HX_NVAR; v++)
    u[v] = d.U[((size_t)e * d.nvar + v) * d.n3 + q];
  d.ind_ghost[((size_t)slot * d.n_sides + side) * d.n2 + f] =
      ind_quantity(d.ind_code, ph.pp.kappa_m1, u);
}

__global__ static void keep_good_kernel(DevData d) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= d.n_elems || !(d.sc->dt > 0.0)) return;
  d.fv_elems_good[e] = d.fv_elems[e];
}

static unsigned ind_blocks(const DevData *d) {
  return (unsigned)((d->n_elems + IND_THREADS - 1) / IND_THREADS);
}

int launch_ind_alpha(const DevData *d, const DevPhysics *ph, cudaStream_t s,
                     bool ghosts_exchanged) {
  if (!d->ind_value || d->fv_mode == FV_MODE_SWITCHING || d->n_elems == 0) return HX_OK;
  if (d->ind_ghost && !ghosts_exchanged) return HX_OK; /* gpu_mpi_ind_alpha, after the exchange */
  ind_alpha_kernel<<<ind_blocks(d), IND_THREADS, 0, s>>>(*d, *ph);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_ind_ghost_faces(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  const long n = (long)(d->n_sides - d->first_mpi) * d->n2;
  if (!d->ind_ghost || n <= 0) return HX_OK;
  const unsigned blocks = (unsigned)((n + IND_THREADS - 1) / IND_THREADS);
  ghost_faces_kernel<<<blocks, IND_THREADS, 0, s>>>(*d, *ph);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_fv_keep_good(const DevData *d, cudaStream_t s) {
  if (!d->fv_elems_good || d->n_elems == 0) return HX_OK;
  keep_good_kernel<<<ind_blocks(d), IND_THREADS, 0, s>>>(*d);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_fv_switch(const DevData *d, const DevPhysics *ph, double c_stage, bool first_stage,
                     cudaStream_t s) {
  if (!d->fv_elems || d->n_elems == 0) return HX_OK;
  switch_kernel<<<ind_blocks(d), IND_THREADS, 0, s>>>(*d, *ph, c_stage,
                                                      first_stage || d->to_dg_in_rk);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

/* The indicators the device computes here rather than in fv_kernels.cu's post-update. */
static bool ind_device_path(const FVBlend *fv) {
  return fv->mode == FV_MODE_SWITCHING || fv->fv_boundary ||
         (fv->indicator != FV_INDICATOR_HENNEMANN && fv->indicator != FV_INDICATOR_FIXED);
}

int ind_upload(DevData *d, const Solver *s, IndAlloc alloc, void *ctx) {
  const FVBlend *fv = &s->fv;
  const size_t ne = s->mesh->n_elems ? s->mesh->n_elems : 1;
  d->fv_mode = fv->mode;
  if (!ind_device_path(fv)) return HX_OK;
  if (s->mech)
    return HX_ERROR(HX_ERR_INPUT,
                    "IndicatorType = %d with FV_Mode = %d: the GPU backend runs "
                    "FLEXI's indicators and FV switching for air only; use "
                    "Backend = cpu",
                    fv->indicator, fv->mode);
  d->ind_code = fv->ind_code;
  d->n_modes = fv->n_modes;
  d->to_dg_indicator = fv->to_dg_indicator;
  d->to_dg_in_rk = fv->to_dg_in_rk;
  d->switch_conservative = fv->switch_conservative;
  d->ind_start_time = fv->ind_start_time;
  d->ind_upper = fv->ind_upper;
  d->ind_lower = fv->ind_lower;
  d->to_dg_limit = fv->to_dg_limit;
  d->fv_extend = d->fv_extend && fv->mode != FV_MODE_SWITCHING;
  const int np = s->np, n3 = s->n_dof_elem;
  double *pattern = (double *)malloc(sizeof(double) * ne);
  if (!pattern) return HX_ERROR(HX_ERR_MEM, "out of host memory (indicator patterns)");
  for (int e = 0; e < s->mesh->n_elems; e++)
    pattern[e] = fv->indicator == FV_INDICATOR_HALFHALF ? ind_halfhalf(s->geo.elem_x[3L * n3 * e])
                 : fv->indicator == FV_INDICATOR_CHECKERBOARD
                     ? ind_checkerboard(s->mesh->elem_global_id[e])
                     : IND_VALUE_FV;
  int rc = alloc(ctx, (void **)&d->ind_static, sizeof(double) * ne, pattern, "indicator patterns");
  free(pattern);
  HX_CHECK(rc);
  HX_CHECK(alloc(ctx, (void **)&d->ind_value, sizeof(double) * ne, fv->ind_value, "IndValue"));
  HX_CHECK(alloc(ctx, (void **)&d->ind_scratch,
                 sizeof(double) * ind_scratch_size(s->n_var, n3, np * np) * ne, NULL,
                 "indicator scratch"));
  HX_CHECK(alloc(ctx, (void **)&d->fv_to_fv, sizeof(double) * np * np, fv->to_fv, "switch matrix"));
  HX_CHECK(alloc(ctx, (void **)&d->fv_to_dg, sizeof(double) * np * np, fv->to_dg, "switch matrix"));
  if (fv->fv_boundary)
    HX_CHECK(
        alloc(ctx, (void **)&d->ind_boundary, sizeof(int) * ne, fv->fv_boundary, "FVBoundaries"));
  const bool ghosts =
      fv->indicator == FV_INDICATOR_JAMESON || fv->indicator == FV_INDICATOR_DUCROS_JST;
  if (ghosts && par_size() > 1) { /* the other ranks' face values (gpu_mpi_fv.cu) */
    const size_t ns = s->mesh->n_sides ? s->mesh->n_sides : 1;
    HX_CHECK(alloc(ctx, (void **)&d->ind_ghost, sizeof(double) * 2 * ns * np * np, NULL,
                   "indicator face values"));
    CU_CHECK(cudaMemset(d->ind_ghost, 0, sizeof(double) * 2 * ns * np * np));
  }
  if (fv->mode == FV_MODE_SWITCHING) {
    HX_CHECK(alloc(ctx, (void **)&d->fv_elems, sizeof(int) * ne, fv->fv_elems, "FV_Elems"));
    HX_CHECK(alloc(ctx, (void **)&d->fv_elems_good, sizeof(int) * ne, fv->fv_elems,
                   "FV_Elems of the last admissible state"));
    double *alpha = (double *)malloc(sizeof(double) * ne);
    if (!alpha) return HX_ERROR(HX_ERR_MEM, "out of host memory (FV_Elems)");
    for (int e = 0; e < s->mesh->n_elems; e++)
      alpha[e] = fv->fv_elems[e] ? 1.0 : 0.0;
    cudaError_t err = cudaMemcpy(d->alpha, alpha, sizeof(double) * ne, cudaMemcpyHostToDevice);
    free(alpha);
    CU_CHECK(err);
  }
  return HX_OK;
}
