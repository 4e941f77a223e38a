/* ParaView output: .vtu files of Lagrange hexahedra and .pvd time series (see vtu.h).
 *
 * File layout (VTK "XML File Formats", VTK User's Guide, and the VTK 9 readers): VTKFile version
 * 2.2, so VTK reads the Lagrange hexahedra with its current point numbering (files older than 2.1
 * are renumbered by the reader); header_type UInt64; every array either as ASCII text inside its
 * DataArray or as raw appended data: after the '_' marker of <AppendedData encoding="raw">, each
 * array is one block made of its byte count (UInt64) and its bytes; a DataArray's offset
 * attribute is the position of its block counted from the byte after '_'.
 *
 * Binary files are written in one pass over chunks of elements: the values of every array for a
 * chunk are computed once and each is written at its known place (fseeko), so memory stays
 * bounded for any mesh size. ASCII files (small cases) recompute the chunk for each array. */
#define _POSIX_C_SOURCE 200809L

#include "io/vtu.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "basis/basis.h"
#include "basis/tensor.h"
#include "core/error.h"
#include "io/state.h"
#include "physics/eos.h"
#include "time/simulation.h"

/* ---------------------------------------------------------------------------------------------
 * Parameters */

static const char *const OUTPUT_FORMAT_NAMES[] = {"None", "ParaView"};
static const int OUTPUT_FORMAT_IDS[] = {OUTPUT_FORMAT_NONE, OUTPUT_FORMAT_PARAVIEW};

int vtu_define_params(Params *p) {
  HX_CHECK(params_define(p, "Output", "NVisu", PARAM_INT, 0, "", false,
                         "Polynomial degree of the visualization: the solution is sampled at "
                         "NVisu+1 equidistant points per direction of each element (default: N)."));
  HX_CHECK(params_define_choice(p, "Output", "OutputFormat", "None", 2, OUTPUT_FORMAT_NAMES,
                                OUTPUT_FORMAT_IDS,
                                "Visualization files written with each state file: None, or "
                                "ParaView (<ProjectName>_Solution_<time>.vtu, high-order Lagrange "
                                "hexahedra, and the time series <ProjectName>_Solution.pvd)."));
  return HX_OK;
}

static int check_nvisu(int n_visu, const char *where) {
  if (n_visu < 1 || n_visu > VTU_NVISU_MAX)
    return HX_ERROR(HX_ERR_INPUT, "%s: NVisu = %d is out of range 1..%d", where, n_visu,
                    VTU_NVISU_MAX);
  return HX_OK;
}

int vtu_read_params(const Params *p, int N, int *output_format, int *n_visu) {
  HX_CHECK(params_get_choice(p, "OutputFormat", output_format));
  *n_visu = N;
  if (params_is_set(p, "NVisu")) HX_CHECK(params_get_int(p, "NVisu", n_visu));
  return check_nvisu(*n_visu, "parameter NVisu");
}

/* ---------------------------------------------------------------------------------------------
 * VTK's Lagrange hexahedron numbering */

int vtu_lagrange_hex_index(int i, int j, int k, int n) {
  /* corner number of (i > 0, j > 0) in the bottom face: counter-clockwise from the origin */
  static const int CORNER[2][2] = {{0, 3}, {1, 2}};
  const int m = n - 1; /* points strictly inside an edge */
  const int on_i = i == 0 || i == n, on_j = j == 0 || j == n, on_k = k == 0 || k == n;
  const int n_bdy = on_i + on_j + on_k;
  if (n_bdy == 3) return CORNER[i > 0][j > 0] + (k > 0 ? 4 : 0);
  int base = 8;
  if (n_bdy == 2) {
    /* edges 0-3 bottom (along i at j=0, along j at i=n, along i at j=n, along j at i=0), 4-7 the
     * same on top, 8-11 along k at corners 0-3; every edge runs in its increasing parameter */
    if (!on_i) return base + m * ((j > 0 ? 2 : 0) + (k > 0 ? 4 : 0)) + (i - 1);
    if (!on_j) return base + m * ((i > 0 ? 1 : 3) + (k > 0 ? 4 : 0)) + (j - 1);
    return base + m * (8 + CORNER[i > 0][j > 0]) + (k - 1);
  }
  base += 12 * m;
  if (n_bdy == 1) {
    /* faces i=0, i=n, j=0, j=n, k=0, k=n; inside a face the lower-numbered axis runs fastest */
    int face, a, b;
    if (on_i) {
      face = i > 0;
      a = j;
      b = k;
    } else if (on_j) {
      face = 2 + (j > 0);
      a = i;
      b = k;
    } else {
      face = 4 + (k > 0);
      a = i;
      b = j;
    }
    return base + m * m * face + (b - 1) * m + (a - 1);
  }
  base += 6 * m * m;
  return base + ((k - 1) * m + (j - 1)) * m + (i - 1);
}

/* ---------------------------------------------------------------------------------------------
 * The arrays of a .vtu file */

typedef enum { VT_FLOAT64, VT_INT64, VT_UINT8 } ValueType;
typedef enum { SEC_POINT_DATA, SEC_CELL_DATA, SEC_POINTS, SEC_CELLS, SEC_COUNT } Section;

/* Kinds of values: where each array's values come from. */
enum {
  SRC_CONS,         /* conservative variable `var` */
  SRC_PRIM,         /* primitive variable `var` (physics.h PDENS.. TEMP) */
  SRC_CELL_EXTRA,   /* VtuExtra cell data */
  SRC_POINTS,       /* node positions */
  SRC_CONNECTIVITY, /* point ids of each cell in VTK order */
  SRC_OFFSETS,      /* end of each cell in connectivity */
  SRC_TYPES         /* cell types */
};

typedef struct {
  const char *name;
  ValueType type;
  int n_comp;
  Section section;
  int source, var;
  long per_elem;   /* values (tuples * components) per element */
  uint64_t offset; /* of the block in the appended data */
} Field;

#define VTU_MAX_FIELDS 16

static const char *const CONS_NAMES[HX_NVAR] = {"Density", "MomentumX", "MomentumY", "MomentumZ",
                                                "EnergyStagnationDensity"};
static const char *const PRIM_NAMES[] = {"VelocityX", "VelocityY", "VelocityZ", "Pressure",
                                         "Temperature"};

typedef struct {
  const Solver *s;
  const double *U;
  const VtuExtra *extra;
  int n_visu, nv1, npv; /* degree, points per direction, points per cell */
  int np;               /* solution points per direction */
  double *V;            /* nv1 x np interpolation matrix */
  int *tensor_of_vtk;   /* [npv]: tensor index (k*nv1+j)*nv1+i of VTK point m */
  Field fields[VTU_MAX_FIELDS];
  int n_fields;
  long n_elems;
  long chunk; /* elements per chunk */
  unsigned char *buf[VTU_MAX_FIELDS];
} VtuWriter;

static size_t type_size(ValueType t) {
  return t == VT_UINT8 ? 1 : 8;
}

static const char *type_name(ValueType t) {
  return t == VT_FLOAT64 ? "Float64" : t == VT_INT64 ? "Int64" : "UInt8";
}

static void add_field(VtuWriter *w, const char *name, ValueType type, int n_comp, Section sec,
                      int source, int var, long per_elem) {
  Field *f = &w->fields[w->n_fields++];
  *f = (Field){name, type, n_comp, sec, source, var, per_elem, 0};
}

static void define_fields(VtuWriter *w) {
  const int npv = w->npv;
  for (int v = 0; v < HX_NVAR; v++)
    add_field(w, CONS_NAMES[v], VT_FLOAT64, 1, SEC_POINT_DATA, SRC_CONS, v, npv);
  for (int v = VEL1; v <= TEMP; v++)
    add_field(w, PRIM_NAMES[v - VEL1], VT_FLOAT64, 1, SEC_POINT_DATA, SRC_PRIM, v, npv);
  if (w->extra && w->extra->cell_data)
    add_field(w, w->extra->cell_name ? w->extra->cell_name : "CellData", VT_FLOAT64, 1,
              SEC_CELL_DATA, SRC_CELL_EXTRA, 0, 1);
  add_field(w, "Points", VT_FLOAT64, 3, SEC_POINTS, SRC_POINTS, 0, 3L * npv);
  add_field(w, "connectivity", VT_INT64, 1, SEC_CELLS, SRC_CONNECTIVITY, 0, npv);
  add_field(w, "offsets", VT_INT64, 1, SEC_CELLS, SRC_OFFSETS, 0, 1);
  add_field(w, "types", VT_UINT8, 1, SEC_CELLS, SRC_TYPES, 0, 1);
  uint64_t offset = 0;
  for (int f = 0; f < w->n_fields; f++) {
    w->fields[f].offset = offset;
    offset += sizeof(uint64_t) +
              (uint64_t)w->n_elems * w->fields[f].per_elem * type_size(w->fields[f].type);
  }
}

static void writer_free(VtuWriter *w) {
  free(w->V);
  free(w->tensor_of_vtk);
  for (int f = 0; f < VTU_MAX_FIELDS; f++)
    free(w->buf[f]);
}

static int writer_init(VtuWriter *w, const Solver *s, const double *U, int n_visu,
                       const VtuExtra *extra) {
  memset(w, 0, sizeof *w);
  w->s = s;
  w->U = U;
  w->extra = extra;
  w->n_visu = n_visu;
  w->nv1 = n_visu + 1;
  w->npv = w->nv1 * w->nv1 * w->nv1;
  w->np = s->disc.np;
  w->n_elems = s->mesh->n_elems;
  w->V = hx_malloc(sizeof(double) * w->nv1 * w->np, "visualization interpolation matrix");
  w->tensor_of_vtk = hx_malloc(sizeof(int) * w->npv, "VTK point ordering");
  HX_ALLOC_CHECK(w->V);
  HX_ALLOC_CHECK(w->tensor_of_vtk);
  double x_visu[VTU_NVISU_MAX + 1];
  basis_equidistant_nodes(n_visu, x_visu);
  basis_interp_matrix(s->disc.N, s->disc.x, s->disc.wb, n_visu, x_visu, w->V);
  for (int k = 0; k < w->nv1; k++)
    for (int j = 0; j < w->nv1; j++)
      for (int i = 0; i < w->nv1; i++)
        w->tensor_of_vtk[vtu_lagrange_hex_index(i, j, k, n_visu)] = (k * w->nv1 + j) * w->nv1 + i;
  define_fields(w);
  /* chunks of about 16 MiB of values */
  long bytes_per_elem = 0;
  for (int f = 0; f < w->n_fields; f++)
    bytes_per_elem += w->fields[f].per_elem * (long)type_size(w->fields[f].type);
  w->chunk = (16L << 20) / bytes_per_elem;
  if (w->chunk < 1) w->chunk = 1;
  if (w->chunk > w->n_elems) w->chunk = w->n_elems > 0 ? w->n_elems : 1;
  for (int f = 0; f < w->n_fields; f++) {
    w->buf[f] = hx_malloc(w->chunk * w->fields[f].per_elem * type_size(w->fields[f].type),
                          "visualization output buffer");
    HX_ALLOC_CHECK(w->buf[f]);
  }
  return HX_OK;
}

/* Node positions x[3][npv] and conservative variables u[n_var][npv] of element e at the
 * visualization points. */
static void interpolate_element(const VtuWriter *w, long e, double *x, double *u) {
  const Solver *s = w->s;
  const long n3 = s->n_dof_elem;
  for (int d = 0; d < 3; d++)
    tensor_interp_3d(w->np, w->nv1, w->V, &s->geo.elem_x[(3 * e + d) * n3], &x[d * w->npv]);
  for (int v = 0; v < s->n_var; v++)
    tensor_interp_3d(w->np, w->nv1, w->V, &w->U[(e * s->n_var + v) * n3], &u[v * w->npv]);
}

/* The values of every array for element e, stored at position c (within the chunk). */
static void fill_element(const VtuWriter *w, long e, long c, double *x, double *u) {
  const int npv = w->npv;
  interpolate_element(w, e, x, u);
  for (int f = 0; f < w->n_fields; f++) {
    const Field *fd = &w->fields[f];
    double *dv = (double *)w->buf[f] + c * fd->per_elem;
    int64_t *iv = (int64_t *)w->buf[f] + c * fd->per_elem;
    switch (fd->source) {
    case SRC_CONS:
      memcpy(dv, &u[fd->var * npv], sizeof(double) * npv);
      break;
    case SRC_PRIM:
      for (int q = 0; q < npv; q++) {
        double uq[HX_NVAR], prim[HX_NPRIM];
        for (int v = 0; v < HX_NVAR; v++)
          uq[v] = u[v * npv + q];
        cons_to_prim(&w->s->phys, uq, prim);
        dv[q] = prim[fd->var];
      }
      break;
    case SRC_CELL_EXTRA:
      dv[0] = w->extra->cell_data[e];
      break;
    case SRC_POINTS:
      for (int q = 0; q < npv; q++)
        for (int d = 0; d < 3; d++)
          dv[3 * q + d] = x[d * npv + q];
      break;
    case SRC_CONNECTIVITY:
      for (int m = 0; m < npv; m++)
        iv[m] = (int64_t)e * npv + w->tensor_of_vtk[m];
      break;
    case SRC_OFFSETS:
      iv[0] = (int64_t)(e + 1) * npv;
      break;
    default: /* SRC_TYPES */
      w->buf[f][c] = VTU_LAGRANGE_HEXAHEDRON;
      break;
    }
  }
}

static int fill_chunk(const VtuWriter *w, long e0, long e1) {
  int failed = 0;
#pragma omp parallel
  {
    double *x = malloc(sizeof(double) * 3 * w->npv);
    double *u = malloc(sizeof(double) * w->s->n_var * w->npv);
    if (!x || !u) {
#pragma omp atomic write
      failed = 1;
    }
#pragma omp for schedule(static)
    for (long e = e0; e < e1; e++)
      if (x && u) fill_element(w, e, e - e0, x, u);
    free(x);
    free(u);
  }
  if (failed) return HX_ERROR(HX_ERR_MEM, "no memory for the visualization of one element");
  return HX_OK;
}

/* ---------------------------------------------------------------------------------------------
 * XML */

static int host_is_little_endian(void) {
  const uint16_t one = 1;
  unsigned char first;
  memcpy(&first, &one, 1);
  return first == 1;
}

static void write_ascii_values(FILE *fp, const Field *fd, const unsigned char *buf, long n) {
  for (long q = 0; q < n; q++) {
    const char *sep = (q + 1) % 6 == 0 || q + 1 == n ? "\n" : " ";
    if (fd->type == VT_FLOAT64)
      fprintf(fp, "%.17g%s", ((const double *)buf)[q], sep);
    else if (fd->type == VT_INT64)
      fprintf(fp, "%" PRId64 "%s", ((const int64_t *)buf)[q], sep);
    else
      fprintf(fp, "%u%s", (unsigned)buf[q], sep);
  }
}

static int write_data_array(FILE *fp, const VtuWriter *w, int f, int ascii) {
  const Field *fd = &w->fields[f];
  fprintf(fp, "        <DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" ",
          type_name(fd->type), fd->name, fd->n_comp);
  if (!ascii) {
    fprintf(fp, "format=\"appended\" offset=\"%" PRIu64 "\"/>\n", fd->offset);
    return HX_OK;
  }
  fprintf(fp, "format=\"ascii\">\n");
  for (long e0 = 0; e0 < w->n_elems; e0 += w->chunk) {
    long e1 = e0 + w->chunk < w->n_elems ? e0 + w->chunk : w->n_elems;
    HX_CHECK(fill_chunk(w, e0, e1));
    write_ascii_values(fp, fd, w->buf[f], (e1 - e0) * fd->per_elem);
  }
  fprintf(fp, "        </DataArray>\n");
  return HX_OK;
}

static int write_section(FILE *fp, const VtuWriter *w, Section sec, int ascii) {
  static const char *const TAGS[SEC_COUNT] = {"PointData", "CellData", "Points", "Cells"};
  int any = 0;
  for (int f = 0; f < w->n_fields; f++)
    any |= w->fields[f].section == sec;
  if (!any) return HX_OK;
  if (sec == SEC_POINT_DATA)
    fprintf(fp, "      <PointData Scalars=\"Density\">\n");
  else
    fprintf(fp, "      <%s>\n", TAGS[sec]);
  for (int f = 0; f < w->n_fields; f++)
    if (w->fields[f].section == sec) HX_CHECK(write_data_array(fp, w, f, ascii));
  fprintf(fp, "      </%s>\n", TAGS[sec]);
  return HX_OK;
}

static int write_xml(FILE *fp, const VtuWriter *w, double time, int ascii) {
  fprintf(fp, "<?xml version=\"1.0\"?>\n");
  fprintf(fp,
          "<VTKFile type=\"UnstructuredGrid\" version=\"2.2\" byte_order=\"%s\" "
          "header_type=\"UInt64\">\n",
          host_is_little_endian() ? "LittleEndian" : "BigEndian");
  fprintf(fp, "  <UnstructuredGrid>\n    <FieldData>\n");
  fprintf(fp,
          "      <DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" "
          "format=\"ascii\">%.17g</DataArray>\n",
          time);
  fprintf(fp, "    </FieldData>\n");
  fprintf(fp, "    <Piece NumberOfPoints=\"%ld\" NumberOfCells=\"%ld\">\n", w->n_elems * w->npv,
          w->n_elems);
  for (int sec = 0; sec < SEC_COUNT; sec++)
    HX_CHECK(write_section(fp, w, (Section)sec, ascii));
  fprintf(fp, "    </Piece>\n  </UnstructuredGrid>\n");
  return HX_OK;
}

/* Raw appended data: the block headers, then every chunk's part of each block in place. */
static int write_appended(FILE *fp, const VtuWriter *w, const char *path) {
  fprintf(fp, "  <AppendedData encoding=\"raw\">\n   _");
  const off_t start = ftello(fp);
  if (start < 0) return HX_ERROR(HX_ERR_IO, "cannot get the write position in %s", path);
  uint64_t total = 0;
  for (int f = 0; f < w->n_fields; f++) {
    const Field *fd = &w->fields[f];
    uint64_t bytes = (uint64_t)w->n_elems * fd->per_elem * type_size(fd->type);
    if (fseeko(fp, start + (off_t)fd->offset, SEEK_SET) != 0 ||
        fwrite(&bytes, sizeof bytes, 1, fp) != 1)
      return HX_ERROR(HX_ERR_IO, "cannot write the header of array %s to %s", fd->name, path);
    total = fd->offset + sizeof bytes + bytes;
  }
  for (long e0 = 0; e0 < w->n_elems; e0 += w->chunk) {
    long e1 = e0 + w->chunk < w->n_elems ? e0 + w->chunk : w->n_elems;
    HX_CHECK(fill_chunk(w, e0, e1));
    for (int f = 0; f < w->n_fields; f++) {
      const Field *fd = &w->fields[f];
      const size_t size = type_size(fd->type);
      const off_t at = start + (off_t)(fd->offset + sizeof(uint64_t) + e0 * fd->per_elem * size);
      const size_t n = (size_t)((e1 - e0) * fd->per_elem);
      if (fseeko(fp, at, SEEK_SET) != 0 || fwrite(w->buf[f], size, n, fp) != n)
        return HX_ERROR(HX_ERR_IO, "cannot write array %s to %s (disk full?)", fd->name, path);
    }
  }
  if (fseeko(fp, start + (off_t)total, SEEK_SET) != 0)
    return HX_ERROR(HX_ERR_IO, "cannot seek to the end of the data in %s", path);
  fprintf(fp, "\n  </AppendedData>\n");
  return HX_OK;
}

/* Write through write_fn into "<path>.tmp", then rename; no .tmp is left behind on error. */
typedef int (*WriteFn)(FILE *fp, const char *tmp, void *ctx);

static int write_atomically(const char *path, WriteFn write_fn, void *ctx) {
  size_t len = strlen(path) + 5;
  char *tmp = hx_malloc(len, "temporary file name");
  HX_ALLOC_CHECK(tmp);
  snprintf(tmp, len, "%s.tmp", path);
  FILE *fp = fopen(tmp, "wb");
  if (!fp) {
    int rc =
        HX_ERROR(HX_ERR_IO, "cannot create %s (does the folder exist and is it writable?)", tmp);
    free(tmp);
    return rc;
  }
  int rc = write_fn(fp, tmp, ctx);
  if (rc == HX_OK && ferror(fp)) rc = HX_ERROR(HX_ERR_IO, "write error on %s (disk full?)", tmp);
  if (fclose(fp) != 0 && rc == HX_OK) rc = HX_ERROR(HX_ERR_IO, "cannot close %s (disk full?)", tmp);
  if (rc == HX_OK && rename(tmp, path) != 0)
    rc = HX_ERROR(HX_ERR_IO, "cannot rename %s to %s", tmp, path);
  if (rc != HX_OK) remove(tmp);
  free(tmp);
  return rc;
}

typedef struct {
  const VtuWriter *w;
  double time;
  int ascii;
} VtuJob;

static int write_vtu_file(FILE *fp, const char *tmp, void *ctx) {
  const VtuJob *job = ctx;
  HX_CHECK(write_xml(fp, job->w, job->time, job->ascii));
  if (!job->ascii) HX_CHECK(write_appended(fp, job->w, tmp));
  fprintf(fp, "</VTKFile>\n");
  return HX_OK;
}

int vtu_write(const char *path, const Solver *s, const double *U, int NVisu, double time,
              const VtuExtra *extra) {
  char where[1100];
  snprintf(where, sizeof where, "ParaView output %s", path);
  HX_CHECK(check_nvisu(NVisu, where));
  if (s->n_var != HX_NVAR)
    return HX_ERROR(HX_ERR_INTERNAL, "%s: expected %d conservative variables, the solver has %d",
                    where, HX_NVAR, s->n_var);
  VtuWriter w;
  int rc = writer_init(&w, s, U, NVisu, extra);
  VtuJob job = {&w, time, extra ? extra->ascii : 0};
  if (rc == HX_OK) rc = write_atomically(path, write_vtu_file, &job);
  writer_free(&w);
  return rc;
}

/* ---------------------------------------------------------------------------------------------
 * .pvd time series */

typedef struct {
  double time;
  char *file;
} PvdEntry;

typedef struct {
  PvdEntry *entries;
  int n;
} PvdList;

static void pvd_free(PvdList *l) {
  for (int i = 0; i < l->n; i++)
    free(l->entries[i].file);
  free(l->entries);
}

/* Value of attribute name="..." in the tag starting at tag (up to '>'), XML entities decoded. */
static char *xml_attribute(const char *tag, const char *name) {
  const char *end = strchr(tag, '>');
  char key[64];
  snprintf(key, sizeof key, " %s=\"", name);
  const char *at = strstr(tag, key);
  if (!at || (end && at > end)) return NULL;
  at += strlen(key);
  const char *close = strchr(at, '"');
  if (!close) return NULL;
  char *out = malloc((size_t)(close - at) + 1);
  if (!out) return NULL;
  size_t n = 0;
  static const char *const ENTITIES[][2] = {
      {"&amp;", "&"}, {"&quot;", "\""}, {"&lt;", "<"}, {"&gt;", ">"}, {"&apos;", "'"}};
  while (at < close) {
    int replaced = 0;
    for (int e = 0; e < 5 && *at == '&'; e++) {
      size_t len = strlen(ENTITIES[e][0]);
      if (strncmp(at, ENTITIES[e][0], len) == 0) {
        out[n++] = ENTITIES[e][1][0];
        at += len;
        replaced = 1;
        break;
      }
    }
    if (!replaced) out[n++] = *at++;
  }
  out[n] = 0;
  return out;
}

static int pvd_append(PvdList *l, double time, const char *file) {
  PvdEntry *grown = realloc(l->entries, sizeof(PvdEntry) * (l->n + 1));
  if (!grown) return HX_ERROR(HX_ERR_MEM, "no memory for the .pvd entries");
  l->entries = grown;
  l->entries[l->n].time = time;
  l->entries[l->n].file = malloc(strlen(file) + 1);
  if (!l->entries[l->n].file) return HX_ERROR(HX_ERR_MEM, "no memory for the .pvd entries");
  strcpy(l->entries[l->n].file, file);
  l->n++;
  return HX_OK;
}

static char *read_whole_file(FILE *fp) {
  size_t cap = 4096, n = 0;
  char *text = malloc(cap);
  while (text) {
    n += fread(text + n, 1, cap - 1 - n, fp);
    if (n < cap - 1) break;
    cap *= 2;
    char *grown = realloc(text, cap);
    if (!grown) free(text);
    text = grown;
  }
  if (text) text[n] = 0;
  return text;
}

static int pvd_read(const char *path, PvdList *l) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return HX_OK; /* a new series */
  char *text = read_whole_file(fp);
  fclose(fp);
  if (!text) return HX_ERROR(HX_ERR_MEM, "no memory to read %s", path);
  int rc = HX_OK;
  if (!strstr(text, "<Collection"))
    rc = HX_ERROR(HX_ERR_INPUT,
                  "%s exists but is not a ParaView collection (.pvd): no <Collection> element; "
                  "move it away or choose another ProjectName",
                  path);
  for (const char *tag = text; rc == HX_OK && (tag = strstr(tag, "<DataSet")); tag++) {
    char *ts = xml_attribute(tag, "timestep"), *file = xml_attribute(tag, "file");
    char *end = NULL;
    double t = ts ? strtod(ts, &end) : 0.0;
    if (!ts || !file || end == ts)
      rc = HX_ERROR(HX_ERR_INPUT, "%s: a <DataSet> entry lacks a valid timestep or file attribute",
                    path);
    else
      rc = pvd_append(l, t, file);
    free(ts);
    free(file);
  }
  free(text);
  return rc;
}

static void write_xml_escaped(FILE *fp, const char *s) {
  for (; *s; s++) {
    if (*s == '&')
      fputs("&amp;", fp);
    else if (*s == '"')
      fputs("&quot;", fp);
    else if (*s == '<')
      fputs("&lt;", fp);
    else if (*s == '>')
      fputs("&gt;", fp);
    else
      fputc(*s, fp);
  }
}

static int write_pvd_file(FILE *fp, const char *tmp, void *ctx) {
  (void)tmp;
  const PvdList *l = ctx;
  fprintf(fp, "<?xml version=\"1.0\"?>\n");
  fprintf(fp, "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"%s\">\n",
          host_is_little_endian() ? "LittleEndian" : "BigEndian");
  fprintf(fp, "  <Collection>\n");
  for (int i = 0; i < l->n; i++) {
    fprintf(fp, "    <DataSet timestep=\"%.17g\" group=\"\" part=\"0\" file=\"",
            l->entries[i].time);
    write_xml_escaped(fp, l->entries[i].file);
    fprintf(fp, "\"/>\n");
  }
  fprintf(fp, "  </Collection>\n</VTKFile>\n");
  return HX_OK;
}

int pvd_update(const char *pvd_path, double time, const char *vtu_file) {
  PvdList l = {NULL, 0};
  int rc = pvd_read(pvd_path, &l);
  /* drop an entry of the same file (a rewrite, e.g. after a restart) */
  for (int i = 0; rc == HX_OK && i < l.n; i++) {
    if (strcmp(l.entries[i].file, vtu_file) != 0) continue;
    free(l.entries[i].file);
    memmove(&l.entries[i], &l.entries[i + 1], sizeof(PvdEntry) * (l.n - i - 1));
    l.n--;
    i--;
  }
  if (rc == HX_OK) rc = pvd_append(&l, time, vtu_file);
  /* insertion sort by time keeps entries of equal time in their order */
  for (int i = 1; rc == HX_OK && i < l.n; i++) {
    PvdEntry e = l.entries[i];
    int j = i;
    for (; j > 0 && l.entries[j - 1].time > e.time; j--)
      l.entries[j] = l.entries[j - 1];
    l.entries[j] = e;
  }
  if (rc == HX_OK) rc = write_atomically(pvd_path, write_pvd_file, &l);
  pvd_free(&l);
  return rc;
}

/* ---------------------------------------------------------------------------------------------
 * Run output and conversion of state files */

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

void vtu_file_name(char *buf, size_t len, const char *project, double time) {
  snprintf(buf, len, "%s_Solution_%017.9f.vtu", project, time);
}

int vtu_write_output(const char *project, const Solver *s, const double *U, int NVisu, double time,
                     const VtuExtra *extra) {
  const size_t len = strlen(project) + 64;
  char *vtu = hx_malloc(len, "output file name"), *pvd = hx_malloc(len, "output file name");
  int rc = vtu && pvd ? HX_OK : HX_ERR_MEM;
  if (rc == HX_OK) {
    vtu_file_name(vtu, len, project, time);
    snprintf(pvd, len, "%s_Solution.pvd", project);
    rc = vtu_write(vtu, s, U, NVisu, time, extra);
  }
  if (rc == HX_OK) rc = pvd_update(pvd, time, base_name(vtu));
  free(vtu);
  free(pvd);
  return rc;
}

static int convert_with_params(Params *p, const char *state_path, const char *ini_path,
                               const char *out_path, int NVisu) {
  /* the lead may register the output keys in simulation_define_params; define them otherwise */
  if (strcmp(params_choice_name(p, "OutputFormat", OUTPUT_FORMAT_NONE), "?") == 0)
    HX_CHECK(vtu_define_params(p));
  HX_CHECK(params_read_file(p, ini_path));
  StateHeader found;
  HX_CHECK(state_read_header(state_path, &found));
  Solver *s = NULL;
  HX_CHECK(solver_create(p, &s));
  if (s->mech) {
    int rc = HX_ERROR(HX_ERR_INPUT, "hexdg convert: %s is a reacting-flow case (Mechanism = %s); "
                                    "ParaView output of species is not available yet: read %s "
                                    "with h5py (tools/read_state.py shows its layout)",
                      ini_path, s->mech->path, state_path);
    solver_destroy(s);
    return rc;
  }
  StateHeader expected;
  memset(&expected, 0, sizeof expected);
  expected.N = s->disc.N;
  expected.n_var = s->n_var;
  expected.n_elems = s->mesh->n_elems;
  snprintf(expected.node_type, sizeof expected.node_type, "%s",
           s->disc.node_type == NODE_GAUSS ? "GAUSS" : "GAUSS-LOBATTO");
  if (strcmp(base_name(found.mesh_file), base_name(s->mesh->source)) != 0)
    fprintf(stderr,
            "hexdg warning: state file %s was computed on mesh '%s' but %s names mesh '%s'; "
            "the geometry is taken from %s\n",
            state_path, found.mesh_file, ini_path, s->mesh->source, ini_path);
  int n_visu = NVisu, format, has_alpha = 0;
  int rc = state_read(state_path, &expected, s->U);
  /* the FV blending factor of a shock-capturing run, as cell data like the run's own output */
  double *alpha = hx_malloc(sizeof(double) * (s->mesh->n_elems ? s->mesh->n_elems : 1), "FV_alpha");
  if (!alpha) rc = HX_ERR_MEM;
  if (rc == HX_OK)
    rc = state_read_elem_data(state_path, "FV_alpha", s->mesh->n_elems, alpha, &has_alpha);
  VtuExtra extra = {"FV_alpha", alpha, 0};
  if (rc == HX_OK && n_visu <= 0) rc = vtu_read_params(p, s->disc.N, &format, &n_visu);
  if (rc == HX_OK) rc = vtu_write(out_path, s, s->U, n_visu, found.time, has_alpha ? &extra : NULL);
  free(alpha);
  solver_destroy(s);
  return rc;
}

int vtu_convert_state(const char *state_path, const char *ini_path, const char *out_path,
                      int NVisu) {
  if (!ini_path)
    return HX_ERROR(HX_ERR_INPUT,
                    "converting %s needs the parameter file of the run for the mesh and the "
                    "discretization: hexdg convert case.ini state.h5 -o out.vtu [--NVisu n]",
                    state_path);
  Params *p = params_create();
  if (!p) return HX_ERROR(HX_ERR_MEM, "no memory for the parameters");
  int rc = simulation_define_params(p);
  if (rc == HX_OK) rc = convert_with_params(p, state_path, ini_path, out_path, NVisu);
  params_destroy(p);
  return rc;
}
