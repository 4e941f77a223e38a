#!/usr/bin/env bash
# `hexdg regress` on its own reggie check (tests/data/regress/selfcheck): builds.ini with two
# options and one EXCLUDE (3 builds), a parameter.ini value list (N = 1,2), excludeBuild.ini, and
# analyze.ini h5diff against references written by hexdg: the free stream must equal the uniform
# state for every build (h5diff 1e-12, L2 1e-12); the reference with rho = 1.01 must FAIL with a
# largest difference of 0.01. The runner itself: exit status 1 on a failure, the expanded
# parameter files carry the run's value and the build's parameters, --dry-run runs nothing.
# usage: run_regress.sh path/to/hexdg repo_root
set -u
hexdg=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$2
source "$(dirname "$0")/script_lib.sh"
enter_scratch
export OMP_NUM_THREADS=1
check_dir=$root/tests/data/regress/selfcheck

"$hexdg" regress "$check_dir" --dry-run --out dry >dry.txt 2>&1
check "--dry-run exits 0 and runs nothing" bash -c "[ ! -d dry ] && grep -q 'dry run' dry.txt"
# 3 builds x 2 runs (freestream) + 2 builds x 1 run (mustfail: excluded where PARABOLIC=OFF)
check "--dry-run lists 8 runs" bash -c "[ \$(grep -c ' run .*dry run' dry.txt) -eq 8 ]"
check "--dry-run names the excluded build" grep -q 'excludeBuild.ini: FLEXI_PARABOLIC=OFF' dry.txt

"$hexdg" regress "$check_dir" --out out --markdown table.md >log.txt 2>&1
rc=$?
check "exit status 1 (the mustfail check fails)" [ $rc -eq 1 ]
rows() { grep -E "^selfcheck/$1 .* $2 " log.txt | grep -c -E "  $3  "; }
check "6 freestream runs pass" [ "$(rows freestream run pass)" -eq 6 ]
check "6 freestream h5diff pass (1e-12)" [ "$(rows freestream h5diff pass)" -eq 6 ]
check "6 freestream L2 pass (1e-12)" [ "$(rows freestream L2 pass)" -eq 6 ]
check "2 mustfail h5diff FAIL" [ "$(rows mustfail h5diff FAIL)" -eq 2 ]
# the density differs by 0.01 exactly; momentum 0.001, energy 5e-5: the largest is 0.01
check "mustfail measures 0.01" awk '/^selfcheck\/mustfail .* h5diff /{
    for (i = 1; i <= NF; i++) if ($i == "h5diff") d = $(i + 1) + 0
    if (d < 0.0099 || d > 0.0101) bad = 1; n++ } END { exit (n == 2 && !bad) ? 0 : 1 }' log.txt
check "Markdown table written" grep -q '^| selfcheck/mustfail | b1 ' table.md

run=out/selfcheck/build_0003/freestream/cmd_0001/run_0002
check "run dir holds the copied example and references" test -f $run/ref_N2.h5 -a -f $run/analyze.ini
check "expanded parameter.ini: N of run 2" grep -q '^N = 2 ' $run/parameter.ini
check "expanded parameter.ini: build 3 is GAUSS-LOBATTO" grep -q '^NodeType = GAUSS-LOBATTO' $run/parameter.ini
check "expanded parameter.ini: build 3 is inviscid (mu0 = 0)" grep -q '^mu0 = 0\.' $run/parameter.ini
check "expanded parameter.ini: the file's mu0 line is commented out" \
  grep -q '^! \[hexdg regress: the build sets mu0' $run/parameter.ini
check "build 3 run finished" grep -q "hexdg finished" $run/std.out

"$hexdg" regress "$check_dir/freestream" --out one >one.txt 2>&1
check "one example folder: exit 0, 6 h5diff rows pass" \
  bash -c "[ \$(grep -c ' h5diff .* pass ' one.txt) -eq 6 ]"
"$hexdg" regress /nonexistent >bad.txt 2>&1
check "a missing folder is an error (exit 2)" [ $? -eq 2 ]

[ $fails -eq 0 ] && echo "all regress checks passed" || echo "$fails regress check(s) failed"
exit $((fails > 0))
