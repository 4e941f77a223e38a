/* Timeline of an RK stage (stage_trace.cuh). */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpu/gpu_internal.cuh"
#include "gpu/stage_trace.cuh"

enum { TRACE_RING = 1024, TRACE_MAX_POINTS = 32 };

struct StageTrace {
  int n_points;
  const char *names[TRACE_MAX_POINTS];
  const char *what;
  unsigned long long *rows; /* [TRACE_RING][n_points]: global timer [ns], 0 = not written */
  unsigned *counter;        /* stages begun */
};

__device__ static __forceinline__ unsigned long long global_timer_ns(void) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ static void trace_mark_kernel(unsigned long long *rows, const unsigned *counter,
                                         int n_points, int point) {
  const unsigned row = (*counter + TRACE_RING - 1) % TRACE_RING; /* the stage begun last */
  rows[(size_t)row * n_points + point] = global_timer_ns();
}

__global__ static void trace_begin_kernel(unsigned long long *rows, unsigned *counter,
                                          int n_points) {
  const unsigned row = *counter % TRACE_RING;
  for (int p = 1; p < n_points; p++) rows[(size_t)row * n_points + p] = 0ull;
  rows[(size_t)row * n_points] = global_timer_ns();
  *counter += 1u;
}

int stage_trace_create(int n_points, const char *const *names, const char *what,
                       StageTrace **out) {
  *out = NULL;
  if (!gpu_env_flag("HEXDG_STAGE_TRACE", false)) return HX_OK;
  if (n_points < 1 || n_points > TRACE_MAX_POINTS)
    return HX_ERROR(HX_ERR_INTERNAL, "stage trace: %d points (1 .. %d)", n_points,
                    TRACE_MAX_POINTS);
  StageTrace *t = (StageTrace *)calloc(1, sizeof(StageTrace));
  if (!t) return HX_ERROR(HX_ERR_MEM, "out of host memory (stage trace)");
  t->n_points = n_points;
  t->what = what;
  for (int p = 0; p < n_points; p++) t->names[p] = names[p];
  const size_t bytes = sizeof(unsigned long long) * TRACE_RING * n_points;
  if (cudaMalloc((void **)&t->rows, bytes) != cudaSuccess ||
      cudaMalloc((void **)&t->counter, sizeof(unsigned)) != cudaSuccess ||
      cudaMemset(t->rows, 0, bytes) != cudaSuccess ||
      cudaMemset(t->counter, 0, sizeof(unsigned)) != cudaSuccess) {
    cudaGetLastError();
    cudaFree(t->rows);
    cudaFree(t->counter);
    free(t);
    return HX_ERROR(HX_ERR_DEVICE, "stage trace: no device memory for %zu bytes", bytes);
  }
  *out = t;
  return HX_OK;
}

int stage_trace_begin(StageTrace *t, cudaStream_t s) {
  if (!t) return HX_OK;
  trace_begin_kernel<<<1, 1, 0, s>>>(t->rows, t->counter, t->n_points);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int stage_trace_mark(StageTrace *t, int point, cudaStream_t s) {
  if (!t || point <= 0 || point >= t->n_points) return HX_OK;
  trace_mark_kernel<<<1, 1, 0, s>>>(t->rows, t->counter, t->n_points, point);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

/* Per point over the complete rows: mean, min and max of (t_point - t_start) [us]; and the mean
 * time from one stage's start to the next one's. */
static void trace_print(const StageTrace *t, const unsigned long long *rows, unsigned counter,
                        int rank) {
  const int np = t->n_points;
  const unsigned ring = TRACE_RING, n = counter < ring ? counter : ring;
  double sum[TRACE_MAX_POINTS] = {0}, lo[TRACE_MAX_POINTS], hi[TRACE_MAX_POINTS];
  long cnt[TRACE_MAX_POINTS] = {0};
  double period = 0.0;
  long n_period = 0;
  for (int p = 0; p < np; p++) {
    lo[p] = DBL_MAX;
    hi[p] = -DBL_MAX;
  }
  for (unsigned i = counter - n; i < counter; i++) {
    const unsigned long long *r = rows + (size_t)(i % TRACE_RING) * np;
    if (!r[0]) continue;
    if (i + 1 < counter) {
      const unsigned long long next = rows[(size_t)((i + 1) % TRACE_RING) * np];
      if (next > r[0]) {
        period += 1e-3 * (double)(next - r[0]);
        n_period++;
      }
    }
    for (int p = 1; p < np; p++) {
      if (!r[p] || r[p] < r[0]) continue;
      const double us = 1e-3 * (double)(r[p] - r[0]);
      sum[p] += us;
      cnt[p]++;
      if (us < lo[p]) lo[p] = us;
      if (us > hi[p]) hi[p] = us;
    }
  }
  printf("stage trace (%s), rank %d: %u stages, mean period %.2f us; after the start [us]:\n",
         t->what, rank, n, n_period ? period / n_period : 0.0);
  for (int p = 1; p < np; p++)
    if (cnt[p])
      printf("  rank %d %-34s mean %8.2f  min %8.2f  max %8.2f\n", rank, t->names[p],
             sum[p] / cnt[p], lo[p], hi[p]);
  fflush(stdout);
}

void stage_trace_finish(StageTrace *t, int rank) {
  if (!t) return;
  const size_t n = (size_t)TRACE_RING * t->n_points;
  unsigned long long *rows = (unsigned long long *)malloc(sizeof(unsigned long long) * n);
  unsigned counter = 0;
  if (rows && cudaDeviceSynchronize() == cudaSuccess &&
      cudaMemcpy(rows, t->rows, sizeof(unsigned long long) * n, cudaMemcpyDeviceToHost) ==
          cudaSuccess &&
      cudaMemcpy(&counter, t->counter, sizeof(unsigned), cudaMemcpyDeviceToHost) == cudaSuccess)
    trace_print(t, rows, counter, rank);
  cudaGetLastError();
  free(rows);
  cudaFree(t->rows);
  cudaFree(t->counter);
  free(t);
}
