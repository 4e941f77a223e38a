#!/usr/bin/env bash
# On the GPU machine (after `source .devdeps/setup.sh`): build, run the GPU tests, then time the
# face-kernel switches of the weak form on Gauss nodes and the split form against each other in
# one call (tools/bench_ab.sh alternates the variants), and profile the stage's kernels once with
# Nsight Compute. Logs and the profile go to $OUT.
#   bash tools/device_weak_ab.sh tests|bench|all|base
# tests: the build and `ctest -L gpu` (about 190 s to build on a fresh machine, 110-300 s of
# tests); bench: the A/B runs (about 20 s per variant) and the profile; all: both in one call;
# TESTS (a ctest regex) limits the tests, CASES (of "3 5 6 7": weak Gauss N = 3, 5, 6, split PI
# N = 7) the A/B cases, VARIANTS (NAME=ENV[,ENV...] ...) the variants, NCU=0 skips the profile.
# base: also builds the hexdg of .base-src (an exported older tree, carried:
#   rm -rf .base-src && mkdir .base-src && git archive REV | tar -x -C .base-src
# about 150 s) and times it as variant `base` beside the others, without the profile: for
# changes that have no switch (the slot layouts of lifting_line.cuh).
# Variants: HEXDG_CONST_METRICS (constant metric terms of straight-sided elements),
# HEXDG_WEAK_LINE_SURF (the weak update's face fluxes gathered per line) and HEXDG_LIFT_COMPACT
# (4 lifting face values per point instead of 12 on Gauss nodes), HEXDG_WEAK_LINE_VOL (the weak
# update's volume and surface terms per element line, Gauss nodes), HEXDG_GAUSS_LINE_3BLOCKS (the
# Gauss lifting line kernel at 80 registers and three blocks per SM), HEXDG_UFACE_UPDATE (the weak
# line update interpolates the new states to the faces; the face lifting kernel reads them),
# HEXDG_GAUSS_LINE_WSLOT (its viscous flux phase from the lifting variables in shared memory),
# HEXDG_UPDATE_PRELOAD (the fused updates load a node's state and RK register up front),
# HEXDG_GAUSS_LINE_PERM (the Gauss lifting kernel's bank-grouped task orders),
# HEXDG_LAMBDA_ELEM_CONST (the time step's metric norms once per element), HEXDG_WEAK_LINE_4BLOCKS
# (the weak line update at 64 registers, 4 blocks per SM; default at N = 5 only), HEXDG_VISC_FACE
# (the Gauss lifting kernel forms the inner sides' viscous fluxes; F: the face flux kernel from
# the gradients; default at N = 3, 5, 6), HEXDG_VISC_FACE_ENDS (one thread per line end), and
# HEXDG_FACE_WEAK_MINB (the weak form's inner face flux kernel at 4 or 5 blocks per SM),
# HEXDG_LIFT_VOLUME (the Gauss lifting kernel forms the whole volume term; F: the weak update
# adds the advective one) and HEXDG_WEAK_SURF_3BLOCKS (the update that then adds only the surface
# terms at 3 blocks per SM instead of 4).
set -u
out=${OUT:-.}
bash tools/device_build.sh || exit 1
bin=build-gpu/hexdg
if [ "${1:-}" = tests ] || [ "${1:-}" = all ]; then
  (cd build-gpu && timeout 330 ctest -L gpu ${TESTS:+-R "$TESTS"} -j3 --output-on-failure \
    >"$out/ctest_gpu.log" 2>&1)
  grep -E "tests passed|\*\*\*Failed|Timeout" "$out/ctest_gpu.log" | tail -8
  [ "${1:-}" = all ] || exit 0
fi
variants=(new=
  old=HEXDG_CONST_METRICS=F,HEXDG_WEAK_LINE_SURF=F,HEXDG_LIFT_COMPACT=F,HEXDG_WEAK_LINE_VOL=F,HEXDG_GAUSS_LINE_3BLOCKS=F,HEXDG_UFACE_UPDATE=F,HEXDG_GAUSS_LINE_WSLOT=F,HEXDG_UPDATE_PRELOAD=F,HEXDG_GAUSS_LINE_PERM=F,HEXDG_LAMBDA_ELEM_CONST=F,HEXDG_VISC_FACE=F,HEXDG_FACE_WEAK_MINB=4,HEXDG_LIFT_VOLUME=F
  visc_in_face_kernel=HEXDG_VISC_FACE=F,HEXDG_FACE_WEAK_MINB=4 visc_face_on=HEXDG_VISC_FACE=T
  visc_face_line=HEXDG_VISC_FACE_ENDS=F visc_face_ends=HEXDG_VISC_FACE=T,HEXDG_VISC_FACE_ENDS=T)
[ -n "${VARIANTS:-}" ] && read -r -a variants <<<"$VARIANTS" # NAME=ENV[,ENV...] ...
if [ "${1:-}" = base ]; then
  [ -d .base-src ] || { echo "device_weak_ab.sh base: no .base-src" >&2; exit 1; }
  (cd .base-src && { [ -f build-gpu/CMakeCache.txt ] || cmake -S . -B build-gpu \
    -DCMAKE_BUILD_TYPE=Release -DHEXDG_CUDA_ARCHS=90 $HEXDG_CMAKE_ARGS >"$out/base_configure.log" 2>&1; } &&
    cmake --build build-gpu -j "$(nproc)" --target hexdg >"$out/base_build.log" 2>&1) ||
    { echo "device_weak_ab.sh base: the build of .base-src failed" >&2; exit 1; }
  variants+=(base=HEXDG_BENCH_BIN=.base-src/build-gpu/hexdg)
  bin=tools/hexdg_bin.sh NCU=0
fi
ab() { # elements, then the bench options
  local e=$1
  shift
  echo "== $* ($e^3 elements)"
  ELEMS=$e REPS=3 bash tools/bench_ab.sh "$bin" "$@" --backend cuda --graphs T \
    -- "${variants[@]}" | grep median
}
for c in ${CASES:-3 5 6 7}; do
  case $c in
  3) ab 40 --N 3 --node GAUSS --mu0 6.25e-4 --steps 30 --warmup 5 ;;
  5) ab 27 --N 5 --node GAUSS --mu0 6.25e-4 --steps 30 --warmup 5 ;;
  6) ab 23 --N 6 --node GAUSS --mu0 6.25e-4 --steps 30 --warmup 5 ;;
  7) ab 20 --N 7 --split PI --mu0 0.01 --steps 30 --warmup 5 ;;
  esac
done
[ "${NCU:-1}" = 1 ] || exit 0
# the kernels of one step (N = 3 and 5, weak Gauss): durations and registers
command -v ncu >/dev/null || exit 0
for ne in "3 40" "5 27"; do
  set -- $ne
  (cd build-gpu && timeout 120 ncu --section SpeedOfLight --section LaunchStats --section Occupancy \
    --launch-skip 150 --launch-count 14 ./hexdg bench --N $1 --elems $2 --node GAUSS \
    --mu0 6.25e-4 --steps 4 --backend cuda --graphs F >"$out/ncu_weak$1.txt" 2>&1)
  grep -E "^  [a-z_].*\(|Duration|Registers Per|Achieved Occ" "$out/ncu_weak$1.txt" |
    sed -E 's/\(DevData.*//' | paste - - - - | awk '!seen[$0]++' | head -6
done
# shared-memory wavefronts and bank conflicts of the stage's kernels at N = 3 and 5
for ne in "3 40" "5 27"; do
  set -- $ne
  (cd build-gpu && timeout 90 ncu --metrics \
    l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum \
    --launch-skip 150 --launch-count 4 ./hexdg bench --N $1 --elems $2 --node GAUSS --mu0 6.25e-4 \
    --steps 4 --backend cuda --graphs F >"$out/ncu_banks$1.txt" 2>&1)
  grep -E "^  [a-z_].*\(|wavefronts|conflicts" "$out/ncu_banks$1.txt" | sed -E 's/\(DevData.*//' |
    paste - - - | head -4
done
