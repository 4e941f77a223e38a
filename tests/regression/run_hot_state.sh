#!/usr/bin/env bash
# A state hotter than the mechanism's polynomials' ceiling (T_hi = 6250 K with Cantera's h2o2
# mechanism, where O2's extrapolated cp/R falls to 1): in a closed 1-D tube, Ar:H2O 9:1 at 6000 K
# and 1 atm runs at 1500 m/s into the right wall. The reflected shock stops it at about its
# stagnation temperature, 7700 K (T + u^2 / (2 cp), cp ~ 650 J/(kg K)), and the water
# dissociates in the Strang chemistry stage; FV blending and the positivity limiter as in the
# detonation cases; 4 us. Until the constant-cp continuation above T_hi (docs/chemistry.md) the
# shocked gas had no temperature and the run stopped as "non-physical". Checks: the run
# finishes; the largest temperature of the ParaView output is above T_hi, and the analysis line
# `temperature:` gives it too, at the wall; the closed tube's mass,
# energy and H and O atoms are conserved (1e-11 relative, first and last analysis). At twice the
# speed (about 12900 K, beyond the search's 10000 K) the run stops and says where and why.
# Skips (77) without the h2o2 mechanism or a python3 with numpy.
# usage: run_hot_state.sh path/to/hexdg repo_root
set -u
hexdg=$1
root=$2
source "$(dirname "$0")/script_lib.sh"
require_mech "$root" h2o2
require_python numpy
enter_scratch

# rho = p W / (R T) with W = 0.9 * 39.948 + 0.1 * 18.015
cat >hot.ini <<INI
ProjectName    = hot
Backend        = cpu
MeshFile       = box
BoxElems       = (/40,1,1/)
BoxLower       = (/0.,0.,0./)
BoxUpper       = (/0.02,0.0005,0.0005/)
BoxPeriodic    = (/F,T,T/)
BoundaryName   = BC_xminus
BoundaryType   = (/9,0/)
BoundaryName   = BC_xplus
BoundaryType   = (/9,0/)
N              = 3
NodeType       = GAUSS-LOBATTO
SplitDG        = PI
Riemann        = HLLC
Mechanism      = $mech
IniExactFunc   = 1
RefState       = (/0.0766836,1500.,0.,0.,101325./)
RefStateX      = AR:0.9,H2O:0.1
ChemistrySplitting = strang
ChemIntegrator = rodas
ChemTmin       = 600.
IndicatorType  = hennemann
IndVar         = DensityTimesPressure
FV_alpha_max   = 1.
FV_doExtendAlpha = T
FV_LimiterType = MinMod
FV_PositivityLimiter = T
CFLscale       = 0.5
tend           = 4e-6
Analyze_dt     = 2e-6
nWriteData     = 1
OutputFormat   = ParaView
CalcErrorNorms = F
INI
OMP_NUM_THREADS=2 "$hexdg" hot.ini >hot.txt 2>&1
check "the gas slamming into the wall at 6000 K runs to 4 us" grep -q "hexdg finished" hot.txt
# the largest Temperature of the ParaView files (raw appended Float64 arrays, UInt64 byte counts)
hottest() {
  "$py" - hot_Solution_*.vtu <<'PY'
import re, sys
import numpy as np
top = 0.0
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    at = int(re.search(rb'Name="Temperature"[^>]*offset="(\d+)"', data).group(1))
    at += data.index(b"_", data.index(b"<AppendedData")) + 1
    n = int(np.frombuffer(data, np.uint64, 1, at)[0]) // 8
    top = max(top, float(np.frombuffer(data, np.float64, n, at + 8).max()))
print(f"{top:.1f}")
PY
}
t_max=$(hottest 2>/dev/null)
check "the shocked gas is above T_hi = 6250 K and below 10000 K (largest T ${t_max:-none} K)" \
  awk -v t="${t_max:-0}" 'BEGIN { exit !(t > 6250 && t < 10000) }'
# the analysis lines `temperature:` (every node of the state, at the times of the ParaView files):
# their largest maximum is the ParaView files' within 0.5 % (those interpolate to their own points)
# and lies in the last quarter of the tube, where the wall stops the gas
at_wall() {
  grep "^  temperature:" hot.txt | tee /dev/stderr | awk -v pv="${t_max:-0}" '
    { for (i = 1; i <= NF; i++) if ($i == "max" && $(i + 1) > t) { t = $(i + 1); x = substr($(i + 4), 2) + 0 } }
    END { d = t - pv; d = d < 0 ? -d : d; exit !(NR == 3 && pv > 0 && d < 5e-3 * pv && x > 0.015) }'
}
check "the analyses' largest temperature is the ParaView files', in the last quarter" at_wall
conserved() { # mass, energy and the H and O atoms (h2o2.yaml's species order: H2 H O O2 OH H2O
  # HO2 H2O2 AR N2) from the first to the last analysis; the momentum is not (the walls push)
  awk 'function rel(a, b) { d = b - a; d = d < 0 ? -d : d; s = a < 0 ? -a : a; return d / s }
       /totals:/ { n++
         h = 2 * $7 / 2.016 + $8 / 1.008 + $11 / 17.007 + 2 * $12 / 18.015 + $13 / 33.006 + 2 * $14 / 34.014
         o = $9 / 15.999 + 2 * $10 / 31.998 + $11 / 17.007 + $12 / 18.015 + 2 * $13 / 33.006 + 2 * $14 / 34.014
         if (n == 1) { m0 = $2; e0 = $6; h0 = h; o0 = o } m = $2; e = $6; h1 = h; o1 = o }
       END { if (n < 2) exit 1
             printf "    relative changes: mass %.1e, energy %.1e, H %.1e, O %.1e\n", rel(m0, m), rel(e0, e), rel(h0, h1), rel(o0, o1)
             exit !(rel(m0, m) < 1e-11 && rel(e0, e) < 1e-11 && rel(h0, h1) < 1e-11 && rel(o0, o1) < 1e-11) }' hot.txt
}
check "mass, energy, H and O atoms conserved (1e-11)" conserved
# twice the speed: the stagnation temperature, about 12900 K, is beyond the search (10000 K): the
# run stops, and the error names the wall element and its first bad node (by the end of the step
# that left the range its nodes are NaN: the dt check comes before the next step)
sed -e 's|^RefState .*|RefState = (/0.0766836,3000.,0.,0.,101325./)|' -e 's|^ProjectName .*|ProjectName = hotter|' \
  hot.ini >hotter.ini
OMP_NUM_THREADS=2 "$hexdg" hotter.ini >hotter.txt 2>&1
check "at 3000 m/s the run stops, naming the wall element (40, x = 0.01975 m)" \
  grep -q "non-physical state .* in element 40 at (0.01975," hotter.txt
check "... and its first bad node" \
  grep -Eq "^hexdg: in element 40 [0-9]+ of its 64 nodes fail; node \(i,j,k\) = \([0-3],[0-3],[0-3]\): " hotter.txt
grep "^hexdg: in element" hotter.txt | cut -c1-160
grep -E "^t = " hot.txt | tail -1 | cut -c1-100
[ $fails -eq 0 ] && echo "all hot-state checks passed" || { tail -5 hot.txt; echo "$fails check(s) failed"; }
exit $((fails > 0))
