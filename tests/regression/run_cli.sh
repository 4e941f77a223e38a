#!/usr/bin/env bash
# End-to-end checks of the hexdg executable: help/version, docs in sync with the registry, clear
# errors for bad parameter files (non-zero exit, file:line, key, suggestion), a short run whose
# state file is read back with h5py (FLEXI layout), and a restart from it.
# usage: run_cli.sh path/to/hexdg repo_root
set -u
hexdg=$1
root=$2
source "$(dirname "$0")/script_lib.sh"
enter_scratch

expect_error() { # description, ini file, pattern that stderr must contain
  local what=$1 ini=$2 pattern=$3
  "$hexdg" "$ini" >out.txt 2>err.txt
  local rc=$?
  if [ $rc -ne 0 ] && grep -q -- "$pattern" err.txt; then
    echo "ok   - $what: $(head -1 err.txt)"
  else
    echo "FAIL - $what (exit $rc): $(cat err.txt)"
    fails=$((fails + 1))
  fi
}

check "--version" bash -c "'$hexdg' --version | grep -q '^hexdg '"
check "--help lists parameters" bash -c "'$hexdg' --help | grep -q IniExactFunc"
"$hexdg" --help --markdown >params.md
check "docs/parameters.md is up to date (make docs)" diff -q params.md "$root/docs/parameters.md"

cat >good.ini <<'INI'
ProjectName  = cli     ! a comment
MeshFile     = box
BoxElems     = (/2,2,2/)
NGeo         = 2
BoxCurving   = 0.05
N            = 3
NodeType     = GAUSS-LOBATTO
SplitDG      = PI
IniExactFunc = 4
AdvVel       = (/1.,1.,1./)
tend         = 0.02
Analyze_dt   = 0.01
INI
sed 's/^N            = 3/Nn = 3/' good.ini >typo.ini
expect_error "unknown key names the closest key" typo.ini "did you mean 'N'"
expect_error "unknown key names file and line" typo.ini "typo.ini:6"
grep -v '^tend' good.ini >missing.ini
expect_error "missing mandatory key" missing.ini "tend"
sed 's/^N            = 3/N = three/' good.ini >badvalue.ini
expect_error "bad value" badvalue.ini "badvalue.ini:6"
sed 's/^SplitDG      = PI/SplitDG = XY/' good.ini >badchoice.ini
expect_error "bad choice lists the valid ones" badchoice.ini "PI"
expect_error "missing parameter file" nonexistent.ini "nonexistent.ini"

check "a short run succeeds" bash -c "'$hexdg' good.ini >run.txt 2>&1"
check "it prints the end summary with PID" grep -q "PID" run.txt
check "state files at the analysis times" test -f cli_State_0000000.010000000.h5 -a -f cli_State_0000000.020000000.h5
check "--set replaces a key of the file" bash -c "'$hexdg' good.ini --set N=2 --set ProjectName=cliset >set.txt 2>&1 && grep -q 'N=2' set.txt && test -f cliset_State_0000000.020000000.h5"
check "--set with an unknown key names the closest one" bash -c "'$hexdg' good.ini --set Nn=2 2>&1 | grep -q \"did you mean 'N'\""
check "no temporary files left" bash -c "! ls *.tmp 2>/dev/null | grep -q ."
check "error norms CSV header" bash -c "head -1 cli_ErrorNorms.csv | grep -q '^time,L2_Density,L2_MomentumX,L2_MomentumY,L2_MomentumZ,L2_EnergyStagnationDensity,Linf_Density'"
check "restart from a state file" bash -c "'$hexdg' good.ini cli_State_0000000.010000000.h5 >restart.txt 2>&1"
check "restart of a missing state file fails" bash -c "! '$hexdg' good.ini nothere.h5 >/dev/null 2>&1"

py=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c "import h5py, numpy" 2>/dev/null; then py=$p; break; fi
done
if [ -n "$py" ]; then
  check "h5py reads the state in FLEXI's layout" "$py" - <<'PY'
import h5py, numpy as np, sys
f = h5py.File("cli_State_0000000.020000000.h5", "r")
u = f["DG_Solution"][...]
a = f.attrs
ok = u.shape == (8, 4, 4, 4, 5) and int(a["N"][0]) == 3
ok &= a["NodeType"][0].decode().strip() == "GAUSS-LOBATTO"
ok &= a["File_Type"][0].decode().strip() == "State"
ok &= abs(float(a["Time"][0]) - 0.02) < 1e-15
names = [n.decode().strip() for n in a["VarNames"]]
ok &= names == ["Density", "MomentumX", "MomentumY", "MomentumZ", "EnergyStagnationDensity"]
# manufactured solution: rho = 2 + 0.1 sin(...), momentum = rho, energy = rho^2
rho = u[..., 0]
ok &= bool(np.all(np.abs(rho - 2.0) < 0.11)) and bool(np.allclose(u[..., 1], rho, atol=1e-2))
print("shape", u.shape, "rho range", rho.min(), rho.max())
sys.exit(0 if ok else 1)
PY
else
  echo "skip - h5py check: no python3 with h5py and numpy (apt-get install python3-h5py)"
fi

[ $fails -eq 0 ] && echo "all CLI checks passed" || echo "$fails CLI checks failed"
exit $fails
