#!/bin/bash
# Every subcommand's --help (and -h) prints its usage and exits 0, without running anything;
# hexdg --help --flexi-keys prints the table of FLEXI's keys with every disposition.
hexdg=$1
fail=0
for cmd in "bench" "bench chem" "reactor" "equilibrate" "convert" "mesh" "mesh box" "mesh import" \
           "mesh refine" "run"; do
  for flag in --help -h; do
    out=$($hexdg $cmd $flag 2>&1)
    rc=$?
    first=$(printf '%s\n' "$out" | head -1)
    if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | grep -q "usage"; then
      echo "FAIL: hexdg $cmd $flag: rc=$rc, first line: $first"
      fail=1
    else
      echo "ok: hexdg $cmd $flag: $first"
    fi
  done
done
table=$($hexdg --help --flexi-keys)
for section in "## Implemented" "## No effect" "## Accepted while off" "## Refused"; do
  printf '%s\n' "$table" | grep -q "^$section" || { echo "FAIL: --flexi-keys lacks '$section'"; fail=1; }
done
exit $fail
