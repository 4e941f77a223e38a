#!/usr/bin/env bash
# Record points on several ranks (src/analysis/recordpoints.c): the density sine wave through the
# curved box with points, a line and a plane spread over the elements of both ranks, sampled at
# every step with a buffer of 4 samples (RP_MaxMemory = 1, 70 x 70 plane: 5 samples a file); the RP files and the
# written definition file of 2 ranks equal those of 1 rank bit for bit.
# Skips (exit 77) without a python3 that has numpy and h5py.
# usage: run_mpi_recordpoints.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
py=""
for cand in /usr/bin/python3 python3; do
  if "$cand" -c "import numpy, h5py" >/dev/null 2>&1; then py=$cand; break; fi
done
[ -n "$py" ] || { echo "skip: no python3 with numpy and h5py"; exit 77; }
cat >rp.ini <<INI
ProjectName  = rp
MeshFile     = box
BoxElems     = (/4,3,3/)
NGeo         = 2
BoxCurving   = 0.05
N            = 3
NodeType     = GAUSS-LOBATTO
IniExactFunc = 2
AdvVel       = (/1.,0.5,0.25/)
tend         = 0.2
Analyze_dt   = 0.1
CalcErrorNorms = F
Backend      = cpu
RP_inUse     = T
RP_SamplingOffset = 1
RP_MaxMemory = 1
RP_Point     = (/0.31,0.42,0.53/)
RP_Point     = (/-0.71,-0.2,0.9/)
RP_Line      = (/-0.9,-0.9,-0.9, 0.9,0.9,0.9/)
RP_LineN     = 9
RP_Plane     = (/-0.95,-0.95,0.3, 0.95,-0.95,0.3, -0.95,0.95,-0.7/)
RP_PlaneN    = (/70,70/)
INI
run_ranks one 1 rp.ini
run_ranks two 2 rp.ini
if "$py" - <<'PY'; then echo "ok   - RP files of 2 ranks = 1 rank, bitwise"; else fails=$((fails + 1)); fi
import glob, os, sys
import h5py, numpy as np
names = sorted(os.path.basename(f) for f in glob.glob("one/rp_RP_*.h5"))
bad = len(names) != 3 or sorted(os.path.basename(f) for f in glob.glob("two/rp_RP_*.h5")) != names
for n in names + ["rp_RPSet.h5"]:
    a, b = h5py.File("one/" + n, "r"), h5py.File("two/" + n, "r")
    for k in a:
        x, y = a[k][()], b[k][()]
        same = x.shape == y.shape and x.tobytes() == y.tobytes()
        if k == "RP_Data":
            print("%s: RP_Data %s, %s" % (n, x.shape, "bitwise equal" if same else "DIFFERENT"))
        bad |= not same
sys.exit(1 if bad else 0)
PY
finish
