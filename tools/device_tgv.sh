#!/usr/bin/env bash
# On the GPU machine: Navier-Stokes PID points, then the TGV (Re 1600, Ma 0.1, N = 7, split PI) at
# 64^3 and 128^3 DOF to t = 20; CSV series and logs in $OUT.
set -u
out=${OUT:-.}
root=$(pwd)
export OMP_NUM_THREADS=16
bash tools/device_build.sh || exit 1
for e in 6 20 32; do ./build-gpu/hexdg bench --N 7 --elems $e --steps 20 --mu0 6.25e-4 | tail -1; done
for case in tgv_re1600_ma0.1_64 tgv_re1600_ma0.1; do
  mkdir -p /tmp/$case && cd /tmp/$case
  timeout 400 "$root/build-gpu/hexdg" "$root/parameter_files/$case.ini" >"$out/$case.log" 2>&1
  grep -E "backend|finished" "$out/$case.log"
  cp ./*_TGVAnalysis.csv "$out/$case.csv"
  cd "$root"
done
