#!/usr/bin/env bash
# On the GPU machine (after `source .devdeps/setup.sh`): configure (once) and build build-gpu/ for
# sm_90 with the carried MPICH/parallel HDF5; logs go to $OUT.
set -euo pipefail
out=${OUT:-.}
[ -f build-gpu/CMakeCache.txt ] || cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release \
  -DHEXDG_CUDA_ARCHS=90 $HEXDG_CMAKE_ARGS >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
cmake --build build-gpu -j "$(nproc)" >"$out/build.log" 2>&1 || { grep -m 30 -E "error|Error" "$out/build.log"; exit 1; }
