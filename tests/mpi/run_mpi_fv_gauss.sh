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
write_fvg_sod_ini fg.ini cpu
same_on_1_2_4 r fg.ini
run_ranks rs 2 fg.ini "$(pwd)/r1/fvg_State_0000000.050000000.h5"
same_state r1 rs
write_fvg_wave_ini fgv.ini fvgv 0.05 cpu "IndicatorType = checkerboard"
same_on_1_2_4 v fgv.ini
finish
