#!/usr/bin/env bash
# On the GPU machine (after `source .devdeps/setup.sh`, with .oracle/mechanisms carried): build,
# run the chemistry tests, and the batched-chemistry throughput table (`hexdg bench chem`) for
# GPU (bulk-sparse and single launch) and CPU (1 thread). Results and logs go to $OUT.
#   CHEM_MECHS="h2o2 li burke gri30 dodecane"  CHEM_CELLS="1e2 1e3 1e4 1e5 1e6"  CHEM_DT=1e-6
#   CHEM_CPU_CELLS=1000 (cells of the 1-thread CPU reference)  CHEM_TESTS=1 (ctest -R chem)
set -uo pipefail
out=${OUT:-.}
bash tools/device_build.sh || exit 1
hexdg=build-gpu/hexdg
mechdir=.oracle/mechanisms
declare -A file=([h2o2]=h2o2.yaml [li]=li.yaml [burke]=burke.yaml [gri30]=gri30.yaml [dodecane]=nDodecane_Reitz.yaml)
if [ "${CHEM_TESTS:-1}" = 1 ]; then
  (cd build-gpu && ctest -R chem --output-on-failure -j 4) >"$out/ctest_chem.log" 2>&1
  tail -15 "$out/ctest_chem.log"
  grep -h "bulk-sparse\|single launch\|failed as asked" build-gpu/Testing/Temporary/LastTest.log | head -20
fi
dt=${CHEM_DT:-1e-6}
res="$out/bench_chem.txt"
echo "# bench chem, dt $dt, $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), commit $(git rev-parse --short HEAD 2>/dev/null)" >>"$res"
for mech in ${CHEM_MECHS:-h2o2 li burke gri30 dodecane}; do
  f=$mechdir/${file[$mech]}
  for cells in ${CHEM_CELLS:-1e2 1e3 1e4 1e5 1e6}; do
    for sched in ${CHEM_SCHED:-bulk-sparse single}; do
      line=$(timeout 300 $hexdg bench chem $f --cells $cells --dt $dt --backend cuda --schedule $sched ${CHEM_EXTRA:-} 2>&1 | tail -1)
      echo "$mech gpu $sched $cells $line" | tee -a "$res"
    done
  done
  ccells=${CHEM_CPU_CELLS:-1000}
  [ "$mech" = dodecane ] && ccells=$((ccells / 4))
  [ "$mech" = gri30 ] && ccells=$((ccells / 2))
  for th in ${CHEM_CPU_THREADS:-1}; do
    line=$(OMP_NUM_THREADS=$th timeout 300 $hexdg bench chem $f --cells $ccells --dt $dt --backend cpu 2>&1 | tail -1)
    echo "$mech cpu$th - $ccells $line" | tee -a "$res"
  done
done
