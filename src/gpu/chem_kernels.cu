/* Batched Radau IIA chemistry on the GPU with the bulk-sparse schedule (chem_gpu.h). */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_internal.cuh" /* CU_CHECK */

extern "C" {
#include "gpu/chem_gpu.h"
}

#define CHEM_BLOCK 128

typedef struct {
  unsigned long long sum;
  int max_steps, n_failed, first_failed;
} ChemReduce;

struct ChemGpu {
  const ChemMech *host;
  ChemMech dev; /* array pointers into d_block */
  void *d_block;
  double *d_ws;           /* workspace of one chunk: ws_doubles x chunk cells, cell-minor */
  size_t ws_cells;        /* cells the workspace holds */
  double *d_ws2, *d_par2; /* compact workspace and parameters of the sparse phase */
  size_t ws2_cells;
  long ws_doubles, ws_head;
  int *d_list, *d_count;   /* compacted active cells and their number */
  int *h_count;            /* pinned */
  ChemReduce *d_red;       /* totals of one integration */
  int *d_steps, *d_status; /* per-cell outputs when the caller wants none */
  size_t out_cells;
  cudaEvent_t ev[4];
};

extern "C" ChemSchedule chem_schedule_default(void) {
  ChemSchedule s;
  s.single_launch = 0;
  s.bulk_launches = 64; /* K = 4, threshold 0.5: the fastest on the H100 (docs/performance.md) */
  s.bulk_steps = 4;
  s.sparse_threshold = 0.5;
  s.min_blocks = 0;
  s.integrator = CHEM_INTEGRATOR_RADAU5;
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
  CU_CHECK(cudaMalloc(&g->d_red, sizeof(ChemReduce)));
  for (int i = 0; i < 4; i++)
    CU_CHECK(cudaEventCreate(&g->ev[i]));
  return HX_OK;
}

extern "C" void chem_gpu_destroy(ChemGpu *g) {
  if (!g) return;
  cudaFree(g->d_block);
  cudaFree(g->d_ws);
  cudaFree(g->d_ws2);
  cudaFree(g->d_par2);
  cudaFree(g->d_list);
  cudaFree(g->d_count);
  cudaFreeHost(g->h_count);
  cudaFree(g->d_red);
  cudaFree(g->d_steps);
  cudaFree(g->d_status);
  for (int i = 0; i < 4; i++)
    if (g->ev[i]) cudaEventDestroy(g->ev[i]);
  free(g);
}

/* The integrators behind one interface (radau5.h; resumable, strided workspace) */
struct Radau5 {
  static __device__ void init(const ChemMech *m, int mode, double par, double dt, const double *y0,
                              long sy, double *ws, long s, const ChemIntegratorOptions *o) {
    radau5_init(m, mode, par, 0.0, dt, y0, sy, ws, s, o);
  }
  static __device__ int advance(const ChemMech *m, int mode, double par, int k, double *ws, long s,
                                const ChemIntegratorOptions *o) {
    return radau5_advance(m, mode, par, k, ws, s, o);
  }
  static __device__ int status(const double *ws, long s) { return chem_ws_status(ws, s); }
  static __device__ long steps(const double *ws, long s) { return chem_ws_steps(ws, s); }
  static __device__ double *y(const ChemMech *m, double *ws, long s) { return radau5_y(m, ws, s); }
  static size_t ws_doubles(const ChemMech *m) { return radau5_ws_doubles(m); }
  /* the leading doubles a finished cell needs: the scalars and y */
  static long head(const ChemMech *m) { return radau5_layout(m).y + m->n_species + 1; }
};

struct Rodas4 {
  static __device__ void init(const ChemMech *m, int mode, double par, double dt, const double *y0,
                              long sy, double *ws, long s, const ChemIntegratorOptions *o) {
    rodas_init(m, mode, par, 0.0, dt, y0, sy, ws, s, o);
  }
  static __device__ int advance(const ChemMech *m, int mode, double par, int k, double *ws, long s,
                                const ChemIntegratorOptions *o) {
    return rodas_advance(m, mode, par, k, ws, s, o);
  }
  static __device__ int status(const double *ws, long s) { return chem_ws_status(ws, s); }
  static __device__ long steps(const double *ws, long s) { return chem_ws_steps(ws, s); }
  static __device__ double *y(const ChemMech *m, double *ws, long s) { return rodas_y(m, ws, s); }
  static size_t ws_doubles(const ChemMech *m) { return rodas_ws_doubles(m); }
  static long head(const ChemMech *m) { return rodas_layout(m).y + m->n_species + 1; }
};

/* Cells [0, n) of the chunk whose first cell is y + c0 (stride n_all) start at t = 0. */
template <class I>
__global__ void chem_init_kernel(ChemMech m, int mode, int n, const double *y, const double *par,
                                 long n_all, double dt, ChemIntegratorOptions o, double *ws) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n) return;
  I::init(&m, mode, par[c], dt, y + c, n_all, ws + c, n, &o);
}

/* Every cell of the chunk advances by at most k steps (cells that finished return at once).
 * MINB: blocks per SM the register budget must allow (occupancy against spills, measured). */
template <class I, int MINB>
__global__ void __launch_bounds__(CHEM_BLOCK, MINB)
    chem_bulk_kernel(ChemMech m, int mode, int n, const double *par, int k, ChemIntegratorOptions o,
                     double *ws, int *n_active) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n) return;
  double *w = ws + c;
  if (I::status(w, n) != CHEM_ACTIVE) return;
  if (I::advance(&m, mode, par[c], k, w, n, &o) == CHEM_ACTIVE) atomicAdd(n_active, 1);
}

/* The still-active cells of the chunk, in any order (each cell is independent). */
template <class I>
__global__ void chem_compact_kernel(int n, const double *ws, int *list, int *count) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n) return;
  if (I::status(ws + c, n) == CHEM_ACTIVE) list[atomicAdd(count, 1)] = c;
}

/* Workspace of the listed cells into a compact one (stride n_list) and back (the first n_back
 * doubles: scalars and y), so that the sparse launch reads coalesced like the bulk ones. */
__global__ void chem_gather_kernel(const double *ws, const double *par, int n, const int *list,
                                   int n_list, long n_ws, double *ws2, double *par2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n_list) return;
  int c = list[j];
  if (blockIdx.y == 0) par2[j] = par[c];
  for (long i = blockIdx.y; i < n_ws; i += gridDim.y)
    ws2[i * n_list + j] = ws[i * n + c];
}

__global__ void chem_scatter_kernel(const double *ws2, int n_list, const int *list, int n,
                                    long n_back, double *ws) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n_list) return;
  int c = list[j];
  for (long i = blockIdx.y; i < n_back; i += gridDim.y)
    ws[i * n + c] = ws2[i * n_list + j];
}

/* Results back into the species-major state; failed cells keep their last accepted state. */
template <class I>
__global__ void chem_finish_kernel(ChemMech m, int n, double *ws, double *y, long n_all, int *steps,
                                   int *status) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n) return;
  double *w = ws + c;
  const double *yw = I::y(&m, w, n);
  const int n_unknowns = m.n_species + 1;
  for (int i = 0; i < n_unknowns; i++)
    y[(size_t)i * n_all + c] = yw[(size_t)i * n];
  if (steps) steps[c] = (int)I::steps(w, n);
  if (status) status[c] = I::status(w, n);
}

static int blocks(int n) {
  return (n + CHEM_BLOCK - 1) / CHEM_BLOCK;
}

static int read_count(ChemGpu *g, int *value) {
  CU_CHECK(cudaMemcpy(g->h_count, g->d_count, sizeof(int), cudaMemcpyDeviceToHost));
  *value = *g->h_count;
  return HX_OK;
}

/* Cells per chunk: all of them while the workspaces (bulk, and the sparse phase's compact copy
 * for sparse_threshold of the cells) take at most half of the free memory. */
static int chunk_size(ChemGpu *g, int n_cells, size_t ws_bytes, double frac2, int *chunk) {
  size_t free_b = 0, total_b = 0;
  CU_CHECK(cudaMemGetInfo(&free_b, &total_b));
  size_t have = g->ws_cells * (ws_bytes + sizeof(int)) + g->ws2_cells * (ws_bytes + sizeof(double));
  size_t budget = (free_b + have) / 2;
  size_t fit = (size_t)(budget / ((1.0 + frac2) * (ws_bytes + sizeof(double)) + sizeof(int)));
  if (fit < 1)
    return HX_ERROR(HX_ERR_MEM, "chemistry: one cell needs %zu bytes of GPU workspace, %zu free",
                    ws_bytes, free_b);
  *chunk = (size_t)n_cells < fit ? n_cells : (int)fit;
  size_t cells2 = (size_t)(frac2 * *chunk) + 1;
  if ((size_t)*chunk > g->ws_cells || cells2 > g->ws2_cells) {
    cudaFree(g->d_ws), cudaFree(g->d_list), cudaFree(g->d_ws2), cudaFree(g->d_par2);
    g->d_ws = g->d_ws2 = g->d_par2 = NULL;
    g->d_list = NULL;
    g->ws_cells = g->ws2_cells = 0;
    CU_CHECK(cudaMalloc(&g->d_ws, (size_t)*chunk * ws_bytes));
    CU_CHECK(cudaMalloc(&g->d_list, (size_t)*chunk * sizeof(int)));
    CU_CHECK(cudaMalloc(&g->d_ws2, cells2 * ws_bytes));
    CU_CHECK(cudaMalloc(&g->d_par2, cells2 * sizeof(double)));
    g->ws_cells = *chunk;
    g->ws2_cells = cells2;
  }
  return HX_OK;
}

/* Bulk launches over the chunk until fewer than sparse_threshold of the cells are active, then
 * the active cells are gathered into a compact workspace and run to the end in one sparse launch
 * (Carreon et al., Algorithm 3); if the bulk launches leave too many active, one launch over all
 * cells finishes them. */
template <class I, int MINB>
static int integrate_chunk(ChemGpu *g, int mode, int n, const double *d_par,
                           const ChemIntegratorOptions *o, const ChemSchedule *sch,
                           ChemGpuStats *st) {
  const int to_end = o->max_steps + 1;
  if (sch->single_launch) {
    chem_bulk_kernel<I, MINB>
        <<<blocks(n), CHEM_BLOCK>>>(g->dev, mode, n, d_par, to_end, *o, g->d_ws, g->d_count);
    st->launches++;
    return HX_OK;
  }
  int active = n;
  for (int b = 0; b < sch->bulk_launches && active >= sch->sparse_threshold * n; b++) {
    CU_CHECK(cudaMemset(g->d_count, 0, sizeof(int)));
    chem_bulk_kernel<I, MINB><<<blocks(n), CHEM_BLOCK>>>(g->dev, mode, n, d_par, sch->bulk_steps,
                                                         *o, g->d_ws, g->d_count);
    st->launches++;
    HX_CHECK(read_count(g, &active));
  }
  if (active == 0) return HX_OK;
  if (active >= sch->sparse_threshold * n || active > (int)g->ws2_cells) {
    chem_bulk_kernel<I, MINB>
        <<<blocks(n), CHEM_BLOCK>>>(g->dev, mode, n, d_par, to_end, *o, g->d_ws, g->d_count);
    st->launches++;
    return HX_OK;
  }
  float ms = 0;
  CU_CHECK(cudaEventRecord(g->ev[2]));
  CU_CHECK(cudaMemset(g->d_count, 0, sizeof(int)));
  chem_compact_kernel<I><<<blocks(n), CHEM_BLOCK>>>(n, g->d_ws, g->d_list, g->d_count);
  HX_CHECK(read_count(g, &active));
  dim3 grid(blocks(active), 64);
  chem_gather_kernel<<<grid, CHEM_BLOCK>>>(g->d_ws, d_par, n, g->d_list, active, g->ws_doubles,
                                           g->d_ws2, g->d_par2);
  chem_bulk_kernel<I, MINB><<<blocks(active), CHEM_BLOCK>>>(g->dev, mode, active, g->d_par2, to_end,
                                                            *o, g->d_ws2, g->d_count);
  chem_scatter_kernel<<<grid, CHEM_BLOCK>>>(g->d_ws2, active, g->d_list, n, g->ws_head, g->d_ws);
  st->launches++;
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

template <class I, int MINB>
static int integrate_all(ChemGpu *g, int mode, int n_cells, double *d_y, const double *d_par,
                         double dt, const ChemIntegratorOptions *opt, const ChemSchedule *sch,
                         int *d_steps, int *d_status, ChemGpuStats *st) {
  g->ws_doubles = (long)I::ws_doubles(g->host);
  g->ws_head = I::head(g->host);
  size_t ws_bytes = g->ws_doubles * sizeof(double);
  int chunk = 0;
  double frac2 = sch->single_launch ? 0.0 : fmin(1.0, fmax(0.0, sch->sparse_threshold));
  HX_CHECK(chunk_size(g, n_cells, ws_bytes, frac2, &chunk));
  memset(st, 0, sizeof *st);
  st->ws_bytes = ws_bytes;
  st->chunk_cells = chunk;
  int *steps = d_steps, *status = d_status;
  ChemReduce *d_red = g->d_red;
  int rc = HX_OK;
  if ((!steps || !status) && (size_t)n_cells > g->out_cells) {
    cudaFree(g->d_steps), cudaFree(g->d_status);
    g->d_steps = g->d_status = NULL;
    g->out_cells = 0;
    CU_CHECK(cudaMalloc(&g->d_steps, (size_t)n_cells * sizeof(int)));
    CU_CHECK(cudaMalloc(&g->d_status, (size_t)n_cells * sizeof(int)));
    g->out_cells = n_cells;
  }
  if (!steps) steps = g->d_steps;
  if (!status) status = g->d_status;
  ChemReduce red0 = {0, 0, 0, n_cells};
  CU_CHECK(cudaMemcpy(d_red, &red0, sizeof red0, cudaMemcpyHostToDevice));
  CU_CHECK(cudaEventRecord(g->ev[0]));
  for (int c0 = 0; c0 < n_cells && rc == HX_OK; c0 += chunk) {
    int n = n_cells - c0 < chunk ? n_cells - c0 : chunk;
    chem_init_kernel<I><<<blocks(n), CHEM_BLOCK>>>(g->dev, mode, n, d_y + c0, d_par + c0, n_cells,
                                                   dt, *opt, g->d_ws);
    rc = integrate_chunk<I, MINB>(g, mode, n, d_par + c0, opt, sch, st);
    chem_finish_kernel<I>
        <<<blocks(n), CHEM_BLOCK>>>(g->dev, n, g->d_ws, d_y + c0, n_cells, steps + c0, status + c0);
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
  return rc;
}

extern "C" int chem_gpu_integrate(ChemGpu *g, int mode, int n_cells, double *d_y,
                                  const double *d_par, double dt, const ChemIntegratorOptions *opt,
                                  const ChemSchedule *sch, int *d_steps, int *d_status,
                                  ChemGpuStats *st) {
#define CHEM_RUN(I, B)                                                                             \
  integrate_all<I, B>(g, mode, n_cells, d_y, d_par, dt, opt, sch, d_steps, d_status, st)
  int radau = sch->integrator == CHEM_INTEGRATOR_RADAU5;
  if (!radau && sch->integrator != CHEM_INTEGRATOR_RODAS)
    return HX_ERROR(HX_ERR_INPUT, "chemistry: unknown integrator %d", sch->integrator);
  /* auto: large mechanisms gain from more warps per SM (their kernels are latency-bound on the
   * LU), small ones lose to spills (docs/performance.md) */
  int min_blocks = sch->min_blocks > 0 ? sch->min_blocks : (g->host->n_species >= 30 ? 4 : 1);
  switch (min_blocks) {
  case 1:
    return radau ? CHEM_RUN(Radau5, 1) : CHEM_RUN(Rodas4, 1);
  case 2:
    return radau ? CHEM_RUN(Radau5, 2) : CHEM_RUN(Rodas4, 2);
  case 4:
    return radau ? CHEM_RUN(Radau5, 4) : CHEM_RUN(Rodas4, 4);
  default:
    return HX_ERROR(HX_ERR_INPUT, "chemistry: min_blocks %d: use 0 (auto), 1, 2 or 4", min_blocks);
  }
#undef CHEM_RUN
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
