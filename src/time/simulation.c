#define _POSIX_C_SOURCE 200809L /* sigaction */
#include "time/simulation.h"

#include <math.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/bodyforces.h"
#include "analysis/meanflux.h"
#include "analysis/wallvelocity.h"
#include "core/error.h"
#include "dg/eddyvisc.h"
#include "dg/indicator.h"
#include "io/state.h"
#include "io/state_degree.h"
#include "io/vtu.h"
#include "mesh/partition.h"
#include "parallel/parallel.h"
#include "physics/mixture.h"
#include "time/sponge_flow.h"

/* Set by SIGTERM/SIGUSR1: write the state at the end of the current step and stop cleanly. */
static volatile sig_atomic_t stop_requested = 0;
static void on_stop_signal(int sig) {
  stop_requested = sig;
}

/* Install the stop handler for SIGTERM and SIGUSR1; called again at every analysis, since a
 * library initialized lazily during the run may have replaced it (the run would then die
 * without its last state). Says so once when that happened. */
static void install_stop_handlers(void) {
  static int warned = 0, installed = 0; /* the first install replaces the start-up handler */
  const int sigs[2] = {SIGTERM, SIGUSR1};
  for (int i = 0; i < 2; i++) {
    struct sigaction cur;
    if (sigaction(sigs[i], NULL, &cur) == 0 && cur.sa_handler == on_stop_signal) continue;
    if (installed && !warned) { /* only a handler replaced after ours was installed matters */
      fprintf(stderr, "hexdg: the handler of signal %d was replaced during the run; reinstalled\n",
              sigs[i]);
      warned = 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(sigs[i], &sa, NULL);
  }
  installed = 1;
}

static const char *const BACKEND_NAMES[] = {"auto", "cpu", "cuda"};
static const int BACKEND_IDS[] = {BACKEND_AUTO, BACKEND_CPU, BACKEND_CUDA};
static const char *const TRANSPORT_NAMES[] = {"auto", "ipc", "host"};
static const int TRANSPORT_IDS[] = {GPU_TRANSPORT_AUTO, GPU_TRANSPORT_IPC, GPU_TRANSPORT_HOST};

int simulation_define_params(Params *p) {
  HX_CHECK(params_define(p, "Output", "ProjectName", PARAM_STRING, 0, NULL, false,
                         "Name of the case: prefix of all output files."));
  HX_CHECK(params_define_choice(p, "Backend", "Backend", "auto", 3, BACKEND_NAMES, BACKEND_IDS,
                                "Where the time stepping runs: cuda (GPU), cpu (OpenMP), or auto "
                                "(cuda when a GPU is visible). Command line: --backend."));
  HX_CHECK(params_define(p, "Backend", "UseCudaGraphs", PARAM_LOGICAL, 0, "T", false,
                         "CUDA backend: capture a whole time step in a CUDA graph (several MPI "
                         "ranks: the RK stages, with MPITransport = ipc and no chemistry; "
                         "otherwise they launch kernel by kernel)."));
  HX_CHECK(
      params_define(p, "Backend", "OverlapMPI", PARAM_LOGICAL, 0, "T", false,
                    "CUDA backend on several MPI ranks: compute the MPI sides first on the "
                    "high-priority stream and run the inner sides and the volume work while "
                    "their messages travel (T), or run everything on one stream and wait for "
                    "each exchange right after it starts (F, to measure what overlap gains)."));
  HX_CHECK(params_define_choice(p, "Backend", "MPITransport", "auto", 3, TRANSPORT_NAMES,
                                TRANSPORT_IDS,
                                "CUDA backend on several MPI ranks: how face data go from GPU to "
                                "GPU. ipc: device to device with CUDA IPC (all neighbouring ranks "
                                "on one node, peer access between their GPUs; an error otherwise); "
                                "host: through pinned host memory and MPI (any layout); auto: ipc "
                                "where every rank can use it and no two ranks share a GPU, else "
                                "host. With ipc no host call orders the exchanges, so the RK "
                                "stages run as CUDA graphs."));
  HX_CHECK(exactfunc_define_params(p));
  HX_CHECK(mesh_define_params(p));
  HX_CHECK(partition_define_params(p));
  HX_CHECK(solver_define_params(p));
  HX_CHECK(timedisc_define_params(p));
  HX_CHECK(chemstage_define_params(p));
  HX_CHECK(analyze_define_params(p));
  HX_CHECK(vtu_define_params(p));
  HX_CHECK(bodyforces_define_params(p));
  HX_CHECK(wallvelocity_define_params(p));
  HX_CHECK(meanflux_define_params(p));
  HX_CHECK(power_define_params(p));
  HX_CHECK(maxpressure_define_params(p));
  HX_CHECK(frontpressure_define_params(p));
  HX_CHECK(timeavg_define_params(p));
  HX_CHECK(recordpoints_define_params(p));
  return HX_OK;
}

/* PID (GALAEXI): wall time x ranks per global DOF and RK stage. */
static double global_dof(const Solver *s) {
  return (double)s->n_dof_elem * (double)s->mesh->n_global_elems;
}

void simulation_base_header(const Simulation *sim, StateHeader *h) {
  const Solver *s = sim->solver;
  memset(h, 0, sizeof *h);
  snprintf(h->project_name, sizeof h->project_name, "%s", sim->project);
  snprintf(h->mesh_file, sizeof h->mesh_file, "%s", s->mesh->source);
  snprintf(h->node_type, sizeof h->node_type, "%s",
           s->disc.node_type == NODE_GAUSS ? "GAUSS" : "GAUSS-LOBATTO");
  h->N = s->disc.N;
  h->n_var = s->n_var;
  h->n_elems = s->mesh->n_global_elems;
  h->time = sim->t;
}

static void state_header(const Simulation *sim, StateHeader *h) {
  const Solver *s = sim->solver;
  simulation_base_header(sim, h);
  if (s->fv.enabled) { /* docs/shock_capturing.md: the blending factor of the last stage */
    h->elem_data_name = "FV_alpha";
    h->elem_data = s->fv.alpha;
    h->fv_elems = s->fv.fv_elems; /* switching: FLEXI's FV_Elems (NULL when blending) */
  }
  if (sim->maxp.on) { /* docs/reacting_flow.md: the numerical soot foil */
    h->n_field_vars = 1;
    h->field_var_names[0] = "MaxPressure";
    h->field_data = sim->maxp.p_max;
  }
  if (s->mech) {
    snprintf(h->mechanism, sizeof h->mechanism, "%s", s->mech->path);
    snprintf(h->mechanism_hash, sizeof h->mechanism_hash, "%s", s->mech->hash);
    if (sim->elem_cost) { /* docs/reacting_flow.md: the partition weights of a restart */
      h->n_elem_extra = 1;
      h->elem_extra_names[0] = "ElemCost";
      h->elem_extra[0] = sim->elem_cost;
    }
  }
}

/* ElemCost from the chemistry steps and the measured flow and chemistry times. */
static int update_elem_cost(Simulation *sim) {
  if (!sim->elem_cost) return HX_OK;
  if (sim->backend == BACKEND_CUDA && sim->chem.splitting != CHEM_SPLIT_NONE)
    HX_CHECK(gpu_chem_elem_steps(sim->gpu, sim->chem.elem_steps));
  double per_elem = sim->flow_elem_steps > 0 ? sim->wall_flow / (double)sim->flow_elem_steps : 0.0;
  chemstage_elem_cost(&sim->chem, sim->solver, per_elem, sim->elem_cost);
  return HX_OK;
}

int simulation_sync_host(Simulation *sim) {
  if (sim->backend != BACKEND_CUDA) return HX_OK;
  HX_CHECK(gpu_download_state(sim->gpu, sim->solver->U));
  /* switching: which elements hold subcell means (the state file's FV_Elems, the host's analysis
   * of FV elements on Gauss nodes) */
  if (sim->solver->fv.fv_elems) HX_CHECK(gpu_download_fv_elems(sim->gpu, sim->solver->fv.fv_elems));
  return HX_OK;
}

/* RP_inUse: append the buffered samples to the RP file (close: as <project>_RP_<t>.h5). */
static int flush_record_points(Simulation *sim, bool close) {
  if (sim->backend == BACKEND_CUDA)
    HX_CHECK(gpu_rp_download(sim->gpu, sim->rp.gpu, sim->rp.n_buffered, sim->rp.buf));
  return recordpoints_flush(&sim->rp, sim->t, close);
}

/* RP_inUse: sample the record points after a step when due, or now (force: start, output). */
static int record_points(Simulation *sim, bool force) {
  RecordPoints *rp = &sim->rp;
  if (!recordpoints_due(rp, sim->t, force)) return HX_OK;
  if (sim->backend == BACKEND_CUDA)
    HX_CHECK(gpu_rp_sample(sim->gpu, rp->gpu, rp->n_buffered, sim->t));
  else
    recordpoints_sample(rp, sim->solver, sim->t);
  return recordpoints_commit(rp, sim->t) ? flush_record_points(sim, false) : HX_OK;
}

/* LES: mu_t of the written state at every node, FLEXI's muSGS (eddyVisc.f90 adds it to its
 * FieldData), appended to the header's node-wise fields; *fields: the new field array the header
 * points to, *mu_t: muSGS alone for the ParaView output (both NULL without a model; the caller
 * frees them). The lifting also leaves this state's mu_t for the next DFL step, as a restart from
 * the file has it. */
static int sgs_field(Simulation *sim, StateHeader *h, double **fields, double **mu_t) {
  Solver *s = sim->solver;
  if (!s->sgs) return HX_OK;
  const long n3 = s->n_dof_elem, ne = s->mesh->n_elems;
  const int nf = h->n_field_vars + 1;
  *mu_t = malloc(sizeof(double) * n3 * (ne ? ne : 1));
  *fields = malloc(sizeof(double) * n3 * nf * (ne ? ne : 1));
  if (!*mu_t || !*fields) return HX_ERROR(HX_ERR_MEM, "out of host memory (muSGS output)");
  if (sim->backend == BACKEND_CUDA)
    HX_CHECK(gpu_sgs_field(sim->gpu, *mu_t));
  else
    eddyvisc_node_field(s, sim->t, *mu_t);
  for (long e = 0; e < ne; e++) { /* [elem][field][node]: the header's fields, then muSGS */
    if (nf > 1)
      memcpy(&(*fields)[e * nf * n3], &h->field_data[e * (nf - 1) * n3],
             sizeof(double) * (nf - 1) * n3);
    memcpy(&(*fields)[(e * nf + nf - 1) * n3], &(*mu_t)[e * n3], sizeof(double) * n3);
  }
  h->field_var_names[nf - 1] = "muSGS";
  h->n_field_vars = nf;
  h->field_data = *fields;
  return HX_OK;
}

/* RecordFrontPressure: close the open row at sim->t (the GPU's row to the host first). */
static int close_front_row(Simulation *sim) {
  if (sim->backend == BACKEND_CUDA) HX_CHECK(gpu_front_pressure_take(sim->gpu, sim->frontp.row));
  return frontpressure_close_row(&sim->frontp, sim->t);
}

int simulation_write_state(Simulation *sim) {
  StateHeader h;
  if (sim->rp.on) { /* FLEXI: an RP file with each state; the next one starts at its time */
    HX_CHECK(record_points(sim, true));
    HX_CHECK(flush_record_points(sim, true));
    HX_CHECK(record_points(sim, true));
  }
  HX_CHECK(simulation_sync_host(sim));
  if (sim->maxp.on && sim->backend == BACKEND_CUDA)
    HX_CHECK(gpu_max_pressure_get(sim->gpu, sim->maxp.p_max));
  if (sim->frontp.folded) HX_CHECK(close_front_row(sim)); /* the file holds every step so far */
  HX_CHECK(frontpressure_write(&sim->frontp));
  HX_CHECK(update_elem_cost(sim));
  state_header(sim, &h);
  state_file_name(sim->last_state, sizeof sim->last_state, sim->project, sim->t);
  const Solver *s = sim->solver;
  double *fields = NULL, *mu_sgs = NULL;
  const char **names = malloc(sizeof(char *) * s->n_var);
  int rc = names ? sgs_field(sim, &h, &fields, &mu_sgs) : HX_ERR_MEM;
  for (int v = 0; names && v < s->n_var; v++)
    names[v] = s->var_names[v];
  if (rc == HX_OK)
    rc = state_write_part(sim->last_state, &h, names, s->U, s->mesh->n_elems,
                          s->mesh->elem_global_id);
  free(names);
  free(fields);
  if (rc == HX_OK) rc = sponge_flow_write(sim);
  if (rc == HX_OK && sim->output_format == OUTPUT_FORMAT_PARAVIEW) {
    VtuExtra extra = {"FV_alpha", s->fv.enabled ? s->fv.alpha : NULL, 0, "muSGS", mu_sgs};
    rc = vtu_write_output(sim->project, s, s->U, sim->n_visu, sim->t,
                          s->fv.enabled || mu_sgs ? &extra : NULL);
  }
  free(mu_sgs);
  return rc;
}

/* FV switching: which elements of the restart file hold FV subcell means (FLEXI's FV_Elems), so
 * that a restart continues bitwise; a file without them holds DG states only. */
static int fv_restart_elems(Solver *s, const char *file, long n_global) {
  if (!s->fv.fv_elems) return HX_OK;
  double *all = hx_malloc(sizeof(double) * (size_t)(n_global > 0 ? n_global : 1), "FV_Elems");
  HX_ALLOC_CHECK(all);
  int found = 0, rc = state_read_fv_elems(file, n_global, all, &found);
  for (int e = 0; rc == HX_OK && found && e < s->mesh->n_elems; e++)
    s->fv.fv_elems[e] = all[s->mesh->elem_global_id[e] - 1] != 0.0;
  free(all);
  return rc;
}

static int load_restart(Simulation *sim, const char *file) {
  StateHeader expected, found;
  state_header(sim, &expected);
  HX_CHECK(state_read_header(file, &found));
  bool changed; /* docs/restart.md: a file of another N or NodeType is interpolated */
  HX_CHECK(state_read_part_any_degree(file, &expected, sim->solver->U, sim->solver->mesh->n_elems,
                                      sim->solver->mesh->elem_global_id, &changed));
  sim->t = found.time;
  return fv_restart_elems(sim->solver, file, found.n_elems);
}

static int backend_init(const Params *p, Simulation *sim) {
  bool graphs, overlap;
  int transport;
  HX_CHECK(params_get_choice(p, "Backend", &sim->backend));
  HX_CHECK(params_get_choice(p, "MPITransport", &transport));
  HX_CHECK(params_get_logical(p, "UseCudaGraphs", &graphs));
  HX_CHECK(params_get_logical(p, "OverlapMPI", &overlap));
  /* the GPU's reacting flow: species transport on one rank (gpu_solver_create says why not) */
  const bool gpu_mix = !sim->solver->mech || !sim->solver->viscous || par_size() == 1;
  if (sim->backend == BACKEND_AUTO) /* the same choice on every rank */
    sim->backend = par_any(gpu_device_count() == 0) || !gpu_mix ? BACKEND_CPU : BACKEND_CUDA;
  if (sim->backend == BACKEND_CPU) {
    if (sim->solver->fv.enabled) {
      sim->U_good = hx_malloc(sizeof(double) * sim->solver->n_var * sim->solver->n_dof,
                              "last admissible state");
      HX_ALLOC_CHECK(sim->U_good);
      if (sim->solver->fv.fv_elems) {
        sim->fv_elems_good = hx_malloc(sizeof(int) * sim->solver->mesh->n_elems,
                                       "FV_Elems of the last admissible state");
        HX_ALLOC_CHECK(sim->fv_elems_good);
      }
    }
    snprintf(sim->device_name, sizeof sim->device_name, "CPU, %d OpenMP threads",
             omp_get_max_threads());
    return HX_OK;
  }
  HX_CHECK(gpu_select_device(sim->device_name, sizeof sim->device_name));
  GpuOptions opt = {.rk = sim->td.rk,
                    .cfl_scale = sim->td.cfl_scale,
                    .dfl_scale = sim->td.dfl_scale,
                    .dims = sim->td.dims,
                    .check_admissible = sim->td.check_admissible,
                    .use_graphs = graphs,
                    .overlap_mpi = overlap,
                    .mpi_transport = transport,
                    .chem_split = sim->chem.splitting != CHEM_SPLIT_NONE,
                    .alpha_dt = sim->td.alpha_dt,
                    .dt_blend_scale = timedisc_blend_scale(sim->solver, sim->td.rk)};
  return gpu_solver_create(sim->solver, &opt, sim->t, &sim->gpu);
}

/* WeightedPartition = T at a restart: the restart file's ElemCost as element weights (NULL when
 * off, on one rank, or when the file has none: then uniform, with a notice). */
static int restart_weights(const Params *p, const char *restart_file, double **out) {
  bool weighted;
  *out = NULL;
  HX_CHECK(params_get_logical(p, "WeightedPartition", &weighted));
  if (!weighted || par_size() == 1) return HX_OK;
  StateHeader h;
  HX_CHECK(state_read_header(restart_file, &h));
  double *w = hx_malloc(sizeof(double) * (size_t)(h.n_elems > 0 ? h.n_elems : 1), "ElemCost");
  HX_ALLOC_CHECK(w);
  int found = 0, rc = state_read_elem_data(restart_file, "ElemCost", h.n_elems, w, &found);
  if (rc != HX_OK || !found) {
    free(w);
    if (rc == HX_OK && par_is_root())
      printf("hexdg: WeightedPartition = T but %s has no ElemCost (not a reacting run's state): "
             "uniform weights\n",
             restart_file);
    return rc;
  }
  double lo = 1e300, hi = 0.0;
  for (long e = 0; e < h.n_elems; e++) {
    lo = w[e] < lo ? w[e] : lo;
    hi = w[e] > hi ? w[e] : hi;
  }
  if (par_is_root())
    printf("hexdg: partition weighted by ElemCost of %s (min %.3g, max %.3g)\n", restart_file, lo,
           hi);
  *out = w;
  return HX_OK;
}

int simulation_create(const Params *p, const char *restart_file, Simulation **out) {
  Simulation *sim = hx_calloc(1, sizeof(Simulation), "simulation");
  HX_ALLOC_CHECK(sim);
  sim->face_data_analysis = -1;
  const char *project;
  int rc = params_get_string(p, "ProjectName", &project);
  if (rc == HX_OK) snprintf(sim->project, sizeof sim->project, "%s", project);
  double *weights = NULL;
  if (rc == HX_OK && restart_file) rc = restart_weights(p, restart_file, &weights);
  if (rc == HX_OK) rc = solver_create_weighted(p, weights, &sim->solver);
  free(weights);
  if (rc == HX_OK) rc = timedisc_init(p, sim->solver, &sim->td);
  if (rc == HX_OK) rc = analyze_init(p, sim->solver, sim->project, &sim->ana);
  if (rc == HX_OK) rc = chemstage_init(p, sim->solver, &sim->chem);
  if (rc == HX_OK && sim->solver->mech) {
    sim->elem_cost = hx_malloc(sizeof(double) * (sim->solver->mesh->n_elems + 1), "ElemCost");
    if (!sim->elem_cost) rc = HX_ERR_MEM;
  }
  if (rc == HX_OK) rc = vtu_read_params(p, sim->solver->disc.N, &sim->output_format, &sim->n_visu);
  if (rc == HX_OK) rc = bodyforces_enabled(p, sim->solver, &sim->body_forces);
  if (rc == HX_OK) rc = wallvelocity_mode(p, sim->solver, &sim->wall_velocity);
  if (rc == HX_OK) rc = meanflux_mode(p, sim->solver, &sim->mean_flux);
  if (rc == HX_OK) rc = power_enabled(p, &sim->calc_epid);
  if (rc == HX_OK && sim->output_format == OUTPUT_FORMAT_PARAVIEW && par_size() > 1)
    rc = HX_ERROR(HX_ERR_INPUT,
                  "OutputFormat = ParaView is not available on %d MPI ranks yet; "
                  "run without it and convert the state files afterwards (hexdg "
                  "convert case.ini state.h5 -o out.vtu)",
                  par_size());
  if (rc == HX_OK) {
    if (restart_file)
      rc = load_restart(sim, restart_file);
    else
      solver_set_exact(sim->solver, 0.0);
  }
  /* switching: the initial state's FV elements, from the exact function (FV_IniSupersample) */
  if (rc == HX_OK && !restart_file && sim->solver->fv.enabled &&
      sim->solver->fv.mode == FV_MODE_SWITCHING)
    fv_switch_initial(sim->solver, 0.0);
  if (rc == HX_OK) /* blending: the first step's dt reads the initial state's indicator */
    timedisc_init_dt_alpha(sim->solver, &sim->td, sim->t);
  sim->restarted = restart_file != NULL;
  sim->tgv = rc == HX_OK && sim->solver->exact.test_case == TESTCASE_TGV;
  if (sim->tgv) rc = tgv_init(&sim->tgva, sim->solver, sim->project);
  if (sim->tgv && rc == HX_OK && restart_file && par_is_root())
    rc = tgv_csv_resume(&sim->tgva, sim->t);
  if (rc == HX_OK) rc = maxpressure_init(p, sim->solver, restart_file, &sim->maxp);
  if (rc == HX_OK) rc = frontpressure_init(p, sim->solver, sim->project, sim->t, &sim->frontp);
  if (rc == HX_OK) rc = recordpoints_init(p, sim->solver, sim->project, &sim->rp);
  if (rc == HX_OK) rc = sponge_flow_load(p, sim, restart_file); /* before the device mirror */
  if (rc == HX_OK) rc = backend_init(p, sim);
  if (rc == HX_OK && sim->backend != BACKEND_CUDA) /* mu_t of the first DFL step (GPU: upload) */
    eddyvisc_refresh(sim->solver, sim->t);
  if (rc == HX_OK && sim->rp.on && sim->backend == BACKEND_CUDA)
    rc = gpu_rp_create(sim->gpu, &sim->rp, &sim->rp.gpu);
  if (rc == HX_OK && sim->maxp.on && sim->backend == BACKEND_CUDA)
    rc = gpu_max_pressure_set(sim->gpu, sim->maxp.p_max);
  if (rc == HX_OK && sim->frontp.n_bins && sim->backend == BACKEND_CUDA)
    rc = gpu_front_pressure_set(sim->gpu, sim->frontp.bin, sim->frontp.n_bins);
  if (rc == HX_OK)
    rc = timeavg_init(p, sim->solver, sim->t, &sim->tavg); /* the window starts here */
  if (rc == HX_OK && sim->tavg.on && sim->backend == BACKEND_CUDA)
    rc = gpu_timeavg_create(sim->gpu, &sim->tavg.map, sim->tavg.last, &sim->gpu_tavg);
  if (rc != HX_OK) {
    simulation_destroy(sim);
    return rc;
  }
  sim->t_start = sim->t;
  *out = sim;
  return HX_OK;
}

void simulation_destroy(Simulation *sim) {
  if (!sim) return;
  power_meter_stop(sim->power);
  gpu_timeavg_destroy(sim->gpu_tavg);
  timeavg_free(&sim->tavg);
  gpu_rp_destroy(sim->rp.gpu);
  recordpoints_free(&sim->rp);
  gpu_solver_destroy(sim->gpu);
  free(sim->U_good);
  free(sim->fv_elems_good);
  free(sim->elem_cost);
  maxpressure_free(&sim->maxp);
  frontpressure_free(&sim->frontp);
  chemstage_free(&sim->chem);
  timedisc_free(&sim->td);
  analyze_free(&sim->ana);
  solver_destroy(sim->solver);
  free(sim);
}

/* Face states and (Navier-Stokes) lifted gradients of the current host solution, for analyses
 * that integrate over faces. */
/* Face states and gradients of the current U, computed once per analysis (several outputs use
 * them; on a GPU run this is host work over the whole mesh). */
static void current_face_data(Simulation *sim) {
  Solver *s = sim->solver;
  if (sim->face_data_analysis == sim->n_analyses) return;
  prolong_to_face(s, s->U);
  if (s->viscous) lifting(s, s->U, s->Ut, sim->t);
  sim->face_data_analysis = sim->n_analyses;
}

/* TGV analysis of the current state: integrals on the device (CUDA) or the host, one CSV line. */
static int analyze_tgv(Simulation *sim, bool fresh, bool report) {
  Solver *s = sim->solver;
  double sums[HX_TGV_NSUMS], max_vort, cols[HX_TGV_NCOLS];
  if (sim->backend == BACKEND_CUDA) {
    HX_CHECK(gpu_tgv_sums(sim->gpu, sums, &max_vort));
    par_sum(sums, HX_TGV_NSUMS); /* tgv_sums_cpu reduces its own */
    par_max(&max_vort, 1);
  } else {
    if (s->viscous) current_face_data(sim); /* s->grad holds the last stage's gradients */
    HX_CHECK(tgv_sums_cpu(s, s->viscous ? s->grad : NULL, sums, &max_vort));
  }
  HX_CHECK(tgv_columns(&sim->tgva, sim->t, sums, max_vort, cols));
  if (!par_is_root()) return HX_OK;
  HX_CHECK(tgv_write_csv(&sim->tgva, cols, fresh));
  if (!sim->quiet && report)
    printf("  TGV: Ekin %.8e  dissipation (incompressible) %.8e  enstrophy %.8e  max|omega| %.4e\n",
           cols[TGV_COL_EKIN], cols[TGV_COL_DR_INCOMP], cols[TGV_COL_ENSTROPHY],
           cols[TGV_COL_MAX_VORT]);
  return HX_OK;
}

static int analyze_body_forces(Simulation *sim, bool fresh) {
  Solver *s = sim->solver;
  double *forces =
      hx_malloc(sizeof(double) * 6 * (s->mesh->n_bcs ? s->mesh->n_bcs : 1), "body forces");
  HX_ALLOC_CHECK(forces);
  current_face_data(sim);
  bodyforces_compute(s, forces);
  int rc = par_is_root() ? bodyforces_write(s, sim->project, sim->t, forces, fresh) : HX_OK;
  free(forces);
  return rc;
}

/* CalcWallVelocity: wall and friction velocities on every wall BC, printed and written. */
static int analyze_wall_velocity(Simulation *sim, bool fresh) {
  Solver *s = sim->solver;
  double *vals = hx_malloc(sizeof(double) * WALLVEL_NCOLS * (s->mesh->n_bcs ? s->mesh->n_bcs : 1),
                           "wall velocities");
  HX_ALLOC_CHECK(vals);
  current_face_data(sim);
  int rc = wallvelocity_compute(s, vals);
  if (rc == HX_OK && par_is_root() && !sim->quiet) wallvelocity_print(s, vals);
  if (rc == HX_OK && par_is_root() && sim->wall_velocity == WALLVEL_WRITE)
    rc = wallvelocity_write(s, sim->project, sim->t, vals, fresh);
  free(vals);
  return rc;
}

/* CalcMeanFlux: the numerical flux of the boundary sides, integrated per BC, printed and written.
 */
static int analyze_mean_flux(Simulation *sim, bool fresh) {
  Solver *s = sim->solver;
  double *vals = hx_malloc(sizeof(double) * (1 + s->n_var) * (s->mesh->n_bcs ? s->mesh->n_bcs : 1),
                           "mean fluxes");
  HX_ALLOC_CHECK(vals);
  current_face_data(sim);
  fill_flux_range(s, sim->t, 0, s->mesh->n_bc_sides); /* boundary sides come first */
  int rc = meanflux_compute(s, vals);
  if (rc == HX_OK && par_is_root() && !sim->quiet) meanflux_print(s, vals);
  if (rc == HX_OK && par_is_root() && sim->mean_flux == MEANFLUX_WRITE)
    rc = meanflux_write(s, sim->project, sim->t, vals, fresh);
  free(vals);
  return rc;
}

/* The slowest and the fastest rank of the chemistry window, with what each integrated (collective:
 * every rank fills its row of a table summed over the ranks). */
static void chem_rank_extremes(ChemStage *cs, long steps) {
  const int nr = par_size(), me = par_rank(), nc = CHEM_RANK_N;
  double *t = hx_calloc((size_t)nr * nc, sizeof(double), "chemistry per rank");
  if (!t) return;
  double *row = t + (size_t)me * nc;
  row[CHEM_RANK_WALL] = cs->work_window / steps;
  row[CHEM_RANK_REACTORS] = cs->win_reactors / steps;
  row[CHEM_RANK_STEPS] = cs->win_steps / steps;
  row[CHEM_RANK_MAX_STEPS] = cs->win_max_steps;
  row[CHEM_RANK_SPARSE] = cs->win_sparse_seconds / steps;
  row[CHEM_RANK_STAGE] = cs->win_stage_seconds / steps;
  par_sum(t, nr * nc);
  int slow = 0, fast = 0;
  for (int r = 1; r < nr; r++) {
    if (t[r * nc] > t[slow * nc]) slow = r;
    if (t[r * nc] < t[fast * nc]) fast = r;
  }
  cs->rank_slow = slow, cs->rank_fast = fast;
  memcpy(cs->slow, t + (size_t)slow * nc, sizeof cs->slow);
  memcpy(cs->fast, t + (size_t)fast * nc, sizeof cs->fast);
  free(t);
}

/* max/mean over the ranks of the chemistry work (integration time) since the last analysis
 * (collective). */
static void chem_imbalance(Simulation *sim) {
  double mx = sim->chem.work_window, sum[2] = {mx, (double)sim->chem.steps_total};
  par_max(&mx, 1);
  par_sum(sum, 2);
  sim->chem.steps_global = sum[1];
  sim->chem.imbalance = sum[0] > 0.0 ? mx / (sum[0] / par_size()) : 1.0;
  long steps = sim->iter - sim->chem.window_iter0;
  sim->chem.window_max = steps > 0 ? mx / steps : 0.0;
  sim->chem.window_mean = steps > 0 ? sum[0] / par_size() / steps : 0.0;
  if (par_size() > 1 && steps > 0) chem_rank_extremes(&sim->chem, steps);
  sim->chem.window_iter0 = sim->iter;
  sim->chem.work_window = 0.0;
  ChemStage *cs = &sim->chem; /* the next window's counters, on any number of ranks */
  cs->win_reactors = cs->win_steps = cs->win_sparse_seconds = cs->win_stage_seconds = 0.0;
  cs->win_max_steps = 0;
}

static void print_chemistry(const Simulation *sim, double wall) {
  const ChemStage *cs = &sim->chem;
  double dofs = global_dof(sim->solver);
  printf("  chemistry: %.1f %% of the wall time, %.3g integrator steps per DOF and time step, "
         "rank imbalance (max/mean) %.3f\n",
         wall > 0.0 ? 100.0 * cs->wall_chem / wall : 0.0,
         sim->iter > 0 ? cs->steps_global / (dofs * sim->iter) : 0.0, cs->imbalance);
  if (cs->window_max > 0.0) /* the window since the last analysis */
    printf("  chemistry per time step since the last analysis: slowest rank %.4g s, mean of the "
           "ranks %.4g s\n",
           cs->window_max, cs->window_mean);
  if (par_size() > 1 && cs->window_max > 0.0) /* what the imbalance is made of */
    for (int k = 0; k < 2; k++) {
      const double *w = k ? cs->fast : cs->slow;
      printf("  chemistry per time step, %s rank %d: %.4g s, %.4g reactors, %.4g integrator steps "
             "(at most %.0f per reactor), %.4g s in the sparse phase; the stage %.4g s\n",
             k ? "fastest" : "slowest", k ? cs->rank_fast : cs->rank_slow, w[CHEM_RANK_WALL],
             w[CHEM_RANK_REACTORS], w[CHEM_RANK_STEPS], w[CHEM_RANK_MAX_STEPS], w[CHEM_RANK_SPARSE],
             w[CHEM_RANK_STAGE]);
    }
  if (sim->backend == BACKEND_CUDA)
    printf("  chemistry on the GPU (%s): %.4g s of device time in %ld integrator launches, %.4g "
           "s per time step\n",
           cs->gpu_single_launch ? "single launch" : "bulk-sparse", cs->gpu_seconds,
           cs->gpu_launches, sim->iter > 0 ? cs->gpu_seconds / sim->iter : 0.0);
}

static void print_temperature_range(const TemperatureRange *r) {
  printf("  temperature: min %.1f K at (%.6g, %.6g, %.6g), max %.1f K at (%.6g, %.6g, %.6g)",
         r->T_min, r->x_min[0], r->x_min[1], r->x_min[2], r->T_max, r->x_max[0], r->x_max[1],
         r->x_max[2]);
  if (r->n_without > 0) printf(", %ld nodes without one", r->n_without);
  printf("\n");
}

/* Analysis at the current time: error norms (CSV), totals and a progress line. */
static int analyze_now(Simulation *sim, double dt, double wall_start, long stages) {
  Solver *s = sim->solver;
  double L2[HX_NVAR_MAX], Linf[HX_NVAR_MAX], tot[HX_NVAR_MAX];
  HX_CHECK(simulation_sync_host(sim));
  analyze_totals(s, tot);
  TemperatureRange T_range;
  if (s->mech) HX_CHECK(analyze_temperature_range(s, &T_range));
  if (sim->ana.calc_error_norms) {
    analyze_error_norms(&sim->ana, s, sim->t, L2, Linf);
    if (par_is_root())
      HX_CHECK(analyze_write_csv(&sim->ana, sim->t, L2, Linf, sim->n_analyses == 0));
  }
  double alpha_lo = 0.0, alpha_hi = 0.0;
  long n_blended = 0;
  if (s->fv.enabled) { /* of the current state (the last stage's values otherwise) */
    fv_compute_alpha(s, s->U);
    fv_alpha_range(s, &alpha_lo, &alpha_hi, &n_blended);
  }
  if (sim->chem.splitting != CHEM_SPLIT_NONE) chem_imbalance(sim);
  bool first = sim->n_analyses++ == 0;
  if (sim->body_forces) HX_CHECK(analyze_body_forces(sim, first && !sim->restarted));
  if (sim->wall_velocity) HX_CHECK(analyze_wall_velocity(sim, first && !sim->restarted));
  if (sim->mean_flux) HX_CHECK(analyze_mean_flux(sim, first && !sim->restarted));
  char epid[256] = ""; /* collective: every rank's GPU energy */
  if (sim->power)
    power_meter_format(sim->power, power_meter_epid(sim->power, global_dof(s), stages), epid,
                       sizeof epid);
  if (sim->quiet || !par_is_root())
    return sim->tgv ? analyze_tgv(sim, first && !sim->restarted, true) : HX_OK;
  double wall = omp_get_wtime() - wall_start, tend = sim->td.tend;
  double frac = tend > sim->t_start ? (sim->t - sim->t_start) / (tend - sim->t_start) : 1.0;
  double pid = stages > 0 ? wall * par_size() / (global_dof(s) * stages) : 0.0;
  double eta = frac > 0.0 ? wall * (1.0 - frac) / frac : 0.0;
  printf("t = %.6e  (%5.1f%%)  dt = %.3e  iter %ld  wall %.2f s  ETA %.1f s  PID %.3e%s%s\n",
         sim->t, 100.0 * (sim->t / (tend > 0 ? tend : 1.0)), dt, sim->iter, wall, eta, pid,
         epid[0] ? "  " : "", epid);
  if (sim->ana.calc_error_norms) {
    printf("  L2   :");
    for (int v = 0; v < s->n_var; v++)
      printf(" %.6e", L2[v]);
    printf("\n  Linf :");
    for (int v = 0; v < s->n_var; v++)
      printf(" %.6e", Linf[v]);
    printf("\n");
  }
  printf("  totals:");
  for (int v = 0; v < s->n_var; v++)
    printf(" %.12e", tot[v]);
  printf("\n");
  if (s->mech) print_temperature_range(&T_range);
  if (sim->chem.splitting != CHEM_SPLIT_NONE) print_chemistry(sim, wall);
  if (s->fv.enabled)
    printf("  FV_alpha: min %.4f  max %.4f  blended elements %ld of %ld\n", alpha_lo, alpha_hi,
           n_blended, s->mesh->n_global_elems);
  if (sim->tgv) HX_CHECK(analyze_tgv(sim, first && !sim->restarted, true));
  fflush(stdout);
  return HX_OK;
}

/* The next landing time: t + Analyze_dt, or tend when that is within round-off of tend (the sum
 * of Analyze_dt steps may fall an ulp short of tend; a step of that ulp would follow). */
static double next_analysis_time(const Simulation *sim, double t) {
  const double tend = sim->td.tend;
  double ta = sim->td.analyze_dt > 0.0 ? t + sim->td.analyze_dt : tend;
  return ta < tend - 1e-12 * fabs(tend) ? ta : tend;
}

/* Shock capturing: make the last admissible state (the start of the failed step) current
 * again. HX_ERR_INPUT when no copy is kept (IndicatorType = none). */
static int restore_good_state(Simulation *sim) {
  if (sim->backend == BACKEND_CUDA) { /* the GPU's copy is taken after the opening chemistry */
    sim->chem.owed = 0.0;
    return gpu_restore_good_state(sim->gpu, &sim->t);
  }
  if (!sim->U_good) return HX_ERR_INPUT;
  memcpy(sim->solver->U, sim->U_good, sizeof(double) * sim->solver->n_var * sim->solver->n_dof);
  if (sim->fv_elems_good) /* switching: which elements of U_good hold subcell means */
    memcpy(sim->solver->fv.fv_elems, sim->fv_elems_good, sizeof(int) * sim->solver->mesh->n_elems);
  sim->t = sim->t_good;
  sim->chem.owed = sim->chem_owed_good;
  return HX_OK;
}

/* The chemistry after the flow step: Lie's dt, Strang's closing dt/2, or (ChemMergeHalfSteps)
 * Strang's closing dt/2 owed to the next step's opening half (LeVeque 2002, sec. 17.5). On the
 * host state s, or on the GPU's g. */
static int close_split_step(ChemStage *cs, double dt, Solver *s, struct GpuSolver *g) {
  const bool strang = cs->splitting == CHEM_SPLIT_STRANG;
  if (strang && cs->merge_half_steps) {
    cs->owed = 0.5 * dt;
    return HX_OK;
  }
  const double dtc = strang ? 0.5 * dt : dt;
  return g ? chemstage_advance_gpu(cs, g, dtc) : chemstage_advance(cs, s, dtc);
}

/* Apply the chemistry the current state owes (merged Strang half steps): before every analysis,
 * output and stop, so that written states are the unmerged scheme's. */
static int flush_chemistry(Simulation *sim) {
  ChemStage *cs = &sim->chem;
  const double owed = cs->owed;
  cs->owed = 0.0;
  if (!(owed > 0.0)) return HX_OK;
  if (sim->backend == BACKEND_CUDA) return chemstage_advance_gpu(cs, sim->gpu, owed);
  return chemstage_advance(cs, sim->solver, owed);
}

/* The flow step with the chemistry stage around it (Strang) or after it (Lie). */
static int split_step(Simulation *sim, double dt) {
  ChemStage *cs = &sim->chem;
  Solver *s = sim->solver;
  if (cs->splitting == CHEM_SPLIT_NONE) {
    timedisc_rk_step(s, &sim->td, sim->t, dt);
    return HX_OK;
  }
  memset(cs->elem_steps, 0, sizeof(double) * s->mesh->n_elems);
  if (cs->splitting == CHEM_SPLIT_STRANG) HX_CHECK(chemstage_advance(cs, s, 0.5 * dt + cs->owed));
  cs->owed = 0.0;
  double t0 = omp_get_wtime();
  timedisc_rk_step(s, &sim->td, sim->t, dt);
  sim->wall_flow += omp_get_wtime() - t0;
  sim->flow_elem_steps += s->mesh->n_elems;
  return close_split_step(cs, dt, s, NULL);
}

/* The GPU's split step: dt on the device, the chemistry stage around (Strang) or after (Lie) the
 * flow step, as split_step. */
static int gpu_split_step(Simulation *sim, double t_ana, double *dt, int *land) {
  ChemStage *cs = &sim->chem;
  HX_CHECK(gpu_step_dt(sim->gpu, t_ana, dt, land));
  if (cs->splitting == CHEM_SPLIT_STRANG)
    HX_CHECK(chemstage_advance_gpu(cs, sim->gpu, 0.5 * *dt + cs->owed));
  cs->owed = 0.0;
  double t0 = omp_get_wtime();
  HX_CHECK(gpu_step_flow(sim->gpu, &sim->t));
  sim->wall_flow += omp_get_wtime() - t0;
  sim->flow_elem_steps += sim->solver->mesh->n_elems;
  return close_split_step(cs, *dt, NULL, sim->gpu);
}

/* One time step on the selected backend; the CPU and the GPU use the same landing rule. */
static int advance(Simulation *sim, double t_ana, double *dt, int *land) {
  if (sim->backend == BACKEND_CUDA && sim->chem.splitting != CHEM_SPLIT_NONE)
    return gpu_split_step(sim, t_ana, dt, land);
  if (sim->backend == BACKEND_CUDA) return gpu_step(sim->gpu, t_ana, &sim->t, dt, land);
  /* FV switching: FLEXI's TimeDisc switches elements (CalcIndicator, FV_Switch) before it computes
   * the step, so an element that turns FV takes the FV limit in this step already */
  if (sim->solver->fv.enabled && sim->solver->fv.mode == FV_MODE_SWITCHING)
    fv_switch(sim->solver, sim->solver->U, NULL, sim->t, 1);
  *dt = timedisc_calc_dt(sim->solver, &sim->td);
  if (*dt < 0.0) return HX_ERR_NUMERIC;
  if (sim->U_good) { /* this state passed the check: keep it until the next step's check */
    memcpy(sim->U_good, sim->solver->U, sizeof(double) * sim->solver->n_var * sim->solver->n_dof);
    if (sim->fv_elems_good)
      memcpy(sim->fv_elems_good, sim->solver->fv.fv_elems,
             sizeof(int) * sim->solver->mesh->n_elems);
    sim->t_good = sim->t;
    sim->chem_owed_good = sim->chem.owed;
  }
  *land = t_ana - sim->t <= *dt * (1.0 + 1e-9);
  if (*land) *dt = t_ana - sim->t;
  HX_CHECK(split_step(sim, *dt));
  sim->t = *land ? t_ana : sim->t + *dt;
  return HX_OK;
}

/* RecordMaxPressure: fold the new state into the per-node maximum. */
static int record_max_pressure(Simulation *sim) {
  if (!sim->maxp.on) return HX_OK;
  if (sim->backend == BACKEND_CUDA) return gpu_max_pressure_update(sim->gpu);
  return maxpressure_update(&sim->maxp, sim->solver);
}

/* RecordFrontPressure: fold the new state into the open row; close it when its time is up. */
static int record_front_pressure(Simulation *sim) {
  FrontPressure *fp = &sim->frontp;
  if (!fp->n_bins) return HX_OK;
  if (sim->backend == BACKEND_CUDA) {
    HX_CHECK(gpu_front_pressure_update(sim->gpu));
    frontpressure_count_fold(fp);
  } else {
    frontpressure_fold(fp, sim->solver);
  }
  return frontpressure_row_due(fp, sim->t) ? close_front_row(sim) : HX_OK;
}

/* CalcTimeAverage: fold the state after a step of length dt into the window. */
static int accumulate_time_average(Simulation *sim, double dt) {
  if (!sim->tavg.on) return HX_OK;
  if (sim->backend != BACKEND_CUDA) return timeavg_update(&sim->tavg, sim->solver, dt, sim->t);
  sim->tavg.avg_time += dt;
  return gpu_timeavg_update(sim->gpu_tavg, dt);
}

/* CalcTimeAverage: <project>_TimeAvg_<t>.h5 before the state file of t (FLEXI's order), then a
 * new window. */
static int write_time_average(Simulation *sim) {
  if (!sim->tavg.on || sim->tavg.avg_time <= 0.0) return HX_OK;
  StateHeader h;
  if (sim->backend == BACKEND_CUDA) HX_CHECK(gpu_timeavg_get(sim->gpu_tavg, sim->tavg.sums));
  state_header(sim, &h);
  HX_CHECK(timeavg_write(&sim->tavg, sim->solver, &h));
  return sim->backend == BACKEND_CUDA ? gpu_timeavg_reset(sim->gpu_tavg) : HX_OK;
}

int simulation_run(Simulation *sim) {
  Solver *s = sim->solver;
  TimeDisc *td = &sim->td;
  install_stop_handlers();
  double wall_start = omp_get_wtime(), dt = 0.0;
  long stages = 0;
  if (sim->calc_epid && sim->backend == BACKEND_CUDA && !sim->power)
    sim->power = power_meter_start(); /* the energy of the time stepping (EPID) */
  HX_CHECK(analyze_now(sim, dt, wall_start, stages));
  HX_CHECK(record_points(sim, true)); /* the first sample: the start (or restart) state */
  if (sim->t == 0.0 && sim->t_start == 0.0) HX_CHECK(simulation_write_state(sim));
  double t_ana = next_analysis_time(sim, sim->t);
  while (sim->t < td->tend) {
    int land = 0;
    int rc = advance(sim, t_ana, &dt, &land);
    if (rc != HX_OK) {
      double t_bad = sim->t;
      if (restore_good_state(sim) == HX_OK) {
        if (flush_chemistry(sim) != HX_OK) /* write the state all the same */
          fprintf(stderr, "hexdg: the owed chemistry of the last admissible state failed\n");
        HX_CHECK(simulation_write_state(sim));
        return HX_ERROR(HX_ERR_NUMERIC,
                        "stopped: the step from t = %.9g gave a non-admissible state; the "
                        "last admissible state (t = %.9g) is written to %s. Restart from it "
                        "with a smaller CFLscale, FV_PositivityLimiter = T, a larger "
                        "FV_alpha_max or FV_LimiterType = FirstOrder",
                        sim->t, sim->t, sim->last_state);
      }
      HX_CHECK(simulation_write_state(sim));
      return HX_ERROR(HX_ERR_NUMERIC, "stopped at t = %.9g; last state written to %s", t_bad,
                      sim->last_state);
    }
    HX_CHECK(sponge_flow_step(sim, dt)); /* FLEXI: the Pruett filter after each step */
    /* a signal reaches one rank: every rank stops at the same step */
    int stop = par_any(stop_requested) || (td->max_iter >= 0 && sim->iter + 1 >= td->max_iter);
    if (land || stop) HX_CHECK(flush_chemistry(sim)); /* records and files see the whole step */
    HX_CHECK(record_max_pressure(sim));
    HX_CHECK(record_front_pressure(sim));
    HX_CHECK(accumulate_time_average(sim, dt));
    HX_CHECK(record_points(sim, false));
    sim->iter++;
    stages += td->rk->n_stages;
    if (sim->tgv && !(land || stop) && sim->iter % s->exact.tgv_n_analyze == 0)
      HX_CHECK(analyze_tgv(sim, false, false)); /* FLEXI's nAnalyzeTestCase */
    if (land || stop) {
      install_stop_handlers();
      if (stop_requested && !sim->quiet && par_is_root())
        printf("hexdg: stop requested (signal %d): writing the state at t = %.9g\n",
               (int)stop_requested, sim->t);
      HX_CHECK(analyze_now(sim, dt, wall_start, stages));
      if (stop || sim->t >= td->tend || (sim->n_analyses - 1) % td->n_write_data == 0) {
        HX_CHECK(write_time_average(sim));
        HX_CHECK(simulation_write_state(sim));
      }
      if (stop) break;
      t_ana = next_analysis_time(sim, sim->t);
    }
  }
  double wall = omp_get_wtime() - wall_start;
  double pid = stages > 0 ? wall * par_size() / (global_dof(s) * stages) : 0.0;
  char epid[256] = "";
  if (sim->power)
    power_meter_format(sim->power, power_meter_epid(sim->power, global_dof(s), stages), epid,
                       sizeof epid);
  if (!sim->quiet && par_is_root())
    printf("hexdg finished: t = %.9g  PID %.4e s%s%s  DOF %.0f  ranks %d  stages %ld  steps %ld  "
           "wall %.3f s  on %s\n",
           sim->t, pid, epid[0] ? "  " : "", epid, global_dof(s), par_size(), stages, sim->iter,
           wall, sim->device_name);
  return simulation_sync_host(sim);
}
