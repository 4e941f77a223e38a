/* One-dimensional DGSEM operators of the solution basis (plain data, copied to the device once).
 *
 * With nodes x, weights w and D[i][l] = l_l'(x_i) the element operator reads
 *   J u_t = -( sum_l Dvol[i][l] F_il  +  Lhat_end[i] * (outward numerical flux * surface element) )
 * weak form:  Dvol = Dhat,   Dhat[i][l] = -w_l / w_i * D[l][i],   F_il = contravariant flux at l
 * split form: Dvol = 2 D with zero diagonal corners (LGL only), F_il = two-point flux (i, l)
 *   (Gassner, Winters & Kopriva 2016, eq. (3.16); the boundary terms of D cancel with the
 *   f_i part of the strong-form surface term, leaving the same surface integral as the weak form). */
#ifndef HEXDG_DISC_H
#define HEXDG_DISC_H

#include "basis/basis.h"

typedef struct {
  int N, np;
  NodeType node_type;
  int split; /* SPLIT_NONE: weak form */
  double x[HX_NPMAX], w[HX_NPMAX], wb[HX_NPMAX];
  double D[HX_NPMAX * HX_NPMAX];
  double Dvol[HX_NPMAX * HX_NPMAX];
  double Dhat[HX_NPMAX * HX_NPMAX]; /* weak-form operator (BR1 lifting uses it for either form) */
  double L_minus[HX_NPMAX], L_plus[HX_NPMAX];       /* l_i(-1), l_i(+1) */
  double Lhat_minus[HX_NPMAX], Lhat_plus[HX_NPMAX]; /* l_i(-1)/w_i, l_i(+1)/w_i */
} Disc;

int disc_init(Disc *d, int N, NodeType node_type, int split);

#endif
