#!/usr/bin/env bash
# IniZND (dg/mixture.c): a 1-D H2-air detonation (Li 2004) started from its ZND profile at
# D_CJ (hexdg znd) instead of a driver. The t = 0 lead shock sits at IniCenter (within a node
# spacing; tools/front_speed.py reads the positions), the run prints the von Neumann state of
# `hexdg znd`, and the front runs at the CJ speed from the first microseconds (the speed over
# 4..5 us within 2 %; a driver needs several to settle, parameter_files/detonation_h2air_1d.ini).
# With RefState 2 flowing in at -D_CJ the front stays where it started (the shock-attached
# frame). IniZNDPocket puts the unburnt gas into a box behind the front and changes nothing else.
# A bad set-up (IniZND without IniExactFunc 16, an empty pocket) is an error that says so. Skips (77) without the
# mechanism or a python3 with numpy and h5py.
# usage: run_znd_init.sh path/to/hexdg repo_root
set -u
hexdg=$1
root=$2
source "$(dirname "$0")/script_lib.sh"
require_mech "$root" li
require_python numpy h5py
enter_scratch

sed -e "s|^Mechanism .*|Mechanism = $mech|" -e 's|^IniCenter .*|IniCenter = (/0.004,0.,0./)|' \
    -e 's|^BoxElems .*|BoxElems = (/50,1,1/)|' -e 's|^BoxUpper .*|BoxUpper = (/0.02,0.0004,0.0004/)|' \
    -e 's|^tend .*|tend = 5e-6|' -e 's|^Analyze_dt .*|Analyze_dt = 1e-6|' -e 's|^ProjectName .*|ProjectName = znd|' \
    "$root/parameter_files/detonation_h2air_1d.ini" >znd.ini
echo "IniZND = T" >>znd.ini
"$hexdg" znd "$mech" --T 300 --p 101325 --X "H2:2,O2:1,N2:3.76" --xend 0.004 -o profile.csv >znd.txt 2>&1
D=$(awk '/^D /{print $2}' znd.txt) p_vn=$(awk '/^von_neumann/{print $6}' znd.txt)
echo "hexdg znd: D_CJ $D m/s, von Neumann p $p_vn Pa"
OMP_NUM_THREADS=2 "$hexdg" znd.ini >run.txt 2>&1
check "the run from the ZND profile" grep -q "hexdg finished" run.txt
grep "IniZND" run.txt
vn=$(awk '/^von_neumann/{printf "%.1f K %.4g Pa", $3, $6}' znd.txt)
check "the run's von Neumann state is hexdg znd's ($vn)" grep -q "von Neumann $vn" run.txt
"$py" "$root/tools/front_speed.py" --ini znd.ini --hexdg "$hexdg" -v 'znd_State_*.h5' >front.txt 2>&1
x0=$(awk '$1 == "0" {print $2}' front.txt)
check "t = 0: the lead shock at IniCenter (0.004 m) within a node spacing ($x0)" \
  awk -v a="$x0" 'BEGIN{exit !(a > 0.004 - 1e-4 && a < 0.004 + 1e-4)}'
v=$(awk '$1 == "4e-06" {a = $2} $1 == "5e-06" {b = $2} END {printf "%.2f", (b - a) / 1e-6}' front.txt)
check "the front at D_CJ from the start: 4..5 us at $v m/s, D_CJ $D" \
  awk -v a="$v" -v b="$D" 'BEGIN{exit !(b > 0 && (a-b)/b < 0.02 && (b-a)/b < 0.02)}'
# The shock-attached frame: RefState 2 flows in at -D_CJ (BC 2 ahead), the products leave
# through BC 24 at p_CJ behind (RefState 1's pressure): the front stays at IniCenter where the
# lab-frame run above moved it 2 mm a microsecond. 1 cm channel, 3 us.
p_cj=$(awk '/^cj_equilibrium/{print $6}' znd.txt)
sed -e 's|^ProjectName .*|ProjectName = ff|' -e 's|^tend .*|tend = 3e-6|' \
    -e 's|^BoxElems .*|BoxElems = (/25,1,1/)|' -e 's|^BoxUpper .*|BoxUpper = (/0.01,0.0004,0.0004/)|' \
    -e 's|^BoundaryType *= (/9,0/)|BoundaryType = (/24,1/)|' \
    -e "s|^RefState *= (/5.98163,.*|RefState = (/1.6,0.,0.,0.,$p_cj/)|" \
    -e "s|^RefState *= (/0.849462,0.,.*|RefState = (/0.849462,-$D,0.,0.,101325./)|" znd.ini >ff.ini
OMP_NUM_THREADS=2 "$hexdg" ff.ini >ff.txt 2>&1
check "the shock-attached frame: the run" grep -q "hexdg finished" ff.txt
check "the shock-attached frame: the front moves at 0 m/s in the mesh's frame (the run says)" \
  grep -q "the front moves at -*0.00 m/s" ff.txt
"$py" "$root/tools/front_speed.py" --ini ff.ini --hexdg "$hexdg" -v 'ff_State_*.h5' >ff_front.txt 2>&1
drift=$(awk 'NF == 2 && $1 ~ /e-0|^0$/ {d = $2 - 0.004; if (d < 0) d = -d; if (d > m) m = d} END {printf "%.3e", m}' ff_front.txt)
nf=$(awk 'NF == 2 && $1 ~ /e-0|^0$/' ff_front.txt | wc -l)
check "the shock-attached frame: the lead shock within 0.3 mm of IniCenter over 0..3 us ($drift m, $nf files)" \
  awk -v d="$drift" -v n="$nf" 'BEGIN{exit !(n >= 4 && d < 3e-4)}'
# IniZNDPocket: unreacted gas (RefState 2) in a box behind the front, elements 3 and 4
# (x 1.2 .. 2 mm) and the face nodes on its planes; every other node as without it
sed -e 's|^tend .*|tend = 1e-8|' -e 's|^ProjectName .*|ProjectName = pk0|' znd.ini >pk0.ini
sed 's|^ProjectName .*|ProjectName = pk1|' pk0.ini >pk1.ini
echo "IniZNDPocket = (/0.0012,-1.,-1.,0.002,1.,1./)" >>pk1.ini
OMP_NUM_THREADS=2 "$hexdg" pk0.ini >pk0.txt 2>&1
OMP_NUM_THREADS=2 "$hexdg" pk1.ini >pk1.txt 2>&1
"$py" - pk0_State_0000000.000000000.h5 pk1_State_0000000.000000000.h5 >pocket.txt 2>&1 <<'PY'
import sys, h5py, numpy as np
a = h5py.File(sys.argv[1], "r")["DG_Solution"][...]
b = h5py.File(sys.argv[2], "r")["DG_Solution"][...]
changed = np.any(a != b, axis=-1)
fresh = np.all(b[changed] == a[np.unravel_index(np.argmin(a[..., 0]), a.shape[:-1])], axis=-1)
print("changed_nodes %d fresh_nodes %d" % (changed.sum(), fresh.sum()))
PY
cat pocket.txt
nc=$(awk '/changed_nodes/{print $2}' pocket.txt) nf=$(awk '/changed_nodes/{print $4}' pocket.txt)
check "IniZNDPocket: 128..160 nodes changed ($nc), each to the unburnt state ($nf)" \
  awk -v c="${nc:-0}" -v f="${nf:--1}" 'BEGIN{exit !(c >= 128 && c <= 160 && f == c)}'
# two boxes (the key repeated): the nodes of the union, each box's as with it alone
sed -e 's|^ProjectName .*|ProjectName = pk3|' -e 's|^IniZNDPocket .*|IniZNDPocket = (/0.0028,-1.,-1.,0.0032,1.,1./)|' pk1.ini >pk3.ini
sed 's|^ProjectName .*|ProjectName = pk2|' pk1.ini >pk2.ini
echo "IniZNDPocket = (/0.0028,-1.,-1.,0.0032,1.,1./)" >>pk2.ini
OMP_NUM_THREADS=2 "$hexdg" pk2.ini >pk2.txt 2>&1
OMP_NUM_THREADS=2 "$hexdg" pk3.ini >pk3.txt 2>&1
"$py" - >pocket2.txt 2>&1 <<'PY'
import h5py, numpy as np
u = {k: h5py.File(f"{k}_State_0000000.000000000.h5", "r")["DG_Solution"][...] for k in ("pk0", "pk1", "pk2", "pk3")}
ch = {k: np.any(u[k] != u["pk0"], axis=-1) for k in ("pk1", "pk2", "pk3")}
both = ch["pk1"] | ch["pk3"]
same = np.array_equal(ch["pk2"], both) and np.array_equal(u["pk2"][both], np.where(ch["pk1"][..., None], u["pk1"], u["pk3"])[both])
print("union_nodes %d box1 %d box2 %d same %d" % (ch["pk2"].sum(), ch["pk1"].sum(), ch["pk3"].sum(), same))
PY
cat pocket2.txt
check "IniZNDPocket twice: the union of the two boxes' nodes, each as with its box alone" \
  awk '/union_nodes/ {ok = $8 == 1 && $4 > 0 && $6 > 0 && $2 == $4 + $6} END {exit !ok}' pocket2.txt
sed 's|^IniZNDPocket .*|IniZNDPocket = (/0.002,-1.,-1.,0.0012,1.,1./)|' pk1.ini >pkbad.ini
"$hexdg" pkbad.ini >pkbad.txt 2>&1
check "an empty IniZNDPocket range is an error naming the key and the range" \
  grep -q "IniZNDPocket = .*the x range is empty" pkbad.txt
sed 's/^IniExactFunc .*/IniExactFunc = 1/' znd.ini >bad.ini
"$hexdg" bad.ini >bad.txt 2>&1
check "IniZND without IniExactFunc 16 is an error naming it" grep -q "IniZND = T needs IniExactFunc = 16" bad.txt
[ $fails -eq 0 ] && echo "all IniZND checks passed" || echo "$fails IniZND checks failed"
exit $((fails > 0))
