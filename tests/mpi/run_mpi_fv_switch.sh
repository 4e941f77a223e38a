#!/usr/bin/env bash
# FV switching (FV_Mode = switching) with the Jameson indicator on Sod's tube: its ghost layer
# takes the neighbour's face values across the rank boundary (the MPI exchange), and the
# switched elements convert their state; 1, 2 and 4 ranks give the same solution to 1e-12.
# usage: run_mpi_fv_switch.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
write_lgl_switch_sod_ini sw.ini fvsw cpu "IndicatorType = jameson" "IndVar = 6" \
  "FV_IndUpperThreshold = 0.01" "FV_IndLowerThreshold = 0.005"
same_on_1_2_4 r sw.ini
finish
