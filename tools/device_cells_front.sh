#!/usr/bin/env bash
# The cellular H2-O2-Ar detonation in the shock-attached frame
# (parameter_files/detonation_h2o2ar_2d_front.ini) as a chain of device calls on one warm machine.
# After `source .devdeps/setup.sh`, with .devdeps and .oracle/mechanisms (h2o2.yaml) carried and
# the hexdg binary at build-gpu/hexdg (else unpacked from a carried .devbin/hexdg.xz.*, else built:
# tools/device_build.sh, about 100 s):
#   bash tools/device_cells_front.sh [SECONDS]
# Each call runs the case on every GPU (one rank each) in build-gpu/cellrun/ (ignored, so it stays
# on a warm machine between calls), restarting from the last state there. SECONDS (default 540)
# before the call's limit it sends SIGUSR1 to the ranks: hexdg writes the state of that step and
# stops. Then the foil of all front-pressure records so far (tools/soot_foil.py --front) goes to
# $OUT/cells_front.npz, with the log's last lines. A later call goes on where this one stopped;
# a fresh machine starts again from t = 0. It also prints the channel's mass change since t = 0
# (the log's `totals:`). CELLS_KEYS replaces keys of the case, "key = value; key = value" (e.g. a
# coarser "BoxElems = (/134,100,1/)" for a quick look; a key given twice, like IniZNDPocket, keeps
# both lines). CELLS_RETRY_KEYS: keys for going on after a non-admissible step (see below).
set -u
out=${OUT:-.}
limit=${1:-540}
w=build-gpu/cellrun
mkdir -p "$w" "$out"
hexdg=$PWD/build-gpu/hexdg
if [ ! -x "$hexdg" ] && ls .devbin/hexdg.xz.* >/dev/null 2>&1; then  # carried from an earlier call
  cat .devbin/hexdg.xz.* | xz -d >"$hexdg" && chmod +x "$hexdg"
fi
[ -x "$hexdg" ] || bash tools/device_build.sh || { echo "no build-gpu/hexdg and the build failed"; exit 1; }
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c GPU)
source "$(dirname "${BASH_SOURCE[0]}")/device_python.sh"
py=$(device_python numpy h5py)  # the images differ: Debian's /usr/bin/python3 may lack them
sed -e "s|^Mechanism .*|Mechanism = $PWD/.oracle/mechanisms/h2o2.yaml|" \
  parameter_files/detonation_h2o2ar_2d_front.ini >"$w/case.ini"
# set_keys "key = value; key = value; ..." file: each key's lines replaced (a key given twice, like
# IniZNDPocket, keeps both lines)
set_keys() {
  local l key lines
  IFS=';' read -ra lines <<<"$1"
  for l in "${lines[@]}"; do
    key=$(echo "${l%%=*}" | tr -d ' ')
    [ -n "$key" ] && sed -i "/^$key[ =]/d" "$2"
  done
  for l in "${lines[@]}"; do
    l=$(echo "$l" | sed 's/^ *//')
    [ -n "$l" ] && echo "$l" >>"$2"
  done
}
[ -n "${CELLS_KEYS:-}" ] && set_keys "$CELLS_KEYS" "$w/case.ini"
cd "$w" || exit 1
t_start=$(date +%s)
# run_from_last: one run from the newest state (t = 0 without one) until hexdg stops or the
# call's time is up (SIGUSR1: hexdg writes the state of that step and stops)
run_from_last() {
  local last left stopper
  last=$(ls det_h2o2ar_2d_front_State_*.h5 2>/dev/null | tail -1)
  left=$((limit - ($(date +%s) - t_start)))
  echo "== $(date +%T) $ngpu GPU(s); $([ -n "$last" ] && echo "restart from $last" || echo "start at t = 0"); $left s"
  (sleep "$left"; pkill -USR1 -x hexdg) &  # the ranks only (not mpiexec)
  stopper=$!
  OMP_NUM_THREADS=4 mpiexec -n "$ngpu" "$hexdg" case.ini $last >>run.log 2>&1
  echo "rc $?" >>run.log
  kill $stopper 2>/dev/null
}
run_from_last
# CELLS_RETRY_KEYS: where a step gave a non-admissible state (hexdg wrote the last admissible one
# and stopped), these keys go into the case (e.g. "FV_alpha_max = 1.") and the run goes on from
# that state, once, in the time left; the error line says where the state failed
if [ -n "${CELLS_RETRY_KEYS:-}" ] && tail -5 run.log | grep -q "non-admissible" &&
   [ $(($(date +%s) - t_start)) -lt $((limit - 60)) ]; then
  grep -m1 "non-physical" <(tac run.log)
  echo "== retry with: $CELLS_RETRY_KEYS"
  set_keys "$CELLS_RETRY_KEYS" case.ini
  run_from_last
fi
grep -E "^t = |hexdg finished|stop requested|rror| rc " run.log | cut -c1-160 | tail -5
# the temperature's range at the last analyses (a hot pocket at the outflow showed as 9963 K at x = 0)
grep "^  temperature:" run.log | tail -3
# the channel's mass since t = 0 (the first `totals:` line): a steady front at a matched outflow
# holds it; a steady drain means the outflow pressure is off (docs/reacting_flow.md)
awk '/totals:/ {m = $2; if (m0 == "") m0 = m} END {if (m0 != "") printf "channel mass since t = 0: %+.3e\n", (m - m0) / m0}' run.log
fronts=$(ls det_h2o2ar_2d_front_FrontPressure_*.h5 2>/dev/null)
[ -n "$fronts" ] || exit 0
"$py" "$OLDPWD/tools/soot_foil.py" --front $fronts --speed 1616.9 --npz "$out/cells_front.npz" 2>&1 | tail -1
"$py" "$OLDPWD/tools/soot_foil.py" --from-npz "$out/cells_front.npz" --ridges 0.01 --collisions 0.01 2>&1 |
  grep -v "^ridges (median\|^channel width"
