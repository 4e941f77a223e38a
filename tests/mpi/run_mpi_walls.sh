#!/usr/bin/env bash
# Unstructured gmsh mesh (all four flips) with isothermal no-slip walls, Navier-Stokes: 100 steps on
# 1, 2 (SFC) and 4 (METIS) ranks give the same solution and the same body forces on the walls.
# usage: run_mpi_walls.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
write_walls_ini walls.ini cpu
sed 's/^Backend.*/&\nPartitioner  = metis/' walls.ini >walls_metis.ini
run_ranks r1 1 walls.ini
run_ranks r2 2 walls.ini
run_ranks r4metis 4 walls_metis.ini
for r in r2 r4metis; do
  same_state r1 $r
  same_csv r1/walls_BodyForces_walls.csv $r/walls_BodyForces_walls.csv
done
finish
