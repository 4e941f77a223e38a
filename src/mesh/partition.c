/* Domain decomposition: element ownership (SFC ranges or METIS) and the rank-local mesh. */
#include "mesh/partition.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "parallel/parallel.h"

#ifdef HEXDG_HAVE_METIS
#include <metis.h>
#endif

static const char *const PARTITIONER_NAMES[] = {"sfc", "metis"};
static const int PARTITIONER_IDS[] = {PARTITIONER_SFC, PARTITIONER_METIS};

int partition_define_params(Params *p) {
  HX_CHECK(params_define_choice(p, "Parallel", "Partitioner", "sfc", 2, PARTITIONER_NAMES,
                              PARTITIONER_IDS,
                              "Domain decomposition over the MPI ranks: sfc (contiguous ranges "
                              "of the Hilbert-curve element order) or metis (METIS k-way on the "
                              "element graph)."));
  return params_define(p, "Parallel", "WeightedPartition", PARAM_LOGICAL, 0, "F", false,
                       "At a restart of a reacting run: weigh each element with its measured "
                       "cost (ElemCost of the restart file: 1 + its chemistry time in units of "
                       "its flow time) in the SFC or METIS partition, so that ranks with "
                       "burning elements get fewer of them. SFC balances the sum of the costs; "
                       "METIS balances the flow and the chemistry each (two constraints).");
}

int partition_sfc(const Mesh *m, const double *weights, int n_parts, int *elem_part) {
  int n = m->n_elems;
  if (!weights) {
    int base = n / n_parts, extra = n % n_parts, e = 0;
    for (int r = 0; r < n_parts; r++)
      for (int k = 0; k < base + (r < extra); k++) elem_part[e++] = r;
    return HX_OK;
  }
  double total = 0.0, before = 0.0;
  for (int e = 0; e < n; e++) total += weights[e];
  if (!(total > 0.0))
    return HX_ERROR(HX_ERR_INPUT, "partitioning mesh %s: the element weights sum to %g; weights "
                                  "must be positive", m->source, total);
  for (int e = 0; e < n; e++) { /* the part whose share of the weight holds the element's middle */
    int r = (int)(n_parts * (before + 0.5 * weights[e]) / total);
    elem_part[e] = r < 0 ? 0 : r >= n_parts ? n_parts - 1 : r;
    before += weights[e];
  }
  return HX_OK;
}

#ifdef HEXDG_HAVE_METIS
/* Element graph in CSR form: one edge per neighbouring element (several shared faces, as across
 * a short periodic direction, count once; an element that is its own periodic neighbour has no
 * edge). */
static int element_graph(const Mesh *m, idx_t **xadj_out, idx_t **adj_out) {
  int n = m->n_elems;
  idx_t *xadj = hx_calloc((size_t)n + 1, sizeof(idx_t), "METIS graph");
  idx_t *adj = hx_malloc(sizeof(idx_t) * 6 * (size_t)(n ? n : 1), "METIS graph");
  if (!xadj || !adj) {
    free(xadj), free(adj);
    return HX_ERR_MEM;
  }
  idx_t k = 0;
  for (int e = 0; e < n; e++) {
    xadj[e] = k;
    for (int s = 0; s < 6; s++) {
      int side = m->elem_to_side[6 * e + s];
      if (m->side_slave_elem[side] < 0) continue;
      int nb = m->side_master_elem[side] == e && m->side_master_locside[side] == s
                   ? m->side_slave_elem[side]
                   : m->side_master_elem[side];
      int dup = nb == e;
      for (idx_t j = xadj[e]; j < k && !dup; j++) dup = adj[j] == nb;
      if (!dup) adj[k++] = nb;
    }
  }
  xadj[n] = k;
  *xadj_out = xadj;
  *adj_out = adj;
  return HX_OK;
}

/* Element weights w (ElemCost: 1 = one flow step, the rest the element's chemistry) as two METIS
 * constraints, each balanced on its own: the flow work (every element the same) and the excess
 * w - min(w). The flow stages and the chemistry stage are separated by synchronisations (face
 * exchanges, the time step's reduction), so each phase must be balanced, not only their sum
 * (Karypis & Kumar 1998, multi-constraint partitioning). Integer weights: the flow of an element
 * is 100. ncon = 1 (the flow alone) when the excess is below 1 % of the total. */
static idx_t *metis_weights(const double *w, idx_t n, idx_t *ncon) {
  double wmin = w[0], excess = 0.0;
  for (idx_t e = 1; e < n; e++) wmin = w[e] < wmin ? w[e] : wmin;
  for (idx_t e = 0; e < n; e++) excess += w[e] - wmin;
  *ncon = excess > 0.01 * wmin * (double)n ? 2 : 1;
  idx_t *vwgt = hx_malloc(sizeof(idx_t) * (size_t)(n * *ncon), "METIS weights");
  if (!vwgt) return NULL;
  for (idx_t e = 0; e < n; e++) {
    vwgt[*ncon * e] = 100;
    if (*ncon == 2) vwgt[2 * e + 1] = (idx_t)(100.0 * (w[e] - wmin) / wmin + 0.5);
  }
  return vwgt;
}

/* What METIS made of the constraints: the heaviest part of each against the mean. */
static void print_metis_balance(const idx_t *vwgt, idx_t ncon, idx_t n, const idx_t *part,
                                int n_parts) {
  double *sum = hx_calloc((size_t)n_parts * ncon, sizeof(double), "METIS balance");
  if (!sum) return;
  for (idx_t e = 0; e < n; e++)
    for (idx_t c = 0; c < ncon; c++) sum[part[e] * ncon + c] += (double)vwgt[e * ncon + c];
  for (idx_t c = 0; c < ncon; c++) {
    double mx = 0.0, tot = 0.0;
    for (int r = 0; r < n_parts; r++) {
      tot += sum[r * ncon + c];
      mx = sum[r * ncon + c] > mx ? sum[r * ncon + c] : mx;
    }
    printf("hexdg: METIS %s: heaviest part / mean %.3f\n", c == 0 ? "flow" : "chemistry",
           tot > 0.0 ? mx / (tot / n_parts) : 1.0);
  }
  free(sum);
}

static int metis_on_root(const Mesh *m, const double *weights, int n_parts, int *elem_part) {
  idx_t n = m->n_elems, ncon = 1, nparts = n_parts, objval = 0;
  idx_t *xadj = NULL, *adj = NULL;
  HX_CHECK(element_graph(m, &xadj, &adj));
  idx_t *part = hx_malloc(sizeof(idx_t) * (size_t)n, "METIS partition");
  idx_t *vwgt = weights ? metis_weights(weights, n, &ncon) : NULL;
  int rc = part && (!weights || vwgt) ? HX_OK : HX_ERR_MEM;
  if (rc == HX_OK && weights) /* rank 0 runs METIS (partition_metis) */
    printf("hexdg: METIS with %d constraint%s (%s)\n", (int)ncon, ncon > 1 ? "s" : "",
           ncon > 1 ? "the flow and the chemistry balanced each" : "the weights are uniform");
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 1;
  if (rc == HX_OK) {
    int status = METIS_PartGraphKway(&n, &ncon, xadj, adj, vwgt, NULL, NULL, &nparts, NULL, NULL,
                                     options, &objval, part);
    if (status != METIS_OK)
      rc = HX_ERROR(HX_ERR_INTERNAL, "METIS_PartGraphKway failed (status %d) on mesh %s with %d "
                                     "parts; use Partitioner = sfc", status, m->source, n_parts);
  }
  if (rc == HX_OK && vwgt) print_metis_balance(vwgt, ncon, n, part, n_parts);
  for (idx_t e = 0; rc == HX_OK && e < n; e++) elem_part[e] = (int)part[e];
  free(xadj), free(adj), free(part), free(vwgt);
  return rc;
}

int partition_metis(const Mesh *m, const double *weights, int n_parts, int *elem_part) {
  /* METIS runs on rank 0 and the result is broadcast: every rank uses the same partition */
  int rc = par_is_root() ? metis_on_root(m, weights, n_parts, elem_part) : HX_OK;
  int failed = par_any(rc != HX_OK);
  if (failed) return rc != HX_OK ? rc : HX_ERR_INTERNAL;
  par_bcast_int(elem_part, m->n_elems, 0);
  return HX_OK;
}
#else
int partition_metis(const Mesh *m, const double *weights, int n_parts, int *elem_part) {
  (void)m, (void)weights, (void)n_parts, (void)elem_part;
  return HX_ERROR(HX_ERR_INPUT, "Partitioner = metis, but hexdg was built without METIS "
                                "(install libmetis-dev and reconfigure); use Partitioner = sfc");
}
#endif

/* ------------------------------------------------------------------------------------------- */
/* The rank-local mesh */

enum { SIDE_BC, SIDE_INNER, SIDE_MINE, SIDE_YOURS, SIDE_NONE };

typedef struct {
  int kind, nbr, global_side;
} SideClass;

/* Kind of global side gs seen from part `part` (SIDE_NONE if it does not touch the part). */
static SideClass classify_side(const Mesh *g, const int *elem_part, int part, int gs) {
  SideClass c = {SIDE_NONE, -1, gs};
  int em = g->side_master_elem[gs], es = g->side_slave_elem[gs];
  int pm = elem_part[em], ps = es >= 0 ? elem_part[es] : -1;
  if (pm != part && ps != part) return c;
  if (es < 0)
    c.kind = SIDE_BC;
  else if (pm == ps)
    c.kind = SIDE_INNER;
  else if (pm == part)
    c.kind = SIDE_MINE, c.nbr = ps;
  else
    c.kind = SIDE_YOURS, c.nbr = pm;
  return c;
}

/* Order: kind, then neighbour rank, then the global side (the order both ranks agree on). */
static int compare_sides(const void *a, const void *b) {
  const SideClass *x = a, *y = b;
  if (x->kind != y->kind) return x->kind - y->kind;
  if (x->nbr != y->nbr) return x->nbr - y->nbr;
  return x->global_side - y->global_side;
}

static int alloc_local(Mesh *m) {
  int ne = m->n_elems, ng = m->NGeo + 1;
  HX_CHECK(mesh_alloc_sides(m));
  m->node_coords = hx_malloc(sizeof(double) * 3 * ng * ng * ng * (size_t)ne, "mesh nodes");
  m->elem_global_id = hx_malloc(sizeof(long) * (size_t)ne, "element ids");
  m->bcs = hx_calloc(m->n_bcs ? m->n_bcs : 1, sizeof(BoundaryCondition), "boundary conditions");
  if (!m->node_coords || !m->elem_global_id || !m->bcs) return HX_ERR_MEM;
  return HX_OK;
}

/* Neighbour ranks and their blocks inside the mine/yours ranges (sides sorted by compare_sides). */
static int build_neighbours(Mesh *m, const SideClass *cls) {
  int first_mpi = m->n_bc_sides + m->n_inner_sides, n_mpi = m->n_sides - first_mpi;
  int cap = n_mpi > 0 ? n_mpi : 1;
  m->nbr_rank = hx_malloc(sizeof(int) * cap, "neighbour ranks");
  m->nbr_mine_first = hx_calloc(cap, sizeof(int), "neighbour sides");
  m->nbr_mine_count = hx_calloc(cap, sizeof(int), "neighbour sides");
  m->nbr_yours_first = hx_calloc(cap, sizeof(int), "neighbour sides");
  m->nbr_yours_count = hx_calloc(cap, sizeof(int), "neighbour sides");
  if (!m->nbr_rank || !m->nbr_mine_first || !m->nbr_mine_count || !m->nbr_yours_first ||
      !m->nbr_yours_count)
    return HX_ERR_MEM;
  m->n_nbr_ranks = 0;
  for (int s = first_mpi; s < m->n_sides; s++) { /* ranks of both blocks, ascending, once */
    int r = cls[s].nbr, k = 0;
    while (k < m->n_nbr_ranks && m->nbr_rank[k] < r) k++;
    if (k < m->n_nbr_ranks && m->nbr_rank[k] == r) continue;
    memmove(&m->nbr_rank[k + 1], &m->nbr_rank[k], sizeof(int) * (m->n_nbr_ranks - k));
    m->nbr_rank[k] = r;
    m->n_nbr_ranks++;
  }
  for (int s = first_mpi; s < m->n_sides; s++) {
    int k = 0;
    while (m->nbr_rank[k] != cls[s].nbr) k++;
    int *first = cls[s].kind == SIDE_MINE ? m->nbr_mine_first : m->nbr_yours_first;
    int *count = cls[s].kind == SIDE_MINE ? m->nbr_mine_count : m->nbr_yours_count;
    if (count[k]++ == 0) first[k] = s;
  }
  return HX_OK;
}

static void fill_sides(const Mesh *g, Mesh *m, const SideClass *cls, const int *g2l_elem,
                       int *g2l_side) {
  for (int s = 0; s < m->n_sides; s++) {
    int gs = cls[s].global_side, es = g->side_slave_elem[gs];
    g2l_side[gs] = s;
    m->side_master_elem[s] = g2l_elem[g->side_master_elem[gs]];
    m->side_master_locside[s] = g->side_master_locside[gs];
    m->side_slave_elem[s] = es >= 0 ? g2l_elem[es] : -1;
    m->side_slave_locside[s] = g->side_slave_locside[gs];
    m->side_flip[s] = g->side_flip[gs];
    m->side_bc[s] = g->side_bc[gs];
  }
}

static int extract(const Mesh *g, const int *elem_part, int part, Mesh *m, int *g2l_elem,
                   int *g2l_side, SideClass *cls) {
  int ng = g->NGeo + 1, n3g = ng * ng * ng;
  m->NGeo = g->NGeo;
  m->n_global_elems = g->n_elems;
  m->n_bcs = g->n_bcs;
  snprintf(m->source, sizeof m->source, "%s", g->source);
  for (int e = 0; e < g->n_elems; e++) g2l_elem[e] = elem_part[e] == part ? m->n_elems++ : -1;
  for (int gs = 0; gs < g->n_sides; gs++) {
    SideClass c = classify_side(g, elem_part, part, gs);
    if (c.kind == SIDE_NONE) continue;
    cls[m->n_sides++] = c;
    m->n_bc_sides += c.kind == SIDE_BC;
    m->n_inner_sides += c.kind == SIDE_INNER;
    m->n_mpi_mine_sides += c.kind == SIDE_MINE;
    m->n_mpi_yours_sides += c.kind == SIDE_YOURS;
  }
  qsort(cls, m->n_sides, sizeof(SideClass), compare_sides);
  HX_CHECK(alloc_local(m));
  memcpy(m->bcs, g->bcs, sizeof(BoundaryCondition) * g->n_bcs);
  for (int ge = 0; ge < g->n_elems; ge++) {
    int e = g2l_elem[ge];
    if (e < 0) continue;
    memcpy(&m->node_coords[3L * n3g * e], &g->node_coords[3L * n3g * ge], sizeof(double) * 3 * n3g);
    m->elem_global_id[e] = ge + 1;
  }
  fill_sides(g, m, cls, g2l_elem, g2l_side);
  for (int ge = 0; ge < g->n_elems; ge++) {
    int e = g2l_elem[ge];
    for (int s = 0; e >= 0 && s < 6; s++) {
      m->elem_to_side[6 * e + s] = g2l_side[g->elem_to_side[6 * ge + s]];
      m->elem_to_side_flip[6 * e + s] = g->elem_to_side_flip[6 * ge + s];
    }
  }
  return build_neighbours(m, cls);
}

int mesh_extract_part(const Mesh *g, const int *elem_part, int part, Mesh **out) {
  Mesh *m = hx_calloc(1, sizeof(Mesh), "mesh part");
  int *g2l_elem = hx_malloc(sizeof(int) * (size_t)g->n_elems, "element renumbering");
  int *g2l_side = hx_malloc(sizeof(int) * (size_t)g->n_sides, "side renumbering");
  SideClass *cls = hx_malloc(sizeof(SideClass) * (size_t)g->n_sides, "side classes");
  int rc = m && g2l_elem && g2l_side && cls ? HX_OK : HX_ERR_MEM;
  if (rc == HX_OK) rc = extract(g, elem_part, part, m, g2l_elem, g2l_side, cls);
  if (rc == HX_OK && m->n_elems == 0)
    rc = HX_ERROR(HX_ERR_INPUT, "partitioning mesh %s: rank %d gets no element; run with fewer "
                                "ranks than the mesh's %d elements", g->source, part, g->n_elems);
  free(g2l_elem), free(g2l_side), free(cls);
  if (rc != HX_OK) {
    mesh_destroy(m);
    return rc;
  }
  *out = m;
  return HX_OK;
}

int mesh_partition_from_params(const Params *p, const double *weights, Mesh **m) {
  int n_parts = par_size(), which;
  if (n_parts == 1) return HX_OK;
  HX_CHECK(params_get_choice(p, "Partitioner", &which));
  Mesh *g = *m;
  if (g->n_elems < n_parts)
    return HX_ERROR(HX_ERR_INPUT, "mesh %s has %d elements but the run has %d ranks; run with at "
                                  "most %d ranks", g->source, g->n_elems, n_parts, g->n_elems);
  int *elem_part = hx_malloc(sizeof(int) * (size_t)g->n_elems, "element ranks");
  HX_ALLOC_CHECK(elem_part);
  int rc = which == PARTITIONER_METIS ? partition_metis(g, weights, n_parts, elem_part)
                                      : partition_sfc(g, weights, n_parts, elem_part);
  Mesh *local = NULL;
  if (rc == HX_OK) rc = mesh_extract_part(g, elem_part, par_rank(), &local);
  free(elem_part);
  HX_CHECK(rc);
  mesh_destroy(g);
  *m = local;
  return HX_OK;
}
