/* Sharing pointwise work among the ranks (the chemistry stage's reactors): the ranks' items, each
 * with a predicted cost, are laid end to end in rank order and cut into equal shares of the total
 * cost (the midpoint of an item decides its share). A rank thus keeps one contiguous range of its
 * items and gives the ones before it to lower ranks and the ones after it to higher ranks; it
 * integrates its own kept items and those it receives, and sends the results back. The items
 * move, the flow partition stays: the idea of packing uneven work units evenly (the AMR-on-GPU
 * load balancing of the reacting-flow literature) for a cost that moves faster than a partition
 * made at a restart can follow. Without MPI, or on one rank, every item stays. */
#ifndef HEXDG_WORKSHARE_H
#define HEXDG_WORKSHARE_H

typedef struct {
  int n_ranks, me;
  long n;          /* this rank's items */
  long keep_first; /* this rank keeps items [keep_first, keep_first + n_keep) */
  long n_keep;
  long n_send;     /* the others: [0, keep_first) to lower ranks, the rest to higher ones */
  long n_recv;     /* items of other ranks this rank works on, in rank order */
  int *send_count; /* [rank] items sent there (0 for this rank) */
  int *recv_count; /* [rank] items received from there */
  int active;      /* some rank sends items (collective answer) */
} WorkShare;

/* An order of the items that puts the most expensive ones at both ends (sorted by cost, dealt
 * alternately to the front and the back; costs are counts, bucketed as integers up to 4096): the
 * shares given away are then made of few items, so few bytes move for the same work. order[n]:
 * the item at each position. */
int workshare_order(const double *cost, long n, int *order);
/* The shares of this step (collective): cost[n] of this rank's items. order NULL: the items in
 * their order; else order[n] is filled by workshare_order (on several ranks) and the items are
 * taken in it: position j is item order[j]. */
int workshare_plan(WorkShare *w, const double *cost, long n, int *order);
/* Rows of width doubles (collective). back = 0: the rows of the sent items (n_send of them, in
 * item order) go out and the received items' rows (n_recv) come in; back = 1: the reverse (the
 * results of the received items return to their owners). */
int workshare_move(const WorkShare *w, int width, int back, const double *out, double *in);
/* Where this rank's rows land at each destination (collective; for transports that write into
 * the other ranks' memory): at[r] = the row offset at rank r, the rows of lower ranks first, as
 * workshare_move lays them out. at NULL (a failed allocation): takes part, returns HX_ERR_MEM. */
int workshare_offsets(const WorkShare *w, int back, long *at);
void workshare_free(WorkShare *w);

#endif
