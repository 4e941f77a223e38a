#!/usr/bin/env bash
# Navier-Stokes manufactured solution on a curved periodic box: 100 steps on 1, 2 and 4 ranks
# (SFC ranges; METIS on 2) give the same solution and the same error norms.
# usage: run_mpi_mms.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
write_mms_ini mms.ini mms '(/4,4,3/)' 0.001 cpu
sed 's/^Backend.*/&\nPartitioner  = metis/' mms.ini >mms_metis.ini
run_ranks r1 1 mms.ini
run_ranks r2 2 mms.ini
run_ranks r4 4 mms.ini
run_ranks r2metis 2 mms_metis.ini
for r in r2 r4 r2metis; do
  same_state r1 $r
  same_csv r1/mms_ErrorNorms.csv $r/mms_ErrorNorms.csv
done
finish
