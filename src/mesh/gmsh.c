/* gmsh .msh 4.1 reader (ASCII and binary) for hexahedral meshes of order 1..4.
 *
 * File layout: gmsh reference manual, section "MSH file format" (version 4.1). In binary files
 * every integer or float of the ASCII layout is written raw (int: 4 bytes, size_t: 8 bytes,
 * double: 8 bytes), except in $MeshFormat and $PhysicalNames, which stay text.
 * Node ordering of high-order hexahedra: gmsh manual, "Node ordering" (vertices, then the edge
 * nodes edge by edge, then the face nodes face by face, each face ordered recursively like a
 * quadrangle, then the interior nodes ordered recursively like a hexahedron of order - 2). */
#include "mesh/gmsh.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

#define GMSH_MAX_ORDER 4
#define GMSH_MAX_NODES 125 /* (GMSH_MAX_ORDER + 1)^3 */
#define READ_CHUNK 65536

/* ---------------------------------------------------------------- gmsh's hexahedron ordering */

/* Corner lattice offsets in CGNS order, identical to gmsh's vertex order of the hexahedron. */
static const int HEX_VERTEX[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                     {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
/* gmsh's edges (from vertex, to vertex) and faces (v0, v1, v2, v3) of the hexahedron; a face's
 * interior nodes are laid out in its (v0->v1, v0->v3) coordinates (gmsh manual, node ordering). */
static const int HEX_EDGE[12][2] = {{0, 1}, {0, 3}, {0, 4}, {1, 2}, {1, 5}, {2, 3},
                                    {2, 6}, {3, 7}, {4, 5}, {4, 7}, {5, 6}, {6, 7}};
static const int HEX_FACE[6][4] = {{0, 3, 2, 1}, {0, 1, 5, 4}, {0, 4, 7, 3},
                                   {1, 2, 6, 5}, {2, 3, 7, 6}, {4, 5, 6, 7}};

/* gmsh's quadrangle ordering: corners, edge nodes (edges 0-1, 1-2, 2-3, 3-0), interior
 * recursively. */
static int quad_lattice(int order, int uv[][2]) {
  static const int corner[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  if (order == 0) {
    uv[0][0] = uv[0][1] = 0;
    return 1;
  }
  int n = 0;
  for (int c = 0; c < 4; c++, n++)
    for (int d = 0; d < 2; d++)
      uv[n][d] = corner[c][d] * order;
  for (int e = 0; e < 4; e++) {
    const int *a = corner[e], *b = corner[(e + 1) % 4];
    for (int t = 1; t < order; t++, n++)
      for (int d = 0; d < 2; d++)
        uv[n][d] = a[d] * order + t * (b[d] - a[d]);
  }
  if (order >= 2) {
    int m = quad_lattice(order - 2, &uv[n]);
    for (int a = n; a < n + m; a++)
      uv[a][0]++, uv[a][1]++;
    n += m;
  }
  return n;
}

static int hex_lattice(int order, int ijk[][3]) {
  if (order == 0) {
    ijk[0][0] = ijk[0][1] = ijk[0][2] = 0;
    return 1;
  }
  int n = 0;
  for (int v = 0; v < 8; v++, n++)
    for (int d = 0; d < 3; d++)
      ijk[n][d] = HEX_VERTEX[v][d] * order;
  for (int e = 0; e < 12; e++) {
    const int *a = HEX_VERTEX[HEX_EDGE[e][0]], *b = HEX_VERTEX[HEX_EDGE[e][1]];
    for (int t = 1; t < order; t++, n++)
      for (int d = 0; d < 3; d++)
        ijk[n][d] = a[d] * order + t * (b[d] - a[d]);
  }
  if (order < 2) return n;
  int uv[GMSH_MAX_NODES][2];
  int nq = quad_lattice(order - 2, uv);
  for (int f = 0; f < 6; f++) {
    const int *v0 = HEX_VERTEX[HEX_FACE[f][0]], *v1 = HEX_VERTEX[HEX_FACE[f][1]];
    const int *v3 = HEX_VERTEX[HEX_FACE[f][3]];
    for (int a = 0; a < nq; a++, n++)
      for (int d = 0; d < 3; d++)
        ijk[n][d] =
            v0[d] * order + (uv[a][0] + 1) * (v1[d] - v0[d]) + (uv[a][1] + 1) * (v3[d] - v0[d]);
  }
  int m = hex_lattice(order - 2, &ijk[n]);
  for (int a = n; a < n + m; a++)
    for (int d = 0; d < 3; d++)
      ijk[a][d]++;
  return n + m;
}

int gmsh_hex_lattice(int order, int ijk[][3]) {
  if (order < 1 || order > GMSH_MAX_ORDER) return -1;
  return hex_lattice(order, ijk);
}

/* gmsh element types: hexahedra of order 1..4, and the node counts of the 0-/1-/2-D types that
 * may accompany them (gmsh manual, "MSH file format", element types; gmsh's
 * getElementProperties for the higher-order ones). */
static int hex_order_of_type(int type) {
  static const int hex_type[GMSH_MAX_ORDER + 1] = {0, 5, 12, 92, 93}; /* by order */
  for (int order = 1; order <= GMSH_MAX_ORDER; order++)
    if (hex_type[order] == type) return order;
  return 0;
}

typedef struct {
  int type, n_nodes, is_quad;
} LowerDimType;

/* (type, number of nodes) of points and lines, triangles, quadrangles (whose first four nodes
 * are the corners) */
static const int POINT_LINE_TYPES[][2] = {{15, 1}, {1, 2},  {8, 3},  {26, 4},  {27, 5}, {28, 6},
                                          {62, 7}, {63, 8}, {64, 9}, {65, 10}, {66, 11}};
static const int TRIANGLE_TYPES[][2] = {{2, 3},   {9, 6},   {20, 9},  {21, 10}, {22, 12}, {23, 15},
                                        {24, 15}, {25, 21}, {42, 28}, {43, 36}, {44, 45}, {45, 55},
                                        {46, 66}, {52, 18}, {53, 21}, {54, 24}, {55, 27}, {56, 30}};
static const int QUAD_TYPES[][2] = {{3, 4},   {10, 9},  {16, 8},   {36, 16},  {37, 25},
                                    {38, 36}, {39, 12}, {40, 16},  {41, 20},  {47, 49},
                                    {48, 64}, {49, 81}, {50, 100}, {51, 121}, {57, 24},
                                    {58, 28}, {59, 32}, {60, 36},  {61, 40}};

/* Node count and quadrangle flag of a 0-/1-/2-D element type; 0 if the type is not one. */
static int lower_dim_type(int type, LowerDimType *t) {
  const int(*tables[3])[2] = {POINT_LINE_TYPES, TRIANGLE_TYPES, QUAD_TYPES};
  const size_t sizes[3] = {sizeof POINT_LINE_TYPES / sizeof POINT_LINE_TYPES[0],
                           sizeof TRIANGLE_TYPES / sizeof TRIANGLE_TYPES[0],
                           sizeof QUAD_TYPES / sizeof QUAD_TYPES[0]};
  for (int k = 0; k < 3; k++)
    for (size_t i = 0; i < sizes[k]; i++)
      if (tables[k][i][0] == type) {
        *t = (LowerDimType){type, tables[k][i][1], k == 2};
        return 1;
      }
  return 0;
}

static const char *volume_type_name(int type) {
  switch (type) {
  case 4:
    return "4-node tetrahedron";
  case 11:
    return "10-node tetrahedron";
  case 6:
    return "6-node prism";
  case 13:
    return "18-node prism";
  case 18:
    return "15-node prism";
  case 7:
    return "5-node pyramid";
  case 14:
    return "14-node pyramid";
  case 19:
    return "13-node pyramid";
  case 17:
    return "20-node (serendipity) hexahedron";
  case 94:
  case 95:
  case 96:
  case 97:
  case 98:
    return "hexahedron of order > 4";
  default:
    return "non-hexahedral 3-D element";
  }
}

/* ------------------------------------------------------------------------------ file reader */

typedef struct {
  FILE *fp;
  const char *path;
  unsigned char *buf;
  size_t pos, len;
  long long offset, file_size; /* bytes consumed; size of the file */
  long line;                   /* current line (1-based), meaningful while reading text */
  long tok_line;               /* line / byte offset where the last item started */
  long long tok_offset;
  int binary;
  const char *section;
} Reader;

__attribute__((format(printf, 2, 3))) static int rd_fail(const Reader *r, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (r->binary)
    return HX_ERROR(HX_ERR_INPUT, "gmsh file %s, section %s (binary, byte %lld): %s", r->path,
                    r->section, r->tok_offset, msg);
  return HX_ERROR(HX_ERR_INPUT, "gmsh file %s, line %ld (section %s): %s", r->path, r->tok_line,
                  r->section, msg);
}

static int rd_truncated(const Reader *r, const char *what) {
  return rd_fail(r,
                 "unexpected end of file while reading %s: the file is truncated; regenerate "
                 "or re-export the mesh",
                 what);
}

static int rd_peek(Reader *r) {
  if (r->pos == r->len) {
    r->len = fread(r->buf, 1, READ_CHUNK, r->fp);
    r->pos = 0;
    if (r->len == 0) return EOF;
  }
  return r->buf[r->pos];
}

static int rd_getc(Reader *r) {
  int c = rd_peek(r);
  if (c == EOF) return EOF;
  r->pos++;
  r->offset++;
  if (c == '\n') r->line++;
  return c;
}

static int is_space(int c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f';
}

static void rd_skip_space(Reader *r) {
  while (is_space(rd_peek(r)))
    rd_getc(r);
}

/* Next whitespace-delimited token, truncated to size-1 characters. Returns 0 at end of file,
 * else the full token length. */
static size_t rd_token_raw(Reader *r, char *tok, size_t size) {
  rd_skip_space(r);
  r->tok_line = r->line;
  r->tok_offset = r->offset;
  size_t n = 0;
  for (int c = rd_peek(r); c != EOF && !is_space(c); c = rd_peek(r), n++) {
    if (n + 1 < size) tok[n] = c < 32 || c > 126 ? '?' : (char)c; /* printable in messages */
    rd_getc(r);
  }
  tok[n + 1 < size ? n : size - 1] = '\0';
  return n;
}

static int rd_token(Reader *r, char *tok, size_t size, const char *what) {
  size_t n = rd_token_raw(r, tok, size);
  if (n == 0) return rd_truncated(r, what);
  if (n >= size)
    return rd_fail(r, "%s is too long (%zu characters, at most %zu)", what, n, size - 1);
  return HX_OK;
}

static int rd_bytes(Reader *r, void *dst, size_t n, const char *what) {
  unsigned char *d = dst;
  r->tok_offset = r->offset;
  while (n > 0) {
    if (rd_peek(r) == EOF) return rd_truncated(r, what);
    size_t take = r->len - r->pos < n ? r->len - r->pos : n;
    memcpy(d, r->buf + r->pos, take);
    r->pos += take;
    r->offset += (long long)take;
    d += take;
    n -= take;
  }
  return HX_OK;
}

static int rd_size(Reader *r, size_t *value, const char *what) {
  if (r->binary) {
    uint64_t v;
    HX_CHECK(rd_bytes(r, &v, sizeof v, what));
    *value = (size_t)v;
    return HX_OK;
  }
  char tok[64], *end;
  HX_CHECK(rd_token(r, tok, sizeof tok, what));
  errno = 0;
  unsigned long long v = strtoull(tok, &end, 10);
  if (*end != '\0' || errno != 0 || tok[0] == '-')
    return rd_fail(r, "expected %s (a non-negative integer), found '%s'", what, tok);
  *value = (size_t)v;
  return HX_OK;
}

static int rd_int(Reader *r, int *value, const char *what) {
  if (r->binary) {
    int32_t v;
    HX_CHECK(rd_bytes(r, &v, sizeof v, what));
    *value = v;
    return HX_OK;
  }
  char tok[64], *end;
  HX_CHECK(rd_token(r, tok, sizeof tok, what));
  errno = 0;
  long v = strtol(tok, &end, 10);
  if (*end != '\0' || errno != 0 || v < INT_MIN || v > INT_MAX)
    return rd_fail(r, "expected %s (an integer), found '%s'", what, tok);
  *value = (int)v;
  return HX_OK;
}

static int rd_double(Reader *r, double *value, const char *what) {
  if (r->binary) return rd_bytes(r, value, sizeof *value, what);
  char tok[128], *end;
  HX_CHECK(rd_token(r, tok, sizeof tok, what));
  *value = strtod(tok, &end);
  if (*end != '\0' || !isfinite(*value))
    return rd_fail(r, "expected %s (a finite real number), found '%s'", what, tok);
  return HX_OK;
}

/* Skip count numbers of binary size each_bytes (one token each in ASCII). */
static int rd_skip_values(Reader *r, size_t count, size_t each_bytes, const char *what) {
  char tok[128];
  for (size_t i = 0; i < count; i++) {
    if (!r->binary) {
      HX_CHECK(rd_token(r, tok, sizeof tok, what));
      continue;
    }
    for (size_t b = 0; b < each_bytes; b++)
      if (rd_getc(r) == EOF) return rd_truncated(r, what);
  }
  return HX_OK;
}

/* A header announcing more entries than the rest of the file can hold is corrupt or truncated:
 * refuse it before allocating. */
static int rd_check_count(const Reader *r, size_t count, size_t min_bytes_each, const char *what) {
  long long left = r->file_size - r->offset;
  if (count > 0 && (long double)count * min_bytes_each > (long double)left)
    return rd_fail(r,
                   "the header announces %zu %s, more than the remaining %lld bytes of the file "
                   "can hold: the file is truncated or corrupt",
                   count, what, left);
  return HX_OK;
}

static int rd_expect_end(Reader *r, const char *name) {
  char tok[128], want[128];
  snprintf(want, sizeof want, "$End%s", name + 1);
  size_t n = rd_token_raw(r, tok, sizeof tok);
  if (n == 0) return rd_truncated(r, want);
  if (strcmp(tok, want) != 0)
    return rd_fail(r,
                   "expected %s, found '%s': the section holds more or fewer entries than its "
                   "header announces (corrupt file?)",
                   want, tok);
  return HX_OK;
}

/* ----------------------------------------------------------------------------- parsed data */

typedef struct {
  int tag;
  char name[HX_MAX_NAME];
} PhysName;

typedef struct {
  int tag, phys; /* surface entity and its first physical tag (0: none) */
} SurfacePhys;

typedef struct {
  int dim, slave, master, has_shift;
  double shift[3]; /* x_slave = x_master + shift */
  size_t first_pair, n_pairs;
} PeriodicLink;

typedef struct {
  int have_format, have_nodes, have_elements, have_periodic, have_entities, have_names;
  PhysName *names;
  int n_names;
  SurfacePhys *surfaces;
  size_t n_surfaces;
  size_t n_nodes, *node_tags;
  double *node_xyz;
  int hex_order;
  size_t n_hex, cap_hex, *hex_tags, *hex_nodes; /* gmsh node tags, gmsh order */
  size_t n_quad, cap_quad, *quad_tags, *quad_corners;
  int *quad_entity;
  PeriodicLink *links;
  size_t n_links, n_pairs, cap_pairs, *pairs; /* (slave tag, master tag) */
} GmshData;

static void gmsh_data_free(GmshData *g) {
  free(g->names);
  free(g->surfaces);
  free(g->node_tags);
  free(g->node_xyz);
  free(g->hex_tags);
  free(g->hex_nodes);
  free(g->quad_tags);
  free(g->quad_corners);
  free(g->quad_entity);
  free(g->links);
  free(g->pairs);
}

/* Capacity of a growing array that must hold need entries (doubling). */
static size_t grown_capacity(size_t cap, size_t need) {
  size_t n = cap ? cap : 64;
  while (n < need)
    n *= 2;
  return n;
}

/* ------------------------------------------------------------------------------- sections */

static int parse_mesh_format(Reader *r, GmshData *g) {
  char version[64];
  int file_type, data_size;
  HX_CHECK(rd_token(r, version, sizeof version, "the format version"));
  if (strcmp(version, "4.1") != 0)
    return rd_fail(r,
                   "MSH format version %s is not supported, hexdg reads version 4.1 only: "
                   "re-export the mesh with 'gmsh -format msh41' (Mesh.MshFileVersion = 4.1)",
                   version);
  HX_CHECK(rd_int(r, &file_type, "the file type (0 ASCII, 1 binary)"));
  HX_CHECK(rd_int(r, &data_size, "the data size"));
  if (file_type != 0 && file_type != 1)
    return rd_fail(r, "file type %d is neither 0 (ASCII) nor 1 (binary)", file_type);
  if (file_type == 1) {
    if (data_size != 8)
      return rd_fail(r,
                     "binary data size %d is not supported (expected 8-byte size_t): "
                     "re-export the mesh on a 64-bit machine or as ASCII",
                     data_size);
    int c;
    while ((c = rd_getc(r)) != '\n')
      if (c == EOF) return rd_truncated(r, "the binary endianness marker");
    int32_t one;
    HX_CHECK(rd_bytes(r, &one, sizeof one, "the binary endianness marker"));
    if (one != 1)
      return rd_fail(r,
                     "the binary file was written with the other byte order, which is not "
                     "supported: re-export it as ASCII (gmsh option -format msh41 without -bin)");
    r->binary = 1;
  }
  g->have_format = 1;
  return rd_expect_end(r, "$MeshFormat");
}

/* Physical group names are text even in binary files. */
static int parse_physical_names(Reader *r, GmshData *g) {
  int binary = r->binary, n = 0;
  r->binary = 0;
  HX_CHECK(rd_int(r, &n, "the number of physical names"));
  if (n < 0) return rd_fail(r, "negative number of physical names (%d)", n);
  HX_CHECK(rd_check_count(r, (size_t)n, 8, "physical names"));
  g->names = hx_calloc((size_t)n + 1, sizeof(PhysName), "physical names");
  HX_ALLOC_CHECK(g->names);
  for (int i = 0; i < n; i++) {
    int dim, tag, c;
    HX_CHECK(rd_int(r, &dim, "the dimension of a physical name"));
    HX_CHECK(rd_int(r, &tag, "the tag of a physical name"));
    rd_skip_space(r);
    if (rd_getc(r) != '"')
      return rd_fail(r, "the name of physical group %d (dimension %d) must be in double quotes",
                     tag, dim);
    char name[HX_MAX_NAME];
    size_t len = 0;
    while ((c = rd_getc(r)) != '"') {
      if (c == EOF || c == '\n')
        return rd_fail(r, "the name of physical group %d has no closing double quote", tag);
      if (len + 1 >= sizeof name)
        return rd_fail(r, "the name of physical group %d is longer than %d characters", tag,
                       HX_MAX_NAME - 1);
      name[len++] = (char)c;
    }
    name[len] = '\0';
    if (dim != 2) continue;
    g->names[g->n_names].tag = tag;
    memcpy(g->names[g->n_names].name, name, len + 1);
    g->n_names++;
  }
  r->binary = binary;
  return rd_expect_end(r, "$PhysicalNames");
}

/* Physical tags of one entity: the first one (0 if none) is returned in *first. */
static int read_physical_tags(Reader *r, int *first) {
  size_t n;
  HX_CHECK(rd_size(r, &n, "the number of physical tags of an entity"));
  HX_CHECK(rd_check_count(r, n, r->binary ? 4 : 2, "physical tags"));
  *first = 0;
  for (size_t i = 0; i < n; i++) {
    int tag;
    HX_CHECK(rd_int(r, &tag, "a physical tag"));
    if (i == 0) *first = tag < 0 ? -tag : tag;
  }
  return HX_OK;
}

static int compare_surfaces(const void *a, const void *b) {
  const SurfacePhys *x = a, *y = b;
  return (x->tag > y->tag) - (x->tag < y->tag);
}

static int parse_entities(Reader *r, GmshData *g) {
  size_t count[4];
  const char *what[4] = {"points", "curves", "surfaces", "volumes"};
  for (int d = 0; d < 4; d++)
    HX_CHECK(rd_size(r, &count[d], "the number of entities"));
  HX_CHECK(rd_check_count(r, count[2], r->binary ? 68 : 16, "surfaces"));
  g->surfaces = hx_malloc(sizeof(SurfacePhys) * (count[2] + 1), "surface entities");
  HX_ALLOC_CHECK(g->surfaces);
  for (int d = 0; d < 4; d++)
    for (size_t i = 0; i < count[d]; i++) {
      int tag, phys;
      double coord;
      HX_CHECK(rd_int(r, &tag, what[d]));
      for (int c = 0; c < (d == 0 ? 3 : 6); c++)
        HX_CHECK(rd_double(r, &coord, "a bounding box"));
      HX_CHECK(read_physical_tags(r, &phys));
      if (d > 0) {
        size_t n_bound;
        HX_CHECK(rd_size(r, &n_bound, "the number of bounding entities"));
        HX_CHECK(rd_check_count(r, n_bound, r->binary ? 4 : 2, "bounding entities"));
        HX_CHECK(rd_skip_values(r, n_bound, 4, "a bounding entity"));
      }
      if (d == 2) {
        g->surfaces[g->n_surfaces].tag = tag;
        g->surfaces[g->n_surfaces].phys = phys;
        g->n_surfaces++;
      }
    }
  qsort(g->surfaces, g->n_surfaces, sizeof(SurfacePhys), compare_surfaces);
  g->have_entities = 1;
  return rd_expect_end(r, "$Entities");
}

static int parse_nodes(Reader *r, GmshData *g) {
  size_t n_blocks, n_nodes, min_tag, max_tag, filled = 0;
  HX_CHECK(rd_size(r, &n_blocks, "the number of node blocks"));
  HX_CHECK(rd_size(r, &n_nodes, "the number of nodes"));
  HX_CHECK(rd_size(r, &min_tag, "the smallest node tag"));
  HX_CHECK(rd_size(r, &max_tag, "the largest node tag"));
  HX_CHECK(rd_check_count(r, n_nodes, r->binary ? 32 : 8, "nodes"));
  g->node_tags = hx_malloc(sizeof(size_t) * (n_nodes + 1), "gmsh node tags");
  g->node_xyz = hx_malloc(sizeof(double) * 3 * (n_nodes + 1), "gmsh node coordinates");
  if (!g->node_tags || !g->node_xyz) return HX_ERR_MEM;
  for (size_t b = 0; b < n_blocks; b++) {
    int dim, entity, parametric;
    size_t n;
    HX_CHECK(rd_int(r, &dim, "the entity dimension of a node block"));
    HX_CHECK(rd_int(r, &entity, "the entity tag of a node block"));
    HX_CHECK(rd_int(r, &parametric, "the parametric flag of a node block"));
    HX_CHECK(rd_size(r, &n, "the number of nodes in a block"));
    if (n > n_nodes - filled)
      return rd_fail(r,
                     "node block of entity (dimension %d, tag %d) holds %zu nodes, more than "
                     "the %zu the section header announces (corrupt file?)",
                     dim, entity, n, n_nodes);
    for (size_t i = 0; i < n; i++)
      HX_CHECK(rd_size(r, &g->node_tags[filled + i], "a node tag"));
    int n_param = parametric ? dim : 0;
    for (size_t i = 0; i < n; i++) {
      for (int c = 0; c < 3; c++) {
        double *x = &g->node_xyz[3 * (filled + i) + c];
        HX_CHECK(rd_double(r, x, "a node coordinate"));
        /* NaN/inf would reach the Hilbert sort and the metrics (found by tests/fuzz) */
        if (!isfinite(*x))
          return rd_fail(r, "node %zu has the non-finite coordinate %g (corrupt file?)",
                         g->node_tags[filled + i], *x);
      }
      HX_CHECK(rd_skip_values(r, (size_t)n_param, 8, "a parametric node coordinate"));
    }
    filled += n;
  }
  if (filled != n_nodes)
    return rd_fail(r,
                   "the node blocks hold %zu nodes but the section header announces %zu "
                   "(corrupt file?)",
                   filled, n_nodes);
  g->n_nodes = n_nodes;
  g->have_nodes = 1;
  return rd_expect_end(r, "$Nodes");
}

static int read_hex_block(Reader *r, GmshData *g, int entity, int type, size_t n) {
  int order = hex_order_of_type(type), nn = (order + 1) * (order + 1) * (order + 1);
  size_t tag = 0;
  if (order == 0) {
    if (n > 0) HX_CHECK(rd_size(r, &tag, "an element tag"));
    return rd_fail(r,
                   "element %zu of volume %d is a %s (gmsh type %d): hexdg reads hexahedra "
                   "only (types 5, 12, 92, 93 = order 1..4); mesh the volume with hexahedra "
                   "(transfinite + Recombine, or Mesh.SubdivisionAlgorithm = 2)",
                   tag, entity, volume_type_name(type), type);
  }
  if (g->hex_order != 0 && g->hex_order != order)
    return rd_fail(r,
                   "volume %d holds hexahedra of order %d but earlier ones have order %d: "
                   "generate all elements with the same Mesh.ElementOrder",
                   entity, order, g->hex_order);
  g->hex_order = order;
  if (g->n_hex + n > g->cap_hex) {
    size_t cap = grown_capacity(g->cap_hex, g->n_hex + n);
    size_t *tags = realloc(g->hex_tags, sizeof(size_t) * cap);
    if (tags) g->hex_tags = tags;
    size_t *nodes = realloc(g->hex_nodes, sizeof(size_t) * nn * cap);
    if (nodes) g->hex_nodes = nodes;
    if (!tags || !nodes) return HX_ERROR(HX_ERR_MEM, "out of host memory for %zu hexahedra", cap);
    g->cap_hex = cap;
  }
  for (size_t i = 0; i < n; i++, g->n_hex++) {
    HX_CHECK(rd_size(r, &g->hex_tags[g->n_hex], "an element tag"));
    for (int a = 0; a < nn; a++)
      HX_CHECK(rd_size(r, &g->hex_nodes[(size_t)nn * g->n_hex + a], "a node tag of an element"));
  }
  return HX_OK;
}

static int read_quad_block(Reader *r, GmshData *g, int entity, int n_nodes, size_t n) {
  if (g->n_quad + n > g->cap_quad) {
    size_t cap = grown_capacity(g->cap_quad, g->n_quad + n);
    size_t *tags = realloc(g->quad_tags, sizeof(size_t) * cap);
    if (tags) g->quad_tags = tags;
    size_t *corners = realloc(g->quad_corners, sizeof(size_t) * 4 * cap);
    if (corners) g->quad_corners = corners;
    int *entity_of = realloc(g->quad_entity, sizeof(int) * cap);
    if (entity_of) g->quad_entity = entity_of;
    if (!tags || !corners || !entity_of)
      return HX_ERROR(HX_ERR_MEM, "out of host memory for %zu quadrangles", cap);
    g->cap_quad = cap;
  }
  for (size_t i = 0; i < n; i++, g->n_quad++) {
    HX_CHECK(rd_size(r, &g->quad_tags[g->n_quad], "an element tag"));
    for (int a = 0; a < 4; a++)
      HX_CHECK(rd_size(r, &g->quad_corners[4 * g->n_quad + a], "a node tag of an element"));
    HX_CHECK(rd_skip_values(r, (size_t)n_nodes - 4, 8, "a node tag of an element"));
    g->quad_entity[g->n_quad] = entity;
  }
  return HX_OK;
}

static int parse_elements(Reader *r, GmshData *g) {
  size_t n_blocks, n_elems, min_tag, max_tag;
  HX_CHECK(rd_size(r, &n_blocks, "the number of element blocks"));
  HX_CHECK(rd_size(r, &n_elems, "the number of elements"));
  HX_CHECK(rd_size(r, &min_tag, "the smallest element tag"));
  HX_CHECK(rd_size(r, &max_tag, "the largest element tag"));
  HX_CHECK(rd_check_count(r, n_elems, r->binary ? 16 : 4, "elements"));
  for (size_t b = 0; b < n_blocks; b++) {
    int dim, entity, type;
    size_t n;
    HX_CHECK(rd_int(r, &dim, "the entity dimension of an element block"));
    HX_CHECK(rd_int(r, &entity, "the entity tag of an element block"));
    HX_CHECK(rd_int(r, &type, "the element type of an element block"));
    HX_CHECK(rd_size(r, &n, "the number of elements in a block"));
    HX_CHECK(rd_check_count(r, n, r->binary ? 16 : 4, "elements"));
    LowerDimType t = {0, 0, 0};
    int known = lower_dim_type(type, &t);
    if (dim == 3 || hex_order_of_type(type) > 0) {
      HX_CHECK(read_hex_block(r, g, entity, type, n));
    } else if (!known) {
      return rd_fail(r,
                     "element type %d (entity of dimension %d, tag %d) is unknown to hexdg's "
                     "gmsh reader; remove these elements from the physical groups",
                     type, dim, entity);
    } else if (t.is_quad && dim == 2) {
      HX_CHECK(read_quad_block(r, g, entity, t.n_nodes, n));
    } else {
      HX_CHECK(rd_skip_values(r, n * (size_t)(1 + t.n_nodes), 8, "an element"));
    }
  }
  g->have_elements = 1;
  return rd_expect_end(r, "$Elements");
}

/* One $Periodic link header: dimension, slave and master entity, affine transformation (4x4,
 * row-major, mapping the master onto the slave); only translations are accepted. */
static int read_periodic_link(Reader *r, PeriodicLink *l) {
  size_t n_affine;
  double a[16];
  HX_CHECK(rd_int(r, &l->dim, "the dimension of a periodic link"));
  HX_CHECK(rd_int(r, &l->slave, "the slave entity of a periodic link"));
  HX_CHECK(rd_int(r, &l->master, "the master entity of a periodic link"));
  HX_CHECK(rd_size(r, &n_affine, "the number of affine transformation values"));
  if (n_affine != 0 && n_affine != 16)
    return rd_fail(r,
                   "periodic link of entity (dimension %d, tag %d): %zu affine values, "
                   "expected 16 (a 4x4 matrix) or 0",
                   l->dim, l->slave, n_affine);
  for (size_t i = 0; i < n_affine; i++)
    HX_CHECK(rd_double(r, &a[i], "an affine value"));
  l->has_shift = n_affine == 16;
  if (!l->has_shift) return HX_OK;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++) {
      double want = j == i ? 1.0 : 0.0;
      if (j < 3 && fabs(a[4 * i + j] - want) > 1e-10)
        return rd_fail(r,
                       "periodic link of entity (dimension %d, tag %d -> master %d) is not a "
                       "translation (rotation part of the affine transformation is not the "
                       "identity): hexdg supports translational periodicity only",
                       l->dim, l->slave, l->master);
    }
  for (int i = 0; i < 3; i++)
    l->shift[i] = a[4 * i + 3];
  return HX_OK;
}

static int parse_periodic(Reader *r, GmshData *g) {
  size_t n_links;
  HX_CHECK(rd_size(r, &n_links, "the number of periodic links"));
  HX_CHECK(rd_check_count(r, n_links, r->binary ? 20 : 8, "periodic links"));
  g->links = hx_calloc(n_links + 1, sizeof(PeriodicLink), "periodic links");
  HX_ALLOC_CHECK(g->links);
  for (size_t k = 0; k < n_links; k++) {
    PeriodicLink *l = &g->links[k];
    size_t n;
    HX_CHECK(read_periodic_link(r, l));
    HX_CHECK(rd_size(r, &n, "the number of periodic node pairs"));
    HX_CHECK(rd_check_count(r, n, r->binary ? 16 : 4, "periodic node pairs"));
    if (g->n_pairs + n > g->cap_pairs) {
      size_t cap = grown_capacity(g->cap_pairs, g->n_pairs + n);
      size_t *pairs = realloc(g->pairs, sizeof(size_t) * 2 * cap);
      if (!pairs) return HX_ERROR(HX_ERR_MEM, "out of host memory for %zu periodic pairs", cap);
      g->pairs = pairs;
      g->cap_pairs = cap;
    }
    l->first_pair = g->n_pairs;
    l->n_pairs = n;
    for (size_t i = 0; i < 2 * n; i++)
      HX_CHECK(rd_size(r, &g->pairs[2 * g->n_pairs + i], "a periodic node tag"));
    g->n_pairs += n;
  }
  g->n_links = n_links;
  g->have_periodic = 1;
  return rd_expect_end(r, "$Periodic");
}

/* Sections hexdg does not need ($NodeData, $Parametrizations, ...): skip to their end marker. */
static int skip_section(Reader *r, const char *name) {
  char tok[256], want[272];
  snprintf(want, sizeof want, "$End%s", name + 1);
  while (rd_token_raw(r, tok, sizeof tok) > 0)
    if (strcmp(tok, want) == 0) return HX_OK;
  return rd_truncated(r, want);
}

static int parse_section(Reader *r, GmshData *g, const char *name) {
  static const char *const names[] = {"$MeshFormat", "$PhysicalNames", "$Entities",
                                      "$Nodes",      "$Elements",      "$Periodic"};
  int kind = -1;
  for (int k = 0; k < 6; k++)
    if (strcmp(name, names[k]) == 0) kind = k;
  r->section = kind >= 0 ? names[kind] : name;
  if (!g->have_format && kind != 0)
    return rd_fail(r, "the file starts with '%s' instead of $MeshFormat: not a gmsh .msh file",
                   name);
  int *seen[6] = {&g->have_format, &g->have_names,    &g->have_entities,
                  &g->have_nodes,  &g->have_elements, &g->have_periodic};
  if (kind == 0 && g->have_format) return rd_fail(r, "$MeshFormat appears twice");
  if (kind > 0 && *seen[kind]) return rd_fail(r, "section %s appears twice", name);
  if (kind == 1) g->have_names = 1;
  /* binary data starts right after the newline that ends the section's header line */
  for (int c = rd_getc(r); c != '\n'; c = rd_getc(r))
    if (c == EOF) return rd_truncated(r, name);
  switch (kind) {
  case 0:
    return parse_mesh_format(r, g);
  case 1:
    return parse_physical_names(r, g);
  case 2:
    return parse_entities(r, g);
  case 3:
    return parse_nodes(r, g);
  case 4:
    return parse_elements(r, g);
  case 5:
    return parse_periodic(r, g);
  default:
    break;
  }
  if (strcmp(name, "$PartitionedEntities") == 0)
    return rd_fail(r, "partitioned meshes are not supported: save the mesh without partitions");
  if (name[0] != '$') return rd_fail(r, "unexpected '%s' outside of a section", name);
  return skip_section(r, name);
}

static int parse_file(const char *path, GmshData *g) {
  FILE *fp = fopen(path, "rb");
  if (!fp)
    return HX_ERROR(HX_ERR_IO, "cannot open gmsh mesh file '%s': %s; check MeshFile", path,
                    strerror(errno));
  Reader r = {.fp = fp, .path = path, .line = 1, .tok_line = 1, .section = "(none)"};
  fseek(fp, 0, SEEK_END);
  r.file_size = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  r.buf = hx_malloc(READ_CHUNK, "file buffer");
  int rc = r.buf ? HX_OK : HX_ERR_MEM;
  char tok[256];
  while (rc == HX_OK && rd_token_raw(&r, tok, sizeof tok) > 0)
    rc = parse_section(&r, g, tok);
  free(r.buf);
  fclose(fp);
  if (rc != HX_OK) return rc;
  if (!g->have_format)
    return HX_ERROR(HX_ERR_INPUT,
                    "gmsh file %s: no $MeshFormat section (empty file or not a "
                    "gmsh .msh file)",
                    path);
  if (!g->have_nodes || !g->have_elements || g->n_hex == 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "gmsh file %s holds no hexahedra%s: mesh the volume with hexahedra and "
                    "put it into a Physical Volume (gmsh saves only elements of physical groups "
                    "when there are any), or set Mesh.SaveAll = 1",
                    path, !g->have_elements ? " (no $Elements section)" : "");
  return HX_OK;
}

/* ------------------------------------------------------------------- nodes and periodicity */

typedef struct {
  size_t tag;
  size_t index;
} TagIndex;

static int compare_tag_index(const void *a, const void *b) {
  const TagIndex *x = a, *y = b;
  return x->tag < y->tag ? -1 : x->tag > y->tag;
}

/* Node tag -> position in g->node_tags, by binary search over the tags sorted once. */
typedef struct {
  TagIndex *sorted;
  size_t n;
} NodeIndex;

static int node_index_build(const GmshData *g, const char *path, NodeIndex *ix) {
  ix->n = g->n_nodes;
  ix->sorted = hx_malloc(sizeof(TagIndex) * (ix->n + 1), "node index");
  HX_ALLOC_CHECK(ix->sorted);
  for (size_t i = 0; i < ix->n; i++)
    ix->sorted[i] = (TagIndex){g->node_tags[i], i};
  qsort(ix->sorted, ix->n, sizeof(TagIndex), compare_tag_index);
  for (size_t i = 1; i < ix->n; i++)
    if (ix->sorted[i].tag == ix->sorted[i - 1].tag)
      return HX_ERROR(HX_ERR_INPUT, "gmsh file %s, section $Nodes: node tag %zu appears twice",
                      path, ix->sorted[i].tag);
  return HX_OK;
}

static long node_lookup(const NodeIndex *ix, size_t tag) {
  TagIndex key = {tag, 0};
  const TagIndex *hit = bsearch(&key, ix->sorted, ix->n, sizeof(TagIndex), compare_tag_index);
  return hit ? (long)hit->index : -1;
}

static long uf_find(long *parent, long a) {
  while (parent[a] != a) {
    parent[a] = parent[parent[a]];
    a = parent[a];
  }
  return a;
}

/* Two points closer than this coincide: 1e-8 of the mesh's bounding box diagonal. */
static double node_tolerance(const GmshData *g) {
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, d2 = 0;
  for (size_t i = 0; i < g->n_nodes; i++)
    for (int c = 0; c < 3; c++) {
      lo[c] = fmin(lo[c], g->node_xyz[3 * i + c]);
      hi[c] = fmax(hi[c], g->node_xyz[3 * i + c]);
    }
  for (int c = 0; c < 3; c++)
    d2 += (hi[c] - lo[c]) * (hi[c] - lo[c]);
  return 1e-8 * sqrt(d2) + 1e-300;
}

/* Check one periodic link (every slave node is its master node moved by the link's translation)
 * and merge the node classes. parent: union-find forest over node positions. */
static int apply_periodic_link(const GmshData *g, const char *path, const NodeIndex *ix,
                               PeriodicLink *l, double tol, long *parent) {
  for (size_t p = l->first_pair; p < l->first_pair + l->n_pairs; p++) {
    size_t tags[2] = {g->pairs[2 * p], g->pairs[2 * p + 1]};
    long at[2];
    for (int s = 0; s < 2; s++) {
      at[s] = node_lookup(ix, tags[s]);
      if (at[s] < 0)
        return HX_ERROR(HX_ERR_INPUT,
                        "gmsh file %s, section $Periodic: the link of entity (dimension %d, tag "
                        "%d) -> master %d names node %zu, which is not in $Nodes; regenerate the "
                        "mesh",
                        path, l->dim, l->slave, l->master, tags[s]);
    }
    const double *xs = &g->node_xyz[3 * at[0]], *xm = &g->node_xyz[3 * at[1]];
    if (!l->has_shift) {
      for (int c = 0; c < 3; c++)
        l->shift[c] = xs[c] - xm[c];
      l->has_shift = 1;
    }
    double err = 0;
    for (int c = 0; c < 3; c++)
      err = fmax(err, fabs(xs[c] - xm[c] - l->shift[c]));
    if (err > tol)
      return HX_ERROR(HX_ERR_INPUT,
                      "gmsh file %s, section $Periodic: the link of entity (dimension %d, tag %d) "
                      "-> master %d pairs node %zu (%g %g %g) with master node %zu (%g %g %g), "
                      "which is not the link's translation (%g %g %g); fix the Periodic "
                      "constraint of the geometry and regenerate the mesh",
                      path, l->dim, l->slave, l->master, tags[0], xs[0], xs[1], xs[2], tags[1],
                      xm[0], xm[1], xm[2], l->shift[0], l->shift[1], l->shift[2]);
    long a = uf_find(parent, at[0]), b = uf_find(parent, at[1]);
    if (a != b) parent[a > b ? a : b] = a > b ? b : a;
  }
  return HX_OK;
}

static int periodic_classes(GmshData *g, const char *path, const NodeIndex *ix, long **out) {
  long *parent = hx_malloc(sizeof(long) * (g->n_nodes + 1), "periodic node classes");
  HX_ALLOC_CHECK(parent);
  *out = parent;
  for (size_t i = 0; i < g->n_nodes; i++)
    parent[i] = (long)i;
  double tol = node_tolerance(g);
  for (size_t k = 0; k < g->n_links; k++)
    HX_CHECK(apply_periodic_link(g, path, ix, &g->links[k], tol, parent));
  for (size_t i = 0; i < g->n_nodes; i++)
    parent[i] = uf_find(parent, (long)i);
  return HX_OK;
}

/* ------------------------------------------------------------------------------ elements */

/* Gmsh node positions of every hexahedron in hexdg's tensor layout [k][j][i]. */
static int hex_tensor_nodes(const GmshData *g, const char *path, const NodeIndex *ix, long **out) {
  int order = g->hex_order, ng = order + 1, nn = ng * ng * ng, ijk[GMSH_MAX_NODES][3];
  gmsh_hex_lattice(order, ijk);
  long *nodes = hx_malloc(sizeof(long) * nn * g->n_hex, "element nodes");
  HX_ALLOC_CHECK(nodes);
  *out = nodes;
  for (size_t e = 0; e < g->n_hex; e++)
    for (int a = 0; a < nn; a++) {
      size_t tag = g->hex_nodes[(size_t)nn * e + a];
      long at = node_lookup(ix, tag);
      if (at < 0)
        return HX_ERROR(HX_ERR_INPUT,
                        "gmsh file %s, section $Elements: element %zu names node %zu, which is "
                        "not in $Nodes; regenerate the mesh",
                        path, g->hex_tags[e], tag);
      nodes[(size_t)nn * e + (ijk[a][2] * ng + ijk[a][1]) * ng + ijk[a][0]] = at;
    }
  return HX_OK;
}

static long corner_node(const long *elem, int order, int corner) {
  int ng = order + 1;
  const int *o = HEX_VERTEX[corner];
  return elem[(o[2] * order * ng + o[1] * order) * ng + o[0] * order];
}

/* Volume sign of the trilinear map at the element centre: (d x/d xi) . (d x/d eta x d x/d zeta). */
static double centre_jacobian(const GmshData *g, const long *elem, int order) {
  double a[3][3] = {{0}};
  for (int c = 0; c < 8; c++) {
    const double *x = &g->node_xyz[3 * corner_node(elem, order, c)];
    for (int dir = 0; dir < 3; dir++)
      for (int d = 0; d < 3; d++)
        a[dir][d] += (HEX_VERTEX[c][dir] ? 0.25 : -0.25) * x[d];
  }
  return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
         a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
         a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

/* A left-handed element becomes right-handed by reversing its xi direction. */
static void make_right_handed(const GmshData *g, long *nodes) {
  int order = g->hex_order, ng = order + 1, nn = ng * ng * ng;
  for (size_t e = 0; e < g->n_hex; e++) {
    long *elem = &nodes[(size_t)nn * e];
    if (centre_jacobian(g, elem, order) >= 0.0) continue;
    for (int kj = 0; kj < ng * ng; kj++)
      for (int i = 0; i < ng / 2; i++) {
        long t = elem[kj * ng + i];
        elem[kj * ng + i] = elem[kj * ng + order - i];
        elem[kj * ng + order - i] = t;
      }
  }
}

/* ------------------------------------------------------------------------- face matching */

/* Faces are matched in two passes. Pass 1 pairs faces with the same four corner nodes (inner
 * faces) and attaches the boundary quadrangles to the faces they cover. Pass 2 pairs the faces
 * left over whose corners are all periodic nodes of distinct classes, by the periodic classes of
 * their corners, and checks that the two faces differ by one translation. The classes alone are
 * ambiguous where a periodic direction is only one or two elements thick (a face between the
 * first and the last layer has the same corner classes as an inner or a lateral boundary face),
 * hence the restriction to faces left over and the translation check. */
typedef struct {
  long key[4]; /* sorted corner nodes (pass 1) or their periodic classes (pass 2) */
  long owner;  /* 6 * element + local side, or -(quad + 1) */
} FaceRecord;

static int compare_faces(const void *a, const void *b) {
  const FaceRecord *x = a, *y = b;
  for (int c = 0; c < 4; c++)
    if (x->key[c] != y->key[c]) return x->key[c] < y->key[c] ? -1 : 1;
  return x->owner < y->owner ? -1 : x->owner > y->owner;
}

static int same_key(const FaceRecord *a, const FaceRecord *b) {
  return memcmp(a->key, b->key, sizeof a->key) == 0;
}

static void sort4(long k[4]) {
  for (int i = 1; i < 4; i++)
    for (int j = i; j > 0 && k[j - 1] > k[j]; j--) {
      long t = k[j];
      k[j] = k[j - 1];
      k[j - 1] = t;
    }
}

typedef struct {
  const GmshData *g;
  const char *path;
  const NodeIndex *ix;
  const long *nodes;       /* tensor layout */
  const long *cls;         /* periodic class of each node */
  const char *is_periodic; /* node belongs to a $Periodic pair */
  double tol;              /* length below which two points coincide */
} FaceContext;

/* Key of local side s of element e: its corner nodes, or their classes if cls is given. */
static void hex_face_record(const FaceContext *fc, size_t e, int s, const long *cls,
                            FaceRecord *rec) {
  int order = fc->g->hex_order, ng = order + 1;
  const long *elem = &fc->nodes[(size_t)ng * ng * ng * e];
  for (int c = 0; c < 4; c++) {
    long at = corner_node(elem, order, HX_SIDE_CORNERS[s][c]);
    rec->key[c] = cls ? cls[at] : at;
  }
  sort4(rec->key);
  rec->owner = 6 * (long)e + s;
}

static int quad_face_record(const FaceContext *fc, size_t q, FaceRecord *rec) {
  for (int c = 0; c < 4; c++) {
    size_t tag = fc->g->quad_corners[4 * q + c];
    rec->key[c] = node_lookup(fc->ix, tag);
    if (rec->key[c] < 0)
      return HX_ERROR(HX_ERR_INPUT,
                      "gmsh file %s, section $Elements: quadrangle %zu names node %zu, which is "
                      "not in $Nodes; regenerate the mesh",
                      fc->path, fc->g->quad_tags[q], tag);
  }
  sort4(rec->key);
  rec->owner = -(long)q - 1;
  return HX_OK;
}

static int surface_physical(const GmshData *g, int entity) {
  SurfacePhys key = {entity, 0};
  const SurfacePhys *hit =
      bsearch(&key, g->surfaces, g->n_surfaces, sizeof(SurfacePhys), compare_surfaces);
  return hit ? hit->phys : 0;
}

static int face_error(const FaceContext *fc, long f, const char *problem, const char *todo) {
  int order = fc->g->hex_order, ng = order + 1, s = (int)(f % 6);
  size_t e = (size_t)(f / 6);
  const long *elem = &fc->nodes[(size_t)ng * ng * ng * e];
  double centre[3] = {0, 0, 0};
  size_t tags[4];
  for (int c = 0; c < 4; c++) {
    long at = corner_node(elem, order, HX_SIDE_CORNERS[s][c]);
    tags[c] = fc->g->node_tags[at];
    for (int d = 0; d < 3; d++)
      centre[d] += 0.25 * fc->g->node_xyz[3 * at + d];
  }
  return HX_ERROR(HX_ERR_INPUT,
                  "gmsh file %s: element %zu, local side %d (corner nodes %zu %zu %zu %zu, centre "
                  "%g %g %g) %s: %s",
                  fc->path, fc->g->hex_tags[e], s + 1, tags[0], tags[1], tags[2], tags[3],
                  centre[0], centre[1], centre[2], problem, todo);
}

/* Physical tag of the quadrangles in records [lo, hi) covering face f (0: none). */
static int covering_physical(const FaceContext *fc, const FaceRecord *rec, size_t lo, size_t hi,
                             long f, int *phys) {
  *phys = 0;
  for (size_t i = lo; i < hi; i++) {
    if (rec[i].owner >= 0) continue;
    int p = surface_physical(fc->g, fc->g->quad_entity[-rec[i].owner - 1]);
    if (p != 0 && *phys != 0 && p != *phys)
      return face_error(fc, f, "lies on two physical surfaces",
                        "put each boundary face into one Physical Surface only");
    if (p != 0) *phys = p;
  }
  return HX_OK;
}

/* Pass 2: do faces f1 and f2, whose corners have the same classes, differ by one translation? */
static int translated_copy(const FaceContext *fc, long f1, long f2) {
  int order = fc->g->hex_order, nn = (order + 1) * (order + 1) * (order + 1);
  const long *e1 = &fc->nodes[(size_t)nn * (f1 / 6)], *e2 = &fc->nodes[(size_t)nn * (f2 / 6)];
  double shift[3];
  for (int c1 = 0; c1 < 4; c1++) {
    long a = corner_node(e1, order, HX_SIDE_CORNERS[f1 % 6][c1]), b = -1;
    for (int c2 = 0; c2 < 4; c2++) {
      long at = corner_node(e2, order, HX_SIDE_CORNERS[f2 % 6][c2]);
      if (fc->cls[at] == fc->cls[a]) b = at;
    }
    for (int d = 0; d < 3; d++) {
      double diff = fc->g->node_xyz[3 * a + d] - fc->g->node_xyz[3 * b + d];
      if (c1 == 0) shift[d] = diff;
      if (fabs(diff - shift[d]) > fc->tol) return 0;
    }
  }
  return 1;
}

/* Pass 2, more than two faces with the same corner classes (two periodic directions, one of
 * them two layers thick: the faces of both layers on both sides): each face is paired with the
 * one face of the group that is its translated copy. */
static int pair_by_translation(const FaceContext *fc, const FaceRecord *rec, size_t lo, size_t hi,
                               int *neighbor) {
  for (size_t a = lo; a < hi; a++) {
    long fa = rec[a].owner, partner = -1;
    if (fa < 0 || neighbor[fa] >= 0) continue;
    for (size_t b = lo; b < hi; b++) {
      long fb = rec[b].owner;
      if (b == a || fb < 0 || neighbor[fb] >= 0 || !translated_copy(fc, fa, fb)) continue;
      if (partner >= 0)
        return face_error(fc, fa,
                          "is a translated copy of more than one face after applying "
                          "$Periodic",
                          "periodic directions need more element layers");
      partner = fb;
    }
    if (partner < 0)
      return face_error(fc, fa,
                        "has no translated copy among the faces of the same periodic "
                        "corners",
                        "check the Periodic constraints of the geometry");
    neighbor[fa] = (int)partner;
    neighbor[partner] = (int)fa;
  }
  return HX_OK;
}

/* Sort the records and pair the hexahedron faces of equal keys; in pass 1 a group of one face
 * gets the physical tag of its quadrangles. */
static int pair_faces(const FaceContext *fc, FaceRecord *rec, size_t n_rec, int pass, int *neighbor,
                      int *face_phys) {
  qsort(rec, n_rec, sizeof(FaceRecord), compare_faces);
  for (size_t lo = 0, hi; lo < n_rec; lo = hi) {
    long hex[3];
    int n_hex = 0;
    for (hi = lo; hi < n_rec && same_key(&rec[lo], &rec[hi]); hi++)
      if (rec[hi].owner >= 0 && n_hex < 3) hex[n_hex++] = rec[hi].owner;
    if (n_hex == 3 && pass == 2) {
      HX_CHECK(pair_by_translation(fc, rec, lo, hi, neighbor));
      continue;
    }
    if (n_hex == 3)
      return face_error(fc, hex[0],
                        pass == 1 ? "is shared by more than two elements"
                                  : "matches more than one face after applying $Periodic",
                        pass == 1 ? "the mesh is not conforming; fix it in gmsh"
                                  : "periodic directions need more than one element layer");
    if (n_hex == 2 && pass == 2 && !translated_copy(fc, hex[0], hex[1]))
      return face_error(fc, hex[0], "and its periodic partner do not differ by a translation",
                        "check the Periodic constraints of the geometry");
    if (n_hex == 2) {
      neighbor[hex[0]] = (int)hex[1];
      neighbor[hex[1]] = (int)hex[0];
    } else if (n_hex == 1 && pass == 1) {
      HX_CHECK(covering_physical(fc, rec, lo, hi, hex[0], &face_phys[hex[0]]));
    }
  }
  return HX_OK;
}

/* A face takes part in pass 2 if its corners are periodic nodes of four distinct classes. */
static int periodic_candidate(const FaceContext *fc, long f) {
  int order = fc->g->hex_order, nn = (order + 1) * (order + 1) * (order + 1);
  const long *elem = &fc->nodes[(size_t)nn * (f / 6)];
  long k[4];
  for (int c = 0; c < 4; c++) {
    long at = corner_node(elem, order, HX_SIDE_CORNERS[f % 6][c]);
    if (!fc->is_periodic[at]) return 0;
    k[c] = fc->cls[at];
  }
  sort4(k);
  return k[0] != k[1] && k[1] != k[2] && k[2] != k[3];
}

static int match_faces(const FaceContext *fc, int *neighbor, int *face_phys) {
  size_t n_faces = 6 * fc->g->n_hex, n_rec = n_faces + fc->g->n_quad;
  FaceRecord *rec = hx_malloc(sizeof(FaceRecord) * (n_rec + 1), "face records");
  HX_ALLOC_CHECK(rec);
  int rc = HX_OK;
  for (size_t f = 0; f < n_faces; f++) {
    neighbor[f] = -1;
    face_phys[f] = 0;
    hex_face_record(fc, f / 6, (int)(f % 6), NULL, &rec[f]);
    for (int c = 1; c < 4 && rc == HX_OK; c++)
      if (rec[f].key[c] == rec[f].key[c - 1])
        rc = face_error(fc, (long)f, "has the same node at two corners", "fix the element");
  }
  for (size_t q = 0; rc == HX_OK && q < fc->g->n_quad; q++)
    rc = quad_face_record(fc, q, &rec[n_faces + q]);
  if (rc == HX_OK) rc = pair_faces(fc, rec, n_rec, 1, neighbor, face_phys);
  size_t n_open = 0;
  for (size_t f = 0; rc == HX_OK && f < n_faces; f++)
    if (neighbor[f] < 0 && periodic_candidate(fc, (long)f))
      hex_face_record(fc, f / 6, (int)(f % 6), fc->cls, &rec[n_open++]);
  if (rc == HX_OK) rc = pair_faces(fc, rec, n_open, 2, neighbor, face_phys);
  for (size_t f = 0; rc == HX_OK && f < n_faces; f++)
    if (neighbor[f] < 0 && face_phys[f] == 0)
      rc = face_error(fc, (long)f,
                      "has no neighbour and is not covered by a quadrangle of a physical surface",
                      "add its surface to a Physical Surface (boundary condition) or to a "
                      "Periodic Surface constraint");
  free(rec);
  return rc;
}

/* ----------------------------------------------------------------------------- assembly */

static int compare_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* BCs from the physical tags used by boundary faces (ascending tag); face_bc: tag -> index. */
static int build_bcs(const GmshData *g, Mesh *m, int *face_bc) {
  int n_faces = 6 * m->n_elems, n_used = 0;
  int *used = hx_malloc(sizeof(int) * (n_faces + 1), "boundary tags");
  HX_ALLOC_CHECK(used);
  for (int f = 0; f < n_faces; f++)
    if (face_bc[f] > 0) used[n_used++] = face_bc[f];
  qsort(used, n_used, sizeof(int), compare_int);
  int n_unique = 0;
  for (int i = 0; i < n_used; i++)
    if (n_unique == 0 || used[i] != used[n_unique - 1]) used[n_unique++] = used[i];
  m->bcs = hx_calloc((size_t)n_unique + 1, sizeof(BoundaryCondition), "boundary conditions");
  if (!m->bcs) {
    free(used);
    return HX_ERR_MEM;
  }
  m->n_bcs = n_unique;
  for (int b = 0; b < n_unique; b++) {
    BoundaryCondition *bc = &m->bcs[b];
    snprintf(bc->name, sizeof bc->name, "PhysicalSurface%d", used[b]);
    for (int i = 0; i < g->n_names; i++)
      if (g->names[i].tag == used[b]) snprintf(bc->name, sizeof bc->name, "%s", g->names[i].name);
    bc->type = 2;
    bc->state = 0;
  }
  for (int f = 0; f < n_faces; f++) {
    if (face_bc[f] <= 0) {
      face_bc[f] = -1;
      continue;
    }
    int *hit = bsearch(&face_bc[f], used, n_unique, sizeof(int), compare_int);
    face_bc[f] = (int)(hit - used);
  }
  free(used);
  return HX_OK;
}

static int fill_mesh(const GmshData *g, const char *path, const long *nodes, Mesh *m) {
  int ng = g->hex_order + 1, nn = ng * ng * ng;
  m->n_elems = (int)g->n_hex;
  m->NGeo = g->hex_order;
  snprintf(m->source, sizeof m->source, "%s", path);
  m->node_coords = hx_malloc(sizeof(double) * 3 * nn * g->n_hex, "node coordinates");
  m->elem_global_id = hx_malloc(sizeof(long) * g->n_hex, "element ids");
  if (!m->node_coords || !m->elem_global_id) return HX_ERR_MEM;
  for (size_t e = 0; e < g->n_hex; e++) {
    m->elem_global_id[e] = (long)g->hex_tags[e];
    for (int a = 0; a < nn; a++)
      memcpy(&m->node_coords[3 * ((size_t)nn * e + a)], &g->node_xyz[3 * nodes[(size_t)nn * e + a]],
             3 * sizeof(double));
  }
  return HX_OK;
}

/* Faces of all hexahedra and quadrangles, matched; then the Mesh. */
static int build_mesh(GmshData *g, const char *path, Mesh *m, int *neighbor, int *face_bc) {
  NodeIndex ix = {NULL, 0};
  long *cls = NULL, *nodes = NULL;
  int rc = node_index_build(g, path, &ix);
  if (rc == HX_OK) rc = periodic_classes(g, path, &ix, &cls);
  if (rc == HX_OK) rc = hex_tensor_nodes(g, path, &ix, &nodes);
  char *is_periodic = rc == HX_OK ? hx_calloc(g->n_nodes + 1, 1, "periodic nodes") : NULL;
  if (rc == HX_OK && !is_periodic) rc = HX_ERR_MEM;
  if (rc == HX_OK) {
    make_right_handed(g, nodes);
    for (size_t i = 0; i < g->n_nodes; i++)
      if (cls[i] != (long)i) is_periodic[i] = is_periodic[cls[i]] = 1;
    FaceContext fc = {g, path, &ix, nodes, cls, is_periodic, node_tolerance(g)};
    rc = match_faces(&fc, neighbor, face_bc);
  }
  free(is_periodic);
  if (rc == HX_OK) rc = fill_mesh(g, path, nodes, m);
  if (rc == HX_OK) rc = build_bcs(g, m, face_bc);
  free(ix.sorted);
  free(cls);
  free(nodes);
  return rc;
}

int mesh_read_gmsh(const char *path, Mesh **out) {
  GmshData g;
  memset(&g, 0, sizeof g);
  *out = NULL;
  int rc = parse_file(path, &g);
  if (rc == HX_OK && g.n_hex > INT_MAX / 6)
    rc = HX_ERROR(HX_ERR_INPUT, "gmsh file %s: %zu hexahedra, more than supported", path, g.n_hex);
  Mesh *m = NULL;
  int *neighbor = NULL, *face_bc = NULL;
  if (rc == HX_OK) {
    m = hx_calloc(1, sizeof(Mesh), "mesh");
    neighbor = hx_malloc(sizeof(int) * 6 * g.n_hex, "face neighbours");
    face_bc = hx_malloc(sizeof(int) * 6 * g.n_hex, "face BCs");
    if (!m || !neighbor || !face_bc) rc = HX_ERR_MEM;
  }
  if (rc == HX_OK) rc = build_mesh(&g, path, m, neighbor, face_bc);
  if (rc == HX_OK) rc = mesh_sort_hilbert(m, neighbor, face_bc);
  if (rc == HX_OK) rc = mesh_connect(m, neighbor, face_bc);
  free(neighbor);
  free(face_bc);
  gmsh_data_free(&g);
  if (rc != HX_OK) {
    mesh_destroy(m);
    return rc;
  }
  *out = m;
  return HX_OK;
}
