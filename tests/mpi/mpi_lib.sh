# Shared helpers of the MPI tests (sourced): run a case on K ranks in its own directory and
# compare the final state files with compare_states.
# The calling script gets: hexdg root mpiexec compare_states
set -u
hexdg=$1
root=$2
mpiexec=$3
compare=$4
fails=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export OMP_NUM_THREADS=1

# run_ranks name ranks ini [restart file]: runs in directory name, prints the last output lines;
# a run that hangs is stopped after MPI_RUN_TIMEOUT seconds (default 600)
run_ranks() {
  local name=$1 ranks=$2 ini=$3 restart=${4:-}
  mkdir -p "$name"
  if (cd "$name" && timeout "${MPI_RUN_TIMEOUT:-600}" "$mpiexec" -n "$ranks" "$hexdg" "../$ini" \
        $restart >out.txt 2>&1); then
    echo "ok   - $name: $ranks ranks ($(grep -m1 'hexdg finished' "$name/out.txt" | cut -c1-60))"
  else
    echo "FAIL - $name: $ranks ranks, exit code $?:"
    tail -20 "$name/out.txt"
    fails=$((fails + 1))
  fi
}

# last_state dir: newest state file of a run
last_state() { ls "$1"/*_State_*.h5 | sort | tail -1; }

# same_state ref_dir other_dir: final states agree to 1e-12 relative
same_state() {
  if "$compare" "$(last_state "$1")" "$(last_state "$2")" 1e-12; then :; else fails=$((fails + 1)); fi
}

# same_on_1_2_4 prefix ini: runs ini on 1, 2 and 4 ranks (directories prefix1, prefix2, prefix4);
# the final states of 2 and 4 ranks agree with 1 rank's (same_state)
same_on_1_2_4() {
  local prefix=$1 ini=$2
  for n in 1 2 4; do
    run_ranks "$prefix$n" $n "$ini"
  done
  for n in 2 4; do
    same_state "${prefix}1" "$prefix$n"
  done
}

# same_csv file_a file_b: last lines agree to 1e-11 of the line's largest magnitude
same_csv() {
  if awk -F, -v a="$1" -v b="$2" '
      FNR == 1 { next }
      FILENAME == a { la = $0 } FILENAME == b { lb = $0 }
      END {
        n = split(la, x, ","); split(lb, y, ","); big = 0; worst = 0
        for (i = 1; i <= n; i++) { v = x[i] < 0 ? -x[i] : x[i]; if (v > big) big = v }
        for (i = 1; i <= n; i++) { d = x[i] - y[i]; d = d < 0 ? -d : d; if (d > worst) worst = d }
        rel = big > 0 ? worst / big : worst
        printf "%s %s vs %s: last lines differ by %.3e relative\n", rel <= 1e-11 ? "ok  " : "FAIL", b, a, rel
        exit rel <= 1e-11 ? 0 : 1
      }' "$1" "$2"; then :; else fails=$((fails + 1)); fi
}

finish() {
  [ $fails -eq 0 ] && echo "all MPI checks passed" || echo "$fails MPI check(s) failed"
  exit $((fails > 0))
}

# The cases the MPI tests share, written to a parameter file; Backend as given (cpu or cuda).
# write_mms_ini file project elems mu0 backend: manufactured solution on a curved periodic box
write_mms_ini() {
  cat >"$1" <<INI
ProjectName  = $2
MeshFile     = box
BoxElems     = $3
NGeo         = 2
BoxCurving   = 0.05
N            = 3
NodeType     = GAUSS-LOBATTO
SplitDG      = PI
IniExactFunc = 4
AdvVel       = (/1.,1.,1./)
mu0          = $4
tend         = 10.
maxIter      = 100
Analyze_dt   = 10.
Backend      = $5
INI
}

# write_walls_ini file backend: the unstructured gmsh box (all flips) with isothermal walls
write_walls_ini() {
  cat >"$1" <<INI
ProjectName  = walls
MeshFile     = $root/tests/data/gmsh_box_unstructured_o2.msh
BoundaryName = walls
BoundaryType = (/4,1/)
N            = 3
NodeType     = GAUSS-LOBATTO
SplitDG      = PI
IniExactFunc = 1
RefState     = (/1., 0.2, 0.1, 0.05, 0.71428571/)
mu0          = 0.01
CalcErrorNorms = F
CalcBodyForces = T
tend         = 100.
maxIter      = 100
Analyze_dt   = 100.
Backend      = $2
INI
}

# write_tgv_ini file backend: the Taylor-Green vortex on 4^3 elements, N = 2
write_tgv_ini() {
  cat >"$1" <<INI
ProjectName  = tgv
MeshFile     = box
BoxElems     = (/4,4,4/)
BoxLower     = (/-3.141592653589793,-3.141592653589793,-3.141592653589793/)
BoxUpper     = (/3.141592653589793,3.141592653589793,3.141592653589793/)
N            = 2
NodeType     = GAUSS-LOBATTO
SplitDG      = PI
TestCase     = taylorgreenvortex
mu0          = 0.000625
CalcErrorNorms = F
tend         = 100.
maxIter      = 100
Analyze_dt   = 100.
Backend      = $2
INI
}

# Sod's shock tube with FV blending and the spreading of alpha (2 passes), 60 steps:
# write_sod_ini file backend
write_sod_ini() {
  cat >"$1" <<INI
ProjectName      = sod
MeshFile         = box
BoxElems         = (/40,1,1/)
BoxLower         = (/0., 0., 0./)
BoxUpper         = (/1., 1., 1./)
BoxPeriodic      = (/F,T,T/)
N                = 3
NodeType         = GAUSS-LOBATTO
SplitDG          = PI
Riemann          = HLLC
IniExactFunc     = 11
CFLscale         = 0.5
CalcErrorNorms   = F
tend             = 0.2
maxIter          = 60
Analyze_dt       = 1.
IndicatorType    = hennemann
FV_alpha_max     = 1.
FV_doExtendAlpha = T
FV_nExtendAlpha  = 2
Backend          = $2
INI
}

# Sod's tube with FV switching on Gauss-Lobatto nodes, 60 steps; the indicator in the extra lines:
# write_lgl_switch_sod_ini file project backend [extra lines...]
write_lgl_switch_sod_ini() {
  local file=$1 project=$2 backend=$3
  shift 3
  cat >"$file" <<INI
ProjectName  = $project
MeshFile     = box
BoxElems     = (/40,1,1/)
BoxLower     = (/0., 0., 0./)
BoxUpper     = (/1., 0.025, 0.025/)
BoxPeriodic  = (/F,T,T/)
N            = 3
NodeType     = GAUSS-LOBATTO
Riemann      = HLLC
IniExactFunc = 11
tend         = 1.
maxIter      = 60
Analyze_dt   = 1.
CFLscale     = 0.5
FV_Mode      = switching
Backend      = $backend
INI
  [ $# -gt 0 ] && printf '%s\n' "$@" >>"$file"
  return 0
}

# Sod's tube with FV switching on Gauss nodes and Persson's indicator (FLEXI's reggie thresholds):
# write_fvg_sod_ini file backend [extra lines...]
write_fvg_sod_ini() {
  local file=$1 backend=$2
  shift 2
  cat >"$file" <<INI
ProjectName  = fvg
MeshFile     = box
BoxElems     = (/40,1,1/)
BoxLower     = (/0., 0., 0./)
BoxUpper     = (/1., 0.025, 0.025/)
BoxPeriodic  = (/F,T,T/)
N            = 2
NodeType     = GAUSS
Riemann      = HLLEM
IniExactFunc = 11
tend         = 0.1
Analyze_dt   = 0.05
CFLscale     = 0.5
FV_Mode      = switching
IndicatorType = persson
IndVar       = 1
IndStartTime = 0.001
FV_IndUpperThreshold = -3.
FV_IndLowerThreshold = -4.
Backend      = $backend
INI
  [ $# -gt 0 ] && printf '%s\n' "$@" >>"$file"
  return 0
}

# A Navier-Stokes density wave on a curved periodic box with FV switching on Gauss nodes, the
# indicator in the extra lines: write_fvg_wave_ini file project tend backend lines...
write_fvg_wave_ini() {
  local file=$1 project=$2 tend=$3 backend=$4
  shift 4
  cat >"$file" <<INI
ProjectName  = $project
MeshFile     = box
BoxElems     = (/4,4,2/)
BoxCurving   = 0.1
NGeo         = 3
BoxPeriodic  = (/T,T,T/)
N            = 3
NodeType     = GAUSS
Riemann      = HLLEM
IniExactFunc = 2
AdvVel       = (/0.6, 0.3, 0.2/)
mu0          = 0.02
tend         = $tend
FV_Mode      = switching
Backend      = $backend
INI
  printf '%s\n' "$@" >>"$file"
}
