#!/usr/bin/env bash
# tools/plot_znd.py on the profile of `hexdg znd` (stoichiometric H2-air, Burke 2012): the PNG is
# written, and the induction and half-reaction lengths the tool recomputes from the CSV (in
# Python, from the thermicity and mass-fraction columns) equal the ones hexdg printed (src/chem/
# znd.c) to 1e-6 relative; a CSV that is not a `hexdg znd` profile is an error naming the
# missing column. Skipped (77) without the mechanism or a python3 with matplotlib.
# usage: run_plot_znd.sh path/to/hexdg repo_root
set -u
hexdg=$1
root=$2
source "$(dirname "$0")/script_lib.sh"
mech="$root/../shared/data/mechanisms/burke2012/mechanism.yaml"
[ -f "$mech" ] || { echo "$mech not found: skipped"; exit 77; }
require_python matplotlib
enter_scratch
"$hexdg" znd "$mech" --T 300 --p 101325 --X "H2:2,O2:1,N2:3.76" --xend 0.02 -o znd.csv >znd.txt 2>&1
check "hexdg znd wrote the profile" test -s znd.csv
"$py" "$root/tools/plot_znd.py" znd.csv -o znd.png --species H2,OH >plot.txt 2>&1
check "plot_znd.py wrote znd.png" test -s znd.png
li=$(awk '/^induction_length/{print $2}' znd.txt) lh=$(awk '/^half_reaction_length/{print $2}' znd.txt)
pi=$(awk '/^induction_length/{print $2}' plot.txt) ph=$(awk '/^induction_length/{print $4}' plot.txt)
echo "hexdg: induction $li m, half-reaction $lh m; plot_znd.py: $pi m, $ph m"
same() { awk -v a="$1" -v b="$2" 'BEGIN{exit !(b > 0 && (a-b)/b < 1e-6 && (b-a)/b < 1e-6)}'; }
check "the induction lengths agree" same "$pi" "$li"
check "the half-reaction lengths agree" same "$ph" "$lh"
printf 'x_m,T_K\n0,300\n1,400\n2,500\n' >bad.csv
"$py" "$root/tools/plot_znd.py" bad.csv -o bad.png >bad.txt 2>&1
check "a CSV without the thermicity is an error naming the column" grep -q "thermicity_1_s" bad.txt
[ $fails -eq 0 ] && echo "all plot_znd checks passed" || echo "$fails plot_znd checks failed"
exit $((fails > 0))
