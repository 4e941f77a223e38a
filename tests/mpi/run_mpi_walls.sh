#!/usr/bin/env bash
# Unstructured gmsh mesh (all four flips) with isothermal no-slip walls, Navier-Stokes: 100 steps on
# 1, 2 (SFC) and 4 (METIS) ranks give the same solution and the same body forces on the walls.
# usage: run_mpi_walls.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
cat >walls.ini <<INI
ProjectName  = walls
MeshFile     = $root/tests/data/gmsh_box_unstructured_o2.msh
BoundaryName = walls
BoundaryType = (/4,1/)
N            = 3
NodeType     = GAUSS-LOBATTO
SplitDG      = PI
IniExactFunc = 1
RefState     = (/1., 0.2, 0.1, 0.05, 0.71428571/)
mu0          = 0.01
CalcErrorNorms = F
CalcBodyForces = T
tend         = 100.
maxIter      = 100
Analyze_dt   = 100.
Backend      = cpu
INI
sed 's/^Backend.*/&\nPartitioner  = metis/' walls.ini >walls_metis.ini
run_ranks r1 1 walls.ini
run_ranks r2 2 walls.ini
run_ranks r4metis 4 walls_metis.ini
for r in r2 r4metis; do
  same_state r1 $r
  same_csv r1/walls_BodyForces_walls.csv $r/walls_BodyForces_walls.csv
done
finish
