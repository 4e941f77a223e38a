#!/usr/bin/env bash
# PID and bytes/DOF sweep of `hexdg bench` (Euler, split PI on Gauss-Lobatto nodes) over N and
# loads 1e4..3e7 DOF; prints a Markdown table for docs/performance.md.
# usage: tools/gpu_bench.sh path/to/hexdg [backend] [steps] [mu0]   (mu0 > 0: Navier-Stokes)
set -euo pipefail
hexdg=${1:-build/hexdg}
backend=${2:-cuda}
steps=${3:-50}
mu0=${4:-0.}
echo "| N | elements | DOF | PID [s] | bytes/DOF |"
echo "|---|---|---|---|---|"
for N in 3 5 7; do
  np=$((N + 1))
  for target in 1e4 1e5 1e6 4e6 1e7 3e7; do
    elems=$(awk -v t=$target -v np=$np 'BEGIN{e=int((t/np^3)^(1/3)+0.5); if(e<2)e=2; print e}')
    line=$("$hexdg" bench --N $N --elems $elems --split PI --backend $backend --steps $steps --mu0 $mu0 | tail -1)
    read -r _ pid _ dof _ _ _ bpd <<<"$line"
    echo "| $N | ${elems}^3 | $dof | $pid | $bpd |"
  done
done
