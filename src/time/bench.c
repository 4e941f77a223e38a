#include "time/bench.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "parallel/parallel.h"
#include "time/simulation.h"

typedef struct {
  int N, elems[3], steps, warmup;
  char split[16], node[32], backend[16], graphs[4], overlap[4], mu0[32];
  double curving;
  char transport[8];
  char fv[32], fv_limiter[16]; /* --fv none|hennemann|<alpha>, --fv-limiter */
  char mechanism[4096];        /* --mechanism: reacting flow (the flow step, no chemistry stage) */
} BenchOptions;

/* --elems n (a cube) or nx,ny,nz (e.g. a box twice as long for twice the ranks) */
static int parse_elems(const char *val, int *e) {
  int n = sscanf(val, "%d,%d,%d", &e[0], &e[1], &e[2]);
  if (n == 1) e[1] = e[2] = e[0];
  if ((n != 1 && n != 3) || e[0] < 1 || e[1] < 1 || e[2] < 1)
    return HX_ERROR(HX_ERR_INPUT, "bench: --elems %s: give n or nx,ny,nz (each >= 1)", val);
  return HX_OK;
}

static int parse_bench_options(int argc, char **argv, BenchOptions *o) {
  *o = (BenchOptions){7,   {32, 32, 32}, 50,     5,   "PI",  "GAUSS-LOBATTO", "auto",
                      "T", "T",          "0.", 0.0, "auto", "none", "MinMod", ""};
  for (int a = 0; a < argc; a++) {
    const char *key = argv[a], *val = a + 1 < argc ? argv[a + 1] : NULL;
    if (!val) return HX_ERROR(HX_ERR_INPUT, "bench: option %s needs a value", key);
    if (!strcmp(key, "--N")) o->N = atoi(val);
    else if (!strcmp(key, "--elems")) HX_CHECK(parse_elems(val, o->elems));
    else if (!strcmp(key, "--steps")) o->steps = atoi(val);
    else if (!strcmp(key, "--warmup")) o->warmup = atoi(val);
    else if (!strcmp(key, "--split")) snprintf(o->split, sizeof o->split, "%s", val);
    else if (!strcmp(key, "--node")) snprintf(o->node, sizeof o->node, "%s", val);
    else if (!strcmp(key, "--backend")) snprintf(o->backend, sizeof o->backend, "%s", val);
    else if (!strcmp(key, "--graphs")) snprintf(o->graphs, sizeof o->graphs, "%s", val);
    else if (!strcmp(key, "--overlap")) snprintf(o->overlap, sizeof o->overlap, "%s", val);
    else if (!strcmp(key, "--curving")) o->curving = atof(val);
    else if (!strcmp(key, "--mu0")) snprintf(o->mu0, sizeof o->mu0, "%s", val);
    else if (!strcmp(key, "--transport")) snprintf(o->transport, sizeof o->transport, "%s", val);
    else if (!strcmp(key, "--fv")) snprintf(o->fv, sizeof o->fv, "%s", val);
    else if (!strcmp(key, "--fv-limiter")) snprintf(o->fv_limiter, sizeof o->fv_limiter, "%s", val);
    else if (!strcmp(key, "--mechanism")) snprintf(o->mechanism, sizeof o->mechanism, "%s", val);
    else
      return HX_ERROR(HX_ERR_INPUT, "bench: unknown option %s (options: --N --elems --split --node "
                                    "--backend --steps --warmup --curving --graphs --overlap --mu0 "
                                    "--transport --fv --fv-limiter --mechanism)",
                      key);
    a++;
  }
  if (o->steps < 1 || o->warmup < 0)
    return HX_ERROR(HX_ERR_INPUT, "bench: --steps must be >= 1 and --warmup >= 0");
  return HX_OK;
}

static int bench_params(const BenchOptions *o, Params **out) {
  Params *p = params_create();
  if (!p) return HX_ERR_MEM;
  char elems[64], N[16], curving[32], ngeo[16];
  snprintf(elems, sizeof elems, "(/%d,%d,%d/)", o->elems[0], o->elems[1], o->elems[2]);
  snprintf(N, sizeof N, "%d", o->N);
  snprintf(curving, sizeof curving, "%g", o->curving);
  snprintf(ngeo, sizeof ngeo, "%d", o->curving != 0.0 ? 3 : 1);
  /* free stream plus a density wave (IniExactFunc 2), moving obliquely */
  const char *kv[][2] = {{"ProjectName", "bench"}, {"MeshFile", "box"}, {"BoxElems", elems},
                         {"N", N}, {"NodeType", o->node}, {"IniExactFunc", "2"},
                         {"AdvVel", "(/0.3,0.2,0.1/)"}, {"tend", "1e30"}, {"CalcErrorNorms", "F"},
                         {"Backend", o->backend}, {"UseCudaGraphs", o->graphs},
                         {"OverlapMPI", o->overlap}, {"MPITransport", o->transport},
                         {"BoxCurving", curving}, {"NGeo", ngeo}, {"mu0", o->mu0}};
  int rc = simulation_define_params(p);
  for (size_t i = 0; rc == HX_OK && i < sizeof kv / sizeof kv[0]; i++)
    rc = params_set(p, kv[i][0], kv[i][1], "hexdg bench");
  if (rc == HX_OK && strcmp(o->node, "GAUSS") != 0) rc = params_set(p, "SplitDG", o->split, "--split");
  /* reacting flow: the species wave (IniExactFunc 17) in stoichiometric H2-air at 1 atm and
   * 1200 K; mechanisms without H2, O2 or N2 get an error naming the species */
  const char *mix[][2] = {{"Mechanism", o->mechanism}, {"IniExactFunc", "17"},
                          {"AdvVel", "(/50.,30.,20./)"}, {"IniAmplitude", "0.2"},
                          {"IniFrequency", "1."}, {"BoxLower", "(/0.,0.,0./)"},
                          {"BoxUpper", "(/1.,1.,1./)"}, {"Riemann", "HLLC"},
                          {"RefState", "(/0.2123976,50.,30.,20.,101325./)"},
                          {"RefStateX", "H2:2,O2:1,N2:3.76"}, {"ChemistrySplitting", "none"}};
  for (size_t i = 0; rc == HX_OK && o->mechanism[0] && i < sizeof mix / sizeof mix[0]; i++)
    rc = params_set(p, mix[i][0], mix[i][1], "--mechanism");
  /* shock capturing: the Hennemann indicator, or a fixed alpha in every element (the FV operator
   * everywhere: its full cost) */
  if (rc == HX_OK && strcmp(o->fv, "none") != 0) {
    int fixed = strcmp(o->fv, "hennemann") != 0;
    rc = params_set(p, "IndicatorType", fixed ? "fixed" : "hennemann", "--fv");
    if (rc == HX_OK && fixed) rc = params_set(p, "FV_alpha_fix", o->fv, "--fv");
    if (rc == HX_OK) rc = params_set(p, "FV_LimiterType", o->fv_limiter, "--fv-limiter");
  }
  if (rc != HX_OK) {
    params_destroy(p);
    return rc;
  }
  *out = p;
  return HX_OK;
}

/* Seconds for n steps on the CPU backend. */
static double cpu_time_steps(Simulation *sim, int n) {
  double t0 = omp_get_wtime();
  for (int st = 0; st < n; st++) {
    double dt = timedisc_calc_dt(sim->solver, &sim->td);
    timedisc_rk_step(sim->solver, &sim->td, sim->t, dt);
    sim->t += dt;
  }
  return omp_get_wtime() - t0;
}

int hexdg_bench(int argc, char **argv) {
  BenchOptions o;
  Params *p = NULL;
  Simulation *sim = NULL;
  HX_CHECK(parse_bench_options(argc, argv, &o));
  HX_CHECK(bench_params(&o, &p));
  int rc = simulation_create(p, NULL, &sim);
  params_destroy(p);
  if (rc != HX_OK) return rc;
  const Solver *s = sim->solver;
  double seconds = 0.0;
  PowerMeter *pm = NULL;
  size_t bytes = sim->backend == BACKEND_CUDA ? gpu_bytes_allocated(sim->gpu) : solver_host_bytes(s);
  if (sim->backend == BACKEND_CUDA) {
    rc = gpu_time_steps(sim->gpu, o.warmup, &seconds);
    par_barrier();
    if (sim->calc_epid) pm = power_meter_start(); /* the energy of the timed steps */
    if (rc == HX_OK) rc = gpu_time_steps(sim->gpu, o.steps, &seconds);
  } else {
    cpu_time_steps(sim, o.warmup);
    par_barrier();
    seconds = cpu_time_steps(sim, o.steps);
  }
  par_max(&seconds, 1); /* the slowest rank sets the pace */
  char epid[256] = "";
  double all_dof = (double)s->n_dof_elem * s->mesh->n_global_elems;
  double e = pm ? power_meter_epid(pm, all_dof, (long)o.steps * sim->td.rk->n_stages) : 0.0;
  if (pm) power_meter_format(pm, e, epid, sizeof epid); /* the ranks' GPU energies summed */
  power_meter_stop(pm);
  if (rc == HX_OK && par_is_root()) {
    /* PID as in FLEXI/GALAEXI: wall time x ranks / (global DOF x RK stages) */
    long stages = (long)o.steps * sim->td.rk->n_stages;
    double dof = (double)s->n_dof_elem * s->mesh->n_global_elems;
    double pid = seconds * par_size() / (dof * stages);
    int multi = sim->backend == BACKEND_CUDA && par_size() > 1;
    char mode[64];
    snprintf(mode, sizeof mode, "%s", sim->backend != BACKEND_CUDA ? "cpu"
             : multi ? (o.overlap[0] == 'T' ? "MPI overlap" : "MPI no overlap")
             : (gpu_uses_graphs(sim->gpu) ? "CUDA graph" : "no graph"));
    if (multi) {
      size_t used = strlen(mode);
      snprintf(mode + used, sizeof mode - used, " %s %s", gpu_mpi_transport_name(sim->gpu),
               gpu_uses_graphs(sim->gpu) ? "graph" : "no graph");
    }
    if (s->mech) printf("bench: reacting flow, %s (%d species)\n", s->mech->path, s->n_species);
    printf("bench: %s, %s, N=%d %s %s, %dx%dx%d elements, %s, %s, %d ranks, FV %s %s, %d steps "
           "in %.4f s\n",
           sim->device_name, s->viscous ? "Navier-Stokes" : "Euler", o.N, o.node,
           strcmp(o.node, "GAUSS") ? o.split : "weak", o.elems[0], o.elems[1], o.elems[2],
           sim->td.rk->name, mode, par_size(), o.fv, strcmp(o.fv, "none") ? o.fv_limiter : "",
           o.steps, seconds);
    printf("PID %.4e DOF %.0f stages %ld bytes_per_DOF %.1f%s%s\n", pid, dof, stages,
           (double)bytes / s->n_dof, epid[0] ? " " : "", epid);
  }
  simulation_destroy(sim);
  return rc;
}
