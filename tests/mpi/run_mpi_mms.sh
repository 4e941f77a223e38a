#!/usr/bin/env bash
# Navier-Stokes manufactured solution on a curved periodic box: 100 steps on 1, 2 and 4 ranks
# (SFC ranges; METIS on 2) give the same solution and the same error norms.
# usage: run_mpi_mms.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
cat >mms.ini <<'INI'
ProjectName  = mms
MeshFile     = box
BoxElems     = (/4,4,3/)
NGeo         = 2
BoxCurving   = 0.05
N            = 3
NodeType     = GAUSS-LOBATTO
SplitDG      = PI
IniExactFunc = 4
AdvVel       = (/1.,1.,1./)
mu0          = 0.001
tend         = 10.
maxIter      = 100
Analyze_dt   = 10.
Backend      = cpu
INI
sed 's/^Backend.*/&\nPartitioner  = metis/' mms.ini >mms_metis.ini
run_ranks r1 1 mms.ini
run_ranks r2 2 mms.ini
run_ranks r4 4 mms.ini
run_ranks r2metis 2 mms_metis.ini
for r in r2 r4 r2metis; do
  same_state r1 $r
  same_csv r1/mms_ErrorNorms.csv $r/mms_ErrorNorms.csv
done
finish
