#!/usr/bin/env bash
# The chemistry commands end to end: `hexdg reactor` reproduces Cantera's ignition delay (1 %) and
# prints its last line in the documented form, a sweep writes its table, `hexdg equilibrate` gives
# Cantera's adiabatic flame temperature (1 K), `hexdg znd` writes the ZND profile and ends near the
# CJ state, `hexdg bench chem` runs on the CPU, and bad input
# (unknown species in --X, a Chemkin file, a missing mechanism, an unsupported reaction type) fails
# with a message naming the culprit. A tiny reacting run writes its ParaView output with the species
# fields, and `hexdg convert` of its state finds a moved mechanism through --mechanism (and says
# so when it cannot find it). Skipped (77) without ../shared/data's Burke mechanism.
# usage: run_chem_cli.sh path/to/hexdg repo_root
set -u
hexdg=$1
root=$2
source "$(dirname "$0")/script_lib.sh"
mech="$root/../shared/data/mechanisms/burke2012/mechanism.yaml"
[ -f "$mech" ] || { echo "$mech not found: skipped"; exit 77; }
enter_scratch

expect_fail() { # description, pattern, command...
  local what=$1 pattern=$2
  shift 2
  "$@" >out.txt 2>err.txt
  local rc=$?
  if [ $rc -ne 0 ] && grep -q -- "$pattern" err.txt; then echo "ok   - $what: $(grep -m1 error err.txt)"
  else echo "FAIL - $what (exit $rc): $(cat err.txt)"; fails=$((fails + 1)); fi
}

# ignition delay, CV, 1 atm, 1000 K against tests/data/chem/ignition_burke.csv (Cantera 3.2)
ref=$(awk -F, '$1=="cv" && $2=="1" && $3=="1000" {print $4}' "$root/tests/data/chem/ignition_burke.csv")
"$hexdg" reactor "$mech" --T0 1000 --p0 101325 --X "H2:2,O2:1,N2:3.76" --mode cv --tend 0.5 \
  --rtol 1e-8 --atol 1e-15 -o hist.csv >reactor.txt 2>&1
last=$(tail -1 reactor.txt)
echo "reactor: $last (Cantera: $ref)"
check "last line: ignition_delay <s> T_end <K>" bash -c "echo '$last' | grep -Eq '^ignition_delay [0-9.e+-]+ T_end [0-9.]+$'"
tau=$(echo "$last" | awk '{print $2}')
check "ignition delay within 1 % of Cantera" awk -v a="$tau" -v b="$ref" 'BEGIN{exit !(a > 0 && (a-b)/b < 0.01 && (b-a)/b < 0.01)}'
check "history has a row per step and every species" bash -c "[ \$(head -1 hist.csv | tr ',' '\n' | wc -l) -eq 16 ] && [ \$(wc -l <hist.csv) -gt 100 ]"

"$hexdg" reactor "$mech" --sweep 1000:1400:3 --X "H2:2,O2:1,N2:3.76" -o sweep.csv >sweep.txt 2>&1
"$hexdg" reactor "$root/parameter_files/ignition_h2air.ini" --sweep 1000:1200:2 -o case.csv >case.txt 2>&1
check "parameter_files/ignition_h2air.ini runs (mechanism relative to the file)" bash -c "[ \$(grep -vc '^#' case.csv) -eq 3 ]"
check "sweep table: 3 temperatures" bash -c "[ \$(grep -vc '^#' sweep.csv) -eq 4 ]"

# adiabatic flame temperature (HP, 300 K, 1 atm, phi = 1) against equil_burke.csv
Tref=$(awk -F, '$1=="HP" && $2+0==300 && $3+0==101325 && $4=="H2:2.0;O2:1;N2:3.76" {print $5}' "$root/tests/data/chem/equil_burke.csv" | head -1)
Teq=$("$hexdg" equilibrate "$mech" --T 300 --p 101325 --X "H2:2,O2:1,N2:3.76" --mode hp | tail -1 | awk '{print $2}')
echo "equilibrate: T_eq $Teq K (Cantera: $Tref K)"
check "adiabatic flame temperature within 1 K of Cantera" awk -v a="$Teq" -v b="$Tref" 'BEGIN{exit !(b > 0 && a-b < 1 && b-a < 1)}'

Dref=$(awk -F, '$1=="burke" && $2=="H2:2;O2:1;N2:3.76" {print $5}' "$root/tests/data/chem/cj_reference.csv" | head -1)
D=$("$hexdg" equilibrate "$mech" --T 300 --p 101325 --X "H2:2,O2:1,N2:3.76" --mode cj | grep '^D_cj' | awk '{print $2}')
echo "equilibrate --mode cj: D_cj $D m/s (Cantera: $Dref m/s)"
check "CJ detonation speed within 0.1 % of Cantera" awk -v a="$D" -v b="$Dref" 'BEGIN{exit !(b > 0 && (a-b)/b < 1e-3 && (b-a)/b < 1e-3)}'
# hexdg znd: the stoichiometric H2-air ZND profile at D_cj, its CSV, and its end near the CJ state
"$hexdg" znd "$mech" --T 300 --p 101325 --X "H2:2,O2:1,N2:3.76" --xend 0.05 -o znd.csv >znd.txt 2>&1
cat znd.txt | grep -E "^(D|von_neumann|induction|half|end|cj_eq)"
check "znd: von Neumann, lengths, end state and the profile CSV" bash -c "grep -q '^half_reaction_length' znd.txt && [ \$(wc -l <znd.csv) -gt 100 ] && head -1 znd.csv | grep -q 'x_m,t_s,T_K,p_Pa'"
Tz=$(awk '/^end /{print $9}' znd.txt) Tcj=$(awk '/^cj_equilibrium/{print $3}' znd.txt)
check "znd: the end temperature within 1 % of the CJ temperature" awk -v a="$Tz" -v b="$Tcj" 'BEGIN{exit !(b > 0 && (a-b)/b < 0.01 && (b-a)/b < 0.01)}'
expect_fail "znd below the sound speed" "sound speed" "$hexdg" znd "$mech" --T 300 --p 101325 --X "H2:2,O2:1,N2:3.76" --D 200
check "bench chem on the CPU" bash -c "'$hexdg' bench chem '$mech' --cells 200 --backend cpu | tail -1 | grep -q '^cells_per_second'"

expect_fail "unknown species in --X" "XE2" "$hexdg" reactor "$mech" --T0 1000 --X "H2:2,O2:1,XE2:1"
expect_fail "Chemkin file" "ck2yaml" "$hexdg" reactor "$root/tests/data/chem/bad_chemkin.inp" --T0 1000 --X "H2:1"
expect_fail "missing mechanism" "nonexistent.yaml" "$hexdg" equilibrate nonexistent.yaml --T 300 --p 1e5 --X "H2:1"
expect_fail "unsupported reaction type" "Chebyshev" "$hexdg" reactor "$root/tests/data/chem/bad_chebyshev.yaml" --T0 1000 --X "H2:1"
expect_fail "no temperature" "--T0" "$hexdg" reactor "$mech" --X "H2:1"
# a reacting run with OutputFormat = ParaView, and `hexdg convert` of its state when the mechanism
# file has moved: an error naming it and --mechanism, then --mechanism gives the run's own file
cp "$mech" mech.yaml
cat >react.ini <<'INI'
ProjectName        = react
Backend            = cpu
MeshFile           = box
BoxElems           = (/2,1,1/)
N                  = 1
IniExactFunc       = 1
RefState           = (/0.2316800,10.,0.,0.,101325./)
RefStateX          = H2:2,O2:1,N2:3.76
Mechanism          = mech.yaml
Riemann            = HLLC
CalcErrorNorms     = F
tend               = 1e-7
OutputFormat       = ParaView
NVisu              = 2
INI
has_arrays() { # file name...: the .vtu's XML names every array
  local file=$1 name
  shift
  for name in "$@"; do grep -aq "Name=\"$name\"" "$file" || return 1; done
}
run_to() { # file command...: the command with its output in file
  local file=$1
  shift
  "$@" >"$file" 2>&1
}
check "a reacting run with OutputFormat = ParaView" run_to react.txt "$hexdg" react.ini
vtu=$(ls react_Solution_*.vtu 2>/dev/null | sort | tail -1)
state=$(ls react_State_*.h5 2>/dev/null | sort | tail -1)
check "its .vtu has Temperature, Pressure, Y_H2, Y_OH and HeatRelease" \
  has_arrays "$vtu" Temperature Pressure Y_H2 Y_OH HeatRelease
mkdir moved && mv mech.yaml moved/
expect_fail "convert without the mechanism file" "mech.yaml.*--mechanism FILE" \
  "$hexdg" convert react.ini "$state" -o gone.vtu
check "convert --mechanism moved/mech.yaml" \
  run_to conv.txt "$hexdg" convert react.ini "$state" -o conv.vtu --mechanism moved/mech.yaml
check "the converted file is the run's own .vtu" cmp -s conv.vtu "$vtu"
echo "$fails failed"
[ "$fails" -eq 0 ]
