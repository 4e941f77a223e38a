#!/usr/bin/env bash
# Eddy-viscosity LES on several ranks (docs/les.md): Smagorinsky with Van Driest damping on the
# unstructured gmsh box with isothermal walls (the wall distance searches every rank's wall
# points; the face coefficients of the neighbour's elements cross the MPI sides), and Vreman and
# sigma on the Taylor-Green vortex: 100 steps on 1, 2 and 4 ranks give the same solution, the
# same wall-velocity series and the same TGV integrals.
# usage: run_mpi_les.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
write_walls_ini walls.ini cpu
printf 'eddyViscType = smagorinsky\nCS = 0.2\nVanDriest = T\nCalcWallVelocity = T\n' >>walls.ini
for r in 1 2 4; do run_ranks w$r $r walls.ini; done
for r in w2 w4; do
  same_state w1 $r
  same_csv w1/walls_WallVel_walls.csv $r/walls_WallVel_walls.csv
done
for model in vreman sigma; do
  write_tgv_ini tgv_$model.ini cpu
  printf 'eddyViscType = %s\nCS = %s\n' $model "$([ $model = sigma ] && echo 1.35 || echo 0.2)" >>tgv_$model.ini
  for r in 1 2; do run_ranks $model$r $r tgv_$model.ini; done
  same_state ${model}1 ${model}2
  same_csv ${model}1/tgv_TGVAnalysis.csv ${model}2/tgv_TGVAnalysis.csv
done
finish
