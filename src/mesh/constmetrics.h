/* Elements and sides whose metric terms are constant: the parallelepipeds of a straight-sided
 * (affine) mesh, where J a^dir, 1/J, the face normals, tangents and surface elements are the same
 * at every node. The GPU kernels read one set of them per element or side instead of one per node
 * (per DOF: 80 bytes less in each element kernel, 80 per face point in the face flux kernel), as
 * PyFR's kernels for linear elements compute theirs from the vertices (tfluxlin). A curved
 * element keeps its nodal values. */
#ifndef HEXDG_CONSTMETRICS_H
#define HEXDG_CONSTMETRICS_H

#include "mesh/metrics.h"

/* Values per element in elem: J a^dir_c at [dir * 3 + c], then 1/J at CM_ELEM_SJ. */
#define CM_ELEM_SJ 9
#define CM_ELEM_VALUES 10
/* Values per side in side: n, t1, t2 (3 each; the tangents of the side's first point), then the
 * surface element at CM_SIDE_SURF. */
#define CM_SIDE_SURF 9
#define CM_SIDE_VALUES 10

/* Relative spread below which a nodal field counts as constant: far below any discretization
 * error, above the round-off of the metric computation (about 1e-15 on the box meshes). */
#define CM_TOLERANCE 1e-13

typedef struct {
  /* [elem][CM_ELEM_VALUES]: the nodal means where constant; 1/J = 0 marks a curved element */
  double *elem;
  /* [side][CM_SIDE_VALUES]: likewise; surface element 0 marks a curved side */
  double *side;
  long n_elems_const, n_sides_const;
} ConstMetrics;

/* The constant elements and sides of geometry g (n3 nodes per element, n2 points per side). */
int const_metrics_find(const Geometry *g, long n_elems, long n_sides, int n3, int n2,
                       ConstMetrics *c);
void const_metrics_free(ConstMetrics *c);

#endif
