/* The Pruett base flow of the sponge on the device (SpongeBaseFlow = pruett, dg/sponge.h): the
 * filter's explicit update after each step, on the element stream that also runs the RK update,
 * so that the next step's stages see the new base flow. */
#include "gpu/gpu_internal.cuh"

/* Ub += fac (U - Ub) on the sponge elements (Pruett et al. 2003, exponential filter's ODE). */
__global__ static void sponge_pruett_kernel(DevData d, double fac) {
  const size_t n = (size_t)d.n_elems * d.n3;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    const size_t e = i / d.n3, q = i % d.n3;
    const int se = d.sponge_elem[e];
    if (se < 0) continue;
    double *ub = d.sponge_base_U + (size_t)se * d.nvar * d.n3 + q;
    const double *u = d.U + e * d.nvar * d.n3 + q;
    for (int v = 0; v < d.nvar; v++)
      ub[v * d.n3] += (u[v * d.n3] - ub[v * d.n3]) * fac;
  }
}

extern "C" int gpu_sponge_pruett_update(GpuSolver *g, double dt) {
  const DevData *d = gpu_dev_data(g);
  if (!d->sponge_base_U) return HX_ERROR(HX_ERR_INTERNAL, "no per-node sponge base flow");
  const size_t n = (size_t)d->n_elems * d->n3;
  if (n == 0 || d->n_sponge_elems == 0) return HX_OK;
  const double fac = fmin(dt / d->sponge_filter_width, 1.0); /* as sponge_pruett_update */
  sponge_pruett_kernel<<<node_blocks(n), 256, 0, gpu_elem_stream(g)>>>(*d, fac);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

extern "C" int gpu_sponge_base_get(GpuSolver *g, double *base) {
  const DevData *d = gpu_dev_data(g);
  if (!d->sponge_base_U) return HX_ERROR(HX_ERR_INTERNAL, "no per-node sponge base flow");
  const size_t n = (size_t)d->n_sponge_elems * d->nvar * d->n3;
  CU_CHECK(cudaDeviceSynchronize());
  if (n) CU_CHECK(cudaMemcpy(base, d->sponge_base_U, sizeof(double) * n, cudaMemcpyDeviceToHost));
  return HX_OK;
}
