/* CUDA backend set-up and time stepping: device mirrors allocated once with cudaMalloc, three
 * prioritized streams (elements low, inner sides mid, MPI sides high), and a whole RK step
 * (dt reduction, every stage, time update) captured once into a CUDA graph and replayed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_internal.cuh"
#include "gpu/stage_trace.cuh"

extern "C" {
#include "analysis/tgv_pointwise.h"
#include "chem/mech.h"
#include "dg/eddyvisc.h"
#include "dg/indicator.h"
#include "gpu/gpu.h"
#include "parallel/parallel.h"
#include "physics/navierstokes_mix.h"
#include "time/timedisc.h"
}

#define GPU_MAX_BUFFERS 64

struct GpuSolver {
  DevData d;
  DevPhysics ph;
  const LowStorageRK *rk;
  double *rk_s2, *rk_s3; /* 3S* schemes only: registers S2, S3 (k is then the update's scratch) */
  int use_graphs;
  int chain_stage; /* one GPU, fused update: the stage as a chain of dependent launches */
  /* the chain also across stages: each stage's face lifting and the time advance launched as
   * dependents of the update before them (HEXDG_PDL_LINK=F: full kernel boundaries there) */
  int link_stages;
  StepScalars *sc_mirror; /* sc_host's device address where the time advance writes it, or NULL */
  cudaStream_t s_elem, s_side, s_mpi;
  cudaStream_t s_dt; /* one GPU: the step's dt beside its first stage (lowest priority) */
  cudaEvent_t ev_stage[64], ev_faces[64], ev_t0, ev_t1;
  cudaEvent_t ev_dt_fork, ev_dt; /* the step's dt beside its first stage (enqueue_dt_beside) */
  int dt_pending;                /* the next update waits for ev_dt (host state while enqueuing) */
  cudaGraphExec_t step_graph;
  /* reacting flow with a chemistry stage: the step in two graphs, dt and the RK stages, so that
   * the chemistry (host-driven bulk-sparse schedule) runs between them */
  int chem_split;
  cudaGraphExec_t dt_graph, flow_graph;
  MixChem *chem;
  StepScalars *sc_host; /* pinned mirror of the device scalars */
  double t_analyze_host;
  void *buffers[GPU_MAX_BUFFERS];
  int n_buffers;
  size_t bytes;
  double *tgv_elem, *tgv_total; /* TGV analysis sums (allocated on first use) */
  double *p_max;                /* RecordMaxPressure: max p per node (allocated on first use) */
  int *front_bin;               /* RecordFrontPressure: each node's bin */
  unsigned long long *front_row; /* and the open row (bits of non-negative doubles) */
  int n_front_bins;
  GpuMpi *mpi;                  /* several ranks (gpu_mpi.cu); NULL on one rank */
  const Solver *solver;         /* error messages name an element, its place and its bad node */
  StageTrace *trace;            /* HEXDG_STAGE_TRACE, one rank, air: the stage's timeline */
};

/* The points of the one-GPU stage's timeline (stage_trace.cuh; the chained stage: start, end). */
enum { T1_START, T1_FACES, T1_VOLINT, T1_END, T1_COUNT };
static const char *const T1_NAMES[T1_COUNT] = {
    "start", "side: faces, lifting, face fluxes done", "elem: VolInt done",
    "elem: update done (end)"};

extern "C" int gpu_device_count(void) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError(); /* clear the sticky "no device" error */
    return 0;
  }
  return n;
}

extern "C" int gpu_select_device(char *name, size_t len) {
  int n = gpu_device_count();
  if (n == 0)
    return HX_ERROR(HX_ERR_DEVICE, "no CUDA device is visible (check CUDA_VISIBLE_DEVICES and the "
                                   "driver); use Backend = cpu to run on the CPU");
  /* one GPU per rank: the rank among the ranks of this node picks it */
  int local = par_local_rank(), dev = local % n;
  if (par_local_size() > n && local == 0)
    fprintf(stderr, "hexdg warning: %d ranks on this node share %d visible GPU(s); start one rank "
                    "per GPU for performance\n", par_local_size(), n);
  CU_CHECK(cudaSetDevice(dev));
  cudaDeviceProp prop;
  CU_CHECK(cudaGetDeviceProperties(&prop, dev));
  if (name) snprintf(name, len, "%s (device %d of %d, %.1f GiB)", prop.name, dev, n,
                     prop.totalGlobalMem / 1073741824.0);
  return HX_OK;
}

/* The fill of a device array allocated without host data: zeros, as a fresh process's memory,
 * so that a solver created after another in one process (the tests) starts from the same bytes.
 * HEXDG_POISON=all (or a part of the array's name) fills with 0xFF bytes (NaN) instead, to find
 * an array read before it is written; HEXDG_POISON=list prints the names. */
static int poison_byte(const char *what) {
  const char *p = getenv("HEXDG_POISON");
  if (!p || !*p) return 0;
  if (!strcmp(p, "list")) {
    fprintf(stderr, "hexdg poison candidate: %s\n", what);
    return 0;
  }
  return !strcmp(p, "all") || strstr(what, p) ? 0xFF : 0;
}

/* Allocate and copy one array; bytes are counted for the bytes/DOF report. */
static int dev_alloc(GpuSolver *g, void **ptr, size_t bytes, const void *host, const char *what) {
  if (g->n_buffers == GPU_MAX_BUFFERS)
    return HX_ERROR(HX_ERR_INTERNAL, "too many device buffers (raise GPU_MAX_BUFFERS)");
  cudaError_t err = cudaMalloc(ptr, bytes ? bytes : 8);
  if (err != cudaSuccess) {
    size_t free_b = 0, total_b = 0;
    cudaGetLastError();
    cudaMemGetInfo(&free_b, &total_b);
    return HX_ERROR(HX_ERR_DEVICE,
                    "out of device memory allocating %zu bytes for %s (%zu bytes held so far, "
                    "%zu of %zu bytes free): use a smaller mesh or more GPUs",
                    bytes, what, g->bytes, free_b, total_b);
  }
  g->buffers[g->n_buffers++] = *ptr;
  g->bytes += bytes;
  if (host) CU_CHECK(cudaMemcpy(*ptr, host, bytes, cudaMemcpyHostToDevice));
  else CU_CHECK(cudaMemset(*ptr, poison_byte(what), bytes ? bytes : 8));
  return HX_OK;
}

/* Total device bytes that set-up will ask for: checked against free memory before allocating. */
static size_t planned_bytes(const Solver *s) {
  size_t n3 = s->n_dof_elem, n2 = s->n_dof_face, ne = s->mesh->n_elems, ns = s->mesh->n_sides;
  size_t nv = s->n_var;
  size_t vol = ne * n3 * (3 * nv + 9 + 1 + (exact_has_source(s->exact.which) ? 3 : 0));
  size_t face = ns * n2 * (nv + 9 + 1 + 3) + ns * CM_SIDE_VALUES;
  vol += ne * CM_ELEM_VALUES; /* constant metrics (upload_geometry), at most */
  if (s->mech) /* P, the chemistry batch, the FV residual */
    vol += ne * n3 * (MIX_NP(s->n_species) + s->n_species + 4 + (s->fv.enabled ? nv : 0));
  if (s->viscous && s->mech) { /* species transport: gradients of 4 + ns variables, Ut_visc */
    vol += ne * n3 * (3 * (size_t)s->n_lift + nv);
    face += ns * n2 * ((size_t)s->n_lift + (s->disc.node_type == NODE_GAUSS_LOBATTO ? 2 * nv : 0));
  } else if (s->viscous) {
    vol += ne * n3 * HX_NGRAD;
    face += ns * n2 * HX_NGRAD;
  }
  if (s->fv.enabled) { /* U_good, subcell metrics, alpha and the time step's alpha */
    size_t np = s->np;
    vol += ne * (n3 * nv + 9 * np * np * (np - 1) + 2);
    face += 2 * ns;
  }
  if (s->fv.gauss) { /* switching on Gauss nodes (fv_gauss_kernels.cu, fvg_upload) */
    vol += ne * (n3 * (1 + 9 + 6 + HX_NPRIM) + 6 * n2 * (HX_NVAR + 1));
    face += ns * n2 * (3 + 3 + 2 + 2 + 4 * HX_NVAR + nv);
    if (s->viscous) { /* the slopes, the face subcells' gradients and lifting values */
      vol += ne * 3 * HX_NLIFT * n2 * (s->np + 1);
      face += ns * n2 * 3 * HX_NGRAD;
    }
  }
  return sizeof(double) * (vol + face) + sizeof(int) * (6 * ns + 12 * ne + 30 * n2) +
         sizeof(Disc) + sizeof(StepScalars);
}

static int upload_connectivity(GpuSolver *g, const Solver *s) {
  const Mesh *m = s->mesh;
  int *side_info = (int *)malloc(sizeof(int) * 6 * m->n_sides);
  int *elem_sides = (int *)malloc(sizeof(int) * 12 * m->n_elems);
  if (!side_info || !elem_sides) return HX_ERROR(HX_ERR_MEM, "out of host memory (GPU set-up)");
  for (int side = 0; side < m->n_sides; side++) {
    int *si = side_info + 6 * side;
    si[0] = m->side_master_elem[side];
    si[1] = m->side_master_locside[side];
    si[2] = m->side_slave_elem[side];
    si[3] = m->side_slave_locside[side];
    si[4] = m->side_flip[side];
    si[5] = m->side_bc[side];
  }
  for (int f = 0; f < 6 * m->n_elems; f++) {
    elem_sides[2 * f] = m->elem_to_side[f];
    elem_sides[2 * f + 1] = m->elem_to_side_flip[f];
  }
  int rc = dev_alloc(g, (void **)&g->d.side_info, sizeof(int) * 6 * m->n_sides, side_info, "sides");
  if (rc == HX_OK)
    rc = dev_alloc(g, (void **)&g->d.elem_sides, sizeof(int) * 12 * m->n_elems, elem_sides,
                   "element sides");
  if (rc == HX_OK)
    rc = dev_alloc(g, (void **)&g->d.s2v, sizeof(int) * 30 * s->n_dof_face, s->s2v, "face maps");
  if (rc == HX_OK)
    rc = dev_alloc(g, (void **)&g->d.bc_info, sizeof(int) * 2 * (m->n_bcs ? m->n_bcs : 1),
                   s->bc_info, "boundary conditions");
  free(side_info);
  free(elem_sides);
  return rc;
}

/* The constant metric terms of the straight-sided elements and the planar sides
 * (mesh/constmetrics.h), where there are any; HEXDG_CONST_METRICS = F keeps the nodal values
 * everywhere (for A/B runs). When every element (side) of an air case without FV has them, the
 * nodal arrays are not uploaded: the kernels of such a case read them only through node_metrics,
 * node_sJ, face_frame and face_surf (the FV, indicator and mixture kernels read them directly). */
static int upload_geometry(GpuSolver *g, const Solver *s) {
  size_t n3 = s->n_dof_elem, n2 = s->n_dof_face, ne = s->mesh->n_elems, ns = s->mesh->n_sides;
  const Geometry *geo = &s->geo;
  DevData *d = &g->d;
  ConstMetrics c;
  memset(&c, 0, sizeof c);
  if (gpu_env_flag("HEXDG_CONST_METRICS", true))
    HX_CHECK(const_metrics_find(geo, (long)ne, (long)ns, (int)n3, (int)n2, &c));
  const bool nodal_elems = !(c.n_elems_const == (long)ne && !s->mech && !s->fv.enabled);
  const bool nodal_sides = !(c.n_sides_const == (long)ns && !s->mech);
  int rc = HX_OK;
  if (c.n_elems_const)
    rc = dev_alloc(g, (void **)&d->elem_const, sizeof(double) * CM_ELEM_VALUES * ne, c.elem,
                   "constant metrics");
  if (rc == HX_OK && c.n_sides_const)
    rc = dev_alloc(g, (void **)&d->side_const, sizeof(double) * CM_SIDE_VALUES * ns, c.side,
                   "constant face frames");
  const_metrics_free(&c);
  HX_CHECK(rc);
  if (nodal_elems) {
    HX_CHECK(dev_alloc(g, (void **)&d->metrics, sizeof(double) * 9 * n3 * ne, geo->metrics,
                       "metrics"));
    HX_CHECK(dev_alloc(g, (void **)&d->sJ, sizeof(double) * n3 * ne, geo->sJ, "Jacobians"));
  }
  if (d->has_source)
    HX_CHECK(dev_alloc(g, (void **)&d->elem_x, sizeof(double) * 3 * n3 * ne, geo->elem_x,
                       "node coordinates"));
  if (nodal_sides) {
    HX_CHECK(dev_alloc(g, (void **)&d->face_nvec, sizeof(double) * 3 * n2 * ns, geo->face_nvec,
                       "normals"));
    HX_CHECK(dev_alloc(g, (void **)&d->face_t1, sizeof(double) * 3 * n2 * ns, geo->face_t1,
                       "tangents"));
    HX_CHECK(dev_alloc(g, (void **)&d->face_t2, sizeof(double) * 3 * n2 * ns, geo->face_t2,
                       "tangents"));
    HX_CHECK(dev_alloc(g, (void **)&d->face_surf, sizeof(double) * n2 * ns, geo->face_surf,
                       "surface elements"));
  }
  HX_CHECK(dev_alloc(g, (void **)&d->face_x, sizeof(double) * 3 * n2 * ns, geo->face_x,
                     "face coordinates"));
  return HX_OK;
}

/* Shock capturing: parameters, subcell metrics, modal transform, the alpha arrays and the copy
 * of the last admissible state. */
/* LES: the coefficients (C Delta damp)^2 of the volume nodes and of both sides' face points
 * (dg/eddyvisc.h; the MPI slave halves were exchanged at set-up). */
static int upload_eddyvisc(GpuSolver *g, const Solver *s) {
  const EddyVisc *ev = s->sgs;
  const size_t nvol = (size_t)s->n_dof, nface = (size_t)s->n_dof_face * s->mesh->n_sides;
  g->d.sgs_model = ev->model;
  g->d.sgs_lambda_factor = ev->lambda_factor;
  HX_CHECK(dev_alloc(g, (void **)&g->d.sgs_coef, sizeof(double) * nvol, ev->coef,
                     "eddy-viscosity coefficients"));
  HX_CHECK(dev_alloc(g, (void **)&g->d.sgs_coef_master, sizeof(double) * nface, ev->coef_master,
                     "face eddy-viscosity coefficients"));
  HX_CHECK(dev_alloc(g, (void **)&g->d.sgs_coef_slave, sizeof(double) * nface, ev->coef_slave,
                     "face eddy-viscosity coefficients"));
  return dev_alloc(g, (void **)&g->d.sgs_mu_max,
                   sizeof(unsigned long long) * (s->mesh->n_elems ? s->mesh->n_elems : 1), NULL,
                   "largest eddy viscosity per element");
}

static int ind_alloc(void *ctx, void **ptr, size_t bytes, const void *host, const char *what) {
  return dev_alloc((GpuSolver *)ctx, ptr, bytes, host, what);
}

static int upload_fv(GpuSolver *g, const Solver *s) {
  DevData *d = &g->d;
  const FVBlend *fv = &s->fv;
  size_t np = s->np, ne = s->mesh->n_elems, ns = s->mesh->n_sides;
  d->fv_indicator = fv->indicator;
  d->fv_ind_var = fv->ind_var;
  d->fv_limiter = fv->limiter;
  d->fv_positivity = fv->positivity;
  d->fv_extend = fv->extend && fv->indicator != FV_INDICATOR_FIXED;
  d->fv_n_extend = fv->n_extend;
  d->fv_alpha_min = fv->alpha_min;
  d->fv_alpha_max = fv->alpha_max;
  d->fv_alpha_fix = fv->alpha_fix;
  d->fv_ext_scale = fv->ext_scale;
  HX_CHECK(dev_alloc(g, (void **)&d->alpha, sizeof(double) * (ne ? ne : 1), NULL, "FV alpha"));
  CU_CHECK(cudaMemset(d->alpha, 0, sizeof(double) * (ne ? ne : 1)));
  HX_CHECK(dev_alloc(g, (void **)&d->alpha_side, sizeof(double) * 2 * (ns ? ns : 1), NULL,
                     "FV side alpha"));
  size_t n_metrics = 9 * np * np * (np - 1) * ne;
  double *metrics = (double *)malloc(sizeof(double) * (n_metrics ? n_metrics : 1));
  if (!metrics) return HX_ERROR(HX_ERR_MEM, "out of host memory (FV subcell metrics)");
  if (s->mech) /* the mixture's line kernel reads the CPU's order */
    memcpy(metrics, fv->metrics, sizeof(double) * n_metrics);
  else
    fv_device_metrics((int)np, (long)ne, fv->metrics, metrics);
  int rc = dev_alloc(g, (void **)&d->fv_metrics, sizeof(double) * n_metrics, metrics,
                     "FV subcell metrics");
  free(metrics);
  HX_CHECK(rc);
  HX_CHECK(dev_alloc(g, (void **)&d->fv_vinv, sizeof(double) * np * np, fv->Vinv, "FV modes"));
  HX_CHECK(dev_alloc(g, (void **)&d->fv_line, sizeof(FVLine), &fv->line, "FV subcells"));
  HX_CHECK(dev_alloc(g, (void **)&d->U_good, sizeof(double) * s->n_var * s->n_dof_elem * ne, s->U,
                     "last admissible state"));
  if (fv->positivity) { /* 4 keys per element, all FV_KEY_NONE */
    const size_t bytes = sizeof(unsigned long long) * 4 * (ne ? ne : 1);
    HX_CHECK(dev_alloc(g, (void **)&d->fv_minima, bytes, NULL, "FV element minima"));
    CU_CHECK(cudaMemset(d->fv_minima, 0xff, bytes));
  }
  HX_CHECK(ind_upload(d, s, ind_alloc, g)); /* FLEXI's indicators, FV switching */
  HX_CHECK(fvg_upload(d, s, ind_alloc, g)); /* switching on Gauss nodes: the subcells' data */
  if (fv->gauss) d->fvg_dt_scale = timedisc_gauss_fv_scale(s, g->rk);
  return s->mech ? HX_OK : fv_configure(d);
}

/* Reacting flow: the mechanism (one block, rebased to its device copy), the RefStates, the node
 * states P (T slots from the host's Newton guesses), the FV residual and the limiter's marks. */
static int upload_mixture(GpuSolver *g, const Solver *s, const GpuOptions *opt) {
  DevData *d = &g->d;
  const ChemMech *m = s->mech;
  const size_t n3 = s->n_dof_elem, ne = s->mesh->n_elems, ns = s->n_species, np_mix = MIX_NP(ns);
  if (s->viscous && par_size() > 1)
    return HX_ERROR(HX_ERR_INPUT, "Mechanism = %s with mu0 > 0: species transport on the GPU runs "
                                  "on one rank only in this version; run one rank or set "
                                  "Backend = cpu", m->path);
  d->n_species = (int)ns;
  void *block = NULL;
  HX_CHECK(dev_alloc(g, &block, m->block_bytes, m->block, "mechanism"));
  ChemMech dev;
  chem_mech_rebase(m, block, &dev);
  HX_CHECK(dev_alloc(g, (void **)&d->mech, sizeof(ChemMech), &dev, "mechanism"));
  const size_t n_ref = s->exact.n_ref_states > 0 ? s->exact.n_ref_states : 1;
  HX_CHECK(dev_alloc(g, (void **)&d->ref_U, sizeof(double) * n_ref * s->n_var, s->ref_U,
                     "RefStates"));
  double *P = (double *)calloc(np_mix * n3 * (ne ? ne : 1), sizeof(double));
  if (!P) return HX_ERROR(HX_ERR_MEM, "out of host memory (mixture node states)");
  for (size_t e = 0; e < ne; e++)
    for (size_t q = 0; q < n3; q++) P[(e * np_mix + MIX_T(ns)) * n3 + q] = s->T_guess[e * n3 + q];
  int rc = dev_alloc(g, (void **)&d->P, sizeof(double) * np_mix * n3 * ne, P, "mixture node states");
  free(P);
  HX_CHECK(rc);
  if (s->fv.enabled) {
    HX_CHECK(dev_alloc(g, (void **)&d->fv_res, sizeof(double) * s->n_var * n3 * ne, NULL,
                       "FV residual"));
    HX_CHECK(dev_alloc(g, (void **)&d->elem_bad, sizeof(int) * (ne ? ne : 1), NULL,
                       "limiter marks"));
    CU_CHECK(cudaMemset(d->elem_bad, 0, sizeof(int) * (ne ? ne : 1)));
  }
  if (s->viscous) { /* species transport (mix_visc.cu) */
    const size_t ng = 3 * (size_t)s->n_lift, nvol = (size_t)s->n_var * n3 * ne;
    HX_CHECK(dev_alloc(g, (void **)&d->mix_tr, sizeof(MixTransport), s->mix_transport,
                       "species diffusivities"));
    HX_CHECK(dev_alloc(g, (void **)&d->grad, sizeof(double) * ng * n3 * ne, NULL,
                       "lifted gradients"));
    HX_CHECK(dev_alloc(g, (void **)&d->Ut_visc, sizeof(double) * nvol, NULL,
                       "viscous volume term"));
    HX_CHECK(dev_alloc(g, (void **)&d->lift_flux,
                       sizeof(double) * s->n_lift * s->n_dof_face * d->n_sides, NULL,
                       "lifting face values"));
    if (s->disc.node_type == NODE_GAUSS_LOBATTO)
      HX_CHECK(dev_alloc(g, (void **)&d->mix_face_visc,
                         sizeof(double) * 2 * s->n_var * s->n_dof_face * d->n_sides, NULL,
                         "viscous face fluxes"));
    HX_CHECK(mix_visc_configure(d));
  }
  if (opt->chem_split) HX_CHECK(mix_chem_create(d, m, &g->chem));
  return mix_configure(d);
}

static int upload_solver(GpuSolver *g, const Solver *s, const GpuOptions *opt) {
  DevData *d = &g->d;
  size_t n3 = s->n_dof_elem, ne = s->mesh->n_elems, nvol = (size_t)s->n_var * n3 * ne;
  size_t need = planned_bytes(s), free_b = 0, total_b = 0;
  CU_CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (need > free_b)
    return HX_ERROR(HX_ERR_DEVICE,
                    "the mesh does not fit on the GPU: %zu bytes needed, %zu of %zu bytes free; "
                    "use a smaller mesh or more GPUs",
                    need, free_b, total_b);
  d->N = s->disc.N;
  d->np = s->np;
  d->n2 = s->n_dof_face;
  d->n3 = s->n_dof_elem;
  d->nvar = s->n_var;
  d->n_elems = s->mesh->n_elems;
  d->n_sides = s->mesh->n_sides;
  d->n_bc_sides = s->mesh->n_bc_sides;
  d->n_inner_sides = s->mesh->n_inner_sides;
  d->face_inner = (gpu_env_flag("HEXDG_FACE_INNER_FLUX", true) ? FACE_INNER_FLUX : 0) |
                  (gpu_env_flag("HEXDG_FACE_INNER_LIFT", true) ? FACE_INNER_LIFT : 0);
  d->weak_line_surf = gpu_env_flag("HEXDG_WEAK_LINE_SURF", true);
  d->weak_line_vol = gpu_env_flag("HEXDG_WEAK_LINE_VOL", true);
  d->update_preload = gpu_env_flag("HEXDG_UPDATE_PRELOAD", true);
  /* 4 blocks of 216 threads (np = 6) instead of 3: -1.9 % at N = 5; fewer registers lost at N = 3
     (+1.6 %, 6 -> 8 blocks of 128) and N = 6 (+8 %, 4 -> 5 blocks of 192) (H200,
     docs/performance.md) */
  d->weak_line_4blocks = gpu_env_flag("HEXDG_WEAK_LINE_4BLOCKS", d->np == 6);
  d->lambda_elem_const = gpu_env_flag("HEXDG_LAMBDA_ELEM_CONST", true);
  d->node_type = s->disc.node_type;
  d->split = s->disc.split;
  d->riemann = s->riemann;
  d->riemann_bc = s->riemann_bc;
  d->has_source = exact_has_source(s->exact.which);
  d->dt_factor = timedisc_cfl_factor(s, opt->rk, opt->cfl_scale);
  d->dims = opt->dims;
  d->check_admissible = opt->check_admissible;
  d->viscous = s->viscous;
  d->lifting_form = s->lifting_form;
  d->dt_factor_visc = s->viscous ? timedisc_viscous_factor(s, opt->rk, opt->dfl_scale) : 0.0;
  g->ph.pp = s->phys;
  g->ph.ef = s->exact;
  HX_CHECK(dev_alloc(g, (void **)&d->disc, sizeof(Disc), &s->disc, "basis"));
  d->disc_host = &s->disc;
  HX_CHECK(dev_alloc(g, (void **)&d->U, sizeof(double) * nvol, s->U, "solution"));
  HX_CHECK(dev_alloc(g, (void **)&d->Ut, sizeof(double) * nvol, NULL, "time derivative"));
  HX_CHECK(dev_alloc(g, (void **)&d->k, sizeof(double) * nvol, NULL, "RK register"));
  CU_CHECK(cudaMemset(d->k, 0, sizeof(double) * nvol));
  if (opt->rk->form == RK_3SSTAR) { /* two more registers, only for these schemes */
    HX_CHECK(dev_alloc(g, (void **)&g->rk_s2, sizeof(double) * nvol, NULL, "RK register S2"));
    HX_CHECK(dev_alloc(g, (void **)&g->rk_s3, sizeof(double) * nvol, NULL, "RK register S3"));
  }
  HX_CHECK(dev_alloc(g, (void **)&d->flux, sizeof(double) * s->n_var * s->n_dof_face * d->n_sides,
                     NULL, "face fluxes"));
  HX_CHECK(upload_geometry(g, s));
  if (s->sponge) {
    HX_CHECK(dev_alloc(g, (void **)&d->sponge, sizeof(double) * n3 * ne, s->sponge, "sponge"));
    for (int v = 0; v < HX_NVAR; v++) d->sponge_base[v] = s->sponge_base[v];
    if (s->sponge_base_U) { /* SpongeBaseFlow 2-4: per node over the sponge elements */
      d->n_sponge_elems = s->n_sponge_elems;
      d->sponge_filter_width = s->sponge_filter_width;
      HX_CHECK(dev_alloc(g, (void **)&d->sponge_elem, sizeof(int) * ne, s->sponge_elem,
                         "sponge element map"));
      HX_CHECK(dev_alloc(g, (void **)&d->sponge_base_U,
                         sizeof(double) * s->n_sponge_elems * s->n_var * n3, s->sponge_base_U,
                         "sponge base flow"));
    }
  }
  if (d->viscous && !s->mech) { /* air; the mixture's arrays: upload_mixture */
    HX_CHECK(dev_alloc(g, (void **)&d->grad, sizeof(double) * HX_NGRAD * n3 * ne, NULL,
                       "lifted gradients"));
    HX_CHECK(dev_alloc(g, (void **)&d->Ut_visc, sizeof(double) * nvol, NULL,
                       "viscous volume term"));
    HX_CHECK(dev_alloc(g, (void **)&d->lift_flux,
                       sizeof(double) * HX_NGRAD * s->n_dof_face * d->n_sides, NULL,
                       "lifting face values"));
    if (lifting_face_gradients(d, par_size()))
      HX_CHECK(dev_alloc(g, (void **)&d->grad_face,
                         sizeof(double) * 2 * HX_NGRAD * s->n_dof_face * d->n_sides, NULL,
                         "face gradients"));
    const bool face_states = lifting_face_states(d, par_size());
    /* the line kernel multiplies the face values by n s itself: 4 values per face point written
       and read instead of 12, and the same products */
    d->lift_compact = face_states && !s->fv.enabled && gpu_env_flag("HEXDG_LIFT_COMPACT", true);
    d->gauss_line_3blocks =
        gpu_env_flag("HEXDG_GAUSS_LINE_3BLOCKS", true) && gauss_line_three_blocks_fit(d);
    d->gauss_line_wslot = gpu_env_flag("HEXDG_GAUSS_LINE_WSLOT", true);
    d->gauss_line_perm = gpu_env_flag("HEXDG_GAUSS_LINE_PERM", true);
    if (face_states)
      HX_CHECK(dev_alloc(g, (void **)&d->U_face,
                         sizeof(double) * 2 * HX_NVAR * s->n_dof_face * d->n_sides, NULL,
                         "face states"));
    HX_CHECK(lifting_configure(d));
  }
  if (s->sgs) HX_CHECK(upload_eddyvisc(g, s));
  /* the lifting kernel forms the inner sides' viscous fluxes (8 values per face point of grad_face
     read and written instead of 24, the flux's arithmetic moved into the lifting kernel), with
     the face flux kernel at 5 blocks per SM: by default where that ran faster (H200, A/B in one
     call, docs/performance.md): N = 3 -3.8 %, N = 5 -0.8 % (one thread per line end; one per
     line +0.4 %), N = 6 -1.9 %; not measured at N = 1, 2, 4, 7 */
  const bool vf_default = d->np == 4 || d->np == 6 || d->np == 7;
  d->visc_face = d->grad_face && d->U_face && !s->fv.enabled && d->sgs_model == SGS_NONE &&
                 d->split == SPLIT_NONE && face_inner_flux_serves(d) &&
                 gpu_env_flag("HEXDG_VISC_FACE", vf_default);
  if (d->visc_face)
    d->visc_face =
        gpu_env_flag("HEXDG_VISC_FACE_ENDS", d->np == 6) ? VISC_FACE_ENDS : VISC_FACE_LINE;
  const char *minb = getenv("HEXDG_FACE_WEAK_MINB");
  const int minb_env = minb ? atoi(minb) : 0;
  d->face_weak_minb = minb_env == 4 || minb_env == 5 ? minb_env : d->visc_face ? 5 : 4;
  HX_CHECK(upload_connectivity(g, s));
  if (s->fv.enabled) HX_CHECK(upload_fv(g, s));
  if (s->fv.enabled && opt->alpha_dt && !s->mech) { /* blending: the first step's dt */
    d->dt_blend_scale = opt->dt_blend_scale;
    HX_CHECK(dev_alloc(g, (void **)&d->alpha_dt, sizeof(double) * (ne ? ne : 1), opt->alpha_dt,
                       "FV alpha of the time step"));
  }
  if (s->mech) HX_CHECK(upload_mixture(g, s, opt));
  HX_CHECK(dev_alloc(g, (void **)&d->sc, sizeof(StepScalars), NULL, "time-step scalars"));
  CU_CHECK(cudaMemset(d->sc, 0, sizeof(StepScalars)));
  return volume_integral_configure(d);
}

static int create_streams(GpuSolver *g) {
  int least, greatest;
  CU_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  CU_CHECK(cudaStreamCreateWithPriority(&g->s_elem, cudaStreamNonBlocking, least));
  CU_CHECK(cudaStreamCreateWithPriority(&g->s_side, cudaStreamNonBlocking, (least + greatest) / 2));
  CU_CHECK(cudaStreamCreateWithPriority(&g->s_mpi, cudaStreamNonBlocking, greatest));
  CU_CHECK(cudaStreamCreateWithPriority(&g->s_dt, cudaStreamNonBlocking, least));
  for (int st = 0; st < g->rk->n_stages; st++) {
    CU_CHECK(cudaEventCreateWithFlags(&g->ev_stage[st], cudaEventDisableTiming));
    CU_CHECK(cudaEventCreateWithFlags(&g->ev_faces[st], cudaEventDisableTiming));
  }
  CU_CHECK(cudaEventCreate(&g->ev_t0));
  CU_CHECK(cudaEventCreate(&g->ev_t1));
  CU_CHECK(cudaEventCreateWithFlags(&g->ev_dt_fork, cudaEventDisableTiming));
  CU_CHECK(cudaEventCreateWithFlags(&g->ev_dt, cudaEventDisableTiming));
  CU_CHECK(cudaMallocHost((void **)&g->sc_host, sizeof(StepScalars)));
  return HX_OK;
}

/* Shock capturing on one rank: the spreading of the blending factors of the stage's U (the
 * previous update computed them), on the element stream before VolInt. */
static int fv_spread(GpuSolver *g) {
  for (int pass = 0; g->d.fv_extend && pass < g->d.fv_n_extend; pass++) {
    HX_CHECK(launch_fv_alpha_to_sides(&g->d, g->s_elem));
    HX_CHECK(launch_fv_alpha_extend(&g->d, g->s_elem));
  }
  return HX_OK;
}

/* Blending: the last stage's blending factors (spread) become the next step's dt's, as the
 * CPU's TimeDisc.alpha_dt; on the element stream after the spreading, before the update's new
 * alpha. */
static int keep_dt_alpha(GpuSolver *g, int st) {
  if (!g->d.alpha_dt || st != g->rk->n_stages - 1) return HX_OK;
  CU_CHECK(cudaMemcpyAsync(g->d.alpha_dt, g->d.alpha, sizeof(double) * g->d.n_elems,
                           cudaMemcpyDeviceToDevice, g->s_elem));
  return HX_OK;
}

/* The fused update's coefficients of stage st; for a 3S* scheme first its register work on the
 * element stream (before the stage's update there). */
static int stage_coefs(GpuSolver *g, int st, double *a, double *b) {
  rk_fused_coefs(g->rk, st, a, b);
  if (g->rk->form != RK_3SSTAR) return HX_OK;
  return launch_rk3s_prepare(&g->d, g->rk, st, g->rk_s2, g->rk_s3, g->s_elem);
}

/* Several ranks: every stage with its exchanges (gpu_mpi.cu; FLEXI's indicators and switching:
 * gpu_mpi_fv.cu), after the dt of the step. */
static int enqueue_stages_mpi(GpuSolver *g) {
  const LowStorageRK *rk = g->rk;
  for (int st = 0; st < rk->n_stages; st++) {
    double a, b;
    HX_CHECK(gpu_mpi_fv_switch(g->mpi, &g->d, &g->ph, rk->c[st], st == 0)); /* switching */
    if (st == 0) HX_CHECK(launch_fv_keep_good(&g->d, g->s_elem));
    if (g->d.alpha) HX_CHECK(gpu_mpi_fv_alpha(g->mpi, &g->d));
    HX_CHECK(keep_dt_alpha(g, st));
    HX_CHECK(stage_coefs(g, st, &a, &b));
    if (g->d.fvg_sJ) /* switching on Gauss nodes */
      HX_CHECK(gpu_mpi_fvg_stage(g->mpi, &g->d, &g->ph, a, b, rk->c[st], st == 0));
    else
      HX_CHECK(gpu_mpi_stage(g->mpi, &g->d, &g->ph, a, b, rk->c[st], st == 0));
    HX_CHECK(gpu_mpi_ind_alpha(g->mpi, &g->d, &g->ph)); /* blending with jameson: the new alpha */
  }
  HX_CHECK(launch_time_advance(&g->d, g->s_elem));
  CU_CHECK(cudaMemcpyAsync(g->sc_host, g->d.sc, sizeof(StepScalars), cudaMemcpyDeviceToHost,
                           g->s_elem));
  return HX_OK;
}

/* dt of the step on the element stream (CFL maxima, landing). */
static int enqueue_timestep(GpuSolver *g) {
  if (g->d.mech && g->d.viscous) return launch_mix_visc_timestep(&g->d, &g->ph, g->s_elem);
  return g->d.mech ? launch_mix_timestep(&g->d, g->s_elem)
                   : launch_timestep(&g->d, &g->ph, g->s_elem);
}

/* The mixture's stage: face fluxes on the side stream beside the FV residual and VolInt; with
 * species transport the side stream lifts first (face values, gradients and viscous volume term)
 * and subtracts the viscous face flux after the advective one (mix_visc.cu). */
static int enqueue_mix_stage(GpuSolver *g, int st) {
  const LowStorageRK *rk = g->rk;
  double a, b;
  CU_CHECK(cudaEventRecord(g->ev_stage[st], g->s_elem));
  CU_CHECK(cudaStreamWaitEvent(g->s_side, g->ev_stage[st], 0));
  HX_CHECK(stage_coefs(g, st, &a, &b));
  if (g->d.viscous) {
    HX_CHECK(launch_mix_face_lifting(&g->d, &g->ph, rk->c[st], 0, g->d.n_sides, g->s_side));
    HX_CHECK(launch_mix_lifting(&g->d, &g->ph, g->s_side));
  }
  HX_CHECK(launch_mix_face_flux(&g->d, &g->ph, rk->c[st], 0, g->d.n_sides, g->s_side));
  if (g->d.viscous)
    HX_CHECK(launch_mix_visc_face_flux(&g->d, &g->ph, rk->c[st], 0, g->d.n_sides, g->s_side));
  CU_CHECK(cudaEventRecord(g->ev_faces[st], g->s_side));
  if (g->d.alpha) {
    HX_CHECK(fv_spread(g));
    HX_CHECK(launch_mix_fv_volume(&g->d, &g->ph, g->s_elem));
  }
  /* VolInt, SurfInt, the update and the new P (one fused kernel where it can) */
  return launch_mix_stage_update(&g->d, &g->ph, a, b, rk->c[st], st == 0,
                                 g->ev_faces[st], g->s_elem);
}

/* A 3S* scheme's register copy (rk3s_prepare, before the first update) skips at dt <= 0: it
 * needs the step's dt, so that dt cannot run beside the first stage (one GPU or several). */
static bool rk_reads_dt_early(const GpuSolver *g) { return g->rk->form == RK_3SSTAR; }

/* One GPU: the step's dt beside its first stage, on s_dt (lowest priority), as
 * gpu_mpi_timestep_beside on several ranks: the eigenvalue maxima read U, which only the first
 * update changes, and that update alone waits for dt (wait_dt); the stage's kernels before it
 * read dt only to skip a failed step, with c = 0. Air without shock capturing, LES or a
 * chemistry stage; HEXDG_DT_BESIDE=F: dt before the stages. */
static bool dt_beside_possible(const GpuSolver *g) {
  return !g->d.mech && !g->d.alpha && !g->d.fv_elems && !g->d.fvg_sJ && !g->d.sgs_mu_max &&
         !g->chem_split && !rk_reads_dt_early(g) && gpu_env_flag("HEXDG_DT_BESIDE", true);
}

static int enqueue_dt_beside(GpuSolver *g) {
  CU_CHECK(cudaEventRecord(g->ev_dt_fork, g->s_elem));
  CU_CHECK(cudaStreamWaitEvent(g->s_dt, g->ev_dt_fork, 0));
  HX_CHECK(launch_timestep(&g->d, &g->ph, g->s_dt));
  CU_CHECK(cudaEventRecord(g->ev_dt, g->s_dt));
  g->dt_pending = 1;
  return HX_OK;
}

/* Before the first update of a step whose dt runs beside it. */
static int wait_dt(GpuSolver *g) {
  if (!g->dt_pending) return HX_OK;
  CU_CHECK(cudaStreamWaitEvent(g->s_elem, g->ev_dt, 0));
  g->dt_pending = 0;
  return HX_OK;
}

/* The fused stage on one stream (one GPU, volint_update_fused: KG/PI from N = 4 on, or the weak
 * form): face lifting, lifting, face flux and VolInt + update, each a dependent launch of the one
 * before (launch_kernel): the lifting derives w, the face flux computes the Riemann fluxes and the
 * update kernel stages its elements and sums the volume terms while the kernel before still runs.
 * At small loads the four kernels overlap instead of running one after the other. */
static int enqueue_chained_stage(GpuSolver *g, int st, double a, double b) {
  const double c = g->rk->c[st];
  const bool visc = g->d.viscous;
  if (visc) {
    /* the first stage's face lifting starts the step's graph: no kernel before it to depend on */
    HX_CHECK(launch_face_lifting(&g->d, &g->ph, c, 0, g->d.n_sides, g->s_elem,
                                 st > 0 && g->link_stages));
    HX_CHECK(launch_lifting(&g->d, &g->ph, 0, g->s_elem, true));
  }
  HX_CHECK(launch_face_flux(&g->d, &g->ph, c, 0, g->d.n_sides, g->s_elem, visc));
  HX_CHECK(wait_dt(g));
  return launch_volint_update(&g->d, &g->ph, a, b, c, st == 0, g->s_elem, true);
}

/* The RK stages of a step whose dt is set, the time update and the scalars to the host. */
static int enqueue_stages(GpuSolver *g) {
  const LowStorageRK *rk = g->rk;
  int n_sides = g->d.n_sides;
  if (g->mpi) return enqueue_stages_mpi(g);
  for (int st = 0; st < rk->n_stages; st++) {
    if (g->d.mech) {
      HX_CHECK(enqueue_mix_stage(g, st));
      continue;
    }
    double a, b;
    HX_CHECK(launch_fv_switch(&g->d, &g->ph, rk->c[st], st == 0, g->s_elem)); /* switching */
    if (st == 0) HX_CHECK(launch_fv_keep_good(&g->d, g->s_elem));
    HX_CHECK(stage_trace_begin(g->trace, g->s_elem));
    if (g->chain_stage) {
      HX_CHECK(stage_coefs(g, st, &a, &b));
      HX_CHECK(enqueue_chained_stage(g, st, a, b));
      HX_CHECK(stage_trace_mark(g->trace, T1_END, g->s_elem));
      continue;
    }
    CU_CHECK(cudaEventRecord(g->ev_stage[st], g->s_elem));
    CU_CHECK(cudaStreamWaitEvent(g->s_side, g->ev_stage[st], 0));
    HX_CHECK(stage_coefs(g, st, &a, &b));
    if (g->d.alpha) HX_CHECK(fv_spread(g));
    HX_CHECK(keep_dt_alpha(g, st));
    /* FV switching on Gauss nodes (fv_gauss_kernels.cu; no-ops otherwise), in dg/operator.c's
       order: the FV faces reconstructed before the lifting, whose face values on their sides are
       the face subcells'; the FV elements' gradients after it, before the face fluxes */
    HX_CHECK(launch_fvg_face_states(&g->d, &g->ph, rk->c[st], g->s_side));
    if (g->d.viscous) {
      HX_CHECK(launch_face_lifting(&g->d, &g->ph, rk->c[st], 0, n_sides, g->s_side));
      HX_CHECK(launch_fvg_lifting(&g->d, &g->ph, rk->c[st], 0, n_sides, g->s_side));
      HX_CHECK(launch_lifting(&g->d, &g->ph, 0, g->s_side));
      HX_CHECK(launch_fvg_gradients(&g->d, &g->ph, g->s_side));
    }
    HX_CHECK(launch_face_flux(&g->d, &g->ph, rk->c[st], 0, n_sides, g->s_side));
    HX_CHECK(launch_fvg_face_fluxes(&g->d, &g->ph, rk->c[st], 0, n_sides, g->s_side));
    HX_CHECK(stage_trace_mark(g->trace, T1_FACES, g->s_side));
    CU_CHECK(cudaEventRecord(g->ev_faces[st], g->s_side));
    if (volint_update_fused(&g->d)) { /* VolInt after the faces, in the update kernel */
      CU_CHECK(cudaStreamWaitEvent(g->s_elem, g->ev_faces[st], 0));
      HX_CHECK(wait_dt(g));
      HX_CHECK(launch_volint_update(&g->d, &g->ph, a, b, rk->c[st], st == 0, g->s_elem));
      HX_CHECK(stage_trace_mark(g->trace, T1_END, g->s_elem));
      continue;
    }
    HX_CHECK(launch_volume_integral(&g->d, &g->ph, g->s_elem));
    HX_CHECK(stage_trace_mark(g->trace, T1_VOLINT, g->s_elem));
    CU_CHECK(cudaStreamWaitEvent(g->s_elem, g->ev_faces[st], 0));
    HX_CHECK(launch_fvg_volume(&g->d, &g->ph, g->s_elem)); /* needs the face work's ghosts */
    HX_CHECK(wait_dt(g));
    HX_CHECK(launch_surface_update(&g->d, &g->ph, a, b, rk->c[st], st == 0, g->s_elem));
    HX_CHECK(stage_trace_mark(g->trace, T1_END, g->s_elem));
  }
  /* the host's scalars written by the time advance itself: the copy node after it cost 4 % at
     1.1e5 DOF (NS N = 7, docs/performance.md); HEXDG_SC_MAPPED=F: the copy */
  HX_CHECK(launch_time_advance(&g->d, g->s_elem, g->sc_mirror, g->link_stages));
  if (!g->sc_mirror)
    CU_CHECK(cudaMemcpyAsync(g->sc_host, g->d.sc, sizeof(StepScalars), cudaMemcpyDeviceToHost,
                             g->s_elem));
  return HX_OK;
}

/* dt alone, its scalars to the host. */
/* FV switching: FLEXI switches before it computes the step (as simulation.c's advance); the
 * first stage's switch then finds nothing to change. */
static int enqueue_step_switch(GpuSolver *g) {
  if (g->d.mech) return HX_OK;
  if (g->mpi) return gpu_mpi_fv_switch(g->mpi, &g->d, &g->ph, 0.0, true);
  return launch_fv_switch(&g->d, &g->ph, 0.0, true, g->s_elem);
}

static int enqueue_dt(GpuSolver *g) {
  HX_CHECK(enqueue_step_switch(g));
  HX_CHECK(g->mpi ? gpu_mpi_timestep(g->mpi, &g->d, &g->ph, g->sc_host) : enqueue_timestep(g));
  CU_CHECK(cudaMemcpyAsync(g->sc_host, g->d.sc, sizeof(StepScalars), cudaMemcpyDeviceToHost,
                           g->s_elem));
  return HX_OK;
}

/* One RK step in stream order (GALAEXI Fig. 4): per stage the side work (ProlongToFace+FillFlux,
 * mid priority) runs beside VolInt (low priority); one join before SurfInt. Navier-Stokes lifts
 * on the side stream before the face fluxes: face values -> gradients and viscous volume term
 * (Ut_visc); VolInt (advective, needs only U) runs beside all of it. */
static int enqueue_step(GpuSolver *g) {
  if (g->mpi) { /* dt reduced over the ranks (beside the first stage where it can), the stages */
    HX_CHECK(enqueue_step_switch(g));
    if (!rk_reads_dt_early(g) && gpu_mpi_dt_beside_possible(g->mpi, &g->d))
      HX_CHECK(gpu_mpi_timestep_beside(g->mpi, &g->d, &g->ph));
    else
      HX_CHECK(gpu_mpi_timestep(g->mpi, &g->d, &g->ph, g->sc_host));
    return enqueue_stages_mpi(g);
  }
  HX_CHECK(enqueue_step_switch(g));
  HX_CHECK(dt_beside_possible(g) ? enqueue_dt_beside(g) : enqueue_timestep(g));
  return enqueue_stages(g);
}

static int capture_graph(GpuSolver *g, int (*enqueue)(GpuSolver *), cudaGraphExec_t *exec) {
  cudaGraph_t graph;
  CU_CHECK(cudaStreamBeginCapture(g->s_elem, cudaStreamCaptureModeThreadLocal));
  int rc = enqueue(g);
  cudaError_t end = cudaStreamEndCapture(g->s_elem, &graph);
  if (rc != HX_OK) return rc;
  CU_CHECK(end);
  CU_CHECK(cudaGraphInstantiateWithFlags(exec, graph, cudaGraphInstantiateFlagUseNodePriority));
  CU_CHECK(cudaGraphDestroy(graph));
  return HX_OK;
}

/* One rank: the whole step in one graph (two with a chemistry stage). Several ranks: the same
 * where the dt is reduced on the device; the stages in one graph where it is reduced on the
 * host (before the graph). */
static int capture_step_graph(GpuSolver *g) {
  if (g->mpi && !g->chem_split && gpu_mpi_dt_on_device(g->mpi))
    return capture_graph(g, enqueue_step, &g->step_graph);
  if (g->mpi) return capture_graph(g, enqueue_stages, &g->flow_graph);
  if (g->chem_split) {
    HX_CHECK(capture_graph(g, enqueue_dt, &g->dt_graph));
    return capture_graph(g, enqueue_stages, &g->flow_graph);
  }
  return capture_graph(g, enqueue_step, &g->step_graph);
}

int gpu_lift_state(GpuSolver *g) {
  if (g->mpi) return gpu_mpi_lifting(g->mpi, &g->d, &g->ph, 0.0);
  HX_CHECK(launch_face_lifting(&g->d, &g->ph, 0.0, 0, g->d.n_sides, g->s_elem));
  return launch_lifting(&g->d, &g->ph, 1, g->s_elem);
}

int gpu_sgs_refresh(GpuSolver *g) {
  if (!g->d.sgs_mu_max) return HX_OK;
  CU_CHECK(cudaMemsetAsync(g->d.sgs_mu_max, 0, sizeof(unsigned long long) * g->d.n_elems,
                           g->s_elem)); /* before the lifting on its stream */
  HX_CHECK(gpu_lift_state(g));
  CU_CHECK(cudaDeviceSynchronize());
  return HX_OK;
}

extern "C" int gpu_upload_state(GpuSolver *g, const double *U, double t) {
  size_t n = (size_t)g->d.nvar * g->d.n3 * g->d.n_elems;
  if (U) CU_CHECK(cudaMemcpy(g->d.U, U, sizeof(double) * n, cudaMemcpyHostToDevice));
  if (g->d.u_face_update) { /* the stages' updates keep it current from here on */
    HX_CHECK(launch_face_states(&g->d, 0));
    CU_CHECK(cudaDeviceSynchronize());
  }
  g->sc_host->t = t;
  CU_CHECK(cudaMemcpy(&g->d.sc->t, &t, sizeof(double), cudaMemcpyHostToDevice));
  if (g->d.U_good) { /* the uploaded state is the last admissible one until a step checks U */
    CU_CHECK(cudaMemcpy(g->d.U_good, g->d.U, sizeof(double) * n, cudaMemcpyDeviceToDevice));
    CU_CHECK(cudaMemcpy(&g->d.sc->t_good, &t, sizeof(double), cudaMemcpyHostToDevice));
  }
  if (g->d.mech) { /* node states and blending factors of the new state */
    HX_CHECK(launch_mix_prim(&g->d, false, 0));
    HX_CHECK(launch_mix_indicator(&g->d, 0));
    CU_CHECK(cudaDeviceSynchronize());
  } else if (g->d.alpha) { /* the blending factors of the new state (the stages keep them current) */
    HX_CHECK(launch_fv_indicator(&g->d, &g->ph, 0));
    CU_CHECK(cudaDeviceSynchronize());
    if (g->mpi) { /* jameson: the other ranks' face values first (collective, as every upload) */
      HX_CHECK(gpu_mpi_ind_alpha(g->mpi, &g->d, &g->ph));
      CU_CHECK(cudaDeviceSynchronize());
    }
  }
  HX_CHECK(gpu_sgs_refresh(g));
  /* the copies above ran on the legacy stream, which the non-blocking streams do not wait for
     (and one from pageable memory may return before its DMA lands, a device-to-device one at
     once): all of them done before the next step */
  CU_CHECK(cudaDeviceSynchronize());
  return HX_OK;
}

extern "C" int gpu_download_state(GpuSolver *g, double *U) {
  size_t n = (size_t)g->d.nvar * g->d.n3 * g->d.n_elems;
  CU_CHECK(cudaMemcpy(U, g->d.U, sizeof(double) * n, cudaMemcpyDeviceToHost));
  return HX_OK;
}

extern "C" int gpu_download_fv_elems(GpuSolver *g, int *fv_elems) {
  if (!g->d.fv_elems || g->d.n_elems == 0) return HX_OK;
  CU_CHECK(cudaMemcpy(fv_elems, g->d.fv_elems, sizeof(int) * g->d.n_elems, cudaMemcpyDeviceToHost));
  return HX_OK;
}

/* Dependent launches need sm_90 (HEXDG_PDL=F: the two-stream stage, to measure both). */
static int stage_chain_possible(const GpuSolver *g) {
  int dev = 0, major = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  /* FV switching on Gauss nodes: the multi-kernel stage of enqueue_stages (its face and volume
     work around VolInt; volint_update_fused already says no with FV, d.alpha) */
  return major >= 9 && !g->mpi && !g->d.mech && !g->d.fvg_sJ && volint_update_fused(&g->d) &&
         gpu_env_flag("HEXDG_PDL", true);
}

extern "C" int gpu_solver_create(const Solver *s, const GpuOptions *opt, double t,
                                 GpuSolver **out) {
  HX_CHECK(gpu_select_device(NULL, 0));
  GpuSolver *g = (GpuSolver *)calloc(1, sizeof(GpuSolver));
  if (!g) return HX_ERROR(HX_ERR_MEM, "out of host memory (GPU solver)");
  g->rk = opt->rk;
  g->use_graphs = opt->use_graphs;
  g->chem_split = opt->chem_split && s->mech;
  g->t_analyze_host = -1.0;
  g->solver = s;
  int rc = g->rk->n_stages <= 64 ? HX_OK : HX_ERROR(HX_ERR_INTERNAL, "too many RK stages");
  if (rc == HX_OK) rc = upload_solver(g, s, opt);
  if (rc == HX_OK) rc = create_streams(g);
  if (rc == HX_OK && par_size() > 1)
    rc = gpu_mpi_create(s, &g->d, g->s_elem, g->s_side, g->s_mpi, opt->overlap_mpi,
                        opt->mpi_transport, &g->mpi);
  /* several ranks: the stages in a graph where no host call orders their exchanges */
  if (rc == HX_OK && g->mpi && !gpu_mpi_capturable(g->mpi, &g->d)) g->use_graphs = 0;
  if (rc == HX_OK) g->chain_stage = stage_chain_possible(g);
  /* (Euler's stage starts with the face flux, which reads U before its wait: a full boundary) */
  g->link_stages = g->chain_stage && gpu_env_flag("HEXDG_PDL_LINK", true);
  if (rc == HX_OK && gpu_env_flag("HEXDG_SC_MAPPED", true))
    rc = cudaHostGetDevicePointer((void **)&g->sc_mirror, g->sc_host, 0) == cudaSuccess
             ? HX_OK
             : HX_ERROR(HX_ERR_DEVICE, "no device address for the pinned step scalars");
  if (rc == HX_OK && !g->mpi && !s->mech)
    rc = stage_trace_create(T1_COUNT, T1_NAMES, g->chain_stage ? "one GPU, chained stage"
                                                               : "one GPU, two streams",
                            &g->trace);
  if (rc == HX_OK) g->d.u_face_update = weak_line_update_face_states(&g->d);
  if (rc == HX_OK && !g->mpi &&
      weak_lift_volume_possible(&g->d)) { /* its update kernel's shared memory */
    g->d.lift_volume = 1;
    g->d.weak_surf_3blocks = gpu_env_flag("HEXDG_WEAK_SURF_3BLOCKS", true);
    rc = volume_integral_configure(&g->d);
  }
  if (rc == HX_OK) rc = gpu_upload_state(g, s->U, t);
  if (rc == HX_OK && g->use_graphs) rc = capture_step_graph(g);
  if (rc != HX_OK) {
    gpu_solver_destroy(g);
    return rc;
  }
  *out = g;
  return HX_OK;
}

extern "C" void gpu_solver_destroy(GpuSolver *g) {
  if (!g) return;
  cudaDeviceSynchronize();
  stage_trace_finish(g->trace, 0);
  gpu_mpi_destroy(g->mpi);
  mix_chem_destroy(g->chem);
  if (g->step_graph) cudaGraphExecDestroy(g->step_graph);
  if (g->dt_graph) cudaGraphExecDestroy(g->dt_graph);
  if (g->flow_graph) cudaGraphExecDestroy(g->flow_graph);
  for (int st = 0; st < g->rk->n_stages && st < 64; st++) {
    if (g->ev_stage[st]) cudaEventDestroy(g->ev_stage[st]);
    if (g->ev_faces[st]) cudaEventDestroy(g->ev_faces[st]);
  }
  if (g->ev_dt_fork) cudaEventDestroy(g->ev_dt_fork);
  if (g->ev_dt) cudaEventDestroy(g->ev_dt);
  if (g->ev_t0) cudaEventDestroy(g->ev_t0);
  if (g->ev_t1) cudaEventDestroy(g->ev_t1);
  if (g->s_elem) cudaStreamDestroy(g->s_elem);
  if (g->s_side) cudaStreamDestroy(g->s_side);
  if (g->s_mpi) cudaStreamDestroy(g->s_mpi);
  if (g->s_dt) cudaStreamDestroy(g->s_dt);
  if (g->sc_host) cudaFreeHost(g->sc_host);
  for (int b = 0; b < g->n_buffers; b++) cudaFree(g->buffers[b]);
  free(g);
}

static int launch_dt(GpuSolver *g) {
  if (!g->use_graphs || g->mpi) return enqueue_dt(g);
  CU_CHECK(cudaGraphLaunch(g->dt_graph, g->s_elem));
  return HX_OK;
}

static int launch_stages(GpuSolver *g) {
  if (!g->use_graphs) return enqueue_stages(g);
  CU_CHECK(cudaGraphLaunch(g->flow_graph, g->s_elem));
  return HX_OK;
}

static int launch_step(GpuSolver *g) {
  /* the benchmark of a split run (the flow step without chemistry); several ranks in graphs */
  if (g->chem_split || (g->mpi && g->use_graphs && !g->step_graph)) {
    HX_CHECK(launch_dt(g));
    return launch_stages(g);
  }
  if (g->use_graphs) {
    CU_CHECK(cudaGraphLaunch(g->step_graph, g->s_elem));
    return HX_OK;
  }
  return enqueue_step(g);
}

/* The next analysis time, stream-ordered before the step through the pinned mirror: a cudaMemcpy
 * from pageable memory may return before its DMA lands, and the non-blocking streams do not wait
 * for it. The step graph then read the old t_analyze, landed at dt = 0 and stopped at t = 0 (one
 * run in 30 under load: test_gpu_rk in ctest -j 3). */
static int set_t_analyze(GpuSolver *g, double t_analyze) {
  if (t_analyze != g->t_analyze_host) {
    g->sc_host->t_analyze = t_analyze;
    CU_CHECK(cudaMemcpyAsync(&g->d.sc->t_analyze, &g->sc_host->t_analyze, sizeof(double),
                             cudaMemcpyHostToDevice, g->s_elem));
    g->t_analyze_host = t_analyze;
  }
  return HX_OK;
}

/* solver_report_bad_node of local element e, global id gid, from the device's U */
static void report_bad_node(const GpuSolver *g, int e, long gid) {
  const Solver *s = g->solver;
  const size_t n = (size_t)s->n_var * s->n_dof_elem;
  double *Ue = (double *)malloc(sizeof(double) * n);
  if (Ue && cudaMemcpy(Ue, g->d.U + (size_t)e * n, sizeof(double) * n, cudaMemcpyDeviceToHost) ==
                cudaSuccess)
    solver_report_bad_node(s, gid, Ue);
  free(Ue);
}

/* Every rank gets here with the same bad flag and dt (both reduced over the ranks), so the
 * element's lookup over the ranks is collective; the root names it as the CPU backend does, and
 * the rank that holds it tells its first bad node. */
static int check_step(const GpuSolver *g) {
  const StepScalars *sc = g->sc_host;
  if (!sc->bad && sc->dt > 0.0) return HX_OK;
  const int e = sc->bad_elem - 1;
  long gid;
  double c[3];
  const int held = mesh_locate_elem(g->solver->mesh, e, &gid, c);
  int rc = HX_ERR_NUMERIC;
  if (par_is_root() && gid < 0)
    rc = HX_ERROR(HX_ERR_NUMERIC, "non-physical state (density or pressure <= 0, or NaN) on the "
                                  "GPU at t = %.9g; reduce CFLscale or check the set-up",
                  sc->t);
  else if (par_is_root())
    rc = HX_ERROR(HX_ERR_NUMERIC, "non-physical state (density or pressure <= 0, or NaN) on the "
                                  "GPU at t = %.9g in element %ld at (%.6g, %.6g, %.6g); reduce "
                                  "CFLscale or check the set-up",
                  sc->t, gid, c[0], c[1], c[2]);
  if (held) report_bad_node(g, e, gid);
  return rc;
}

extern "C" int gpu_step_dt(GpuSolver *g, double t_analyze, double *dt, int *landed) {
  HX_CHECK(set_t_analyze(g, t_analyze));
  if (g->chem) HX_CHECK(mix_chem_reset_steps(g->chem, &g->d, g->s_elem));
  HX_CHECK(launch_dt(g));
  CU_CHECK(cudaStreamSynchronize(g->s_elem));
  HX_CHECK(check_step(g));
  *dt = g->sc_host->dt;
  *landed = g->sc_host->landed;
  return HX_OK;
}

extern "C" int gpu_step_flow(GpuSolver *g, double *t) {
  HX_CHECK(launch_stages(g));
  CU_CHECK(cudaStreamSynchronize(g->s_elem));
  *t = g->sc_host->t;
  return HX_OK;
}

extern "C" int gpu_chem_advance(GpuSolver *g, double dt, double T_min, int integrator,
                                int single_launch, int share,
                                const ChemIntegratorOptions *opt, GpuChemStats *st) {
  if (!g->chem)
    return HX_ERROR(HX_ERR_INTERNAL, "gpu_chem_advance: the GPU solver was created without a "
                                     "chemistry stage");
  /* the shared reactors' rows GPU to GPU where the flow's exchanges are (HEXDG_SHARE_IPC=F: through
     the host) */
  mix_chem_use_ipc(g->chem, share && g->mpi && !strcmp(gpu_mpi_transport(g->mpi), "ipc") &&
                                gpu_env_flag("HEXDG_SHARE_IPC", true));
  HX_CHECK(mix_chem_advance(g->chem, &g->d, g->s_elem, dt, T_min, integrator, single_launch, share,
                            opt, st));
  CU_CHECK(cudaStreamSynchronize(g->s_elem));
  return HX_OK;
}

extern "C" int gpu_chem_elem_steps(GpuSolver *g, double *elem_steps) {
  if (!g->chem) {
    for (int e = 0; e < g->d.n_elems; e++) elem_steps[e] = 0.0;
    return HX_OK;
  }
  return mix_chem_elem_steps(g->chem, &g->d, elem_steps);
}

extern "C" int gpu_step(GpuSolver *g, double t_analyze, double *t, double *dt, int *landed) {
  HX_CHECK(set_t_analyze(g, t_analyze));
  HX_CHECK(launch_step(g));
  CU_CHECK(cudaStreamSynchronize(g->s_elem));
  const StepScalars *sc = g->sc_host;
  HX_CHECK(check_step(g));
  *t = sc->t;
  *dt = sc->dt;
  *landed = sc->landed;
  return HX_OK;
}

extern "C" int gpu_restore_good_state(GpuSolver *g, double *t) {
  if (!g->d.U_good) return HX_ERR_INPUT;
  size_t n = (size_t)g->d.nvar * g->d.n3 * g->d.n_elems;
  CU_CHECK(cudaDeviceSynchronize());
  CU_CHECK(cudaMemcpy(&g->sc_host->t_good, &g->d.sc->t_good, sizeof(double),
                      cudaMemcpyDeviceToHost));
  CU_CHECK(cudaMemcpy(g->d.U, g->d.U_good, sizeof(double) * n, cudaMemcpyDeviceToDevice));
  if (g->d.fv_elems_good) /* switching: which elements of U_good hold subcell means */
    CU_CHECK(cudaMemcpy(g->d.fv_elems, g->d.fv_elems_good, sizeof(int) * g->d.n_elems,
                        cudaMemcpyDeviceToDevice));
  *t = g->sc_host->t_good;
  return gpu_upload_state(g, NULL, *t);
}

extern "C" int gpu_tgv_sums(GpuSolver *g, double *sums, double *max_vort) {
  if (!g->d.viscous || g->d.mech)
    return HX_ERROR(HX_ERR_INPUT, "the TGV analysis on the GPU needs the lifted gradients of an "
                                  "air Navier-Stokes run (mu0 > 0, no Mechanism)");
  if (!g->tgv_elem) {
    HX_CHECK(dev_alloc(g, (void **)&g->tgv_elem,
                       sizeof(double) * (HX_TGV_NSUMS + 1) * g->d.n_elems, NULL, "TGV sums"));
    HX_CHECK(dev_alloc(g, (void **)&g->tgv_total, sizeof(double) * (HX_TGV_NSUMS + 1), NULL,
                       "TGV sums"));
  }
  if (g->mpi) {
    HX_CHECK(gpu_mpi_lifting(g->mpi, &g->d, &g->ph, 0.0));
  } else {
    HX_CHECK(launch_face_lifting(&g->d, &g->ph, 0.0, 0, g->d.n_sides, g->s_elem));
    HX_CHECK(launch_lifting(&g->d, &g->ph, 1, g->s_elem));
  }
  HX_CHECK(launch_tgv_sums(&g->d, &g->ph, g->tgv_elem, g->tgv_total, g->s_elem));
  double host[HX_TGV_NSUMS + 1];
  CU_CHECK(cudaMemcpyAsync(host, g->tgv_total, sizeof host, cudaMemcpyDeviceToHost, g->s_elem));
  CU_CHECK(cudaStreamSynchronize(g->s_elem));
  for (int m = 0; m < HX_TGV_NSUMS; m++) sums[m] = host[m];
  *max_vort = host[HX_TGV_NSUMS];
  return HX_OK;
}

extern "C" int gpu_max_pressure_set(GpuSolver *g, const double *p_max) {
  const size_t n = (size_t)g->d.n_elems * g->d.n3;
  if (!g->p_max)
    HX_CHECK(dev_alloc(g, (void **)&g->p_max, sizeof(double) * (n ? n : 1), NULL, "MaxPressure"));
  if (n) CU_CHECK(cudaMemcpy(g->p_max, p_max, sizeof(double) * n, cudaMemcpyHostToDevice));
  CU_CHECK(cudaDeviceSynchronize()); /* landed before the element stream's next update */
  return HX_OK;
}

extern "C" int gpu_max_pressure_update(GpuSolver *g) {
  if (!g->p_max) return HX_ERROR(HX_ERR_INTERNAL, "gpu_max_pressure_update before _set");
  return launch_max_pressure(&g->d, &g->ph, g->p_max, g->s_elem);
}

extern "C" int gpu_max_pressure_get(GpuSolver *g, double *p_max) {
  const size_t n = (size_t)g->d.n_elems * g->d.n3;
  if (!g->p_max) return HX_ERROR(HX_ERR_INTERNAL, "gpu_max_pressure_get before _set");
  CU_CHECK(cudaStreamSynchronize(g->s_elem));
  if (n) CU_CHECK(cudaMemcpy(p_max, g->p_max, sizeof(double) * n, cudaMemcpyDeviceToHost));
  return HX_OK;
}

extern "C" int gpu_front_pressure_set(GpuSolver *g, const int *bin, int n_bins) {
  const size_t n = (size_t)g->d.n_elems * g->d.n3;
  if (!g->front_bin) {
    HX_CHECK(dev_alloc(g, (void **)&g->front_bin, sizeof(int) * (n ? n : 1), n ? bin : NULL,
                       "front pressure bins"));
    HX_CHECK(dev_alloc(g, (void **)&g->front_row, sizeof(unsigned long long) * n_bins, NULL,
                       "front pressure row"));
    CU_CHECK(cudaMemset(g->front_row, 0, sizeof(unsigned long long) * n_bins)); /* HEXDG_POISON */
  }
  g->n_front_bins = n_bins;
  CU_CHECK(cudaDeviceSynchronize()); /* the legacy stream's copy landed before the next step */
  return HX_OK;
}

extern "C" int gpu_front_pressure_update(GpuSolver *g) {
  if (!g->front_row) return HX_ERROR(HX_ERR_INTERNAL, "gpu_front_pressure_update before _set");
  return launch_front_pressure(&g->d, &g->ph, g->front_bin, g->front_row, g->s_elem);
}

extern "C" int gpu_front_pressure_take(GpuSolver *g, double *row) {
  if (!g->front_row) return HX_ERROR(HX_ERR_INTERNAL, "gpu_front_pressure_take before _set");
  const size_t bytes = sizeof(unsigned long long) * g->n_front_bins;
  CU_CHECK(cudaMemcpyAsync(row, g->front_row, bytes, cudaMemcpyDeviceToHost, g->s_elem));
  CU_CHECK(cudaMemsetAsync(g->front_row, 0, bytes, g->s_elem));
  CU_CHECK(cudaStreamSynchronize(g->s_elem));
  return HX_OK; /* the bits of non-negative doubles are those doubles; 0 where no node was */
}

const DevData *gpu_dev_data(const GpuSolver *g) { return &g->d; }
const DevPhysics *gpu_dev_physics(const GpuSolver *g) { return &g->ph; }
cudaStream_t gpu_elem_stream(const GpuSolver *g) { return g->s_elem; }

extern "C" const char *gpu_mpi_transport_name(const GpuSolver *g) {
  return g->mpi ? gpu_mpi_transport(g->mpi) : NULL;
}

extern "C" int gpu_uses_graphs(const GpuSolver *g) { return g->use_graphs; }

extern "C" size_t gpu_bytes_allocated(const GpuSolver *g) {
  return g->bytes + gpu_mpi_bytes(g->mpi) + mix_chem_bytes(g->chem, g->d.n_species);
}

extern "C" int gpu_time_steps(GpuSolver *g, int n_steps, double *seconds) {
  HX_CHECK(set_t_analyze(g, 1e300));
  CU_CHECK(cudaEventRecord(g->ev_t0, g->s_elem));
  for (int st = 0; st < n_steps; st++) HX_CHECK(launch_step(g));
  CU_CHECK(cudaEventRecord(g->ev_t1, g->s_elem));
  CU_CHECK(cudaEventSynchronize(g->ev_t1));
  float ms = 0.0f;
  CU_CHECK(cudaEventElapsedTime(&ms, g->ev_t0, g->ev_t1));
  *seconds = ms * 1e-3;
  if (g->sc_host->bad)
    return HX_ERROR(HX_ERR_NUMERIC, "non-physical state during the benchmark");
  return HX_OK;
}
