#!/usr/bin/env bash
# RecordFrontPressure on several ranks (src/analysis/frontpressure.c): hexdg's moving Mach-2 shock
# on a 40 x 4 x 1 box, 4 bins across y, rows of 0.25. The ranks split the box along x, so the
# shock lies on one rank at a time and each row is a maximum over the ranks: the record files of
# 2 and 4 ranks equal that of 1 rank bit for bit.
# Skips (exit 77) without a python3 that has numpy and h5py.
# usage: run_mpi_frontpressure.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
py=""
for cand in /usr/bin/python3 python3; do
  if "$cand" -c "import numpy, h5py" >/dev/null 2>&1; then py=$cand; break; fi
done
[ -n "$py" ] || { echo "skip: no python3 with numpy and h5py"; exit 77; }
cat >shock.ini <<INI
ProjectName    = shock
Backend        = cpu
MeshFile       = box
BoxElems       = (/40,4,1/)
BoxLower       = (/0., 0., 0./)
BoxUpper       = (/20., 2., 0.5/)
BoxPeriodic    = (/F,T,T/)
N              = 3
NodeType       = GAUSS-LOBATTO
SplitDG        = PI
Riemann        = HLLC
IniExactFunc   = 10
MachShock      = 2.
PreShockDens   = 1.
tend           = 2.
Analyze_dt     = 1.
CFLscale       = 0.5
IndicatorType  = hennemann
FV_alpha_max   = 1.
FV_LimiterType = MinMod
CalcErrorNorms = F
RecordFrontPressure = 4
FrontPressure_dt = 0.25
INI
run_ranks one 1 shock.ini
run_ranks two 2 shock.ini
run_ranks four 4 shock.ini
if "$py" - <<'PY'; then echo "ok   - front pressure of 2 and 4 ranks = 1 rank, bitwise"; else fails=$((fails + 1)); fi
import sys
import h5py, numpy as np
name = "shock_FrontPressure_0000000.000000000.h5"
a = h5py.File("one/" + name, "r")
rows = a["FrontPressure"][()]
ok = rows.shape == (8, 4) and np.all(rows > 0)
for d in ("two", "four"):
    b = h5py.File(d + "/" + name, "r")
    for k in ("Time", "Y", "FrontPressure"):
        same = a[k][()].tobytes() == b[k][()].tobytes()
        print(f"  {d}: {k} {'equal' if same else 'DIFFERS'}")
        ok = ok and same
print(f"  1 rank: {rows.shape[0]} rows x {rows.shape[1]} bins, max {rows.max():.6f}")
sys.exit(0 if ok else 1)
PY
[ $fails -eq 0 ] && echo "all MPI front-pressure checks passed" || echo "$fails MPI front-pressure checks failed"
exit $((fails > 0))
