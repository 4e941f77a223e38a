/* Shared by the ParaView output tests (test_vtu.c, test_vtu_mixture.c): VTK's Lagrange
 * hexahedron ordering listed independently of the writer, reading a .vtu's ASCII and raw appended
 * arrays back, the solution polynomial at a reference point, and parameter files. Include after
 * <cmocka.h>. */
#ifndef HEXDG_TEST_VTU_UTIL_H
#define HEXDG_TEST_VTU_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basis/basis.h"
#include "dg/solver.h"

/* ---------------------------------------------------------------------------------------------
 * VTK's Lagrange hexahedron ordering, written out as the VTK documentation lists it: corners
 * counter-clockwise at the bottom then the top; the 12 edges as start corner and axis; the 6 faces
 * (i=0, i=n, j=0, j=n, k=0, k=n) with the lower free axis fastest; the interior with i fastest. */
static inline int vtk_order_ijk(int n, int (*ijk)[3]) {
  static const int CORNERS[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                    {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  static const int EDGES[12][2] = {/* start corner, axis */
                                   {0, 0}, {1, 1}, {3, 0}, {0, 1}, {4, 0}, {5, 1},
                                   {7, 0}, {4, 1}, {0, 2}, {1, 2}, {2, 2}, {3, 2}};
  int c = 0;
  for (int v = 0; v < 8; v++, c++)
    for (int d = 0; d < 3; d++)
      ijk[c][d] = CORNERS[v][d] * n;
  for (int e = 0; e < 12; e++)
    for (int t = 1; t < n; t++, c++) {
      for (int d = 0; d < 3; d++)
        ijk[c][d] = CORNERS[EDGES[e][0]][d] * n;
      ijk[c][EDGES[e][1]] = t;
    }
  for (int f = 0; f < 6; f++) {
    int axis = f / 2, a = axis == 0 ? 1 : 0, b = axis == 2 ? 1 : 2;
    for (int tb = 1; tb < n; tb++)
      for (int ta = 1; ta < n; ta++, c++) {
        ijk[c][axis] = (f % 2) * n;
        ijk[c][a] = ta;
        ijk[c][b] = tb;
      }
  }
  for (int k = 1; k < n; k++)
    for (int j = 1; j < n; j++)
      for (int i = 1; i < n; i++, c++) {
        ijk[c][0] = i;
        ijk[c][1] = j;
        ijk[c][2] = k;
      }
  return c;
}

/* ---------------------------------------------------------------------------------------------
 * Reading .vtu files back */

static inline char *slurp(const char *path, long *size) {
  if (size) *size = 0;
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  fseek(fp, 0, SEEK_END);
  long n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  char *text = malloc(n + 1);
  if (fread(text, 1, n, fp) != (size_t)n) n = 0;
  text[n] = 0;
  fclose(fp);
  if (size) *size = n;
  return text;
}

/* The <DataArray ... Name="name" ...> tag. */
static inline const char *find_array(const char *text, const char *name) {
  char key[128];
  snprintf(key, sizeof key, "Name=\"%s\"", name);
  const char *at = strstr(text, key);
  if (!at) return NULL;
  while (at > text && strncmp(at, "<DataArray", 10) != 0)
    at--;
  return at;
}

static inline long attribute_long(const char *tag, const char *name) {
  char key[64];
  snprintf(key, sizeof key, " %s=\"", name);
  const char *at = strstr(tag, key);
  return at ? strtol(at + strlen(key), NULL, 10) : -1;
}

/* Numbers of an ASCII DataArray. */
static inline double *ascii_array(const char *text, const char *name, long *count) {
  const char *tag = find_array(text, name);
  if (!tag) return NULL;
  const char *p = strchr(tag, '>') + 1, *end = strstr(p, "</DataArray>");
  long cap = 1024, n = 0;
  double *v = malloc(sizeof(double) * cap);
  for (;;) {
    char *next;
    double x = strtod(p, &next);
    if (next == p || next > end) break;
    if (n == cap) v = realloc(v, sizeof(double) * (cap *= 2));
    v[n++] = x;
    p = next;
  }
  *count = n;
  return v;
}

/* Values of a raw appended DataArray (UInt64 headers) as doubles. */
static inline double *binary_array(const char *text, long size, const char *name, long *count) {
  const char *tag = find_array(text, name);
  const char *data = strstr(text, "<AppendedData encoding=\"raw\">");
  if (!tag || !data) return NULL;
  data = strchr(data, '_') + 1;
  long offset = attribute_long(tag, "offset");
  uint64_t bytes;
  memcpy(&bytes, data + offset, 8);
  if (data + offset + 8 + bytes > text + size) return NULL;
  const char *raw = data + offset + 8;
  long n = 0;
  double *v = NULL;
  if (strstr(tag, "type=\"Float64\"") || strstr(tag, "type=\"Int64\"")) {
    n = (long)(bytes / 8);
    v = malloc(sizeof(double) * (n ? n : 1));
    for (long q = 0; q < n; q++) {
      if (strstr(tag, "type=\"Float64\"")) {
        memcpy(&v[q], raw + 8 * q, 8);
      } else {
        int64_t iv;
        memcpy(&iv, raw + 8 * q, 8);
        v[q] = (double)iv;
      }
    }
  } else { /* UInt8 */
    n = (long)bytes;
    v = malloc(sizeof(double) * (n ? n : 1));
    for (long q = 0; q < n; q++)
      v[q] = (unsigned char)raw[q];
  }
  *count = n;
  return v;
}

/* The solution polynomial of element e at reference point xi, by 1-D Lagrange products. */
static inline void solution_at(const Solver *s, const double *U, int e, const double xi[3],
                               double *u) {
  double l[3][HX_NPMAX];
  int np = s->np;
  for (int d = 0; d < 3; d++)
    basis_lagrange_eval(s->disc.N, s->disc.x, s->disc.wb, xi[d], l[d]);
  for (int v = 0; v < s->n_var; v++) {
    u[v] = 0.0;
    for (int k = 0; k < np; k++)
      for (int j = 0; j < np; j++)
        for (int i = 0; i < np; i++)
          u[v] += l[0][i] * l[1][j] * l[2][k] *
                  U[((long)e * s->n_var + v) * s->n_dof_elem + (k * np + j) * np + i];
  }
}

/* A parameter file of lines (NULL-terminated) and one more line, extra (may be NULL). */
static inline void write_ini(const char *path, const char *const *lines, const char *extra) {
  FILE *fp = fopen(path, "w");
  assert_non_null(fp);
  for (int i = 0; lines[i]; i++)
    fprintf(fp, "%s\n", lines[i]);
  if (extra) fprintf(fp, "%s\n", extra);
  fclose(fp);
}

#endif
