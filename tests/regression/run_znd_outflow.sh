#!/usr/bin/env bash
# The outflow of a detonation held in place (parameter_files/detonation_h2o2ar_2d_front.ini, here
# in 1-D: one element across, 0.3 mm elements, 2 us): H2:O2:Ar 2:1:7 at 6.67 kPa flows in at
# -D_CJ, the ZND wave (IniZND) stands 2.5 cm ahead of a pressure outflow (BC 24). Its
# recombination tail is long: 2.5 cm behind the shock the gas is still at 144 kPa, not at the CJ
# pressure of 105 kPa, and flows at 0.64 of its frozen sound speed. The steady wave then holds
# the mass in the channel only with the outflow at the profile's own pressure there, which the
# run prints with its IniZND line. Checks: that printed pressure is `hexdg znd`'s at the same
# distance; with it the channel's mass stays within 1e-4 over 2 us; with p_CJ instead the outflow
# drains it (a rarefaction runs up to the front), at least ten times as fast.
# Skips (77) without the h2o2 mechanism.
# usage: run_znd_outflow.sh path/to/hexdg repo_root
set -u
hexdg=$1
root=$2
source "$(dirname "$0")/script_lib.sh"
mech="$root/../shared/data/mechanisms/h2o2_cantera/h2o2.yaml"
[ -f "$mech" ] || mech="$root/.oracle/mechanisms/h2o2.yaml"
[ -f "$mech" ] || { echo "h2o2 mechanism not found: skipped"; exit 77; }
enter_scratch

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
[ $fails -eq 0 ] && echo "all outflow checks passed" || echo "$fails outflow checks failed"
exit $((fails > 0))
