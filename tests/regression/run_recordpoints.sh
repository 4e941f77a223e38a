#!/usr/bin/env bash
# Record points end to end (RP_inUse, src/analysis/recordpoints.c) and tools/recordpoints.py, on
# the density sine wave 1 + A sin(2 pi f (x - t)) advected along x through the periodic curved
# box (f = 0.5, AdvVel = (1,0,0)): a fixed point sees the frequency f * 1 = 0.5.
#   1. five RP files (Analyze_dt = 2, tend = 10) join into one series without repeated times;
#   2. the power spectrum of the density at three points peaks at 0.5 (within one bin, 1/10);
#   3. --csv writes the series (time and one column per point, as many rows as samples);
#   4. --png draws it.
# Skips (exit 77) without a python3 that has numpy and h5py.
# usage: run_recordpoints.sh path/to/hexdg repo_root
set -u
hexdg=$1
tools=$2/tools
source "$(dirname "$0")/script_lib.sh"

require_python numpy h5py
enter_scratch
cat >wave.ini <<INI
ProjectName  = wave
MeshFile     = box
BoxElems     = (/4,2,2/)
NGeo         = 2
BoxCurving   = 0.05
N            = 3
NodeType     = GAUSS-LOBATTO
IniExactFunc = 2
IniFrequency = 0.5
AdvVel       = (/1.,0.,0./)
tend         = 10.
Analyze_dt   = 2.
CalcErrorNorms = F
Backend      = cpu
RP_inUse     = T
RP_Point     = (/0.13,0.2,-0.4/)
RP_Line      = (/-0.9,0.3,0.3, 0.7,0.3,0.3/)
RP_LineN     = 2
INI
"$hexdg" wave.ini >run.txt 2>&1 || { tail -20 run.txt; echo "FAIL - the run failed"; exit 1; }
n_files=$(ls wave_RP_*.h5 | wc -l)
check "6 RP files (t = 0, 2, .., 10): $n_files" [ "$n_files" -eq 6 ]
"$py" "$tools/recordpoints.py" wave_RP_*.h5 --points 0,1,2 --nperseg 100000 --csv rp.csv \
  --png rp.png >tool.txt 2>&1 || { cat tool.txt; echo "FAIL - tools/recordpoints.py"; exit 1; }
cat tool.txt
check "spectral peaks at 0.5 (one bin: 0.1) and the CSV" "$py" - <<'PY'
import numpy as np, sys
peaks = [float(l.split()[2]) for l in open("tool.txt") if l.startswith("peak")]
c = np.loadtxt("rp.csv", delimiter=",", skiprows=1)
t = c[:, 0]
print("peaks", peaks, "rows", len(t), "t", t[0], t[-1])
ok = len(peaks) == 3 and all(abs(p - 0.5) <= 0.1 + 1e-9 for p in peaks)
ok = ok and c.shape[1] == 4 and np.all(np.diff(t) > 0) and t[0] == 0.0 and abs(t[-1] - 10) < 1e-12
sys.exit(0 if ok else 1)
PY
check "rp.png written" [ -s rp.png ]
[ $fails -eq 0 ] && echo "all record point checks passed" || echo "$fails record point check(s) failed"
exit $((fails > 0))
