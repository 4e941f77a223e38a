#!/usr/bin/env bash
# `hexdg regress` on its own reggie check (tests/data/regress/selfcheck): builds.ini with two
# options and one EXCLUDE (3 builds), a parameter.ini value list (N = 1,2), excludeBuild.ini, and
# analyze.ini h5diff against references written by hexdg: the free stream must equal the uniform
# state for every build (h5diff 1e-12, L2 1e-12); the reference with rho = 1.01 must FAIL with a
# largest difference of 0.01. The runner itself: exit status 1 on a failure, the expanded
# parameter files carry the run's value and the build's parameters, --dry-run runs nothing.
# --jobs 3 gives the table and exit status of --jobs 1 (with a must-fail, a timed-out and a
# 4-rank run), runs concurrently, the wide run alone, with OMP_NUM_THREADS=1 unless it is set;
# SIGTERM kills the runs under way.
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

# --jobs: a second group "jobs" beside selfcheck: two free-stream runs, the must-fail check, a run
# that hangs (the wrapper below sleeps instead of starting hexdg: --timeout stops its process
# group) and a run on 4 ranks (a fake mpiexec runs it on one), wider than --jobs 3: it runs alone.
# selfcheck and jobs with --jobs 3 must give the table of --jobs 1 (but the wall times and the
# output folder) and the same exit status. The wrapper logs the start and end of every run.
mkdir -p jobs/freestream jobs/mustfail jobs/timeout jobs/wide
echo "FLEXI_NODETYPE=GAUSS" >jobs/builds.ini
cp "$check_dir"/freestream/* jobs/freestream/
cp "$check_dir"/mustfail/* jobs/mustfail/
sed 's/^ProjectName .*/ProjectName = timeout/; s/^N .*/N = 2/' "$check_dir/freestream/parameter.ini" \
  >jobs/timeout/parameter.ini
echo "analyze_L2 = 1.e-12" >jobs/timeout/analyze.ini
sed 's/^N .*/N = 1/' "$check_dir/freestream/parameter.ini" >jobs/wide/parameter.ini
echo "MPI = 4" >jobs/wide/command_line.ini
echo "analyze_L2 = 1.e-12" >jobs/wide/analyze.ini
cat >hexdg_wrap <<WRAP
#!/bin/bash
echo "\${OMP_NUM_THREADS-unset}" >omp.txt
echo "start \$PWD \$(date +%s.%N)" >>"$PWD/runs.log"
grep -q '^ProjectName = timeout' parameter.ini && { sleep 300.$$ & wait; }
"$hexdg" "\$@"
rc=\$?
echo "end \$PWD \$(date +%s.%N)" >>"$PWD/runs.log"
exit \$rc
WRAP
printf '#!/bin/bash\nshift 2\nexec "$@"\n' >mpiexec_fake
chmod +x hexdg_wrap mpiexec_fake
jobs_run() { # jobs_run K: selfcheck and jobs with --jobs K into jK/, tK.md, tK.txt, runsK.log
  rm -f runs.log
  "$hexdg" regress "$check_dir" jobs --jobs "$1" --timeout 3 --hexdg "$PWD/hexdg_wrap" \
    --mpiexec "$PWD/mpiexec_fake" --out "j$1" --markdown "t$1.md" >"t$1.txt" 2>&1
  echo $? >"rc$1"
  mv runs.log "runs$1.log"
}
# the rows that --jobs must not change: the wall times and the output folder left out
rows_of() { sed -E 's#\| [0-9.]+ s \|#| (wall) |#; s#\| j[0-9]+/#| #' "$1"; }
jobs_run 1
jobs_run 3
rows_of t1.md >rows1.md
rows_of t3.md >rows3.md
check "--jobs 3: the table of --jobs 1" diff rows1.md rows3.md
# jobs: 6 freestream rows, 2 mustfail, 2 wide, 1 timeout (the run; L2 skips a failed run)
check "--jobs 3: 22 selfcheck rows and 11 jobs rows" \
  bash -c "[ \$(grep -c '^| selfcheck/' t3.md) -eq 22 ] && [ \$(grep -c '^| jobs/' t3.md) -eq 11 ]"
check "--jobs 3: exit status 1, as --jobs 1" bash -c "[ \$(cat rc1) = 1 ] && [ \$(cat rc3) = 1 ]"
check "--jobs 1 and 3: the must-fail h5diff FAILs" bash -c "for k in 1 3; do
  grep -qE '^\| jobs/mustfail .* h5diff \| 1.000e-02 .* FAIL' t\$k.md || exit 1; done"
check "--jobs 1 and 3: the hanging run is stopped by --timeout" bash -c "for k in 1 3; do
  grep -qE '^\| jobs/timeout .* run .* FAIL \| stopped after the time limit of 3 s' t\$k.md || exit 1
  done"
check "--timeout killed the hanging run's whole process group" \
  bash -c "! pgrep -f 'slee[p] 300.$$' >/dev/null"
# runs.log: "start|end DIR TIME"; the hanging run has no end: killed 3 s after its fork, which is
# before the wrapper wrote its start (up to 1 s allowed for that)
overlap='$1 == "start" { s[$2] = $3; n++ } $1 == "end" { e[$2] = $3 }
  END { for (d in s) if (d ~ /timeout/) e[d] = s[d] + 2 }'
check "--jobs 1: one run at a time" awk "$overlap"'
  END { for (a in s) for (b in s) if (a < b && s[a] < e[b] && s[b] < e[a]) bad = 1
        exit bad || n != 13 }' runs1.log
check "--jobs 3: runs overlap" awk "$overlap"'
  END { for (a in s) for (b in s) if (a < b && s[a] < e[b] && s[b] < e[a]) ok = 1
        exit !ok || n != 13 }' runs3.log
check "--jobs 3: the 4-rank run runs alone" awk "$overlap"'
  END { for (w in s) if (w ~ /wide/) for (b in s) if (b != w && s[w] < e[b] && s[b] < e[w]) bad = 1
        exit bad }' runs3.log
# OMP_NUM_THREADS: 1 for every run under --jobs > 1, unless the environment sets it
omp_run() { # omp_run K [VAR=value]: the OMP_NUM_THREADS that the run of jobs/mustfail sees
  env -u OMP_NUM_THREADS ${2-} "$hexdg" regress jobs/mustfail --jobs "$1" \
    --hexdg "$PWD/hexdg_wrap" --out "omp$1" >/dev/null 2>&1
  cat "omp$1"/jobs/build_0001/mustfail/cmd_0001/run_0001/omp.txt
}
check "OMP_NUM_THREADS: unset with --jobs 1, 1 with --jobs 2, as set with --jobs 3" \
  bash -c '[ "$1" = unset ] && [ "$2" = 1 ] && [ "$3" = 2 ]' _ "$(omp_run 1)" "$(omp_run 2)" \
  "$(omp_run 3 OMP_NUM_THREADS=2)"
"$hexdg" regress jobs/timeout --jobs 2 --hexdg "$PWD/hexdg_wrap" --out term >term.txt 2>&1 &
regress_pid=$!
sleep 1
kill -TERM $regress_pid
wait $regress_pid
check "SIGTERM: exit 2, the hanging run killed" \
  bash -c "[ $? -eq 2 ] && ! pgrep -f 'slee[p] 300.$$' >/dev/null && grep -q 'stopped by signal' term.txt"
"$hexdg" regress "$check_dir" --jobs 0 >bad.txt 2>&1
check "--jobs 0 is an error (exit 2) that names the option" \
  bash -c "[ $? -eq 2 ] && grep -q -- '--jobs 0' bad.txt"

[ $fails -eq 0 ] && echo "all regress checks passed" || echo "$fails regress check(s) failed"
exit $((fails > 0))
