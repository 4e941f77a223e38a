#!/usr/bin/env bash
# A/B timing of `hexdg bench` variants that differ in environment settings (HEXDG_* switches),
# alternated within one call so that machine-to-machine spread does not enter the comparison
# (docs/performance.md: single runs of 0.1 s scatter by 10 % between calls).
#   REPS=3 RANKS=2 ELEMS=12 bash tools/bench_ab.sh HEXDG [bench options] -- NAME=ENV[,ENV...] ...
# HEXDG is the binary; the bench options (default: --N 7 --split PI --mu0 6.25e-4 --steps 100
# --warmup 10) are passed on; RANKS ranks (mpiexec when > 1) on a box of RANKS*ELEMS x ELEMS x
# ELEMS elements (weak scaling's layout); each variant NAME runs with its ENV settings (none:
# `base=`). Prints one line per run and, per variant, the median PID of its runs.
# Example (the direct IPC reads against copying, 2 GPUs):
#   RANKS=2 bash tools/bench_ab.sh build-gpu/hexdg -- direct= copy=HEXDG_IPC_DIRECT=F
set -u
hexdg=${1:?usage: bench_ab.sh HEXDG [bench options] -- NAME=ENV[,ENV...] ...}
shift
opts=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "bench_ab.sh: no variants after --" >&2; exit 2; }
[ ${#opts[@]} -gt 0 ] || opts=(--N 7 --split PI --mu0 6.25e-4 --steps 100 --warmup 10)
ranks=${RANKS:-1} e=${ELEMS:-12} reps=${REPS:-3}
launch=()
[ "$ranks" -gt 1 ] && launch=(mpiexec -n "$ranks")
declare -A pids
for rep in $(seq "$reps"); do
  for variant in "$@"; do
    name=${variant%%=*} envs=${variant#*=}
    IFS=, read -r -a env_list <<<"$envs"
    pid=$(env "${env_list[@]}" timeout 120 "${launch[@]}" "$hexdg" bench "${opts[@]}" \
      --elems "$((ranks * e)),$e,$e" 2>&1 | awk '/^PID/ {print $2; exit}')
    echo "run $rep $name ($envs): PID ${pid:-failed}"
    [ -n "$pid" ] && pids[$name]="${pids[$name]:-} $pid"
  done
done
for variant in "$@"; do
  name=${variant%%=*}
  med=$(echo ${pids[$name]:-} | tr ' ' '\n' | sort -g | awk '{a[NR] = $1} END {if (NR) print a[int((NR + 1) / 2)]}')
  echo "median $name: PID ${med:-none} ($(echo ${pids[$name]:-} | wc -w) runs)"
done
