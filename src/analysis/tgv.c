#include "analysis/tgv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basis/tensor.h"
#include "core/error.h"
#include "parallel/parallel.h"

/* FLEXI's variable names (testcase.f90, InitTestcase), Time first as InitOutputToFile writes it. */
const char *const TGV_COLUMN_NAMES[HX_TGV_NCOLS] = {"Time",
                                                    "Dissipation Rate Incompressible",
                                                    "Dissipation Rate Compressible",
                                                    "Ekin incomp",
                                                    "Ekin comp",
                                                    "Enstrophy comp",
                                                    "DR_u",
                                                    "DR_S",
                                                    "DR_Sd",
                                                    "DR_p",
                                                    "Maximum Vorticity",
                                                    "Mean Temperature",
                                                    "uprime",
                                                    "Mean Entropy",
                                                    "ED_S",
                                                    "ED_D"};

/* Element-local velocity derivatives for runs without lifted gradients:
 * work[0 .. 3 n3) = u_a, work[3 n3 + (a*3 + d) n3 + n] = d u_a / d xi^d. */
static void local_velocity_derivatives(const Solver *s, int e, double *work) {
  int n3 = s->n_dof_elem, nv = s->n_var;
  const double *U = &s->U[(long)nv * n3 * e];
  double *vel = work, *dvel = &work[3 * n3];
  for (int a = 0; a < 3; a++)
    for (int n = 0; n < n3; n++)
      vel[a * n3 + n] = U[(MOM1 + a) * n3 + n] / U[DENS * n3 + n];
  for (int a = 0; a < 3; a++)
    for (int d = 0; d < 3; d++)
      tensor_deriv_3d(s->np, s->disc.D, d, &vel[a * n3], &dvel[(a * 3 + d) * n3]);
}

/* grad_node[c][lift] at node n from the local derivatives: d/dx_c = sJ sum_d (Ja^d)_c d/dxi^d
 * (the metrics of metrics.h); the temperature slot is not used by the TGV integrands. */
static void local_gradient_node(const Solver *s, int e, int n, const double *work,
                                double *grad_node) {
  int n3 = s->n_dof_elem;
  const double *Ja = &s->geo.metrics[9L * n3 * e], *dvel = &work[3 * n3];
  double sJ = s->geo.sJ[(long)n3 * e + n];
  for (int c = 0; c < 3; c++) {
    for (int a = 0; a < 3; a++) {
      double acc = 0.0;
      for (int d = 0; d < 3; d++)
        acc += Ja[(d * 3 + c) * n3 + n] * dvel[(a * 3 + d) * n3 + n];
      grad_node[c * HX_NLIFT + LIFT_VEL1 + a] = sJ * acc;
    }
    grad_node[c * HX_NLIFT + LIFT_TEMP] = 0.0;
  }
}

static void element_sums(const Solver *s, const double *grad, int e, double *work, double *sums,
                         double *max_vort) {
  int np = s->np, n3 = s->n_dof_elem, nv = s->n_var;
  const double *U = &s->U[(long)nv * n3 * e], *sJ = &s->geo.sJ[(long)n3 * e];
  const double *w = s->disc.w;
  if (!grad) local_velocity_derivatives(s, e, work);
  for (int m = 0; m < HX_TGV_NSUMS; m++)
    sums[m] = 0.0;
  *max_vort = 0.0;
  for (int k = 0; k < np; k++)
    for (int j = 0; j < np; j++)
      for (int i = 0; i < np; i++) {
        int n = (k * np + j) * np + i;
        double u[HX_NVAR], gn[HX_NGRAD], f[HX_TGV_NSUMS], vort;
        for (int v = 0; v < HX_NVAR; v++)
          u[v] = U[v * n3 + n];
        if (grad) {
          const double *ge = &grad[(long)HX_NGRAD * n3 * e];
          for (int c = 0; c < HX_NGRAD; c++)
            gn[c] = ge[c * n3 + n];
        } else {
          local_gradient_node(s, e, n, work, gn);
        }
        tgv_node_integrands(&s->phys, u, gn, f, &vort);
        double wJ = w[i] * w[j] * w[k] / sJ[n];
        for (int m = 0; m < HX_TGV_NSUMS; m++)
          sums[m] += wJ * f[m];
        if (vort > *max_vort) *max_vort = vort;
      }
}

int tgv_sums_cpu(const Solver *s, const double *grad, double *sums, double *max_vort) {
  int ne = s->mesh->n_elems, n3 = s->n_dof_elem;
  double *elem_sums = hx_malloc(sizeof(double) * HX_TGV_NSUMS * ne, "TGV element sums");
  double *elem_max = hx_malloc(sizeof(double) * ne, "TGV element maxima");
  int failed = !elem_sums || !elem_max;
  if (!failed) {
#pragma omp parallel
    {
      double *work = grad ? NULL : malloc(sizeof(double) * 12 * n3);
      if (!grad && !work) {
#pragma omp atomic write
        failed = 1;
      } else {
#pragma omp for schedule(static)
        for (int e = 0; e < ne; e++)
          element_sums(s, grad, e, work, &elem_sums[(long)HX_TGV_NSUMS * e], &elem_max[e]);
      }
      free(work);
    }
  }
  for (int m = 0; m < HX_TGV_NSUMS; m++)
    sums[m] = 0.0;
  *max_vort = 0.0;
  if (!failed)
    for (int e = 0; e < ne; e++) { /* element order: independent of the thread count */
      for (int m = 0; m < HX_TGV_NSUMS; m++)
        sums[m] += elem_sums[(long)HX_TGV_NSUMS * e + m];
      if (elem_max[e] > *max_vort) *max_vort = elem_max[e];
    }
  par_sum(sums, HX_TGV_NSUMS);
  par_max(max_vort, 1);
  free(elem_sums);
  free(elem_max);
  if (failed)
    return HX_ERROR(HX_ERR_MEM, "TGV analysis: no memory for the element sums of %d elements", ne);
  return HX_OK;
}

int tgv_init(TgvAnalysis *a, const Solver *s, const char *project) {
  memset(a, 0, sizeof *a);
  int np = s->np, n3 = s->n_dof_elem;
  const double *w = s->disc.w;
  for (int e = 0; e < s->mesh->n_elems; e++)
    for (int k = 0; k < np; k++)
      for (int j = 0; j < np; j++)
        for (int i = 0; i < np; i++)
          a->volume += w[i] * w[j] * w[k] / s->geo.sJ[(long)n3 * e + (k * np + j) * np + i];
  par_sum(&a->volume, 1);
  if (!(a->volume > 0.0))
    return HX_ERROR(HX_ERR_INPUT, "TGV analysis: domain volume %g is not positive (mesh %s)",
                    a->volume, s->mesh->source);
  /* FLEXI's TGV testcase fixes rho0 = U0 = 1 (testcase_vars.f90) */
  a->rho0 = 1.0;
  a->U0 = 1.0;
  a->mu0 = s->phys.mu0;
  int len = snprintf(a->csv_path, sizeof a->csv_path, "%s_TGVAnalysis.csv", project);
  if (len < 0 || (size_t)len >= sizeof a->csv_path)
    return HX_ERROR(HX_ERR_INPUT, "ProjectName '%s' is too long for the TGV analysis file name",
                    project);
  return HX_OK;
}

int tgv_columns(const TgvAnalysis *a, double t, const double *sums, double max_vort, double *cols) {
  if (!(a->volume > 0.0) || !(a->rho0 > 0.0))
    return HX_ERROR(HX_ERR_INTERNAL, "TGV analysis used before tgv_init (volume %g, rho0 %g)",
                    a->volume, a->rho0);
  const double V = a->volume, rhoV = a->rho0 * a->volume, mu0 = a->mu0;
  /* normalisation of flexi testcase.f90 (AnalyzeTestcase, step 6) */
  cols[TGV_COL_TIME] = t;
  cols[TGV_COL_EKIN] = sums[TGV_SUM_EKIN] / V;
  cols[TGV_COL_EKIN_COMP] = sums[TGV_SUM_EKIN_COMP] / rhoV;
  cols[TGV_COL_ENSTROPHY] = sums[TGV_SUM_ENSTROPHY] / rhoV;
  cols[TGV_COL_DR_U] = sums[TGV_SUM_GRADU] * mu0 / V;
  cols[TGV_COL_DR_S] = 2.0 * mu0 * sums[TGV_SUM_STRAIN] / rhoV;
  cols[TGV_COL_DR_SD] = 2.0 * mu0 * sums[TGV_SUM_STRAIN_DEV] / rhoV;
  cols[TGV_COL_DR_P] = -sums[TGV_SUM_PDIL] / rhoV;
  cols[TGV_COL_DR_INCOMP] = cols[TGV_COL_DR_S];
  cols[TGV_COL_DR_COMP] = cols[TGV_COL_DR_SD] + cols[TGV_COL_DR_P];
  cols[TGV_COL_MAX_VORT] = max_vort;
  cols[TGV_COL_MEAN_TEMP] = sums[TGV_SUM_TEMP] / V;
  cols[TGV_COL_UPRIME] = sqrt(2.0 / 3.0 * cols[TGV_COL_EKIN]);
  cols[TGV_COL_MEAN_ENTROPY] = sums[TGV_SUM_ENTROPY] / V;
  /* Kurz et al. 2025 (GALAEXI), eqs. (28)-(29): mu(T) inside the integrals */
  cols[TGV_COL_ED_S] = sums[TGV_SUM_ED_S] / rhoV;
  cols[TGV_COL_ED_D] = 4.0 / 3.0 * sums[TGV_SUM_ED_D] / rhoV;
  return HX_OK;
}

void tgv_format_e23_14(double v, char *out) {
  if (isnan(v)) {
    snprintf(out, 32, "%23s", "NaN");
    return;
  }
  if (isinf(v)) {
    snprintf(out, 32, "%23s", v > 0 ? "Infinity" : "-Infinity");
    return;
  }
  char mant[16] = "00000000000000";
  int exp10 = 0;
  if (v != 0.0) {
    char buf[40];
    snprintf(buf, sizeof buf, "%.13e", fabs(v)); /* d.ddddddddddddde+XX: 14 digits */
    mant[0] = buf[0];
    memcpy(&mant[1], &buf[2], 13);
    exp10 = atoi(&buf[16]) + 1; /* 0.d... form */
  }
  snprintf(out, 32, "%s.%.14sE%c%05d", v < 0.0 ? "-" : "0", mant, exp10 < 0 ? '-' : '+',
           abs(exp10) % 100000);
}

static void write_header(FILE *f) {
  for (int c = 0; c < HX_TGV_NCOLS; c++)
    fprintf(f, "%s%s", c ? "," : "", TGV_COLUMN_NAMES[c]);
  fprintf(f, "\n");
}

int tgv_write_csv(const TgvAnalysis *a, const double *cols, bool fresh) {
  FILE *f = fopen(a->csv_path, fresh ? "w" : "a");
  if (!f)
    return HX_ERROR(HX_ERR_IO, "cannot open %s for writing; check the directory permissions",
                    a->csv_path);
  if (fresh) write_header(f);
  for (int c = 0; c < HX_TGV_NCOLS; c++) {
    char num[32];
    tgv_format_e23_14(cols[c], num);
    fprintf(f, "%s%s", c ? ", " : "", num); /* FLEXI: (E23.14E5, n(",",1X,E23.14E5)) */
  }
  fprintf(f, "\n");
  if (fclose(f) != 0) return HX_ERROR(HX_ERR_IO, "error writing %s (disk full?)", a->csv_path);
  return HX_OK;
}

static int write_fresh_header(const TgvAnalysis *a) {
  FILE *f = fopen(a->csv_path, "w");
  if (!f)
    return HX_ERROR(HX_ERR_IO, "cannot create %s; check the directory permissions", a->csv_path);
  write_header(f);
  if (fclose(f) != 0) return HX_ERROR(HX_ERR_IO, "error writing %s (disk full?)", a->csv_path);
  return HX_OK;
}

/* Copy the header and the data lines with Time < t_cut from in to out; stop at the first line
 * at or after t_cut (or one that does not parse). */
static int copy_lines_before(FILE *in, FILE *out, double t_cut) {
  char line[4096];
  if (!fgets(line, sizeof line, in) || strncmp(line, "Time,", 5) != 0) return 0;
  fputs(line, out);
  while (fgets(line, sizeof line, in)) {
    char *end;
    double t = strtod(line, &end);
    if (end == line || !(t < t_cut)) break;
    fputs(line, out);
  }
  return 1;
}

int tgv_csv_resume(const TgvAnalysis *a, double restart_time) {
  FILE *in = fopen(a->csv_path, "r");
  if (!in) return write_fresh_header(a);
  char tmp_path[sizeof a->csv_path + 8];
  snprintf(tmp_path, sizeof tmp_path, "%s.tmp", a->csv_path);
  FILE *out = fopen(tmp_path, "w");
  if (!out) {
    fclose(in);
    return HX_ERROR(HX_ERR_IO, "cannot create %s; check the directory permissions", tmp_path);
  }
  /* times are written with 14 digits: the line of the restart time itself may read back a
   * little below it */
  double t_cut = restart_time - 1e-12 * fmax(1.0, fabs(restart_time));
  int has_header = copy_lines_before(in, out, t_cut);
  fclose(in);
  if (fclose(out) != 0) {
    remove(tmp_path);
    return HX_ERROR(HX_ERR_IO, "error writing %s (disk full?)", tmp_path);
  }
  if (!has_header) {
    remove(tmp_path);
    fprintf(stderr, "hexdg: %s has no TGV header line; writing a new file\n", a->csv_path);
    return write_fresh_header(a);
  }
  if (rename(tmp_path, a->csv_path) != 0)
    return HX_ERROR(HX_ERR_IO, "cannot rename %s to %s", tmp_path, a->csv_path);
  return HX_OK;
}
