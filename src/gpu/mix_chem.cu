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
#include "physics/mixture.h"
}

struct MixChem {
  ChemGpu *cg;
  double *y, *rho;       /* [ns + 1][cells], [cells] */
  int *dof;              /* [cells] DOF of each reactor (ChemTmin > 0) */
  int *steps, *status;   /* [cells] */
  int *count;            /* number of reactors (device) */
  unsigned long long *elem_steps; /* [elem] integrator steps since the last download */
  long n_dof;
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
}

extern "C" int mix_chem_advance(MixChem *c, const DevData *d, cudaStream_t s, double dt,
                                double T_min, int integrator, int single_launch,
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
  if (n == 0) return HX_OK;
  gather_kernel<<<(n + 255) / 256, 256, 0, s>>>(*d, *c, n, all);
  CU_CHECK(cudaGetLastError());
  CU_CHECK(cudaStreamSynchronize(s));
  ChemSchedule sch = chem_schedule_default();
  sch.integrator = integrator;
  sch.single_launch = single_launch;
  ChemGpuStats gs;
  HX_CHECK(chem_gpu_integrate(c->cg, CHEM_MODE_CV, n, c->y, c->rho, dt, opt, &sch, c->steps,
                              c->status, &gs));
  CU_CHECK(cudaDeviceSynchronize()); /* the batch runs on its own stream */
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
