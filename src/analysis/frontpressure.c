#include "analysis/frontpressure.h"

#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "io/h5util.h"
#include "parallel/parallel.h"

int frontpressure_define_params(Params *p) {
  HX_CHECK(
      params_define(p, "Analyze", "RecordFrontPressure", PARAM_INT, 0, "0", false,
                    "n > 0: record the largest pressure in each of n bins across the y "
                    "extent of the mesh (maximum over x and z) per FrontPressure_dt, the soot "
                    "foil of a detonation held in place by the shock-attached frame "
                    "(<ProjectName>_FrontPressure_<t>.h5; tools/soot_foil.py --front). Make "
                    "the bins wider than the largest node spacing in y, or some stay empty (0); "
                    "0: off"));
  return params_define(p, "Analyze", "FrontPressure_dt", PARAM_REAL, 0, "0.", false,
                       "RecordFrontPressure: the time over which one row gathers its maxima; 0: "
                       "every step its own row");
}

static double node_y(const Solver *s, long dof) {
  const long e = dof / s->n_dof_elem, q = dof % s->n_dof_elem;
  return s->geo.elem_x[(3 * e + 1) * s->n_dof_elem + q];
}

int frontpressure_init(const Params *p, const Solver *s, const char *project, double t,
                       FrontPressure *fp) {
  memset(fp, 0, sizeof *fp);
  HX_CHECK(params_get_int(p, "RecordFrontPressure", &fp->n_bins));
  HX_CHECK(params_get_real(p, "FrontPressure_dt", &fp->dt));
  if (fp->n_bins < 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "RecordFrontPressure = %d: give the number of bins across y "
                    "(> 0), or 0 for none",
                    fp->n_bins);
  if (!(fp->dt >= 0.0))
    return HX_ERROR(HX_ERR_INPUT, "FrontPressure_dt = %g: give a time >= 0", fp->dt);
  if (fp->n_bins == 0) return HX_OK;
  double ext[2] = {-HUGE_VAL, -HUGE_VAL}; /* max of -y and of y */
  for (long dof = 0; dof < s->n_dof; dof++) {
    ext[0] = fmax(ext[0], -node_y(s, dof));
    ext[1] = fmax(ext[1], node_y(s, dof));
  }
  par_max(ext, 2);
  fp->y0 = -ext[0];
  fp->y1 = ext[1];
  if (!(fp->y1 > fp->y0))
    return HX_ERROR(HX_ERR_INPUT, "RecordFrontPressure: the mesh has no extent in y");
  fp->bin = hx_malloc(sizeof(int) * (size_t)(s->n_dof > 0 ? s->n_dof : 1), "front bins");
  fp->row = hx_calloc((size_t)fp->n_bins, sizeof(double), "front pressure row");
  HX_ALLOC_CHECK(fp->bin);
  HX_ALLOC_CHECK(fp->row);
  for (long dof = 0; dof < s->n_dof; dof++) {
    const int b = (int)((node_y(s, dof) - fp->y0) / (fp->y1 - fp->y0) * fp->n_bins);
    fp->bin[dof] = b < 0 ? 0 : b >= fp->n_bins ? fp->n_bins - 1 : b;
  }
  fp->t_row_end = t + fp->dt;
  snprintf(fp->path, sizeof fp->path, "%s_FrontPressure_%017.9f.h5", project, t);
  return HX_OK;
}

void frontpressure_fold(FrontPressure *fp, const Solver *s) {
  const int nb = fp->n_bins;
#pragma omp parallel
  {
    double *mine = calloc((size_t)nb, sizeof(double));
#pragma omp for
    for (long dof = 0; dof < s->n_dof; dof++) {
      double p;
      if (mine && solver_node_pressure(s, dof, &p) == 0 && p > mine[fp->bin[dof]])
        mine[fp->bin[dof]] = p;
    }
#pragma omp critical
    for (int b = 0; mine && b < nb; b++)
      fp->row[b] = fmax(fp->row[b], mine[b]);
    free(mine);
  }
  frontpressure_count_fold(fp);
}

int frontpressure_row_due(const FrontPressure *fp, double t) {
  return fp->n_bins > 0 && t >= fp->t_row_end * (1.0 - 1e-12);
}

int frontpressure_close_row(FrontPressure *fp, double t) {
  par_max(fp->row, fp->n_bins);
  if (fp->n_rows == fp->cap) {
    const long cap = fp->cap ? 2 * fp->cap : 256;
    double *rows = realloc(fp->rows, sizeof(double) * (size_t)cap * (size_t)fp->n_bins);
    double *times = realloc(fp->t, sizeof(double) * (size_t)cap);
    if (rows) fp->rows = rows;
    if (times) fp->t = times;
    if (!rows || !times) return HX_ERROR(HX_ERR_MEM, "out of host memory (front pressure rows)");
    fp->cap = cap;
  }
  memcpy(fp->rows + (size_t)fp->n_rows * fp->n_bins, fp->row, sizeof(double) * fp->n_bins);
  fp->t[fp->n_rows++] = t;
  memset(fp->row, 0, sizeof(double) * fp->n_bins);
  fp->folded = 0;
  fp->t_row_end = t + fp->dt;
  return HX_OK;
}

int frontpressure_write(const FrontPressure *fp) {
  if (fp->n_bins == 0 || !par_is_root()) return HX_OK;
  char tmp[520];
  snprintf(tmp, sizeof tmp, "%s.tmp", fp->path);
  hid_t f = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) return HX_ERROR(HX_ERR_IO, "cannot create %s (write permission, disk?)", tmp);
  double *y = malloc(sizeof(double) * fp->n_bins);
  if (!y) {
    H5Fclose(f);
    return HX_ERROR(HX_ERR_MEM, "out of host memory (front pressure bins)");
  }
  for (int b = 0; b < fp->n_bins; b++)
    y[b] = fp->y0 + (b + 0.5) * (fp->y1 - fp->y0) / fp->n_bins;
  const hsize_t nr = (hsize_t)fp->n_rows, nb = (hsize_t)fp->n_bins, dims[2] = {nr, nb};
  int rc = h5_write_str_attr(f, "File_Type", "FrontPressure", tmp);
  if (rc == HX_OK) rc = h5_write_num(f, "Time", 1, H5T_NATIVE_DOUBLE, 1, &nr, fp->t, tmp);
  if (rc == HX_OK) rc = h5_write_num(f, "Y", 1, H5T_NATIVE_DOUBLE, 1, &nb, y, tmp);
  if (rc == HX_OK)
    rc = h5_write_num(f, "FrontPressure", 1, H5T_NATIVE_DOUBLE, 2, dims, fp->rows, tmp);
  free(y);
  if (H5Fclose(f) < 0 && rc == HX_OK) rc = HX_ERROR(HX_ERR_IO, "cannot close %s", tmp);
  if (rc == HX_OK && rename(tmp, fp->path) != 0)
    rc = HX_ERROR(HX_ERR_IO, "cannot rename %s to %s", tmp, fp->path);
  if (rc != HX_OK) remove(tmp); /* a failed write leaves no half file behind */
  return rc;
}

void frontpressure_free(FrontPressure *fp) {
  free(fp->bin);
  free(fp->row);
  free(fp->rows);
  free(fp->t);
  memset(fp, 0, sizeof *fp);
}
