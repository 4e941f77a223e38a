#!/usr/bin/env bash
# Time averages on several ranks (each rank its elements, written as a slab): the TimeAvg files
# of 2 ranks equal those of 1 rank to 1e-12 (Mean, MeanSquare, AvgTime), a restart on 2 ranks
# from the 1-rank state at mid-run included. Skips (77) without a python3 with numpy and h5py.
# usage: run_mpi_timeavg.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
source "$root/tests/regression/script_lib.sh"
require_python numpy h5py
write_mms_ini ta.ini ta '(/3,3,3/)' 0.001 cpu
sed -i 's/^maxIter.*/maxIter = -1/; s/^tend.*/tend = 0.02/; s/^Analyze_dt.*/Analyze_dt = 0.01/' ta.ini
cat >>ta.ini <<'INI'
CalcTimeAverage = T
VarNameAvg = Pressure
VarNameAvg = Mach
VarNameFluc = Density
VarNameFluc = uv
VarNameFluc = TKE
INI
run_ranks one 1 ta.ini
run_ranks two 2 ta.ini
run_ranks again2 2 ta.ini ../one/ta_State_0000000.010000000.h5
"$py" - <<'PY' || fails=$((fails + 1))
import glob, sys
import numpy as np, h5py
bad = 0
ref = sorted(glob.glob("one/ta_TimeAvg_*.h5"))
if len(ref) != 2:
    print(f"FAIL - 1 rank wrote {len(ref)} TimeAvg files, expected 2 (t = 0.01, 0.02)"); sys.exit(1)
for other in ("two", "again2"):
    for r in ref if other == "two" else ref[1:]:
        o = r.replace("one/", other + "/")
        with h5py.File(r, "r") as a, h5py.File(o, "r") as b:
            for k in ("Mean", "MeanSquare"):
                d = np.abs(a[k][()] - b[k][()]).max() / np.abs(a[k][()]).max()
                ok = d <= 1e-12 and a.attrs["AvgTime"][0] == b.attrs["AvgTime"][0]
                bad += not ok
                print(f"{'ok  ' if ok else 'FAIL'} - {o} {k} vs 1 rank: {d:.1e} relative")
sys.exit(1 if bad else 0)
PY
finish
