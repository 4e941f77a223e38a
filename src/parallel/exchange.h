/* Non-blocking exchange of face data over the MPI sides (one message per neighbour and
 * direction: the sides of a neighbour are one contiguous block of the side-major face arrays).
 *
 *   slave -> master (EXCH_TO_MASTER): the "yours" blocks are sent, the "mine" blocks received:
 *     U_slave (face states) and grad_slave (lifted gradients), which the master side needs for
 *     its flux;
 *   master -> slave (EXCH_TO_SLAVE): the "mine" blocks are sent, the "yours" blocks received:
 *     flux and lift_flux, computed once on the master's rank.
 *
 * Start as soon as the sent block is computed, finish right before the received block is used
 * (GALAEXI, Kurz et al. 2025, Fig. 4). A slot holds one exchange in flight; finishing a slot that
 * is not in flight does nothing. Without MPI sides (one rank) every call is a no-op. */
#ifndef HEXDG_EXCHANGE_H
#define HEXDG_EXCHANGE_H

#include "mesh/mesh.h"

/* EXCH_ALPHA: the FV blending factor of the side's elements (dg/indicator.c) */
enum { EXCH_U = 0, EXCH_LIFT = 1, EXCH_GRAD = 2, EXCH_FLUX = 3, EXCH_ALPHA = 4, EXCH_NSLOTS = 5 };
enum { EXCH_TO_MASTER = 0, EXCH_TO_SLAVE = 1 };

typedef struct SideExchange SideExchange;

/* NULL (and HX_OK) when the mesh has no MPI sides. */
int exchange_create(const Mesh *m, SideExchange **out);
void exchange_destroy(SideExchange *x);

/* face: side-major array with doubles_per_side values per side. */
void exchange_start(SideExchange *x, int slot, double *face, long doubles_per_side, int direction);
void exchange_finish(SideExchange *x, int slot);
/* The same exchange on packed buffers (the CUDA backend stages device data through pinned host
 * memory): send holds only the sent block, recv only the received block, each starting at the
 * first side of its block ("yours" [first_yours, n_sides) or "mine" [first_mpi, first_yours)). */
void exchange_start_packed(SideExchange *x, int slot, const double *send, double *recv,
                           long doubles_per_side, int direction);

/* The set-up of the CUDA IPC transport (gpu/gpu_mpi.cu), which moves the face data itself from
 * device to device. Neighbour k is the k-th of the mesh's nbr_rank (0 without MPI sides). */
int exchange_n_nbr(const SideExchange *x);
/* Every neighbour k: send bytes from send + k * bytes, receive bytes into recv + k * bytes
 * (blocking, MPI_Sendrecv; every rank with MPI sides calls it together with its neighbours). */
void exchange_swap_bytes(SideExchange *x, const void *send, void *recv, int bytes);

#endif
