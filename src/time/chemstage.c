/* The chemistry stage of reacting flow on the host (chemstage.h). */
#include "time/chemstage.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "chem/batch.h"
#include "chem/chemparams.h"
#include "chem/reactor.h"
#include "core/error.h"
#include "gpu/gpu.h"
#include "parallel/parallel.h"
#include "parallel/workshare.h"
#include "physics/mixture.h"

static const char *const SPLIT_NAMES[] = {"none", "lie", "strang"};
static const int SPLIT_IDS[] = {CHEM_SPLIT_NONE, CHEM_SPLIT_LIE, CHEM_SPLIT_STRANG};
static const char *const INTEG_NAMES[] = {"radau5", "rodas"};
static const char *const SCHED_NAMES[] = {"bulk-sparse", "single"};
static const int SCHED_IDS[] = {CHEM_GPU_BULK_SPARSE, CHEM_GPU_SINGLE};
static const int INTEG_IDS[] = {CHEM_INTEGRATOR_RADAU5, CHEM_INTEGRATOR_RODAS};

int chemstage_define_params(Params *p) {
  const char *sec = "Chemistry";
  HX_CHECK(params_define_choice(p, sec, "ChemistrySplitting", "strang", 3, SPLIT_NAMES, SPLIT_IDS,
                                "Reacting flow: strang (dt/2 chemistry, flow step, dt/2 "
                                "chemistry; second order), lie (flow step, then dt of chemistry), "
                                "none (frozen chemistry: species transport only)."));
  HX_CHECK(params_define_choice(p, sec, "ChemIntegrator", "rodas", 2, INTEG_NAMES, INTEG_IDS,
                                "Stiff integrator of the chemistry stage: rodas (RODAS4, one LU "
                                "per step) or radau5 (Radau IIA order 5)."));
  HX_CHECK(params_define_choice(p, sec, "ChemGpuSchedule", "bulk-sparse", 2, SCHED_NAMES, SCHED_IDS,
                                "CUDA backend: bulk-sparse (a few bulk launches of K integrator "
                                "steps, then only the still-active reactors, compacted; Carreon "
                                "et al.) or single (one launch runs every reactor to the end: the "
                                "reference for benchmarks)."));
  HX_CHECK(params_define(p, sec, "ChemMergeHalfSteps", PARAM_LOGICAL, 0, "T", false,
                         "Strang splitting: join the closing dt/2 of chemistry of one time step "
                         "and the opening dt/2 of the next into one chemistry step (LeVeque "
                         "2002, sec. 17.5: still second order, half the chemistry calls); the "
                         "owed half step is applied before every analysis, output and stop."));
  HX_CHECK(params_define(p, sec, "ChemLoadBalance", PARAM_LOGICAL, 0, "T", false,
                         "Several ranks: every chemistry step shares the reactors' work evenly "
                         "among the ranks (each DOF's cost predicted by its integrator steps in "
                         "the interval before); a busy rank's reactors are integrated by others "
                         "and the results sent back. The results are the same; the flow "
                         "partition stays."));
  HX_CHECK(params_define(p, sec, "ChemTmin", PARAM_REAL, 0, "0.", false,
                         "Reacting flow: DOFs colder than this (K) skip the chemistry stage."));
  return HX_OK;
}

int chemstage_init(const Params *p, const Solver *s, ChemStage *cs) {
  memset(cs, 0, sizeof *cs);
  HX_CHECK(params_get_choice(p, "ChemistrySplitting", &cs->splitting));
  HX_CHECK(params_get_choice(p, "ChemIntegrator", &cs->integrator));
  HX_CHECK(params_get_real(p, "ChemTmin", &cs->T_min));
  HX_CHECK(params_get_choice(p, "ChemGpuSchedule", &cs->gpu_single_launch));
  bool merge;
  HX_CHECK(params_get_logical(p, "ChemMergeHalfSteps", &merge));
  cs->merge_half_steps = merge;
  bool share;
  HX_CHECK(params_get_logical(p, "ChemLoadBalance", &share));
  cs->share = share;
  HX_CHECK(chem_integrator_options(p, &cs->opt));
  if (!s->mech) {
    cs->splitting = CHEM_SPLIT_NONE;
    return HX_OK;
  }
  long n = s->n_dof > 0 ? s->n_dof : 1;
  cs->y = hx_malloc(sizeof(double) * (size_t)(s->n_species + 1) * n, "chemistry states");
  cs->rho = hx_malloc(sizeof(double) * n, "chemistry densities");
  cs->dof = hx_malloc(sizeof(long) * n, "chemistry DOF list");
  cs->steps = hx_calloc(n, sizeof(int), "chemistry steps");
  cs->dof_steps = hx_calloc(n, sizeof(int), "chemistry steps");
  cs->elem_steps =
      hx_calloc(s->mesh->n_elems > 0 ? s->mesh->n_elems : 1, sizeof(double), "chemistry cost");
  if (!cs->y || !cs->rho || !cs->dof || !cs->steps || !cs->dof_steps || !cs->elem_steps)
    return HX_ERR_MEM;
  return HX_OK;
}

void chemstage_free(ChemStage *cs) {
  free(cs->y);
  free(cs->rho);
  free(cs->dof);
  free(cs->steps);
  free(cs->dof_steps);
  for (int i = 0; i < 6; i++)
    free(cs->share_buf[i]);
  free(cs->elem_steps);
  memset(cs, 0, sizeof *cs);
}

/* The reactors of the DOFs at or above ChemTmin: their DOFs, densities and temperatures (the
 * first pass needs the equation of state), then the mass fractions species-major at stride n
 * (the batch's layout) once their number n is known. */
static long gather_reactors(ChemStage *cs, const Solver *s) {
  int n3 = s->n_dof_elem, nv = s->n_var, ns = s->n_species;
  long n = 0;
  for (long d = 0; d < s->n_dof; d++) {
    const double *ue = &s->U[(d / n3) * nv * n3 + d % n3];
    double u[HX_NVAR_MAX], pr[HX_NPRIM], Y[HX_MAX_SPECIES], c;
    for (int v = 0; v < nv; v++)
      u[v] = ue[(long)v * n3];
    if (solver_node_prim(s, d, u, pr, Y, &c) != 0 || pr[TEMP] < cs->T_min) continue;
    cs->dof[n] = d;
    cs->rho[n] = u[DENS];
    cs->y[n] = pr[TEMP];
    n++;
  }
#pragma omp parallel for schedule(static)
  for (long c = 0; c < n; c++) {
    long d = cs->dof[c];
    const double *rhoY = &s->U[((d / n3) * nv + HX_SPEC0) * n3 + d % n3];
    const double s_rho = 1.0 / cs->rho[c]; /* as mix_cons_to_prim forms Y */
    for (int k = 0; k < ns; k++)
      cs->y[(long)(k + 1) * n + c] = rhoY[(long)k * n3] * s_rho;
  }
  return n;
}

/* New partial densities from the reactors' mass fractions (stride n), scaled so that
 * sum_k rho Y_k keeps its value (the reactor conserves sum Y_k only to round-off; the sum is part
 * of mass conservation); T_guess from the reactor's temperature. rho, momentum and rho E are
 * unchanged. */
static void scatter_reactors(ChemStage *cs, Solver *s, long n) {
  int n3 = s->n_dof_elem, nv = s->n_var, ns = s->n_species;
#pragma omp parallel for schedule(static)
  for (long c = 0; c < n; c++) {
    long d = cs->dof[c], e = d / n3, q = d % n3;
    double *rhoY = &s->U[(e * nv + HX_SPEC0) * n3 + q];
    double old_sum = 0.0, new_sum = 0.0;
    for (int k = 0; k < ns; k++) {
      old_sum += rhoY[(long)k * n3];
      new_sum += cs->y[(long)(k + 1) * n + c];
    }
    double scale = old_sum / new_sum;
    for (int k = 0; k < ns; k++)
      rhoY[(long)k * n3] = cs->y[(long)(k + 1) * n + c] * scale;
    s->T_guess[d] = cs->y[c];
  }
}

/* Below this, a chemistry interval changes no state above round-off (rates times dt), and the
 * integrators' smallest step (1e-20 s, chem/radau5.h) would fail: the stage is skipped. */
#define CHEM_DT_NEGLIGIBLE 1e-20

/* Work array i of ChemLoadBalance with at least bytes (its contents not kept); NULL without memory.
 */
static void *share_array(ChemStage *cs, int i, size_t bytes) {
  if (bytes > cs->share_cap[i]) {
    void *p = realloc(cs->share_buf[i], bytes);
    if (!p) return NULL;
    cs->share_buf[i] = p, cs->share_cap[i] = bytes;
  }
  return cs->share_buf[i];
}

/* This rank's share of the work, batch b of nb reactors (its kept ones, then the received ones):
 * integrated, its statistics counted (the work done here, whoever owns it). */
static int integrate_batch(ChemStage *cs, const Solver *s, long nb, double *y, const double *rho,
                           int *steps, int *status, double dt) {
  const double t0 = omp_get_wtime();
  int rc = nb > 0 ? chem_batch_integrate_with(s->mech, cs->integrator, CHEM_MODE_CV, nb, y, rho, dt,
                                              &cs->opt, status, steps, NULL)
                  : HX_OK;
  for (long c = 0; c < nb; c++) {
    cs->steps_total += steps[c];
    cs->win_steps += steps[c];
    if (steps[c] > cs->win_max_steps) cs->win_max_steps = steps[c];
  }
  cs->win_reactors += (double)nb;
  cs->work_window += omp_get_wtime() - t0;
  return rc;
}

/* ChemLoadBalance on several ranks: the n gathered reactors (cs->y at stride n, cs->rho) shared by
 * their predicted cost (workshare.h). Rows of the moved reactors: T, Y_1..Y_ns, rho out; T,
 * Y_1..Y_ns, steps, status back. Every rank takes part (also without reactors); a failure on any
 * rank is an error on every rank, after the results went back. */
static int integrate_shared(ChemStage *cs, const Solver *s, long n, double dt) {
  const int ns1 = s->n_species + 1, wf = ns1 + 1, wb = ns1 + 2;
  const size_t n1 = (size_t)(n > 0 ? n : 1);
  double *cost = share_array(cs, 0, sizeof(double) * n1);
  int *order = share_array(cs, 1, sizeof(int) * n1);
  int rc = cost && order ? HX_OK
                         : HX_ERROR(HX_ERR_MEM,
                                    "ChemLoadBalance: no memory for the costs of %ld "
                                    "reactors",
                                    n);
  for (long c = 0; rc == HX_OK && c < n; c++)
    cost[c] = cs->dof_steps[cs->dof[c]] > 0 ? cs->dof_steps[cs->dof[c]] : 1;
  WorkShare w = {0};
  if (!par_any(rc != HX_OK)) /* the dear reactors at both ends of the order */
    rc = workshare_plan(&w, cost, n, order);
  else
    rc = rc != HX_OK ? rc : HX_ERR_MEM;
  if (rc != HX_OK || !w.active) {
    workshare_free(&w);
    return rc != HX_OK ? rc : integrate_batch(cs, s, n, cs->y, cs->rho, cs->steps, NULL, dt);
  }
  const long nb = w.n_keep + w.n_recv, kf = w.keep_first, nk = w.n_keep;
  double *out = share_array(cs, 2, sizeof(double) * (size_t)(w.n_send * wb + 1));
  double *in = share_array(cs, 3, sizeof(double) * (size_t)(w.n_recv * wb + 1));
  double *yb = share_array(cs, 4, sizeof(double) * (size_t)(nb * wf + 1));
  int *ib = share_array(cs, 5, sizeof(int) * (size_t)(2 * nb + 1));
  if (!out || !in || !yb || !ib)
    rc = HX_ERROR(HX_ERR_MEM, "ChemLoadBalance: no memory for %ld shared reactors", nb);
  rc = par_any(rc != HX_OK) ? HX_ERR_MEM : HX_OK;
  double *rhob = yb + ns1 * nb;
  int *stepsb = ib, *statusb = ib + nb;
  for (long j = 0; rc == HX_OK && j < w.n_send; j++) { /* the moved reactors, in item order */
    const long c = order[j < kf ? j : j + nk];
    for (int k = 0; k < ns1; k++)
      out[j * wf + k] = cs->y[k * n + c];
    out[j * wf + ns1] = cs->rho[c];
  }
  if (rc == HX_OK) rc = workshare_move(&w, wf, 0, out, in);
  for (long j = 0; rc == HX_OK && j < nb; j++) { /* kept ones, then received ones */
    const double *row = in + (j - nk) * wf;
    const long c = j < nk ? order[kf + j] : 0;
    for (int k = 0; k < ns1; k++)
      yb[k * nb + j] = j < nk ? cs->y[k * n + c] : row[k];
    rhob[j] = j < nk ? cs->rho[c] : row[ns1];
  }
  int rc_int = rc == HX_OK ? integrate_batch(cs, s, nb, yb, rhob, stepsb, statusb, dt) : HX_OK;
  for (long j = 0; rc == HX_OK && j < nb; j++) {
    if (j < nk) {
      const long c = order[kf + j];
      for (int k = 0; k < ns1; k++)
        cs->y[k * n + c] = yb[k * nb + j];
      cs->steps[c] = stepsb[j];
      continue;
    }
    double *row = in + (j - nk) * wb;
    for (int k = 0; k < ns1; k++)
      row[k] = yb[k * nb + j];
    row[ns1] = stepsb[j], row[ns1 + 1] = statusb[j];
  }
  if (rc == HX_OK) rc = workshare_move(&w, wb, 1, in, out);
  for (long j = 0; rc == HX_OK && j < w.n_send; j++) {
    const long c = order[j < kf ? j : j + nk];
    for (int k = 0; k < ns1; k++)
      cs->y[k * n + c] = out[j * wb + k];
    cs->steps[c] = (int)out[j * wb + ns1];
  }
  workshare_free(&w);
  if (rc == HX_OK && par_any(rc_int != HX_OK))
    rc = rc_int != HX_OK ? rc_int
                         : HX_ERROR(HX_ERR_NUMERIC, "chemistry stage: a reactor of this rank "
                                                    "failed on the rank that shared its work (see "
                                                    "that rank's report)");
  return rc;
}

int chemstage_advance(ChemStage *cs, Solver *s, double dt) {
  if (!(dt > CHEM_DT_NEGLIGIBLE)) return HX_OK;
  double t0 = omp_get_wtime();
  long n = gather_reactors(cs, s);
  int rc = cs->share && par_size() > 1
               ? integrate_shared(cs, s, n, dt)
               : integrate_batch(cs, s, n, cs->y, cs->rho, cs->steps, NULL, dt);
  if (rc != HX_OK) return rc;
  scatter_reactors(cs, s, n);
  cs->intervals++;
  for (long c = 0; c < n; c++) {
    cs->elem_steps[cs->dof[c] / s->n_dof_elem] += cs->steps[c];
    cs->dof_steps[cs->dof[c]] = cs->steps[c];
  }
  double w = omp_get_wtime() - t0;
  cs->wall_chem += w;
  cs->win_stage_seconds += w;
  return HX_OK;
}

int chemstage_advance_gpu(ChemStage *cs, GpuSolver *g, double dt) {
  if (!(dt > CHEM_DT_NEGLIGIBLE)) return HX_OK;
  double t0 = omp_get_wtime();
  GpuChemStats st;
  HX_CHECK(gpu_chem_advance(g, dt, cs->T_min, cs->integrator, cs->gpu_single_launch,
                            cs->share && par_size() > 1, &cs->opt, &st));
  cs->steps_total += st.steps;
  cs->gpu_seconds += st.seconds;
  cs->gpu_launches += st.launches;
  cs->win_reactors += (double)st.cells;
  cs->win_steps += (double)st.steps;
  cs->win_sparse_seconds += st.sparse_seconds;
  if (st.max_steps > cs->win_max_steps) cs->win_max_steps = st.max_steps;
  cs->intervals++;
  double w = omp_get_wtime() - t0;
  cs->wall_chem += w;
  cs->win_stage_seconds += w;
  cs->work_window += st.seconds;
  return HX_OK;
}

void chemstage_elem_cost(const ChemStage *cs, const Solver *s, double flow_wall_per_elem,
                         double *cost) {
  double per_step = cs->steps_total > 0 ? cs->wall_chem / (double)cs->steps_total : 0.0;
  double scale = flow_wall_per_elem > 0.0 ? per_step / flow_wall_per_elem : 0.0;
  for (int e = 0; e < s->mesh->n_elems; e++)
    cost[e] = 1.0 + (cs->elem_steps ? cs->elem_steps[e] * scale : 0.0);
}
