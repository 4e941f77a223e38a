#!/usr/bin/env bash
# Taylor-Green vortex (Navier-Stokes, periodic box): 100 steps on 1, 2 and 4 ranks give the same
# solution and the same TGV integrals (global reductions).
# usage: run_mpi_tgv.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
cat >tgv.ini <<'INI'
ProjectName  = tgv
MeshFile     = box
BoxElems     = (/4,4,4/)
BoxLower     = (/-3.141592653589793,-3.141592653589793,-3.141592653589793/)
BoxUpper     = (/3.141592653589793,3.141592653589793,3.141592653589793/)
N            = 2
NodeType     = GAUSS-LOBATTO
SplitDG      = PI
TestCase     = taylorgreenvortex
mu0          = 0.000625
CalcErrorNorms = F
tend         = 100.
maxIter      = 100
Analyze_dt   = 100.
Backend      = cpu
INI
run_ranks r1 1 tgv.ini
run_ranks r2 2 tgv.ini
run_ranks r4 4 tgv.ini
for r in r2 r4; do
  same_state r1 $r
  same_csv r1/tgv_TGVAnalysis.csv $r/tgv_TGVAnalysis.csv
done
finish
