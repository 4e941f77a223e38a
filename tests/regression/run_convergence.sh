#!/usr/bin/env bash
# hexdg convergence: the h-series 2,4,8 of parameter_files/mms.ini (manufactured solution) at
# N = 2; the L2 EOC of every variable between the two finest meshes must be N+1 = 3 within 0.5,
# the CSV must hold one row per run, and --help prints the options.
# usage: run_convergence.sh path/to/hexdg repo_root
set -u
hexdg=$1
root=$2
source "$(dirname "$0")/script_lib.sh"
enter_scratch

if "$hexdg" convergence --help | grep -q -- "--mesh-list"; then
  echo "ok   - hexdg convergence --help lists the options"
else
  echo "FAIL - hexdg convergence --help"; fails=$((fails + 1))
fi
if "$hexdg" convergence "$root/parameter_files/mms.ini" --elems 2,4,8 --N 2 -o conv.csv >out.txt 2>&1; then
  # columns: elems,h,nDOF, then per variable L2_<var>,EOC_L2_<var>, then the Linf pairs
  awk -F, 'NR == 1 { for (i = 4; i <= NF; i++) if ($i ~ /^EOC_L2_/) col[i] = $i; next }
           { rows++; last = $0 }
           END { split(last, f, ","); bad = 0
                 for (i in col) { d = f[i] - 3; if (d < 0) d = -d
                   printf "     %s = %.3f\n", col[i], f[i]; if (d > 0.5) bad = 1 }
                 if (rows != 3) bad = 1; exit bad }' conv.csv
  if [ $? -eq 0 ]; then
    echo "ok   - h-series 2,4,8 at N = 2: L2 EOC of every variable within 0.5 of 3"
  else
    echo "FAIL - EOC not within 0.5 of N+1 = 3 (conv.csv):"; cat conv.csv; fails=$((fails + 1))
  fi
else
  echo "FAIL - hexdg convergence exited non-zero:"; cat out.txt; fails=$((fails + 1))
fi
[ $fails -eq 0 ] && echo "all convergence checks passed" || echo "$fails convergence checks failed"
exit $fails
