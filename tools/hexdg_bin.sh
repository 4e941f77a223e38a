#!/usr/bin/env bash
# hexdg from HEXDG_BENCH_BIN (default build-gpu/hexdg), so that tools/bench_ab.sh can alternate two
# builds as two of its variants: base=HEXDG_BENCH_BIN=.base-src/build-gpu/hexdg.
exec "${HEXDG_BENCH_BIN:-build-gpu/hexdg}" "$@"
