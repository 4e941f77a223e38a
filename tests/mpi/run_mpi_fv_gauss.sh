#!/usr/bin/env bash
# FV switching on Gauss nodes (dg/fv_gauss.h) on Sod's tube with Persson's indicator (FLEXI's
# reggie thresholds): the FV_Elems of both elements of an MPI side, the face-subcell states and
# fluxes cross the rank boundary; 1, 2 and 4 ranks give the same solution to 1e-12, and a restart
# on 2 ranks from the 1-rank run's state file (FV_Elems in ElemData) ends on the 1-rank run.
# usage: run_mpi_fv_gauss.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
cat >fg.ini <<INI
ProjectName  = fvg
MeshFile     = box
BoxElems     = (/40,1,1/)
BoxLower     = (/0., 0., 0./)
BoxUpper     = (/1., 0.025, 0.025/)
BoxPeriodic  = (/F,T,T/)
N            = 2
NodeType     = GAUSS
Riemann      = HLLEM
IniExactFunc = 11
tend         = 0.1
Analyze_dt   = 0.05
CFLscale     = 0.5
FV_Mode      = switching
IndicatorType = persson
IndVar       = 1
IndStartTime = 0.001
FV_IndUpperThreshold = -3.
FV_IndLowerThreshold = -4.
Backend      = cpu
INI
run_ranks r1 1 fg.ini
run_ranks r2 2 fg.ini
run_ranks r4 4 fg.ini
for r in r2 r4; do
  same_state r1 $r
done
run_ranks rs 2 fg.ini "$(pwd)/r1/fvg_State_0000000.050000000.h5"
same_state r1 rs
finish
