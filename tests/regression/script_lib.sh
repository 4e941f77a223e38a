# Shared by the tests/regression/run_*.sh drivers (sourced, not a test itself: CTest registers
# run_*.sh only).
fails=0

# Work in a fresh temporary directory, removed when the script exits.
enter_scratch() {
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  cd "$work" || exit 1
}

# check description command...: runs the command, prints ok/FAIL and counts failures.
check() {
  local what=$1
  shift
  if "$@"; then echo "ok   - $what"; else echo "FAIL - $what"; fails=$((fails + 1)); fi
}
