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

# check description command...: runs the command, prints ok/FAIL and counts failures.
check() {
  local what=$1
  shift
  if "$@"; then echo "ok   - $what"; else echo "FAIL - $what"; fails=$((fails + 1)); fi
}
