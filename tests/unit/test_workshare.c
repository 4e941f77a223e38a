/* Sharing pointwise work among the ranks (parallel/workshare.c) without MPI: the order that puts
 * the dear items at both ends is a permutation whose costs fall from either end towards the
 * middle, and one rank keeps every item. (The shares on several ranks: tests/mpi/
 * run_mpi_weighted.sh, imbalance and the same state as one rank.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "core/error.h"
#include "parallel/workshare.h"

static void test_order_is_a_permutation_with_dear_ends(void **state) {
  (void)state;
  enum { N = 101 };
  double cost[N];
  int order[N], seen[N] = {0};
  for (int i = 0; i < N; i++)
    cost[i] = (double)((i * 37) % 23 + 1); /* 1..23, shuffled */
  cost[50] = 9000.0;                       /* beyond the integer buckets: still first */
  assert_int_equal(workshare_order(cost, N, order), HX_OK);
  for (int k = 0; k < N; k++) {
    assert_true(order[k] >= 0 && order[k] < N);
    seen[order[k]]++;
  }
  for (int i = 0; i < N; i++)
    assert_int_equal(seen[i], 1);
  assert_int_equal(order[0], 50);
  /* front half non-increasing from the start, back half non-increasing from the end */
  for (int k = 1; k < N / 2; k++)
    assert_true(cost[order[k]] <= cost[order[k - 1]]);
  for (int k = N - 2; k > N / 2; k--)
    assert_true(cost[order[k]] <= cost[order[k + 1]]);
  /* both ends hold the dearest: the two most expensive items of the bucket order */
  assert_true(cost[order[N - 1]] >= cost[order[1]]);
}

static void test_one_rank_keeps_all(void **state) {
  (void)state;
  double cost[5] = {1, 7, 3, 2, 9};
  WorkShare w = {0};
  assert_int_equal(workshare_plan(&w, cost, 5, NULL), HX_OK);
  assert_int_equal(w.n_ranks, 1);
  assert_int_equal(w.keep_first, 0);
  assert_int_equal(w.n_keep, 5);
  assert_int_equal(w.n_send, 0);
  assert_int_equal(w.n_recv, 0);
  assert_int_equal(w.active, 0);
  double rows[1] = {0}, in[1] = {0};
  assert_int_equal(workshare_move(&w, 3, 0, rows, in), HX_OK); /* nothing to move */
  workshare_free(&w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_order_is_a_permutation_with_dear_ends),
      cmocka_unit_test(test_one_rank_keeps_all),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
