/* Batched Radau IIA chemistry on the GPU with the bulk-sparse schedule (chem_gpu.h). */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "core/error.h"
#include "gpu/chem_gpu.h"
}

#define CU_CHECK(call)                                                                             \
  do {                                                                                             \
    cudaError_t cu_err_ = (call);                                                                  \
    if (cu_err_ != cudaSuccess)                                                                    \
      return hx_error_at(__FILE__, __LINE__, HX_ERR_DEVICE, "CUDA error in %s: %s", #call,        \
                         cudaGetErrorString(cu_err_));                                             \
  } while (0)

#define CHEM_BLOCK 128

struct ChemGpu {
  const ChemMech *host;
  ChemMech dev; /* array pointers into d_block */
  void *d_block;
  double *d_ws;           /* workspace of one chunk: ws_doubles x chunk cells, cell-minor */
  size_t ws_cells;        /* cells the workspace holds */
  int *d_list, *d_count;  /* compacted active cells and their number */
  int *h_count;           /* pinned */
  cudaEvent_t ev[4];
};

extern "C" ChemSchedule chem_schedule_default(void) {
  ChemSchedule s;
  s.single_launch = 0;
  s.bulk_launches = 2;
  s.bulk_steps = 16;
  s.sparse_threshold = 0.5;
  return s;
}

extern "C" int chem_gpu_create(const ChemMech *m, ChemGpu **out) {
  ChemGpu *g = (ChemGpu *)calloc(1, sizeof *g);
  if (!g) return HX_ERROR(HX_ERR_MEM, "chem_gpu_create: out of host memory");
  *out = g;
  g->host = m;
  CU_CHECK(cudaMalloc(&g->d_block, m->block_bytes));
  CU_CHECK(cudaMemcpy(g->d_block, m->block, m->block_bytes, cudaMemcpyHostToDevice));
  chem_mech_rebase(m, g->d_block, &g->dev);
  CU_CHECK(cudaMalloc(&g->d_count, sizeof(int)));
  CU_CHECK(cudaMallocHost(&g->h_count, sizeof(int)));
  for (int i = 0; i < 4; i++) CU_CHECK(cudaEventCreate(&g->ev[i]));
  return HX_OK;
}

extern "C" void chem_gpu_destroy(ChemGpu *g) {
  if (!g) return;
  cudaFree(g->d_block);
  cudaFree(g->d_ws);
  cudaFree(g->d_list);
  cudaFree(g->d_count);
  cudaFreeHost(g->h_count);
  for (int i = 0; i < 4; i++)
    if (g->ev[i]) cudaEventDestroy(g->ev[i]);
  free(g);
}

/* Cells [0, n) of the chunk whose first cell is y + c0 (stride n_all) start at t = 0. */
__global__ void chem_init_kernel(ChemMech m, int mode, int n, const double *y, const double *par,
                                 long n_all, double dt, ChemIntegratorOptions o, double *ws) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n) return;
  radau5_init(&m, mode, par[c], 0.0, dt, y + c, n_all, ws + c, n, &o);
}

/* Every cell of the chunk advances by at most k steps (cells that finished return at once). */
__global__ void chem_bulk_kernel(ChemMech m, int mode, int n, const double *par, int k,
                                 ChemIntegratorOptions o, double *ws, int *n_active) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n) return;
  double *w = ws + c;
  if (radau5_status(w, n) != CHEM_ACTIVE) return;
  if (radau5_advance(&m, mode, par[c], k, w, n, &o) == CHEM_ACTIVE) atomicAdd(n_active, 1);
}

/* The still-active cells of the chunk, in any order (each cell is independent). */
__global__ void chem_compact_kernel(int n, const double *ws, int *list, int *count) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n) return;
  if (radau5_status(ws + c, n) == CHEM_ACTIVE) list[atomicAdd(count, 1)] = c;
}

/* The listed cells advance by at most k steps (k <= 0: to the end). */
__global__ void chem_sparse_kernel(ChemMech m, int mode, int n, const double *par, const int *list,
                                   int n_list, int k, ChemIntegratorOptions o, double *ws) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_list) return;
  int c = list[i];
  radau5_advance(&m, mode, par[c], k > 0 ? k : o.max_steps + 1, ws + c, n, &o);
}

/* Results back into the species-major state; failed cells keep their last accepted state. */
__global__ void chem_finish_kernel(ChemMech m, int n, double *ws, double *y, long n_all, int *steps,
                                   int *status) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n) return;
  double *w = ws + c;
  const double *yw = radau5_y(&m, w, n);
  const int n_unknowns = m.n_species + 1;
  for (int i = 0; i < n_unknowns; i++) y[(size_t)i * n_all + c] = yw[(size_t)i * n];
  if (steps) steps[c] = (int)radau5_steps(w, n);
  if (status) status[c] = radau5_status(w, n);
}

static int blocks(int n) { return (n + CHEM_BLOCK - 1) / CHEM_BLOCK; }

static int read_count(ChemGpu *g, int *value) {
  CU_CHECK(cudaMemcpy(g->h_count, g->d_count, sizeof(int), cudaMemcpyDeviceToHost));
  *value = *g->h_count;
  return HX_OK;
}

/* Cells per chunk: all of them while the workspace takes at most half of the free memory. */
static int chunk_size(ChemGpu *g, int n_cells, size_t ws_bytes, int *chunk) {
  size_t free_b = 0, total_b = 0;
  CU_CHECK(cudaMemGetInfo(&free_b, &total_b));
  size_t have = g->ws_cells * ws_bytes;
  size_t budget = (free_b + have) / 2;
  size_t fit = budget / (ws_bytes + 2 * sizeof(int));
  if (fit < 1)
    return HX_ERROR(HX_ERR_MEM, "chemistry: one cell needs %zu bytes of GPU workspace, %zu free",
                    ws_bytes, free_b);
  *chunk = (size_t)n_cells < fit ? n_cells : (int)fit;
  if ((size_t)*chunk > g->ws_cells) {
    cudaFree(g->d_ws);
    cudaFree(g->d_list);
    g->d_ws = NULL;
    g->d_list = NULL;
    g->ws_cells = 0;
    CU_CHECK(cudaMalloc(&g->d_ws, (size_t)*chunk * ws_bytes));
    CU_CHECK(cudaMalloc(&g->d_list, (size_t)*chunk * sizeof(int)));
    g->ws_cells = *chunk;
  }
  return HX_OK;
}

/* Bulk launches over the chunk, then sparse rounds over the compacted active cells. */
static int integrate_chunk(ChemGpu *g, int mode, int n, const double *d_par,
                           const ChemIntegratorOptions *o, const ChemSchedule *sch,
                           ChemGpuStats *st) {
  if (sch->single_launch) {
    chem_bulk_kernel<<<blocks(n), CHEM_BLOCK>>>(g->dev, mode, n, d_par, o->max_steps + 1, *o,
                                                g->d_ws, g->d_count);
    st->launches++;
    return HX_OK;
  }
  int active = n;
  for (int b = 0; b < sch->bulk_launches && active > 0; b++) {
    CU_CHECK(cudaMemset(g->d_count, 0, sizeof(int)));
    chem_bulk_kernel<<<blocks(n), CHEM_BLOCK>>>(g->dev, mode, n, d_par, sch->bulk_steps, *o,
                                                g->d_ws, g->d_count);
    st->launches++;
    HX_CHECK(read_count(g, &active));
    if (active < sch->sparse_threshold * n) break;
  }
  float ms = 0;
  CU_CHECK(cudaEventRecord(g->ev[2]));
  while (active > 0) {
    CU_CHECK(cudaMemset(g->d_count, 0, sizeof(int)));
    chem_compact_kernel<<<blocks(n), CHEM_BLOCK>>>(n, g->d_ws, g->d_list, g->d_count);
    HX_CHECK(read_count(g, &active));
    if (active == 0) break;
    /* a list shorter than one block per SM: launching again costs more than it saves */
    int k = active <= 132 * CHEM_BLOCK / 4 ? 0 : sch->bulk_steps;
    chem_sparse_kernel<<<blocks(active), CHEM_BLOCK>>>(g->dev, mode, n, d_par, g->d_list, active, k,
                                                       *o, g->d_ws);
    st->launches++;
    if (k == 0) break;
  }
  CU_CHECK(cudaEventRecord(g->ev[3]));
  CU_CHECK(cudaEventSynchronize(g->ev[3]));
  CU_CHECK(cudaEventElapsedTime(&ms, g->ev[2], g->ev[3]));
  st->sparse_seconds += 1e-3 * ms;
  return HX_OK;
}

/* Step counts, the most expensive cell and the failures of the chunk, from the per-cell outputs. */
__global__ void chem_reduce_kernel(int n, const int *steps, const int *status, int c0,
                                   unsigned long long *sum, int *max_steps, int *n_failed,
                                   int *first_failed) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n) return;
  atomicAdd(sum, (unsigned long long)steps[c]);
  atomicMax(max_steps, steps[c]);
  if (status[c] != CHEM_DONE) {
    atomicAdd(n_failed, 1);
    atomicMin(first_failed, c0 + c);
  }
}

typedef struct {
  unsigned long long sum;
  int max_steps, n_failed, first_failed;
} ChemReduce;

extern "C" int chem_gpu_integrate(ChemGpu *g, int mode, int n_cells, double *d_y,
                                  const double *d_par, double dt, const ChemIntegratorOptions *opt,
                                  const ChemSchedule *sch, int *d_steps, int *d_status,
                                  ChemGpuStats *st) {
  size_t ws_bytes = radau5_ws_doubles(g->host) * sizeof(double);
  int chunk = 0;
  HX_CHECK(chunk_size(g, n_cells, ws_bytes, &chunk));
  memset(st, 0, sizeof *st);
  st->ws_bytes = ws_bytes;
  st->chunk_cells = chunk;
  int *steps = d_steps, *status = d_status;
  ChemReduce *d_red = NULL;
  int rc = HX_OK;
  if (!steps) CU_CHECK(cudaMalloc(&steps, (size_t)n_cells * sizeof(int)));
  if (!status) CU_CHECK(cudaMalloc(&status, (size_t)n_cells * sizeof(int)));
  CU_CHECK(cudaMalloc(&d_red, sizeof(ChemReduce)));
  ChemReduce red0 = {0, 0, 0, n_cells};
  CU_CHECK(cudaMemcpy(d_red, &red0, sizeof red0, cudaMemcpyHostToDevice));
  CU_CHECK(cudaEventRecord(g->ev[0]));
  for (int c0 = 0; c0 < n_cells && rc == HX_OK; c0 += chunk) {
    int n = n_cells - c0 < chunk ? n_cells - c0 : chunk;
    chem_init_kernel<<<blocks(n), CHEM_BLOCK>>>(g->dev, mode, n, d_y + c0, d_par + c0, n_cells,
                                                dt, *opt, g->d_ws);
    rc = integrate_chunk(g, mode, n, d_par + c0, opt, sch, st);
    chem_finish_kernel<<<blocks(n), CHEM_BLOCK>>>(g->dev, n, g->d_ws, d_y + c0, n_cells, steps + c0,
                                                  status + c0);
    chem_reduce_kernel<<<blocks(n), CHEM_BLOCK>>>(n, steps + c0, status + c0, c0, &d_red->sum,
                                                  &d_red->max_steps, &d_red->n_failed,
                                                  &d_red->first_failed);
  }
  CU_CHECK(cudaEventRecord(g->ev[1]));
  CU_CHECK(cudaEventSynchronize(g->ev[1]));
  CU_CHECK(cudaGetLastError());
  float ms = 0;
  CU_CHECK(cudaEventElapsedTime(&ms, g->ev[0], g->ev[1]));
  st->seconds = 1e-3 * ms;
  ChemReduce red;
  CU_CHECK(cudaMemcpy(&red, d_red, sizeof red, cudaMemcpyDeviceToHost));
  st->total_steps = (long)red.sum;
  st->max_steps = red.max_steps;
  st->n_failed = red.n_failed;
  st->first_failed = red.n_failed ? red.first_failed : -1;
  st->first_status = CHEM_DONE;
  if (red.n_failed)
    CU_CHECK(cudaMemcpy(&st->first_status, status + red.first_failed, sizeof(int),
                        cudaMemcpyDeviceToHost));
  cudaFree(d_red);
  if (!d_steps) cudaFree(steps);
  if (!d_status) cudaFree(status);
  return rc;
}

extern "C" int chem_gpu_integrate_host(ChemGpu *g, int mode, int n_cells, double *y,
                                       const double *par, double dt,
                                       const ChemIntegratorOptions *opt, const ChemSchedule *sch,
                                       int *steps, int *status, ChemGpuStats *st) {
  const size_t nu = (size_t)g->host->n_species + 1;
  double *d_y = NULL, *d_par = NULL;
  int *d_steps = NULL, *d_status = NULL;
  CU_CHECK(cudaMalloc(&d_y, nu * n_cells * sizeof(double)));
  CU_CHECK(cudaMalloc(&d_par, (size_t)n_cells * sizeof(double)));
  CU_CHECK(cudaMalloc(&d_steps, (size_t)n_cells * sizeof(int)));
  CU_CHECK(cudaMalloc(&d_status, (size_t)n_cells * sizeof(int)));
  CU_CHECK(cudaMemcpy(d_y, y, nu * n_cells * sizeof(double), cudaMemcpyHostToDevice));
  CU_CHECK(cudaMemcpy(d_par, par, (size_t)n_cells * sizeof(double), cudaMemcpyHostToDevice));
  int rc = chem_gpu_integrate(g, mode, n_cells, d_y, d_par, dt, opt, sch, d_steps, d_status, st);
  if (rc == HX_OK) {
    CU_CHECK(cudaMemcpy(y, d_y, nu * n_cells * sizeof(double), cudaMemcpyDeviceToHost));
    if (steps)
      CU_CHECK(cudaMemcpy(steps, d_steps, (size_t)n_cells * sizeof(int), cudaMemcpyDeviceToHost));
    if (status)
      CU_CHECK(cudaMemcpy(status, d_status, (size_t)n_cells * sizeof(int), cudaMemcpyDeviceToHost));
  }
  cudaFree(d_y);
  cudaFree(d_par);
  cudaFree(d_steps);
  cudaFree(d_status);
  return rc;
}
