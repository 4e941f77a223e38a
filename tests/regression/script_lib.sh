# Shared by the tests/regression/run_*.sh drivers (sourced, not a test itself: CTest registers
# run_*.sh only).
fails=0

# Work in a fresh temporary directory, removed when the script exits.
enter_scratch() {
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  cd "$work" || exit 1
}

# find_python module...: sets py to the first of /usr/bin/python3 (the tools' own fallback) and
# python3 that imports all the modules, or to "" when none does.
find_python() {
  py=""
  local cand
  for cand in /usr/bin/python3 python3; do
    if command -v "$cand" >/dev/null 2>&1 && "$cand" -c "import $(IFS=,; echo "$*")" >/dev/null 2>&1; then
      py=$cand
      return
    fi
  done
}

# require_python module...: find_python, or skip the test (exit 77) saying what is missing.
require_python() {
  find_python "$@"
  if [ -z "$py" ]; then
    echo "skip: no python3 with $* (Debian: apt-get install $(printf 'python3-%s ' "$@"))"
    exit 77
  fi
}

# require_mech root name: sets mech to ../shared/data's file of the mechanism h2o2, li or burke, or
# to its copy .oracle/mechanisms/<name>.yaml (the GPU machine gets the checkout only), or skips the
# test (exit 77).
require_mech() {
  local shared
  case $2 in
    h2o2) shared=h2o2_cantera/h2o2.yaml ;;
    li) shared=li2004/mechanism.yaml ;;
    burke) shared=burke2012/mechanism.yaml ;;
  esac
  mech="$1/../shared/data/mechanisms/$shared"
  [ -f "$mech" ] || mech="$1/.oracle/mechanisms/$2.yaml"
  [ -f "$mech" ] || { echo "the $2 mechanism is in neither ../shared/data nor .oracle/mechanisms: skipped"; exit 77; }
}

# check description command...: runs the command, prints ok/FAIL and counts failures.
check() {
  local what=$1
  shift
  if "$@"; then echo "ok   - $what"; else echo "FAIL - $what"; fails=$((fails + 1)); fi
}

# write_moving_shock_ini file box_elems box_upper [line...]: hexdg's moving normal shock
# (IniExactFunc 10, Mach 2 into density 1 at rest, x_s = 5 + 2 t) on the built-in box from 0 to
# box_upper, periodic in y and z, N = 3 split PI with FV blending (MinMod), CPU, tend 2, states
# every 0.5; further parameter lines are appended.
write_moving_shock_ini() {
  local file=$1 elems=$2 upper=$3
  shift 3
  cat >"$file" <<INI
ProjectName    = shock
Backend        = cpu
MeshFile       = box
BoxElems       = $elems
BoxLower       = (/0., 0., 0./)
BoxUpper       = $upper
BoxPeriodic    = (/F,T,T/)
N              = 3
NodeType       = GAUSS-LOBATTO
SplitDG        = PI
Riemann        = HLLC
IniExactFunc   = 10
MachShock      = 2.
PreShockDens   = 1.
tend           = 2.
Analyze_dt     = 0.5
CFLscale       = 0.5
IndicatorType  = hennemann
FV_alpha_max   = 1.
FV_LimiterType = MinMod
INI
  local line
  for line in "$@"; do echo "$line" >>"$file"; done
}

# write_p3d_case file: FLEXI's convtest/p_3D set-up on the built-in 2x2x2 periodic box [-1,1]^3
# (weak form on Gauss-Lobatto nodes, manufactured solution 4, AdvVel 0.3, CFLscale 0.25, CPU);
# the caller appends N, Riemann, tend, Analyze_dt as it needs
write_p3d_case() {
  cat >"$1" <<'INI'
Backend        = cpu
MeshFile       = box
BoxElems       = (/2,2,2/)
BoxLower       = (/-1.,-1.,-1./)
BoxUpper       = (/1.,1.,1./)
BoxPeriodic    = (/T,T,T/)
NodeType       = GAUSS-LOBATTO
SplitDG        = none
IniExactFunc   = 4
AdvVel         = (/0.3,0.3,0.3/)
TimeDiscMethod = carpenterrk4-5
CFLscale       = 0.25
INI
}
