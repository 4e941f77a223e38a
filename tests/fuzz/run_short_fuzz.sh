#!/bin/bash
# ctest fuzz.short of a normal (gcc) build: builds the libFuzzer targets with clang in
# BUILD_DIR/fuzz-clang (once; later runs rebuild what changed) and fuzzes each target SECONDS s
# under ASan+UBSan. Skipped (77) where clang with libFuzzer is missing.
#   run_short_fuzz.sh SOURCE_DIR BUILD_DIR SECONDS
set -u
src=$1 bin=$2 seconds=$3
targets="params hopr gmsh state mech"
if ! command -v clang > /dev/null; then
  echo "fuzz.short: skipped, no clang (apt-get install clang) - the replay tests still ran"
  exit 77
fi
mkdir -p "$bin"
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' > "$bin/probe.c"
if ! clang -fsanitize=fuzzer,address,undefined "$bin/probe.c" -o "$bin/probe" 2> "$bin/probe.log"; then
  echo "fuzz.short: skipped, clang cannot link libFuzzer ($(head -n 1 "$bin/probe.log"))"
  exit 77
fi
if ! cmake -S "$src" -B "$bin/fuzz-clang" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Release \
  -DHEXDG_FUZZ=ON -DHEXDG_CUDA=OFF -DHEXDG_MPI=OFF -DHEXDG_WERROR=OFF > "$bin/configure.log" 2>&1 ||
  ! cmake --build "$bin/fuzz-clang" -j 2 $(for t in $targets; do printf -- '--target fuzz_%s ' "$t"; done) \
    > "$bin/build.log" 2>&1; then
  echo "fuzz.short: the clang build failed; see $bin/configure.log and $bin/build.log"
  tail -n 20 "$bin/build.log"
  exit 1
fi
fails=0
for t in $targets; do
  bash "$src/tests/fuzz/run_fuzz.sh" "$bin/fuzz-clang/tests/fuzz/fuzz_$t" "$t" "$seconds" \
    "$src/tests/fuzz" "$bin/work_$t" || fails=$((fails + 1))
done
[ "$fails" -eq 0 ] && echo "fuzz.short: $targets: no crash, leak or hang in $seconds s each"
exit "$fails"
