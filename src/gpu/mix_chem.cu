/* The chemistry stage of reacting flow on the device (the twin of src/time/chemstage.c): every
 * DOF at or above ChemTmin is an adiabatic constant-volume reactor at its density and internal
 * energy. Gather (T from P, Y_k = rho Y_k / rho, species-major at the batch's stride), one
 * integration of all reactors by the bulk-sparse schedule of chem_kernels.cu, scatter (partial
 * densities rescaled so that sum_k rho Y_k keeps its value; rho, momentum and rho E unchanged;
 * the reactor's T as the next Newton guess), the per-element integrator steps (ElemCost), then
 * P and alpha of the new state. The reactors' order does not change any reactor's result. */
#include "gpu/gpu_internal.cuh"

extern "C" {
#include "gpu/chem_gpu.h"
#include "parallel/parallel.h"
#include "parallel/workshare.h"
#include "physics/mixture.h"
}

struct MixChem {
  ChemGpu *cg;
  double *y, *rho;       /* [ns + 1][cells], [cells] */
  int *dof;              /* [cells] DOF of each reactor (ChemTmin > 0) */
  int *steps, *status;   /* [cells] */
  int *count;            /* number of reactors (device) */
  unsigned long long *elem_steps; /* [elem] integrator steps since the last download */
  int *dof_steps;        /* [DOF] steps of its last interval: its predicted cost (ChemLoadBalance) */
  long n_dof;
  /* ChemLoadBalance: the costs, the moved rows (device and pinned host), the rank's batch (its
     kept reactors, then the received ones); grown on demand */
  double *d_cost, *h_cost, *d_out, *d_in, *h_out, *h_in, *yb;
  int *ib;               /* steps, status of the batch */
  int *d_order, *h_order; /* the reactor at each position of the shared order (workshare_order) */
  size_t cap_cost, cap_hcost, cap_out, cap_in, cap_hout, cap_hin, cap_yb, cap_ib, cap_order,
      cap_horder;
  /* the moves GPU to GPU (CUDA IPC, all ranks on one node): this rank's inbox, where the others
     write their rows, and every rank's inbox as opened here */
  int use_ipc;
  double *inbox, **peer;
  size_t cap_inbox;
};

extern "C" int mix_chem_create(const DevData *d, const ChemMech *host_mech, MixChem **out) {
  MixChem *c = (MixChem *)calloc(1, sizeof *c);
  if (!c) return HX_ERROR(HX_ERR_MEM, "out of host memory (GPU chemistry)");
  *out = c;
  c->n_dof = (long)d->n_elems * d->n3;
  const size_t n = (size_t)(c->n_dof > 0 ? c->n_dof : 1), ne = d->n_elems > 0 ? d->n_elems : 1;
  HX_CHECK(chem_gpu_create(host_mech, &c->cg));
  CU_CHECK(cudaMalloc(&c->y, sizeof(double) * n * (d->n_species + 1)));
  CU_CHECK(cudaMalloc(&c->rho, sizeof(double) * n));
  CU_CHECK(cudaMalloc(&c->dof, sizeof(int) * n));
  CU_CHECK(cudaMalloc(&c->steps, sizeof(int) * n));
  CU_CHECK(cudaMalloc(&c->status, sizeof(int) * n));
  CU_CHECK(cudaMalloc(&c->count, sizeof(int)));
  CU_CHECK(cudaMalloc(&c->elem_steps, sizeof(unsigned long long) * ne));
  CU_CHECK(cudaMemset(c->elem_steps, 0, sizeof(unsigned long long) * ne));
  CU_CHECK(cudaMalloc(&c->dof_steps, sizeof(int) * n));
  CU_CHECK(cudaMemset(c->dof_steps, 0, sizeof(int) * n));
  /* the legacy stream's memsets done before the element stream's chemistry reads them */
  CU_CHECK(cudaDeviceSynchronize());
  return HX_OK;
}

extern "C" void mix_chem_destroy(MixChem *c) {
  if (!c) return;
  chem_gpu_destroy(c->cg);
  cudaFree(c->y);
  cudaFree(c->rho);
  cudaFree(c->dof);
  cudaFree(c->steps);
  cudaFree(c->status);
  cudaFree(c->count);
  cudaFree(c->elem_steps);
  cudaFree(c->dof_steps);
  cudaFree(c->d_cost), cudaFree(c->d_out), cudaFree(c->d_in), cudaFree(c->yb), cudaFree(c->ib);
  cudaFreeHost(c->h_cost), cudaFreeHost(c->h_out), cudaFreeHost(c->h_in);
  cudaFree(c->d_order), cudaFreeHost(c->h_order);
  for (int r = 0; c->peer && r < par_size(); r++)
    if (c->peer[r] && c->peer[r] != c->inbox) cudaIpcCloseMemHandle(c->peer[r]);
  free(c->peer);
  cudaFree(c->inbox);
  free(c);
}

extern "C" size_t mix_chem_bytes(const MixChem *c, int n_species) {
  return c ? (size_t)c->n_dof * (sizeof(double) * (n_species + 2) + 3 * sizeof(int)) : 0;
}

/* ChemTmin > 0: the list of DOFs at or above it (their order is that of the atomics). */
__global__ static void select_kernel(DevData d, MixChem c, double T_min) {
  const long gid = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= c.n_dof) return;
  const int ns = d.n_species, e = (int)(gid / d.n3), q = (int)(gid % d.n3);
  const double T = d.P[((size_t)e * MIX_NP(ns) + MIX_T(ns)) * d.n3 + q];
  if (T >= T_min) c.dof[atomicAdd(c.count, 1)] = (int)gid;
}

__global__ static void gather_kernel(DevData d, MixChem c, int n, bool all) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  const int dof = all ? r : c.dof[r], ns = d.n_species, e = dof / d.n3, q = dof % d.n3;
  const double *Ue = d.U + (size_t)e * d.nvar * d.n3 + q;
  const double rho = Ue[0], s_rho = 1.0 / rho; /* as mix_cons_to_prim forms Y */
  c.rho[r] = rho;
  c.y[r] = d.P[((size_t)e * MIX_NP(ns) + MIX_T(ns)) * d.n3 + q];
  for (int k = 0; k < ns; k++) c.y[(size_t)(k + 1) * n + r] = Ue[(size_t)(HX_SPEC0 + k) * d.n3] * s_rho;
}

__global__ static void scatter_kernel(DevData d, MixChem c, int n, bool all) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  const int dof = all ? r : c.dof[r], ns = d.n_species, e = dof / d.n3, q = dof % d.n3;
  double *rhoY = d.U + ((size_t)e * d.nvar + HX_SPEC0) * d.n3 + q;
  double old_sum = 0.0, new_sum = 0.0;
  for (int k = 0; k < ns; k++) {
    old_sum += rhoY[(size_t)k * d.n3];
    new_sum += c.y[(size_t)(k + 1) * n + r];
  }
  const double scale = old_sum / new_sum;
  for (int k = 0; k < ns; k++) rhoY[(size_t)k * d.n3] = c.y[(size_t)(k + 1) * n + r] * scale;
  d.P[((size_t)e * MIX_NP(ns) + MIX_T(ns)) * d.n3 + q] = c.y[r];
  atomicAdd(&c.elem_steps[e], (unsigned long long)c.steps[r]);
  c.dof_steps[dof] = c.steps[r];
}

/* ---- ChemLoadBalance: the reactors shared among the ranks (parallel/workshare.h) ---------- */

/* A buffer of at least bytes (device or pinned host), its contents not kept. */
static int grow(void **p, size_t *cap, size_t bytes, bool host) {
  if (bytes <= *cap && *p) return HX_OK;
  const size_t want = bytes + bytes / 4 + 256;
  if (host) {
    cudaFreeHost(*p);
    CU_CHECK(cudaMallocHost(p, want));
  } else {
    cudaFree(*p);
    CU_CHECK(cudaMalloc(p, want));
  }
  *cap = want;
  return HX_OK;
}

/* The predicted cost of each reactor: its DOF's steps in the interval before (at least 1). */
__global__ static void cost_kernel(MixChem c, int n, bool all, double *cost) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  const int s = c.dof_steps[all ? r : c.dof[r]];
  cost[r] = s > 0 ? s : 1;
}

/* The reactors sent away (item order: before the kept range, then after it) as rows T, Y, rho. */
__global__ static void pack_out_kernel(MixChem c, int n, int ns1, int kf, int nk, int n_send,
                                       double *rows) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n_send) return;
  const int r = c.d_order[j < kf ? j : j + nk];
  double *row = rows + (size_t)j * (ns1 + 1);
  for (int k = 0; k < ns1; k++) row[k] = c.y[(size_t)k * n + r];
  row[ns1] = c.rho[r];
}

/* The rank's batch at stride nb: its kept reactors, then the received rows. */
__global__ static void assemble_kernel(MixChem c, int n, int ns1, int kf, int nk, const double *in,
                                       int nb, double *yb) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= nb) return;
  const double *row = in + (size_t)(j - nk) * (ns1 + 1);
  const int r = j < nk ? c.d_order[kf + j] : 0;
  for (int k = 0; k < ns1; k++) yb[(size_t)k * nb + j] = j < nk ? c.y[(size_t)k * n + r] : row[k];
  yb[(size_t)ns1 * nb + j] = j < nk ? c.rho[r] : row[ns1];
}

/* The batch's results: the kept reactors' into place, the received ones' as rows T, Y, steps,
 * status (to go back). */
__global__ static void disassemble_kernel(MixChem c, int n, int ns1, int kf, int nk, int nb,
                                          const double *yb, const int *ib, double *back) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= nb) return;
  if (j < nk) {
    const int r = c.d_order[kf + j];
    for (int k = 0; k < ns1; k++) c.y[(size_t)k * n + r] = yb[(size_t)k * nb + j];
    c.steps[r] = ib[j], c.status[r] = ib[nb + j];
    return;
  }
  double *row = back + (size_t)(j - nk) * (ns1 + 2);
  for (int k = 0; k < ns1; k++) row[k] = yb[(size_t)k * nb + j];
  row[ns1] = ib[j], row[ns1 + 1] = ib[nb + j];
}

/* The results of the reactors sent away, back into place. */
__global__ static void unpack_back_kernel(MixChem c, int n, int ns1, int kf, int nk, int n_send,
                                          const double *rows) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n_send) return;
  const int r = c.d_order[j < kf ? j : j + nk];
  const double *row = rows + (size_t)j * (ns1 + 2);
  for (int k = 0; k < ns1; k++) c.y[(size_t)k * n + r] = row[k];
  c.steps[r] = (int)row[ns1], c.status[r] = (int)row[ns1 + 1];
}

static unsigned grid(long n) { return (unsigned)((n + 255) / 256 > 0 ? (n + 255) / 256 : 1); }

/* Rows from the device through pinned host memory to the other ranks and back onto the device. */
static int move_rows(MixChem *c, const WorkShare *w, int width, int back, const double *d_from,
                     long n_from, double *d_to, long n_to) {
  const size_t bf = sizeof(double) * width * n_from, bt = sizeof(double) * width * n_to;
  HX_CHECK(grow((void **)&c->h_out, &c->cap_hout, bf, true));
  HX_CHECK(grow((void **)&c->h_in, &c->cap_hin, bt, true));
  if (bf) CU_CHECK(cudaMemcpy(c->h_out, d_from, bf, cudaMemcpyDeviceToHost));
  HX_CHECK(workshare_move(w, width, back, c->h_out, c->h_in));
  if (bt) CU_CHECK(cudaMemcpy(d_to, c->h_in, bt, cudaMemcpyHostToDevice));
  return HX_OK;
}

/* An inbox of at least need bytes on every rank, every rank's opened here (collective: when one
 * rank needs more, all reallocate and exchange their handles again). Every rank takes part in
 * every collective whatever fails on it, and all return the error then. */
static int inbox_ensure(MixChem *c, size_t need) {
  double most = (double)need;
  par_max(&most, 1);
  if (c->inbox && (size_t)most <= c->cap_inbox) return HX_OK;
  const int nr = par_size(), me = par_rank();
  int rc = HX_OK;
  if (!c->peer && !(c->peer = (double **)calloc(nr, sizeof(double *))))
    rc = HX_ERROR(HX_ERR_MEM, "out of host memory (shared chemistry, %d ranks)", nr);
  for (int r = 0; c->peer && r < nr; r++) {
    if (c->peer[r] && r != me) cudaIpcCloseMemHandle(c->peer[r]);
    if (c->peer) c->peer[r] = NULL;
  }
  par_barrier(); /* no rank has our old inbox open any more */
  cudaFree(c->inbox);
  c->inbox = NULL;
  c->cap_inbox = (size_t)most + (size_t)most / 4 + 4096;
  cudaIpcMemHandle_t *h = (cudaIpcMemHandle_t *)calloc(nr, sizeof *h);
  if (rc == HX_OK && !h) rc = HX_ERROR(HX_ERR_MEM, "out of host memory (shared chemistry)");
  if (rc == HX_OK && cudaMalloc(&c->inbox, c->cap_inbox) != cudaSuccess)
    rc = HX_ERROR(HX_ERR_DEVICE, "shared chemistry: no device memory for the inbox (%zu bytes)",
                  c->cap_inbox);
  if (rc == HX_OK && cudaIpcGetMemHandle(&h[me], c->inbox) != cudaSuccess)
    rc = HX_ERROR(HX_ERR_DEVICE, "shared chemistry: cudaIpcGetMemHandle of the inbox failed");
  if (par_any(rc != HX_OK)) {
    cudaGetLastError();
    free(h);
    return rc != HX_OK ? rc : HX_ERROR(HX_ERR_DEVICE, "shared chemistry: the inbox failed on "
                                                      "another rank");
  }
  par_allgather_bytes(h, (int)sizeof *h);
  for (int r = 0; r < nr && rc == HX_OK; r++)
    if (r != me && cudaIpcOpenMemHandle((void **)&c->peer[r], h[r],
                                        cudaIpcMemLazyEnablePeerAccess) != cudaSuccess)
      rc = HX_ERROR(HX_ERR_DEVICE, "shared chemistry: opening rank %d's inbox failed", r);
  c->peer[me] = c->inbox;
  free(h);
  if (par_any(rc != HX_OK)) {
    cudaGetLastError();
    return rc != HX_OK ? rc : HX_ERROR(HX_ERR_DEVICE, "shared chemistry: an inbox could not be "
                                                      "opened on another rank");
  }
  return HX_OK;
}

/* move_rows GPU to GPU: each rank copies its rows into the destinations' inboxes at the offsets
 * of workshare_offsets (the layout of workshare_move), between two barriers (the inboxes are
 * free; every row has landed), then takes its own inbox's rows. */
static int move_rows_ipc(MixChem *c, const WorkShare *w, int width, int back, const double *d_from,
                         double *d_to, long n_to, cudaStream_t s) {
  const int nr = w->n_ranks;
  long *at = (long *)malloc(sizeof(long) * nr);
  int rc = workshare_offsets(w, back, at); /* collective, also without at */
  if (rc != HX_OK) rc = HX_ERROR(rc, "out of host memory (shared chemistry's offsets)");
  const int rc_inbox = inbox_ensure(c, sizeof(double) * width * n_to); /* collective */
  if (rc == HX_OK) rc = rc_inbox;
  par_barrier();
  const int *to = back ? w->recv_count : w->send_count;
  long row = 0;
  for (int r = 0; rc == HX_OK && r < nr; r++) {
    if (to[r] > 0 && cudaMemcpyAsync(c->peer[r] + (size_t)at[r] * width, d_from + (size_t)row * width,
                                     sizeof(double) * width * to[r], cudaMemcpyDeviceToDevice,
                                     s) != cudaSuccess)
      rc = HX_ERROR(HX_ERR_INTERNAL, "shared chemistry: the copy to rank %d's inbox failed", r);
    row += to[r];
  }
  free(at);
  if (cudaStreamSynchronize(s) != cudaSuccess && rc == HX_OK)
    rc = HX_ERROR(HX_ERR_INTERNAL, "shared chemistry: the copies to the inboxes failed");
  par_barrier();
  if (rc == HX_OK && n_to > 0) {
    CU_CHECK(cudaMemcpyAsync(d_to, c->inbox, sizeof(double) * width * n_to,
                             cudaMemcpyDeviceToDevice, s));
    CU_CHECK(cudaStreamSynchronize(s));
  }
  return rc;
}

/* The n gathered reactors (c->y at stride n, c->rho) shared by their predicted cost: the rank
 * integrates its kept ones and those it receives; afterwards c->y, c->steps and c->status hold
 * every own reactor's result, gs the rank's own failures (first_failed: its own index). */
static int integrate_shared(MixChem *c, const DevData *d, cudaStream_t s, int n, bool all,
                            double dt, const ChemIntegratorOptions *opt, const ChemSchedule *sch,
                            ChemGpuStats *gs, long *n_here) {
  const int ns1 = d->n_species + 1;
  HX_CHECK(grow((void **)&c->d_cost, &c->cap_cost, sizeof(double) * n, false));
  HX_CHECK(grow((void **)&c->h_cost, &c->cap_hcost, sizeof(double) * n, true));
  if (n > 0) {
    cost_kernel<<<grid(n), 256, 0, s>>>(*c, n, all, c->d_cost);
    CU_CHECK(cudaGetLastError());
    CU_CHECK(cudaMemcpyAsync(c->h_cost, c->d_cost, sizeof(double) * n, cudaMemcpyDeviceToHost, s));
    CU_CHECK(cudaStreamSynchronize(s));
  }
  /* the dear reactors at both ends of the order (few move) */
  HX_CHECK(grow((void **)&c->h_order, &c->cap_horder, sizeof(int) * n, true));
  HX_CHECK(grow((void **)&c->d_order, &c->cap_order, sizeof(int) * n, false));
  WorkShare w;
  memset(&w, 0, sizeof w);
  HX_CHECK(workshare_plan(&w, c->h_cost, n, c->h_order));
  if (w.active && n > 0)
    CU_CHECK(cudaMemcpy(c->d_order, c->h_order, sizeof(int) * n, cudaMemcpyHostToDevice));
  const int kf = (int)w.keep_first, nk = (int)w.n_keep, nb = (int)(w.n_keep + w.n_recv);
  int rc = HX_OK;
  if (w.active) {
    rc = grow((void **)&c->d_out, &c->cap_out, sizeof(double) * (ns1 + 2) * w.n_send, false);
    if (rc == HX_OK)
      rc = grow((void **)&c->d_in, &c->cap_in, sizeof(double) * (ns1 + 2) * w.n_recv, false);
    if (rc == HX_OK) rc = grow((void **)&c->yb, &c->cap_yb, sizeof(double) * (ns1 + 1) * nb, false);
    if (rc == HX_OK) rc = grow((void **)&c->ib, &c->cap_ib, sizeof(int) * 2 * nb, false);
    rc = par_any(rc != HX_OK) ? HX_ERR_MEM : HX_OK;
  }
  if (rc == HX_OK && w.active) {
    if (w.n_send) pack_out_kernel<<<grid(w.n_send), 256, 0, s>>>(*c, n, ns1, kf, nk, (int)w.n_send, c->d_out);
    CU_CHECK(cudaGetLastError());
    CU_CHECK(cudaStreamSynchronize(s));
    rc = c->use_ipc ? move_rows_ipc(c, &w, ns1 + 1, 0, c->d_out, c->d_in, w.n_recv, s)
                    : move_rows(c, &w, ns1 + 1, 0, c->d_out, w.n_send, c->d_in, w.n_recv);
  }
  if (rc == HX_OK && w.active) {
    assemble_kernel<<<grid(nb), 256, 0, s>>>(*c, n, ns1, kf, nk, c->d_in, nb, c->yb);
    CU_CHECK(cudaGetLastError());
    CU_CHECK(cudaStreamSynchronize(s));
    if (nb > 0)
      rc = chem_gpu_integrate(c->cg, CHEM_MODE_CV, nb, c->yb, c->yb + (size_t)ns1 * nb, dt, opt,
                              sch, c->ib, c->ib + nb, gs);
    CU_CHECK(cudaDeviceSynchronize()); /* the batch runs on its own stream */
    disassemble_kernel<<<grid(nb), 256, 0, s>>>(*c, n, ns1, kf, nk, nb, c->yb, c->ib, c->d_in);
    CU_CHECK(cudaGetLastError());
    CU_CHECK(cudaStreamSynchronize(s));
    rc = par_any(rc != HX_OK) ? (rc != HX_OK ? rc : HX_ERR_INTERNAL) : HX_OK;
  }
  if (rc == HX_OK && w.active) {
    rc = c->use_ipc ? move_rows_ipc(c, &w, ns1 + 2, 1, c->d_in, c->d_out, w.n_send, s)
                    : move_rows(c, &w, ns1 + 2, 1, c->d_in, w.n_recv, c->d_out, w.n_send);
    if (rc == HX_OK && w.n_send)
      unpack_back_kernel<<<grid(w.n_send), 256, 0, s>>>(*c, n, ns1, kf, nk, (int)w.n_send, c->d_out);
    CU_CHECK(cudaGetLastError());
  } else if (rc == HX_OK && n > 0) { /* nothing moves on any rank: the own batch in place */
    rc = chem_gpu_integrate(c->cg, CHEM_MODE_CV, n, c->y, c->rho, dt, opt, sch, c->steps, c->status,
                            gs);
    CU_CHECK(cudaDeviceSynchronize());
  }
  *n_here = w.active ? nb : n;
  workshare_free(&w);
  if (rc != HX_OK) return rc;
  /* the failures among this rank's own reactors (their results came back with the others') */
  if (!par_any(gs->n_failed > 0)) return HX_OK;
  gs->n_failed = 0, gs->first_failed = -1;
  int *st = (int *)malloc(sizeof(int) * (n > 0 ? n : 1));
  if (!st) return HX_ERROR(HX_ERR_MEM, "out of host memory (chemistry status)");
  cudaError_t err = n > 0 ? cudaMemcpy(st, c->status, sizeof(int) * n, cudaMemcpyDeviceToHost)
                          : cudaSuccess;
  for (int r = 0; r < n && err == cudaSuccess; r++)
    if (st[r] != CHEM_DONE && gs->n_failed++ == 0) gs->first_failed = r, gs->first_status = st[r];
  free(st);
  CU_CHECK(err);
  if (gs->n_failed == 0)
    return HX_ERROR(HX_ERR_NUMERIC, "chemistry stage on the GPU: a reactor of another rank failed "
                                    "on this one or elsewhere (see that rank's report)");
  return HX_OK;
}

extern "C" int mix_chem_advance(MixChem *c, const DevData *d, cudaStream_t s, double dt,
                                double T_min, int integrator, int single_launch, int share,
                                const ChemIntegratorOptions *opt, GpuChemStats *st) {
  memset(st, 0, sizeof *st);
  int n = (int)c->n_dof;
  const bool all = !(T_min > 0.0);
  if (!all) {
    CU_CHECK(cudaMemsetAsync(c->count, 0, sizeof(int), s));
    if (n > 0) select_kernel<<<(n + 255) / 256, 256, 0, s>>>(*d, *c, T_min);
    CU_CHECK(cudaGetLastError());
    CU_CHECK(cudaMemcpyAsync(&n, c->count, sizeof(int), cudaMemcpyDeviceToHost, s));
    CU_CHECK(cudaStreamSynchronize(s));
  }
  st->cells = n;
  if (n == 0 && !share) return HX_OK; /* sharing is collective: every rank takes part */
  if (n > 0) gather_kernel<<<(n + 255) / 256, 256, 0, s>>>(*d, *c, n, all);
  CU_CHECK(cudaGetLastError());
  CU_CHECK(cudaStreamSynchronize(s));
  ChemSchedule sch = chem_schedule_default();
  sch.integrator = integrator;
  sch.single_launch = single_launch;
  ChemGpuStats gs;
  memset(&gs, 0, sizeof gs);
  if (share) {
    HX_CHECK(integrate_shared(c, d, s, n, all, dt, opt, &sch, &gs, &st->cells));
  } else {
    HX_CHECK(chem_gpu_integrate(c->cg, CHEM_MODE_CV, n, c->y, c->rho, dt, opt, &sch, c->steps,
                                c->status, &gs));
    CU_CHECK(cudaDeviceSynchronize()); /* the batch runs on its own stream */
  }
  st->seconds = gs.seconds;
  st->sparse_seconds = gs.sparse_seconds;
  st->steps = gs.total_steps;
  st->max_steps = gs.max_steps;
  st->launches = gs.launches;
  if (gs.n_failed > 0) {
    int dof = gs.first_failed;
    double T = 0.0;
    if (!all) CU_CHECK(cudaMemcpy(&dof, c->dof + gs.first_failed, sizeof(int), cudaMemcpyDeviceToHost));
    CU_CHECK(cudaMemcpy(&T, c->y + gs.first_failed, sizeof(double), cudaMemcpyDeviceToHost));
    return HX_ERROR(HX_ERR_NUMERIC,
                    "chemistry stage on the GPU: %d of %d reactors failed (status %d); the first "
                    "is node %d of local element %d (T = %.6g K when it stopped); reduce "
                    "CFLscale or tighten ChemRtol/ChemAtol",
                    gs.n_failed, n, gs.first_status, dof % d->n3, dof / d->n3, T);
  }
  if (n == 0) return HX_OK; /* a rank without reactors that worked for others */
  scatter_kernel<<<(n + 255) / 256, 256, 0, s>>>(*d, *c, n, all);
  CU_CHECK(cudaGetLastError());
  HX_CHECK(launch_mix_prim(d, false, s));
  return launch_mix_indicator(d, s);
}

extern "C" int mix_chem_elem_steps(MixChem *c, const DevData *d, double *elem_steps) {
  const size_t ne = d->n_elems;
  if (ne == 0) return HX_OK;
  unsigned long long *h = (unsigned long long *)malloc(sizeof *h * ne);
  if (!h) return HX_ERROR(HX_ERR_MEM, "out of host memory (ElemCost)");
  cudaError_t err = cudaMemcpy(h, c->elem_steps, sizeof *h * ne, cudaMemcpyDeviceToHost);
  for (size_t e = 0; e < ne && err == cudaSuccess; e++) elem_steps[e] = (double)h[e];
  free(h);
  CU_CHECK(err);
  return HX_OK;
}

extern "C" int mix_chem_reset_steps(MixChem *c, const DevData *d, cudaStream_t s) {
  if (d->n_elems > 0)
    CU_CHECK(cudaMemsetAsync(c->elem_steps, 0, sizeof(unsigned long long) * d->n_elems, s));
  return HX_OK;
}

extern "C" void mix_chem_use_ipc(MixChem *c, int on) { c->use_ipc = on; }
