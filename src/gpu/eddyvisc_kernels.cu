/* LES output on the device: mu_t of the current state at every volume node (FLEXI's muSGS, a
 * FieldData variable of the state file), from the lifted gradients of that state; the host gets
 * the array only when a file is written. */
#include "gpu/eddyvisc.cuh"

/* One thread per node: mu_t from the node's density and volume gradients [elem][3][4][n3]. */
__global__ static void sgs_field_kernel(DevData d, double *mu_t) {
  const size_t n = (size_t)d.n_elems * d.n3;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    const int e = (int)(i / d.n3), node = (int)(i - (size_t)e * d.n3);
    const double *g = d.grad + (size_t)e * HX_NGRAD * d.n3 + node;
    double q[3][HX_NLIFT];
    for (int c = 0; c < 3; c++)
      for (int v = 0; v < HX_NLIFT; v++)
        q[c][v] = g[(c * HX_NLIFT + v) * d.n3];
    const double rho = d.U[(size_t)e * d.nvar * d.n3 + node]; /* DENS: the first variable */
    mu_t[i] = sgs_node_mu_t(d, e, node, rho, q);
  }
}

extern "C" int gpu_sgs_field(GpuSolver *g, double *mu_t) {
  const DevData *d = gpu_dev_data(g);
  if (!d->sgs_mu_max)
    return HX_ERROR(HX_ERR_INTERNAL, "gpu_sgs_field without an eddy-viscosity model");
  const size_t n = (size_t)d->n_elems * d->n3;
  if (n == 0) return HX_OK;
  HX_CHECK(gpu_sgs_refresh(g)); /* gradients of the current state (also the next dt's mu_t) */
  /* the viscous volume term is scratch between steps (every stage's lifting rewrites it) and
     holds nvar >= 1 values per node: room for mu_t without a buffer of its own */
  double *dev = d->Ut_visc;
  const int threads = 256;
  const unsigned blocks = (unsigned)((n + threads - 1) / threads);
  cudaStream_t s = gpu_elem_stream(g);
  sgs_field_kernel<<<blocks, threads, 0, s>>>(*d, dev);
  CU_CHECK(cudaGetLastError());
  CU_CHECK(cudaMemcpyAsync(mu_t, dev, sizeof(double) * n, cudaMemcpyDeviceToHost, s));
  CU_CHECK(cudaStreamSynchronize(s));
  return HX_OK;
}
