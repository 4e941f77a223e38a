/* Element ordering along a Hilbert space-filling curve, so that contiguous element ranges are
 * compact in space (cache locality now, partitioning later). */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mesh/mesh.h"

/* Skilling 2004, "Programming the Hilbert curve", AIP Conf. Proc. 707: axes -> transposed index. */
unsigned long long hilbert_index_3d(const unsigned int coord[3], int bits) {
  unsigned int x[3] = {coord[0], coord[1], coord[2]};
  unsigned int top = 1u << (bits - 1);
  for (unsigned int q = top; q > 1; q >>= 1) { /* inverse undo of excess work */
    unsigned int p = q - 1;
    for (int i = 0; i < 3; i++) {
      if (x[i] & q) {
        x[0] ^= p;
      } else {
        unsigned int t = (x[0] ^ x[i]) & p;
        x[0] ^= t;
        x[i] ^= t;
      }
    }
  }
  for (int i = 1; i < 3; i++) x[i] ^= x[i - 1]; /* Gray encode */
  unsigned int t = 0;
  for (unsigned int q = top; q > 1; q >>= 1)
    if (x[2] & q) t ^= q - 1;
  for (int i = 0; i < 3; i++) x[i] ^= t;
  /* interleave the transposed bits: most significant first, axis 0 first */
  unsigned long long h = 0;
  for (int b = bits - 1; b >= 0; b--)
    for (int i = 0; i < 3; i++) h = (h << 1) | ((x[i] >> b) & 1u);
  return h;
}

typedef struct {
  unsigned long long key;
  int elem;
} SortItem;

static int compare_items(const void *a, const void *b) {
  const SortItem *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->elem - y->elem;
}

/* Apply the permutation new -> old to a per-element block array. */
static int permute_blocks(void *data, size_t block_bytes, const int *new_to_old, int n) {
  char *tmp = hx_malloc(block_bytes * n, "element reordering");
  HX_ALLOC_CHECK(tmp);
  for (int e = 0; e < n; e++)
    memcpy(tmp + block_bytes * e, (char *)data + block_bytes * new_to_old[e], block_bytes);
  memcpy(data, tmp, block_bytes * n);
  free(tmp);
  return HX_OK;
}

int mesh_sort_hilbert(Mesh *m, int *neighbor, int *face_bc) {
  int n = m->n_elems;
  double lo[3] = {DBL_MAX, DBL_MAX, DBL_MAX}, hi[3] = {-DBL_MAX, -DBL_MAX, -DBL_MAX};
  double *cent = hx_malloc(sizeof(double) * 3 * n, "element centroids");
  SortItem *items = hx_malloc(sizeof(SortItem) * n, "Hilbert keys");
  int *new_to_old = hx_malloc(sizeof(int) * n, "permutation");
  int *old_to_new = hx_malloc(sizeof(int) * n, "permutation");
  if (!cent || !items || !new_to_old || !old_to_new) return HX_ERR_MEM;
  for (int e = 0; e < n; e++) {
    mesh_elem_centroid(m, e, &cent[3 * e]);
    for (int d = 0; d < 3; d++) {
      if (cent[3 * e + d] < lo[d]) lo[d] = cent[3 * e + d];
      if (cent[3 * e + d] > hi[d]) hi[d] = cent[3 * e + d];
    }
  }
  const int bits = 20; /* 2^20 cells per direction: ample resolution for centroids */
  double extent = 0.0;
  for (int d = 0; d < 3; d++)
    if (hi[d] - lo[d] > extent) extent = hi[d] - lo[d];
  if (extent <= 0.0) extent = 1.0;
  for (int e = 0; e < n; e++) {
    unsigned int ic[3];
    for (int d = 0; d < 3; d++) {
      double s = (cent[3 * e + d] - lo[d]) / extent;
      if (!(s >= 0.0)) s = 0.0; /* NaN or an overflowed extent: keep the cast below defined */
      if (s > 1.0) s = 1.0;
      double cells = (double)((1u << bits) - 1);
      ic[d] = (unsigned int)(s * cells + 0.5);
    }
    items[e].key = hilbert_index_3d(ic, bits);
    items[e].elem = e;
  }
  qsort(items, n, sizeof(SortItem), compare_items);
  for (int e = 0; e < n; e++) {
    new_to_old[e] = items[e].elem;
    old_to_new[items[e].elem] = e;
  }
  int ng = m->NGeo + 1;
  int rc = permute_blocks(m->node_coords, sizeof(double) * 3 * ng * ng * ng, new_to_old, n);
  if (rc == HX_OK) rc = permute_blocks(m->elem_global_id, sizeof(long), new_to_old, n);
  if (rc == HX_OK) rc = permute_blocks(neighbor, sizeof(int) * 6, new_to_old, n);
  if (rc == HX_OK) rc = permute_blocks(face_bc, sizeof(int) * 6, new_to_old, n);
  for (int i = 0; rc == HX_OK && i < 6 * n; i++)
    if (neighbor[i] >= 0) neighbor[i] = 6 * old_to_new[neighbor[i] / 6] + neighbor[i] % 6;
  /* the global id is the position along the curve, as in HOPR files */
  for (int e = 0; e < n; e++) m->elem_global_id[e] = e + 1;
  free(cent);
  free(items);
  free(new_to_old);
  free(old_to_new);
  return rc;
}
