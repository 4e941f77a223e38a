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
#include "chem/kinetics.h"
#include "core/error.h"
#include "physics/eos.h"
#include "physics/mixture.h"

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
  SRC_CONS,          /* conservative variable `var` */
  SRC_PRIM,          /* primitive variable `var` (physics.h PDENS.. TEMP) */
  SRC_MASS_FRACTION, /* mass fraction of species `var` (reacting flow) */
  SRC_HEAT_RELEASE,  /* heat-release rate (reacting flow) */
  SRC_CELL_EXTRA,    /* VtuExtra cell data */
  SRC_POINT_EXTRA,   /* VtuExtra point data (solution nodes, interpolated like U) */
  SRC_POINTS,        /* node positions */
  SRC_CONNECTIVITY,  /* point ids of each cell in VTK order */
  SRC_OFFSETS,       /* end of each cell in connectivity */
  SRC_TYPES          /* cell types */
};

typedef struct {
  char name[64];
  ValueType type;
  int n_comp;
  Section section;
  int source, var;
  long per_elem;   /* values (tuples * components) per element */
  uint64_t offset; /* of the block in the appended data */
} Field;

/* 5 conservative, 5 primitive, the mass fractions, heat release, cell and point data and the 4
 * mesh arrays */
#define VTU_MAX_FIELDS (17 + HX_MAX_SPECIES)

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
  *f = (Field){"", type, n_comp, sec, source, var, per_elem, 0};
  snprintf(f->name, sizeof f->name, "%s", name);
}

static void define_fields(VtuWriter *w) {
  const int npv = w->npv;
  for (int v = 0; v < HX_NVAR; v++)
    add_field(w, CONS_NAMES[v], VT_FLOAT64, 1, SEC_POINT_DATA, SRC_CONS, v, npv);
  for (int v = VEL1; v <= TEMP; v++)
    add_field(w, PRIM_NAMES[v - VEL1], VT_FLOAT64, 1, SEC_POINT_DATA, SRC_PRIM, v, npv);
  const ChemMech *m = w->s->mech;
  for (int k = 0; m && k < m->n_species; k++) {
    char name[64];
    snprintf(name, sizeof name, "Y_%s", m->species_names[k]);
    add_field(w, name, VT_FLOAT64, 1, SEC_POINT_DATA, SRC_MASS_FRACTION, k, npv);
  }
  if (m) add_field(w, "HeatRelease", VT_FLOAT64, 1, SEC_POINT_DATA, SRC_HEAT_RELEASE, 0, npv);
  if (w->extra && w->extra->cell_data)
    add_field(w, w->extra->cell_name ? w->extra->cell_name : "CellData", VT_FLOAT64, 1,
              SEC_CELL_DATA, SRC_CELL_EXTRA, 0, 1);
  if (w->extra && w->extra->point_data)
    add_field(w, w->extra->point_name, VT_FLOAT64, 1, SEC_POINT_DATA, SRC_POINT_EXTRA, 0, npv);
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

/* Heat-release rate (W/m^3) of the mixture at (rho, T, Y): the kinetics' molar production rates
 * at the concentrations C_k = rho Y_k / W_k. */
static double heat_release(const ChemMech *m, double rho, double T, const double *Y) {
  double C[HX_MAX_SPECIES], wdot[HX_MAX_SPECIES], work[3 * HX_MAX_SPECIES]; /* chem_kinetics_work */
  for (int k = 0; k < m->n_species; k++)
    C[k] = rho * Y[k] / m->mw[k];
  chem_wdot(m, T, C, 1, wdot, 1, work, 1);
  return mix_heat_release(m, T, wdot);
}

/* Derived values of one point of a reacting state: prim, the mass fractions Y and the heat
 * release; T_guess: the Newton guess of the temperature, updated (a neighbouring point's T). A
 * point without a temperature (rho <= 0 or e outside the NASA range) gets T = 0, p = -1 (as
 * mix_cons_to_prim leaves it) and no heat release, so that it stands out in ParaView. */
static void mixture_point(const ChemMech *m, const double *uq, double *prim, double *Y,
                          double *q_dot, double *T_guess) {
  double c;
  prim[TEMP] = *T_guess;
  *q_dot = 0.0;
  if (mix_cons_to_prim(m, uq, prim, Y, &c) != 0) {
    prim[TEMP] = 0.0;
    if (!(uq[DENS] > 0.0))
      for (int k = 0; k < m->n_species; k++)
        Y[k] = 0.0;
    return;
  }
  *T_guess = prim[TEMP];
  *q_dot = heat_release(m, prim[PDENS], prim[TEMP], Y);
}

/* Per-thread scratch of one element: positions x[3][npv], conservative variables u[n_var][npv]
 * and the derived point values d[quantity][npv]: the primitive variables (PDENS..TEMP), then,
 * for reacting flow, the mass fractions and the heat release (DERIVED_Y, DERIVED_HEAT). */
typedef struct {
  double *x, *u, *d;
} ElemScratch;

#define DERIVED_Y HX_NPRIM
#define DERIVED_HEAT(ns) (HX_NPRIM + (ns))

static int derived_count(const Solver *s) {
  return s->mech ? HX_NPRIM + s->n_species + 1 : HX_NPRIM;
}

/* The derived values at every visualization point of an element from its u[n_var][npv]. */
static void derive_element(const VtuWriter *w, const double *u, double *d) {
  const Solver *s = w->s;
  const int npv = w->npv, ns = s->n_species;
  double T_guess = -1.0; /* none: the bracketed search at the first point */
  for (int q = 0; q < npv; q++) {
    double uq[HX_NVAR_MAX], prim[HX_NPRIM], Y[HX_MAX_SPECIES], q_dot;
    for (int v = 0; v < s->n_var; v++)
      uq[v] = u[v * npv + q];
    if (s->mech) {
      mixture_point(s->mech, uq, prim, Y, &q_dot, &T_guess);
      for (int k = 0; k < ns; k++)
        d[(DERIVED_Y + k) * npv + q] = Y[k];
      d[DERIVED_HEAT(ns) * npv + q] = q_dot;
    } else {
      cons_to_prim(&s->phys, uq, prim);
    }
    for (int v = 0; v < HX_NPRIM; v++)
      d[v * npv + q] = prim[v];
  }
}

/* The values of every array for element e, stored at position c (within the chunk). */
static void fill_element(const VtuWriter *w, long e, long c, const ElemScratch *sc) {
  const int npv = w->npv;
  interpolate_element(w, e, sc->x, sc->u);
  derive_element(w, sc->u, sc->d);
  for (int f = 0; f < w->n_fields; f++) {
    const Field *fd = &w->fields[f];
    double *dv = (double *)w->buf[f] + c * fd->per_elem;
    int64_t *iv = (int64_t *)w->buf[f] + c * fd->per_elem;
    switch (fd->source) {
    case SRC_CONS:
      memcpy(dv, &sc->u[fd->var * npv], sizeof(double) * npv);
      break;
    case SRC_PRIM:
      memcpy(dv, &sc->d[fd->var * npv], sizeof(double) * npv);
      break;
    case SRC_MASS_FRACTION:
      memcpy(dv, &sc->d[(DERIVED_Y + fd->var) * npv], sizeof(double) * npv);
      break;
    case SRC_HEAT_RELEASE:
      memcpy(dv, &sc->d[DERIVED_HEAT(w->s->n_species) * npv], sizeof(double) * npv);
      break;
    case SRC_CELL_EXTRA:
      dv[0] = w->extra->cell_data[e];
      break;
    case SRC_POINT_EXTRA:
      tensor_interp_3d(w->np, w->nv1, w->V, &w->extra->point_data[e * w->s->n_dof_elem], dv);
      break;
    case SRC_POINTS:
      for (int q = 0; q < npv; q++)
        for (int d = 0; d < 3; d++)
          dv[3 * q + d] = sc->x[d * npv + q];
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
    ElemScratch sc;
    sc.x = malloc(sizeof(double) * 3 * w->npv);
    sc.u = malloc(sizeof(double) * w->s->n_var * w->npv);
    sc.d = malloc(sizeof(double) * derived_count(w->s) * w->npv);
    const int ok = sc.x && sc.u && sc.d;
    if (!ok) {
#pragma omp atomic write
      failed = 1;
    }
#pragma omp for schedule(static)
    for (long e = e0; e < e1; e++)
      if (ok) fill_element(w, e, e - e0, &sc);
    free(sc.x);
    free(sc.u);
    free(sc.d);
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
  /* species names are the mechanism's: escaped like the .pvd's file names */
  fprintf(fp, "        <DataArray type=\"%s\" Name=\"", type_name(fd->type));
  write_xml_escaped(fp, fd->name);
  fprintf(fp, "\" NumberOfComponents=\"%d\" ", fd->n_comp);
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
  const int n_var = HX_NVAR + (s->mech ? s->mech->n_species : 0);
  if (s->n_var != n_var)
    return HX_ERROR(HX_ERR_INTERNAL, "%s: expected %d conservative variables, the solver has %d",
                    where, n_var, s->n_var);
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
 * Run output */

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
