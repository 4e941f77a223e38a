#!/usr/bin/env bash
# tools/bench_ab.sh (docs/performance.md): two variants of `hexdg bench` on the CPU backend,
# alternated twice, the second with an environment setting; each run's line and a median per
# variant (a number, from two runs), in the order given; no variants is an error.
# usage: run_bench_ab.sh hexdg repo_root
hexdg=$1 root=$2
source "$(dirname "$0")/script_lib.sh"
enter_scratch
tool=$root/tools/bench_ab.sh
REPS=2 ELEMS=2 bash "$tool" "$hexdg" --backend cpu --N 2 --split PI --steps 2 --warmup 1 -- \
  base= flagged=HEXDG_IPC_DIRECT=F >out.txt 2>&1
cat out.txt
runs=$(grep -c '^run [12] \(base\|flagged\) .*: PID [0-9]' out.txt)
[ "$runs" = 4 ] || { echo "FAIL: $runs of 4 runs with a PID"; fails=$((fails + 1)); }
grep -q '^run 1 flagged (HEXDG_IPC_DIRECT=F)' out.txt || { echo "FAIL: the variant's setting"; fails=$((fails + 1)); }
medians=$(grep '^median' out.txt | sed 's/median \([a-z]*\): PID \([0-9.e+-]*\) (2 runs)/\1 \2/')
first=$(echo "$medians" | awk 'NR == 1 {print $1}') second=$(echo "$medians" | awk 'NR == 2 {print $1}')
[ "$first $second" = "base flagged" ] || { echo "FAIL: medians '$medians'"; fails=$((fails + 1)); }
for m in $(echo "$medians" | awk '{print $2}'); do
  awk -v v="$m" 'BEGIN {exit !(v > 0)}' || { echo "FAIL: median '$m' not a positive number"; fails=$((fails + 1)); }
done
if bash "$tool" "$hexdg" --backend cpu >none.txt 2>&1; then
  echo "FAIL: no variants accepted"; fails=$((fails + 1))
fi
grep -q "no variants" none.txt || { echo "FAIL: no message without variants"; fails=$((fails + 1)); }
[ $fails -eq 0 ] && echo "bench_ab: all checks passed"
exit $((fails > 0))
