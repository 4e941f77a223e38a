#!/usr/bin/env bash
# On the GPU machine, after `source .devdeps/setup.sh` and a build in build-gpu: PyFR beside hexdg's
# weak form on Gauss nodes at p = 3 (40^3) and p = 5 (27^3), same DOF, in one call: hexdg, PyFR,
# hexdg for each p, after the weak form against the split form at N = 3..7
# (../shared/bench/pyfr/README.md: carry .pyfr_wheels and .pyfr_bench). PyFR's
# PID from tools/device_pyfr_long.sh (one run, start-up excluded); PYFR_SHORT=1: the shared
# harness's two-run difference instead.
#   bash tools/device_pyfr_side.sh
set -u
# the weak form against the split form (PI, Gauss-Lobatto) at N = 3..7, about 4.1e6 DOF each
# (issue 20: weak <= split)
for ne in "3 40" "4 32" "5 27" "6 23" "7 20"; do
  set -- $ne
  for form in "--node GAUSS" "--split PI"; do
    echo "N = $1, $2^3, $form: $(build-gpu/hexdg bench --N $1 --elems $2 $form --mu0 6.25e-4 \
      --steps 30 --backend cuda --graphs T 2>&1 | grep -E '^PID' | head -1)"
  done
done
for pe in "3 40" "5 27"; do
  set -- $pe
  hx() { build-gpu/hexdg bench --N $1 --elems $2 --node GAUSS --mu0 6.25e-4 --steps 30 \
    --backend cuda --graphs T 2>&1 | grep -E "^PID" | head -1; }
  echo "== p = $1, $2^3 elements"
  echo "hexdg weak Gauss: $(hx $1 $2)"
  if [ "${PYFR_SHORT:-0}" = 1 ]; then
    bash .pyfr_bench/device_pyfr.sh $1 $2 .pyfr_wheels 2>&1 | tail -1
  else
    bash tools/device_pyfr_long.sh $1 $2 2>&1 | tail -2
  fi
  echo "hexdg weak Gauss: $(hx $1 $2)"
done
