#!/usr/bin/env bash
# FV switching (FV_Mode = switching) with the Jameson indicator on Sod's tube: its ghost layer
# takes the neighbour's face values across the rank boundary (the MPI exchange), and the
# switched elements convert their state; 1, 2 and 4 ranks give the same solution to 1e-12.
# usage: run_mpi_fv_switch.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
cat >sw.ini <<INI
ProjectName  = fvsw
MeshFile     = box
BoxElems     = (/40,1,1/)
BoxLower     = (/0., 0., 0./)
BoxUpper     = (/1., 0.025, 0.025/)
BoxPeriodic  = (/F,T,T/)
N            = 3
NodeType     = GAUSS-LOBATTO
Riemann      = HLLC
IniExactFunc = 11
tend         = 1.
maxIter      = 60
Analyze_dt   = 1.
CFLscale     = 0.5
FV_Mode      = switching
IndicatorType = jameson
IndVar       = 6
FV_IndUpperThreshold = 0.01
FV_IndLowerThreshold = 0.005
Backend      = cpu
INI
same_on_1_2_4 r sw.ini
finish
