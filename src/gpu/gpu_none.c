/* Built without CUDA: the CUDA backend reports that it is absent (no device is ever selected). */
#include <stdio.h>

#include "core/error.h"
#include "gpu/gpu.h"
#include "gpu/power.h"

int gpu_device_count(void) {
  return 0;
}

int gpu_rank_max_selftest(int rounds, int graph, long *mismatches, char *why, size_t len) {
  (void)rounds, (void)graph;
  *mismatches = 0;
  snprintf(why, len, "built without CUDA");
  return HX_ERROR(HX_ERR_DEVICE, "gpu_rank_max_selftest: hexdg was built without CUDA");
}

int gpu_select_device(char *name, size_t len) {
  (void)name;
  (void)len;
  return HX_ERROR(HX_ERR_DEVICE, "hexdg was built without CUDA (HEXDG_CUDA=OFF, or no nvcc at "
                                 "configure time); use Backend = cpu or rebuild with nvcc on PATH");
}

int gpu_solver_create(const Solver *s, const GpuOptions *opt, double t, GpuSolver **out) {
  (void)s, (void)opt, (void)t, (void)out;
  return gpu_select_device(NULL, 0);
}

void gpu_solver_destroy(GpuSolver *g) {
  (void)g;
}

int gpu_step(GpuSolver *g, double t_analyze, double *t, double *dt, int *landed) {
  (void)g, (void)t_analyze, (void)t, (void)dt, (void)landed;
  return gpu_select_device(NULL, 0);
}

int gpu_download_state(GpuSolver *g, double *U) {
  (void)g, (void)U;
  return gpu_select_device(NULL, 0);
}

int gpu_download_fv_elems(GpuSolver *g, int *fv_elems) {
  (void)g, (void)fv_elems;
  return gpu_select_device(NULL, 0);
}

int gpu_upload_state(GpuSolver *g, const double *U, double t) {
  (void)g, (void)U, (void)t;
  return gpu_select_device(NULL, 0);
}

int gpu_restore_good_state(GpuSolver *g, double *t) {
  (void)g, (void)t;
  return gpu_select_device(NULL, 0);
}

int gpu_tgv_sums(GpuSolver *g, double *sums, double *max_vort) {
  (void)g, (void)sums, (void)max_vort;
  return gpu_select_device(NULL, 0);
}

const char *gpu_mpi_transport_name(const GpuSolver *g) {
  (void)g;
  return NULL;
}

int gpu_uses_graphs(const GpuSolver *g) {
  (void)g;
  return 0;
}

int gpu_sgs_field(GpuSolver *g, double *mu_t) {
  (void)g, (void)mu_t;
  return gpu_select_device(NULL, 0);
}

int gpu_max_pressure_set(GpuSolver *g, const double *p_max) {
  (void)g, (void)p_max;
  return gpu_select_device(NULL, 0);
}

int gpu_max_pressure_update(GpuSolver *g) {
  (void)g;
  return gpu_select_device(NULL, 0);
}

int gpu_max_pressure_get(GpuSolver *g, double *p_max) {
  (void)g, (void)p_max;
  return gpu_select_device(NULL, 0);
}

int gpu_front_pressure_set(GpuSolver *g, const int *bin, int n_bins) {
  (void)g, (void)bin, (void)n_bins;
  return gpu_select_device(NULL, 0);
}

int gpu_front_pressure_update(GpuSolver *g) {
  (void)g;
  return gpu_select_device(NULL, 0);
}

int gpu_front_pressure_take(GpuSolver *g, double *row) {
  (void)g, (void)row;
  return gpu_select_device(NULL, 0);
}

int gpu_sponge_pruett_update(GpuSolver *g, double dt) {
  (void)g, (void)dt;
  return gpu_select_device(NULL, 0);
}

int gpu_sponge_base_get(GpuSolver *g, double *base) {
  (void)g, (void)base;
  return gpu_select_device(NULL, 0);
}

int gpu_timeavg_create(GpuSolver *g, const TimeAvgMap *map, const double *last, GpuTimeAvg **out) {
  (void)g, (void)map, (void)last, (void)out;
  return gpu_select_device(NULL, 0);
}

int gpu_timeavg_update(GpuTimeAvg *ta, double dt) {
  (void)ta, (void)dt;
  return gpu_select_device(NULL, 0);
}

int gpu_timeavg_get(GpuTimeAvg *ta, double *sums) {
  (void)ta, (void)sums;
  return gpu_select_device(NULL, 0);
}

int gpu_timeavg_reset(GpuTimeAvg *ta) {
  (void)ta;
  return gpu_select_device(NULL, 0);
}

void gpu_timeavg_destroy(GpuTimeAvg *ta) {
  (void)ta;
}

int gpu_rp_create(GpuSolver *g, const struct RecordPoints *rp, GpuRecordPoints **out) {
  (void)g, (void)rp, (void)out;
  return gpu_select_device(NULL, 0);
}

int gpu_rp_sample(GpuSolver *g, GpuRecordPoints *r, int slot, double t) {
  (void)g, (void)r, (void)slot, (void)t;
  return gpu_select_device(NULL, 0);
}

int gpu_rp_download(GpuSolver *g, GpuRecordPoints *r, int n, double *buf) {
  (void)g, (void)r, (void)n, (void)buf;
  return gpu_select_device(NULL, 0);
}

void gpu_rp_destroy(GpuRecordPoints *r) {
  (void)r;
}

size_t gpu_bytes_allocated(const GpuSolver *g) {
  (void)g;
  return 0;
}

int gpu_time_steps(GpuSolver *g, int n_steps, double *seconds) {
  (void)g, (void)n_steps, (void)seconds;
  return gpu_select_device(NULL, 0);
}

/* Batched chemistry (gpu/chem_gpu.h): absent without CUDA */
#include "gpu/chem_gpu.h"

ChemSchedule chem_schedule_default(void) {
  ChemSchedule s = {0, 64, 4, 0.5, 0, CHEM_INTEGRATOR_RADAU5};
  return s;
}

int chem_gpu_create(const ChemMech *m, ChemGpu **out) {
  (void)m;
  *out = NULL;
  return gpu_select_device(NULL, 0);
}

void chem_gpu_destroy(ChemGpu *g) {
  (void)g;
}

int chem_gpu_integrate(ChemGpu *g, int mode, int n_cells, double *d_y, const double *d_par,
                       double dt, const ChemIntegratorOptions *opt, const ChemSchedule *sch,
                       int *d_steps, int *d_status, ChemGpuStats *st) {
  (void)g, (void)mode, (void)n_cells, (void)d_y, (void)d_par, (void)dt, (void)opt, (void)sch;
  (void)d_steps, (void)d_status, (void)st;
  return gpu_select_device(NULL, 0);
}

int chem_gpu_integrate_host(ChemGpu *g, int mode, int n_cells, double *y, const double *par,
                            double dt, const ChemIntegratorOptions *opt, const ChemSchedule *sch,
                            int *steps, int *status, ChemGpuStats *st) {
  return chem_gpu_integrate(g, mode, n_cells, y, par, dt, opt, sch, steps, status, st);
}

int gpu_step_dt(GpuSolver *g, double t_analyze, double *dt, int *landed) {
  (void)g, (void)t_analyze, (void)dt, (void)landed;
  return gpu_select_device(NULL, 0);
}

int gpu_step_flow(GpuSolver *g, double *t) {
  (void)g, (void)t;
  return gpu_select_device(NULL, 0);
}

int gpu_chem_advance(GpuSolver *g, double dt, double T_min, int integrator, int single_launch,
                     int share, const ChemIntegratorOptions *opt, GpuChemStats *st) {
  (void)g, (void)dt, (void)T_min, (void)integrator, (void)single_launch, (void)share, (void)opt;
  (void)st;
  return gpu_select_device(NULL, 0);
}

int gpu_chem_elem_steps(GpuSolver *g, double *elem_steps) {
  (void)g, (void)elem_steps;
  return gpu_select_device(NULL, 0);
}

int gpu_pci_bus_id(char *bus_id, size_t len) {
  (void)bus_id, (void)len;
  return HX_ERR_DEVICE; /* power.c then says why EPID is not available */
}
