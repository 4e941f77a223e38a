#!/usr/bin/env bash
# The outflow of a detonation held in place (parameter_files/detonation_h2o2ar_2d_front.ini, here
# in 1-D: one element across, 0.3 mm elements, 2 us): H2:O2:Ar 2:1:7 at 6.67 kPa flows in at
# -D_CJ, the ZND wave (IniZND) stands 2.5 cm ahead of a pressure outflow (BC 24). Its
# recombination tail is long: 2.5 cm behind the shock the gas is still at 144 kPa, not at the CJ
# pressure of 105 kPa, and flows at 0.64 of its frozen sound speed. The steady wave then holds
# the mass in the channel only with the outflow at the profile's own pressure there, which the
# run prints with its IniZND line. Checks: that printed pressure is `hexdg znd`'s at the same
# distance; with it the channel's mass stays within 1e-4 over 2 us; with p_CJ instead the outflow
# drains it (a rarefaction runs up to the front), at least ten times as fast. Then the sponge of
# a reacting flow (below). Skips (77) without the h2o2 mechanism or a python3 with numpy and h5py.
# KEEP=DIR keeps the run's files in DIR.
# usage: run_znd_outflow.sh path/to/hexdg repo_root
set -u
hexdg=$1
root=$2
source "$(dirname "$0")/script_lib.sh"
require_mech "$root" h2o2
require_python numpy h5py
if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cd "$KEEP"; else enter_scratch; fi

"$hexdg" znd "$mech" --T 298 --p 6670 --X "H2:2,O2:1,AR:7" --xend 0.025 -o profile.csv >znd.txt 2>&1
p_end=$(awk '/^end /{print $12}' znd.txt) p_cj=$(awk '/^cj_equilibrium/{print $6}' znd.txt)
echo "hexdg znd: p $p_end Pa 2.5 cm behind the shock, p_CJ $p_cj Pa"
one_d() { # $1 project, $2 outflow pressure
  sed -e "s|^Mechanism .*|Mechanism = $mech|" -e 's|^BoxElems .*|BoxElems = (/100,1,1/)|' \
      -e 's|^BoxUpper .*|BoxUpper = (/0.03,0.0003,0.0003/)|' -e '/^IniZNDPocket/d' \
      -e '/^RecordFrontPressure/d' -e '/^FrontPressure_dt/d' -e 's|^Backend .*|Backend = cpu|' \
      -e 's|^tend .*|tend = 2e-6|' -e 's|^Analyze_dt .*|Analyze_dt = 1e-6|' \
      -e "s|^ProjectName .*|ProjectName = $1|" \
      -e "s|^RefState *= (/0.18,.*|RefState = (/0.18,0.,0.,0.,$2/)|" \
      "$root/parameter_files/detonation_h2o2ar_2d_front.ini" >"$1.ini"
  OMP_NUM_THREADS=2 "$hexdg" "$1.ini" >"$1.txt" 2>&1
}
# the relative change of the channel's mass over the run (first and last `totals:` line)
mass_change() { awk '/totals:/ {m = $2; if (m0 == "") m0 = m} END {printf "%.3e", (m - m0) / m0}' "$1"; }
p_case=$(sed -n 's/^RefState *= (\/0.18,0.,0.,0.,\([0-9.e+]*\)\/).*/\1/p' \
  "$root/parameter_files/detonation_h2o2ar_2d_front.ini")
check "the case's outflow pressure ($p_case Pa) is the profile's within 0.1 %" \
  awk -v a="${p_case:-0}" -v b="$p_end" 'BEGIN{exit !(b > 0 && (a-b)/b < 1e-3 && (b-a)/b < 1e-3)}'
one_d zd "$p_case"
check "the case's outflow pressure: the run" grep -q "hexdg finished" zd.txt
printed=$(sed -n 's/.*, p there \([0-9.e+-]*\) Pa.*/\1/p' zd.txt)
check "the run prints the profile's pressure at the outflow ($printed Pa; hexdg znd: $p_end)" \
  awk -v a="$printed" -v b="$p_end" 'BEGIN{exit !(b > 0 && (a-b)/b < 1e-3 && (b-a)/b < 1e-3)}'
one_d cj "$p_cj"
check "the outflow at p_CJ: the run" grep -q "hexdg finished" cj.txt
dz=$(mass_change zd.txt) dc=$(mass_change cj.txt)
echo "mass change over 2 us: $dz (profile's pressure), $dc (p_CJ)"
check "the profile's pressure at the outflow holds the channel's mass within 1e-4 ($dz)" \
  awk -v a="$dz" 'BEGIN{exit !(a < 1e-4 && -a < 1e-4)}'
check "p_CJ at the outflow drains it at least 10 times as fast ($dc)" \
  awk -v a="$dz" -v b="$dc" 'BEGIN{if (a < 0) a = -a; exit !(b < 0 && -b > 10 * a)}'
# A sponge towards the ZND profile (SpongeBaseFlow = exactfunction with the mixture's IniExactFunc
# 16) near the outflow, for runs longer than the reflected waves take to come back: 5 % density
# noise on the profile (IniNoiseAmplitude) decays in the sponge (damping 3e6 1/s, full for
# x < 6 mm) and is left alone far from it (12..22 mm), after 1 us; every variable, species
# included (each state against the run without noise, with or without the sponge).
sponge() { # $1 project, $2 noise amplitude, $3 sponge T/F
  sed -e "s|^ProjectName .*|ProjectName = $1|" -e 's|^tend .*|tend = 1e-6|' zd.ini >"$1.ini"
  cat >>"$1.ini" <<EOF2
IniNoiseAmplitude = $2
IniNoiseWavelengths = (/0.001,0.005/)
IniNoiseDims = 2
SpongeLayer = $3
SpongeBaseFlow = exactfunction
SpongeExactFunc = 16
damping = 3e6
xStart = (/0.008,0.,0./)
SpongeDir = (/-1.,0.,0./)
SpongeDistance = 0.002
EOF2
  OMP_NUM_THREADS=2 "$hexdg" "$1.ini" >"$1.txt" 2>&1
}
sponge sp_ref 0 F
sponge sp_noise 0.05 F
sponge sp_ref_damped 0 T
sponge sp_damped 0.05 T
check "the sponge with a mechanism: the run" grep -q "hexdg finished" sp_damped.txt
"$py" - "$root/tools" "$hexdg" >sponge.txt 2>&1 <<'PY'
import argparse, sys
import numpy as np, h5py
sys.path.insert(0, sys.argv[1])
import front_speed as fs
name = "%s_State_0000000.000001000.h5"
u = {k: h5py.File(name % k, "r")["DG_Solution"][...]
     for k in ("sp_ref", "sp_noise", "sp_ref_damped", "sp_damped")}
maker = fs.MeshMaker(argparse.Namespace(ini="sp_ref.ini", hexdg=sys.argv[2], verbose=False))
x = maker.coordinate(fs.State(name % "sp_ref"), 0)
maker.close()
def dev(k, mask):  # the largest deviation from the run without noise, per variable
    ref = u["sp_ref_damped" if k == "sp_damped" else "sp_ref"]
    return np.abs(u[k] - ref)[mask].max(axis=0)
core, far = x < 0.005, (x > 0.012) & (x < 0.022)
scale = np.abs(u["sp_ref"]).reshape(-1, u["sp_ref"].shape[-1]).max(axis=0)
scale[1:4] = scale[1:4].max()  # the momentum's scale for each of its components
live = dev("sp_noise", core) > 1e-6 * scale  # the variables the noise reaches (not w, N2)
print("variables perturbed: %d of %d" % (live.sum(), live.size))
print("core: damped/undamped max %.3e" % (dev("sp_damped", core)[live] / dev("sp_noise", core)[live]).max())
r = dev("sp_damped", far)[live] / dev("sp_noise", far)[live]
print("far: damped/undamped min %.4f max %.4f" % (r.min(), r.max()))
PY
cat sponge.txt
check "the sponge damps the noise on every variable in its core (damped/undamped < 0.2)" \
  awk '/^core:/ {ok = $4 < 0.2} END {exit !ok}' sponge.txt
check "and leaves it alone far from it (damped/undamped 0.99..1.01)" \
  awk '/^far:/ {ok = $4 > 0.99 && $6 < 1.01} END {exit !ok}' sponge.txt
sed 's|^SpongeExactFunc .*|SpongeExactFunc = 1|' sp_damped.ini >sp_bad.ini
"$hexdg" sp_bad.ini >sp_bad.txt 2>&1
check "a mixture's sponge with SpongeExactFunc other than IniExactFunc: an error naming both" \
  grep -q "SpongeExactFunc = 1 with a Mechanism.*must be IniExactFunc (16)" sp_bad.txt
[ $fails -eq 0 ] && echo "all outflow checks passed" || echo "$fails outflow checks failed"
exit $((fails > 0))
