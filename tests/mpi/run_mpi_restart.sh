#!/usr/bin/env bash
# Restart with another rank count: 50 steps on 2 ranks write a state file; restarted from it on
# 1 and on 4 ranks, 50 more steps end where 100 uninterrupted steps on 1 rank end.
# usage: run_mpi_restart.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
write_mms_ini full.ini rs '(/3,3,3/)' 0.001 cpu
sed 's/^maxIter.*/maxIter      = 50/' full.ini >half.ini
run_ranks full1 1 full.ini
run_ranks first2 2 half.ini
mid=$(cd first2 && ls rs_State_*.h5 | sort | tail -1)
run_ranks again1 1 half.ini "../first2/$mid"
run_ranks again4 4 half.ini "../first2/$mid"
same_state full1 again1
same_state full1 again4
finish
