#!/usr/bin/env bash
# Taylor-Green vortex (Navier-Stokes, periodic box): 100 steps on 1, 2 and 4 ranks give the same
# solution and the same TGV integrals (global reductions).
# usage: run_mpi_tgv.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
write_tgv_ini tgv.ini cpu
run_ranks r1 1 tgv.ini
run_ranks r2 2 tgv.ini
run_ranks r4 4 tgv.ini
for r in r2 r4; do
  same_state r1 $r
  same_csv r1/tgv_TGVAnalysis.csv $r/tgv_TGVAnalysis.csv
done
finish
