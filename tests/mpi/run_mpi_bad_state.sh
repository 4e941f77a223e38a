#!/usr/bin/env bash
# The non-physical-state error on several ranks: FLEXI's convtest/p_3D set-up at N = 2 on the 2x2x2
# box reaches p < 0 at t = 0.9643 (tests/regression/run_check_admissibility.sh). On 2 and 4 ranks the
# run stops at the same time and names the same element and centre as on 1 rank: the element with
# the largest global id that has a bad node, located by the rank that holds it (on 2 ranks that is
# not the root), printed once, and the same first bad node of it, told by that rank.
# usage: run_mpi_bad_state.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
source "$(dirname "$0")/../regression/script_lib.sh" # write_p3d_case (functions only; no names shared)
write_p3d_case bad.ini
printf 'ProjectName = bad\nN = 2\nRiemann = RoeEntropyFix\ntend = 1.\nAnalyze_dt = 0.5\n' >>bad.ini
where() { grep -o "non-physical state .* in element [0-9]* at ([^)]*)" "$1"; }
for r in 1 2 4; do
  mkdir -p r$r
  (cd r$r && timeout 120 "$mpiexec" -n $r "$hexdg" ../bad.ini >out.txt 2>&1)
  n=$(where r$r/out.txt | wc -l)
  if [ "$n" -eq 1 ]; then
    echo "ok   - $r rank(s): $(where r$r/out.txt | grep -o 'in element.*')"
  else
    echo "FAIL - $r rank(s): $n element messages (want 1):"; tail -5 r$r/out.txt
    fails=$((fails + 1))
  fi
done
node() { grep "^hexdg: in element" "$1"; }
for r in 2 4; do
  if [ -n "$(where r1/out.txt)" ] && [ "$(where r$r/out.txt)" = "$(where r1/out.txt)" ] &&
     [ "$(node r1/out.txt | wc -l)" -eq 1 ] && [ "$(node r$r/out.txt)" = "$(node r1/out.txt)" ]; then
    echo "ok   - $r ranks name the element and its bad node as 1 rank does, once"
  else
    echo "FAIL - $r ranks: '$(where r$r/out.txt)' against 1 rank's '$(where r1/out.txt)'"
    fails=$((fails + 1))
  fi
done
finish
