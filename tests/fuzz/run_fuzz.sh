#!/bin/bash
# One fuzz run of a target under ASan+UBSan (docs/fuzzing.md):
#   run_fuzz.sh FUZZ_BINARY TARGET SECONDS FUZZ_DIR WORK_DIR [extra libFuzzer options]
# Seeds from FUZZ_DIR/corpus/TARGET and FUZZ_DIR/regressions/TARGET are merged into WORK_DIR/corpus
# (the source tree is left as it is); crashes land in WORK_DIR/artifacts. Exit 0: no crash, leak
# or hang (-timeout=5); otherwise libFuzzer's status and the reproducer's path.
set -u
bin=$1 target=$2 seconds=$3 fuzz_dir=$4 work=$5
shift 5
mkdir -p "$work/corpus" "$work/artifacts"
cp -n "$fuzz_dir/corpus/$target"/* "$work/corpus/" 2>/dev/null
[ -d "$fuzz_dir/regressions/$target" ] && cp -n "$fuzz_dir/regressions/$target"/* "$work/corpus/" 2>/dev/null
dict=()
[ -f "$fuzz_dir/dict/$target.dict" ] && dict=(-dict="$fuzz_dir/dict/$target.dict")
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1:quarantine_size_mb=16}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
"$bin" "$work/corpus" "${dict[@]}" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
  -max_len=65536 -close_fd_mask=2 -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$@" \
  2>&1 | tee "$work/last_run.log" | grep -E "^#|Done|ERROR|SUMMARY|stat::|Test unit written" | tail -n 25
rc=${PIPESTATUS[0]}
echo "run_fuzz.sh: $target exit $rc (log: $work/last_run.log)"
exit "$rc"
