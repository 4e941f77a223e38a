/* Volume integrals of the Taylor-Green vortex analysis on the device: the gradients are lifted
 * from the current solution, each block integrates one element (quadrature w_i w_j w_k J, tree
 * reduction in shared memory), and one block adds the element sums in a fixed order, so the
 * result is reproducible. Only the HX_TGV_NSUMS sums travel to the host. */
#include "gpu/gpu_internal.cuh"

extern "C" {
#include "analysis/tgv_pointwise.h"
#include "physics/eos.h"
}

#define TGV_THREADS 128

__global__ static void tgv_element_kernel(DevData d, DevPhysics ph, double *elem_sums) {
  __shared__ double red[HX_TGV_NSUMS + 1][TGV_THREADS];
  int e = blockIdx.x, np = d.np;
  double acc[HX_TGV_NSUMS + 1];
  for (int m = 0; m <= HX_TGV_NSUMS; m++) acc[m] = 0.0;
  for (int q = threadIdx.x; q < d.n3; q += blockDim.x) {
    double u[HX_NVAR], g[HX_NGRAD], f[HX_TGV_NSUMS], vort;
    for (int v = 0; v < HX_NVAR; v++) u[v] = d.U[((size_t)e * d.nvar + v) * d.n3 + q];
    for (int c = 0; c < HX_NGRAD; c++) g[c] = d.grad[((size_t)e * HX_NGRAD + c) * d.n3 + q];
    tgv_node_integrands(&ph.pp, u, g, f, &vort);
    const double *w = d.disc->w;
    double wJ = w[q % np] * w[(q / np) % np] * w[q / (np * np)] / node_sJ(d, e, q);
    for (int m = 0; m < HX_TGV_NSUMS; m++) acc[m] += wJ * f[m];
    acc[HX_TGV_NSUMS] = fmax(acc[HX_TGV_NSUMS], vort);
  }
  for (int m = 0; m <= HX_TGV_NSUMS; m++) red[m][threadIdx.x] = acc[m];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      for (int m = 0; m < HX_TGV_NSUMS; m++) red[m][threadIdx.x] += red[m][threadIdx.x + s];
      red[HX_TGV_NSUMS][threadIdx.x] =
          fmax(red[HX_TGV_NSUMS][threadIdx.x], red[HX_TGV_NSUMS][threadIdx.x + s]);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0)
    for (int m = 0; m <= HX_TGV_NSUMS; m++) elem_sums[(size_t)e * (HX_TGV_NSUMS + 1) + m] = red[m][0];
}

__global__ static void tgv_total_kernel(int n_elems, const double *elem_sums, double *total) {
  __shared__ double red[HX_TGV_NSUMS + 1][TGV_THREADS];
  double acc[HX_TGV_NSUMS + 1];
  for (int m = 0; m <= HX_TGV_NSUMS; m++) acc[m] = 0.0;
  for (int e = threadIdx.x; e < n_elems; e += blockDim.x) {
    const double *es = elem_sums + (size_t)e * (HX_TGV_NSUMS + 1);
    for (int m = 0; m < HX_TGV_NSUMS; m++) acc[m] += es[m];
    acc[HX_TGV_NSUMS] = fmax(acc[HX_TGV_NSUMS], es[HX_TGV_NSUMS]);
  }
  for (int m = 0; m <= HX_TGV_NSUMS; m++) red[m][threadIdx.x] = acc[m];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      for (int m = 0; m < HX_TGV_NSUMS; m++) red[m][threadIdx.x] += red[m][threadIdx.x + s];
      red[HX_TGV_NSUMS][threadIdx.x] =
          fmax(red[HX_TGV_NSUMS][threadIdx.x], red[HX_TGV_NSUMS][threadIdx.x + s]);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0)
    for (int m = 0; m <= HX_TGV_NSUMS; m++) total[m] = red[m][0];
}

int launch_tgv_sums(const DevData *d, const DevPhysics *ph, double *elem_sums, double *total,
                    cudaStream_t s) {
  tgv_element_kernel<<<d->n_elems, TGV_THREADS, 0, s>>>(*d, *ph, elem_sums);
  CU_CHECK(cudaGetLastError());
  tgv_total_kernel<<<1, TGV_THREADS, 0, s>>>(d->n_elems, elem_sums, total);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

/* The pressure of node i: from the node states P of the mixture (current after every stage and
 * chemistry stage), from U for air. */
__device__ static double node_pressure(const DevData &d, const DevPhysics &ph, size_t i) {
  const size_t e = i / d.n3, q = i % d.n3;
  if (d.mech) return d.P[(e * MIX_NP(d.n_species) + PRES) * d.n3 + q];
  double u[HX_NVAR];
  for (int v = 0; v < HX_NVAR; v++) u[v] = d.U[(e * d.nvar + v) * d.n3 + q];
  return pressure_from_cons(&ph.pp, u);
}

/* Numerical soot foil (analysis/maxpressure.c): p_max = max(p_max, p) at every node after a
 * step. */
__global__ static void max_pressure_kernel(DevData d, DevPhysics ph, double *p_max) {
  const size_t n = (size_t)d.n_elems * d.n3;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    p_max[i] = fmax(p_max[i], node_pressure(d, ph, i));
}

/* The front-pressure record (analysis/frontpressure.c): each node's pressure into its y bin. */
__global__ static void front_pressure_kernel(DevData d, DevPhysics ph, const int *bin,
                                             unsigned long long *row) {
  const size_t n = (size_t)d.n_elems * d.n3;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    const double p = node_pressure(d, ph, i);
    if (p > 0.0) atomicMax(&row[bin[i]], (unsigned long long)__double_as_longlong(p));
  }
}

int launch_front_pressure(const DevData *d, const DevPhysics *ph, const int *bin,
                          unsigned long long *row, cudaStream_t s) {
  const size_t n = (size_t)d->n_elems * d->n3;
  if (n == 0) return HX_OK;
  const int blocks = node_blocks(n);
  front_pressure_kernel<<<blocks, 256, 0, s>>>(*d, *ph, bin, row);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_max_pressure(const DevData *d, const DevPhysics *ph, double *p_max, cudaStream_t s) {
  const size_t n = (size_t)d->n_elems * d->n3;
  if (n == 0) return HX_OK;
  const int blocks = node_blocks(n);
  max_pressure_kernel<<<blocks, 256, 0, s>>>(*d, *ph, p_max);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}
