#!/bin/bash
# Regenerates docs/flexi_compat.md: FLEXI's reggie checks (../shared/data/flexi_regressioncheck)
# run through `hexdg regress`, one table row per run and analyzer.
#   tools/flexi_compat.sh [build/hexdg] [checks folder]
# REGRESS_TIMEOUT: seconds per run (default 300); REGRESS_JOBS: runs at once, `hexdg regress
# --jobs` (default 1; each run then single-threaded unless OMP_NUM_THREADS is set).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
hexdg=${1:-$root/build/hexdg}
checks=${2:-$root/../shared/data/flexi_regressioncheck/checks}
timeout=${REGRESS_TIMEOUT:-300}
jobs=${REGRESS_JOBS:-1}
if [ ! -d "$checks" ]; then
  echo "flexi_compat.sh: no FLEXI checks at $checks (see docs/regress.md)" >&2
  exit 1
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$hexdg" regress "$checks" --out "$out/runs" --timeout "$timeout" --jobs "$jobs" \
  --markdown "$out/table.md" >"$out/log.txt"
status=$?
if [ $status -gt 1 ]; then
  tail -20 "$out/log.txt"
  echo "flexi_compat.sh: hexdg regress stopped with status $status" >&2
  exit $status
fi
{
  echo "# FLEXI's regression checks in hexdg"
  echo
  echo "FLEXI's own reggie checks (GALÆXI commit 1119a65, \`../shared/data/flexi_regressioncheck\`)"
  echo "run unchanged through \`hexdg regress\` (see [regress.md](regress.md); FLEXI's parameter"
  echo "vocabulary in hexdg: [flexi_parameters.md](flexi_parameters.md)). Regenerate with"
  echo "\`tools/flexi_compat.sh\` (hexdg $("$hexdg" --version | cut -d' ' -f2), commit"
  echo "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%d),"
  echo "time limit $timeout s per run, $jobs job$([ "$jobs" = 1 ] || echo s), CPU backend)."
  echo
  echo "A *build* is one combination of the group's \`builds.ini\` (FLEXI's CMake options, mapped"
  echo "to hexdg parameters); *run* rows are the runs themselves (wall time, or the first error"
  echo "line of hexdg); the other rows are the analyzers of \`analyze.ini\`. Examples that an"
  echo "\`excludeBuild.ini\` excludes for a build are left out, as reggie does."
  echo
  cat "$out/table.md"
} >"$root/docs/flexi_compat.md"
echo "wrote docs/flexi_compat.md ($(grep -c '^| ' "$root/docs/flexi_compat.md") table lines)"
