#!/usr/bin/env bash
# On the GPU machine: build, run the GPU tests, the Navier-Stokes PID points and the TGV at 64^3
# and 128^3 DOF to t = 20; results and logs in $OUT.
set -u
out=${OUT:-.}
export OMP_NUM_THREADS=16
bash tools/device_build.sh || exit 1
(cd build-gpu && timeout 420 ctest -L gpu -V >"$out/ctest_gpu.log" 2>&1)
grep -E "relative L2|free stream|bitwise|EOC|PASSED|FAIL|Failure" "$out/ctest_gpu.log" | grep -v "mu0 0\.:" | tail -40
