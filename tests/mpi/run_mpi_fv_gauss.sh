#!/usr/bin/env bash
# FV switching on Gauss nodes (dg/fv_gauss.h) on Sod's tube with Persson's indicator (FLEXI's
# reggie thresholds): the FV_Elems of both elements of an MPI side, the face-subcell states and
# fluxes cross the rank boundary; 1, 2 and 4 ranks give the same solution to 1e-12, and a restart
# on 2 ranks from the 1-rank run's state file (FV_Elems in ElemData) ends on the 1-rank run.
# Navier-Stokes (dg/fv_gauss_visc.c): a density wave on a curved periodic box with an FV/DG
# checkerboard, whose MPI sides carry the lifting's face states and the face gradients of both
# kinds of element, gives the same solution on 1, 2 and 4 ranks.
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
same_on_1_2_4 r fg.ini
run_ranks rs 2 fg.ini "$(pwd)/r1/fvg_State_0000000.050000000.h5"
same_state r1 rs
cat >fgv.ini <<INI
ProjectName  = fvgv
MeshFile     = box
BoxElems     = (/4,4,2/)
BoxCurving   = 0.1
NGeo         = 3
BoxPeriodic  = (/T,T,T/)
N            = 3
NodeType     = GAUSS
Riemann      = HLLEM
IniExactFunc = 2
AdvVel       = (/0.6, 0.3, 0.2/)
mu0          = 0.02
tend         = 0.05
FV_Mode      = switching
IndicatorType = checkerboard
Backend      = cpu
INI
same_on_1_2_4 v fgv.ini
finish
