/* Record points on the device (analysis/recordpoints.c, RP_inUse): after a step the state is
 * interpolated at the local points straight into a device buffer of samples, one thread per point
 * and variable with the CPU's recordpoints_interpolate (same order of summation); the host sees
 * the samples only when the buffer is flushed to the RP file. */
#include "gpu/gpu_internal.cuh"

extern "C" {
#include "analysis/recordpoints.h"
}

struct GpuRecordPoints {
  int n_local, n_global, n_var, np, cap;
  int *elem;       /* [n_local] local element */
  int *local_id;   /* host: [n_local] global point index */
  double *weights; /* [n_local][3][np] */
  double *samples; /* [cap][n_local][1 + n_var]: t, U */
  double *host;    /* host staging of the downloaded samples */
};

__global__ static void rp_sample_kernel(DevData d, int n_local, const int *elem,
                                        const double *weights, double t, double *slot) {
  const int stride = 1 + d.nvar;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n_local * stride;
       i += gridDim.x * blockDim.x) {
    const int q = i / stride, v = i % stride - 1;
    if (v < 0) {
      slot[i] = t;
      continue;
    }
    const double *u = d.U + ((size_t)elem[q] * d.nvar + v) * d.n3;
    slot[i] = recordpoints_interpolate(d.np, weights + (size_t)3 * d.np * q, u);
  }
}

extern "C" int gpu_rp_create(GpuSolver *g, const struct RecordPoints *rp, GpuRecordPoints **out) {
  GpuRecordPoints *r = (GpuRecordPoints *)calloc(1, sizeof(GpuRecordPoints));
  HX_ALLOC_CHECK(r);
  *out = r;
  r->n_local = rp->n_local;
  r->n_global = rp->n_global;
  r->n_var = rp->n_var;
  r->np = rp->np;
  r->cap = rp->cap;
  const size_t nl = rp->n_local > 0 ? (size_t)rp->n_local : 1;
  const size_t n_samples = (size_t)rp->cap * nl * (1 + rp->n_var);
  r->local_id = (int *)malloc(sizeof(int) * nl);
  r->host = (double *)malloc(sizeof(double) * n_samples);
  if (!r->local_id || !r->host) return HX_ERR_MEM;
  memcpy(r->local_id, rp->local_id, sizeof(int) * rp->n_local);
  CU_CHECK(cudaMalloc((void **)&r->elem, sizeof(int) * nl));
  CU_CHECK(cudaMalloc((void **)&r->weights, sizeof(double) * 3 * rp->np * nl));
  CU_CHECK(cudaMalloc((void **)&r->samples, sizeof(double) * n_samples));
  if (rp->n_local == 0) return HX_OK;
  CU_CHECK(cudaMemcpy(r->elem, rp->local_elem, sizeof(int) * rp->n_local, cudaMemcpyHostToDevice));
  CU_CHECK(cudaMemcpy(r->weights, rp->weights, sizeof(double) * 3 * rp->np * rp->n_local,
                      cudaMemcpyHostToDevice));
  (void)g;
  /* landed before the element stream's first sample (a copy from pageable memory may return
     before its DMA does) */
  CU_CHECK(cudaDeviceSynchronize());
  return HX_OK;
}

extern "C" int gpu_rp_sample(GpuSolver *g, GpuRecordPoints *r, int slot, double t) {
  if (!r) return HX_ERROR(HX_ERR_INTERNAL, "gpu_rp_sample before gpu_rp_create");
  if (slot < 0 || slot >= r->cap)
    return HX_ERROR(HX_ERR_INTERNAL, "record point sample slot %d outside 0..%d", slot, r->cap - 1);
  const int n = r->n_local * (1 + r->n_var);
  if (n == 0) return HX_OK;
  const DevData *d = gpu_dev_data(g);
  double *dst = r->samples + (size_t)slot * n;
  rp_sample_kernel<<<(n + 127) / 128, 128, 0, gpu_elem_stream(g)>>>(*d, r->n_local, r->elem,
                                                                    r->weights, t, dst);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

extern "C" int gpu_rp_download(GpuSolver *g, GpuRecordPoints *r, int n, double *buf) {
  if (!r) return HX_ERROR(HX_ERR_INTERNAL, "gpu_rp_download before gpu_rp_create");
  const int row = 1 + r->n_var;
  const size_t local = (size_t)r->n_local * row, global = (size_t)r->n_global * row;
  CU_CHECK(cudaStreamSynchronize(gpu_elem_stream(g)));
  if (n > 0 && local > 0)
    CU_CHECK(cudaMemcpy(r->host, r->samples, sizeof(double) * local * n, cudaMemcpyDeviceToHost));
  for (int s = 0; s < n; s++) { /* the host layout: every point, -0.0 for other ranks' points */
    double *dst = buf + (size_t)s * global;
    for (size_t i = 0; i < global; i++)
      dst[i] = -0.0;
    for (int q = 0; q < r->n_local; q++)
      memcpy(dst + (size_t)r->local_id[q] * row, r->host + s * local + (size_t)q * row,
             sizeof(double) * row);
  }
  return HX_OK;
}

extern "C" void gpu_rp_destroy(GpuRecordPoints *r) {
  if (!r) return;
  cudaFree(r->elem);
  cudaFree(r->weights);
  cudaFree(r->samples);
  free(r->local_id);
  free(r->host);
  free(r);
}
