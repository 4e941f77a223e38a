#!/usr/bin/env bash
# The quick checks of FLEXI's reggie suite (../shared/data/flexi_regressioncheck) through
# `hexdg regress`: every row must be judged (pass, not supported with a reason, or FAIL with the
# hexdg error line), the runner must not stop (exit status 0 or 1), and the free stream, where
# hexdg's algorithm is FLEXI's, must pass FLEXI's own L2 bound with the RK scheme both have.
# Skipped (77) without ../shared. REGRESS_QUICK_CHECKS: other check folders (relative to checks/).
# usage: run_regress_quick.sh path/to/hexdg repo_root
set -u
hexdg=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$2
checks=$root/../shared/data/flexi_regressioncheck/checks
if [ ! -d "$checks" ]; then
  echo "skip: FLEXI's regression checks not found at $checks (they live in ../shared/data)"
  exit 77
fi
source "$(dirname "$0")/script_lib.sh"
enter_scratch
export OMP_NUM_THREADS=1
dirs=()
for c in ${REGRESS_QUICK_CHECKS:-timedisc/freestream_3D h5diff/cavity}; do dirs+=("$checks/$c"); done

"$hexdg" regress "${dirs[@]}" --out out --timeout 60 >log.txt 2>&1
rc=$?
sed -n '/^check /,$p' log.txt
check "hexdg regress ran to the end (exit status $rc <= 1)" [ $rc -le 1 ]
check "every FAIL row says why" awk -F'  +' '/ FAIL /{ if ($NF == "" || $NF == "FAIL") bad = 1 } END { exit bad }' log.txt
check "every not-supported row says why" bash -c "! grep -E 'not supported *$' log.txt"
check "free stream, carpenterrk4-5, 1 rank: L2 pass (FLEXI's bound 0.1)" \
  grep -qE '^timedisc/freestream_3D .*MPI=1 .*carpenterrk4-5 +L2 .* pass ' log.txt
check "implicit time stepping reported as not supported" \
  grep -qE 'TimeDiscMethod=esdirk4-6 +run .*not supported +implicit time stepping' log.txt

[ $fails -eq 0 ] && echo "all quick regress checks passed" || echo "$fails quick regress check(s) failed"
exit $((fails > 0))
