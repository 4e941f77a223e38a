/* Time averages on the device (analysis/timeavg.c is the CPU twin): one thread per node folds
 * the state after each step into the window's sums with the shared pointwise functions of
 * analysis/timeavg_pointwise.h, on the element stream after the step (DR_u, DR_S: after a lifting
 * of the new state); nothing travels to the host until a TimeAvg file is written. */
#include "gpu/gpu_internal.cuh"

extern "C" {
#include "physics/eos.h"
}

struct GpuTimeAvg {
  GpuSolver *g;
  TimeAvgMap map;
  int n_sums;
  size_t n; /* doubles in sums and in last */
  double *sums, *last;
};

/* first: last = values of the state; else sums += w (last + values), last = values. */
__global__ static void timeavg_kernel(DevData d, DevPhysics ph, TimeAvgMap m, int n_sums, double w,
                                      double *sums, double *last) {
  const size_t n = (size_t)d.n_elems * d.n3;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    const size_t e = i / d.n3, q = i % d.n3;
    double u[HX_NVAR], vals[TAVG_NVALS];
    for (int v = 0; v < HX_NVAR; v++)
      u[v] = d.U[(e * d.nvar + v) * d.n3 + q];
    if (m.prim) {
      double pr[HX_NPRIM];
      cons_to_prim(&ph.pp, u, pr);
      timeavg_node_values(ph.pp.kappa, u, pr, speed_of_sound(&ph.pp, pr), vals);
      if (m.grad) { /* DR_u, DR_S from the volume gradients [elem][3][4][n3] */
        double g[3][HX_NLIFT];
        for (int c = 0; c < 3; c++)
          for (int v = 0; v < HX_NLIFT; v++)
            g[c][v] = d.grad[((e * 3 + c) * HX_NLIFT + v) * d.n3 + q];
        timeavg_node_dissipation(g[0], g[1], g[2], vals);
      }
    } else {
      timeavg_node_cons(u, vals);
    }
    const size_t o = e * (size_t)n_sums * d.n3 + q;
    timeavg_node_accumulate(&m, vals, w, sums + o, last + o, d.n3);
  }
}

static int launch_timeavg(GpuTimeAvg *ta, double w) {
  const DevData *d = gpu_dev_data(ta->g);
  const size_t n = (size_t)d->n_elems * d->n3;
  if (n == 0) return HX_OK;
  timeavg_kernel<<<node_blocks(n), 256, 0, gpu_elem_stream(ta->g)>>>(
      *d, *gpu_dev_physics(ta->g), ta->map, ta->n_sums, w, ta->sums, ta->last);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

extern "C" int gpu_timeavg_create(GpuSolver *g, const TimeAvgMap *map, const double *last,
                                  GpuTimeAvg **out) {
  const DevData *d = gpu_dev_data(g);
  if (d->mech && map->prim)
    return HX_ERROR(HX_ERR_INPUT, "CalcTimeAverage on the GPU with a mixture: only the "
                                  "conservative variables (Density, MomentumX/Y/Z, "
                                  "EnergyStagnationDensity) so far; name only those in "
                                  "VarNameAvg/VarNameFluc, or use Backend = cpu");
  if (map->grad && !d->grad)
    return HX_ERROR(HX_ERR_INPUT, "VarNameFluc = DR_u or DR_S on the GPU needs the lifted "
                                  "gradients of an air Navier-Stokes run (mu0 > 0)");
  GpuTimeAvg *ta = (GpuTimeAvg *)hx_calloc(1, sizeof(GpuTimeAvg), "GPU time averages");
  HX_ALLOC_CHECK(ta);
  ta->g = g;
  ta->map = *map;
  ta->n_sums = map->n_avg + map->n_sq;
  ta->n = (size_t)ta->n_sums * d->n_elems * d->n3;
  const size_t bytes = sizeof(double) * (ta->n ? ta->n : 1);
  *out = ta;
  CU_CHECK(cudaMalloc((void **)&ta->sums, bytes));
  CU_CHECK(cudaMalloc((void **)&ta->last, bytes));
  CU_CHECK(cudaMemset(ta->sums, 0, bytes));
  if (ta->n) CU_CHECK(cudaMemcpy(ta->last, last, bytes, cudaMemcpyHostToDevice));
  /* landed before the element stream's first update reads them (a copy from pageable memory
     may return before its DMA does) */
  CU_CHECK(cudaDeviceSynchronize());
  return HX_OK;
}

extern "C" int gpu_timeavg_update(GpuTimeAvg *ta, double dt) {
  if (ta->map.grad) HX_CHECK(gpu_lift_state(ta->g)); /* the gradients of the new state */
  return launch_timeavg(ta, 0.5 * dt);
}

extern "C" int gpu_timeavg_get(GpuTimeAvg *ta, double *sums) {
  CU_CHECK(cudaStreamSynchronize(gpu_elem_stream(ta->g)));
  if (ta->n) CU_CHECK(cudaMemcpy(sums, ta->sums, sizeof(double) * ta->n, cudaMemcpyDeviceToHost));
  return HX_OK;
}

extern "C" int gpu_timeavg_reset(GpuTimeAvg *ta) {
  CU_CHECK(
      cudaMemsetAsync(ta->sums, 0, sizeof(double) * (ta->n ? ta->n : 1), gpu_elem_stream(ta->g)));
  return HX_OK;
}

extern "C" void gpu_timeavg_destroy(GpuTimeAvg *ta) {
  if (!ta) return;
  cudaFree(ta->sums);
  cudaFree(ta->last);
  free(ta);
}
