#!/usr/bin/env bash
# Sod's shock tube with FV subcell blending and the blending factor spread to the neighbours
# (FV_doExtendAlpha): 60 steps on 1, 2 and 4 ranks give the same solution. On 2 ranks the rank
# boundary lies at the initial discontinuity x = 0.5, so the spreading crosses it.
# usage: run_mpi_sod.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
write_sod_ini sod.ini cpu
run_ranks r1 1 sod.ini
run_ranks r2 2 sod.ini
run_ranks r4 4 sod.ini
for r in r2 r4; do
  same_state r1 $r
done
finish
