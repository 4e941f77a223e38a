#!/usr/bin/env bash
# RecordFrontPressure on several ranks (src/analysis/frontpressure.c): hexdg's moving Mach-2 shock
# on a 40 x 4 x 1 box, 4 bins across y, rows of 0.25. The ranks split the box along x, so the
# shock lies on one rank at a time and each row is a maximum over the ranks: the record files of
# 2 and 4 ranks equal that of 1 rank bit for bit.
# Skips (exit 77) without a python3 that has numpy and h5py.
# usage: run_mpi_frontpressure.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
source "$root/tests/regression/script_lib.sh"
require_python numpy h5py
write_moving_shock_ini shock.ini '(/40,4,1/)' '(/20., 2., 0.5/)' "RecordFrontPressure = 4" \
  "FrontPressure_dt = 0.25"
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
