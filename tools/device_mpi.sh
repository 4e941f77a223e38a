#!/usr/bin/env bash
# On a 2-GPU machine (nvidia-h200-x2), after `source .devdeps/setup.sh`:
#   bash tools/device_mpi.sh
# 1. builds build-gpu/ (tools/device_build.sh);
# 2. checks that MPI starts (mpiexec -n 2 hexdg --version);
# 3. runs the GPU MPI agreement test (tests/mpi/run_mpi_gpu.sh: CUDA backend, 1 vs 2 ranks,
#    Navier-Stokes MMS with and without overlap and with METIS, Euler, gmsh walls, TGV), the 2-rank
#    runs with MPITransport = ipc (required) and the MMS case once with MPITransport = host;
# 4. runs a short weak and strong scaling series (N = 7, split PI, Navier-Stokes, 1 and 2 GPUs,
#    OverlapMPI T and F, MPITransport auto = ipc) with tools/scaling.py, and the table and plot;
#    then the 2-GPU points of 4e6 DOF, overlap T, with MPITransport = host (scaling_host.csv).
# Every step has a time limit; the whole script stays under ~9 minutes. Prints PASS/FAIL lines
# and a summary at the end. Files in $OUT (at most 8): device_mpi.log, build.log (on failure),
# ctest_mpi_gpu.log, scaling.csv, scaling.md, scaling.png, bench.log, scaling_host.csv
# (its bench output appended to bench.log).
set -u
out=${OUT:-.}
mkdir -p "$out"
log="$out/device_mpi.log"
exec > >(tee "$log") 2>&1
export OMP_NUM_THREADS=1
t_start=$(date +%s)
status=()
say() { echo "== $(($(date +%s) - t_start)) s: $*"; }
result() { status+=("$1"); echo "$1"; }

say "GPUs:"; nvidia-smi -L 2>/dev/null || echo "(nvidia-smi not available)"
say "build"
if timeout 330 bash tools/device_build.sh; then
  result "PASS build"
  rm -f "$out/configure.log"
else
  result "FAIL build (see build.log / configure.log)"
  printf '%s\n' "${status[@]}"
  exit 1
fi
rm -f "$out/build.log"
hexdg=$PWD/build-gpu/hexdg
mpiexec=$(grep -m1 '^MPIEXEC_EXECUTABLE' build-gpu/CMakeCache.txt | cut -d= -f2)
[ -x "${mpiexec:-}" ] || mpiexec=$(command -v mpiexec)
say "mpiexec: $mpiexec; hexdg sees $("$hexdg" --gpu-count) GPU(s)"

if timeout 60 "$mpiexec" -n 2 "$hexdg" --version; then
  result "PASS mpiexec -n 2 starts"
else
  result "FAIL mpiexec -n 2 hexdg --version (rc $?): MPI does not start on this machine"
fi

say "GPU MPI agreement test (1 vs 2 ranks, CUDA backend)"
(cd build-gpu && MPI_GPU_TRANSPORT=ipc MPI_RUN_TIMEOUT=90 timeout 240 ctest -R mpi.run_mpi_gpu -V >"$out/ctest_mpi_gpu.log" 2>&1)
rc=$?
grep -E "^.*(ok  |FAIL|SKIP|relative|max rel|differ|agree|passed|failed|transport of)" "$out/ctest_mpi_gpu.log" | cut -c1-160 | tail -40
if grep -q "Test #.*mpi.run_mpi_gpu.*Passed" "$out/ctest_mpi_gpu.log"; then
  result "PASS GPU MPI agreement, ipc and host transports (states <= 1e-12 relative, CSV <= 1e-11)"
elif grep -q "Not Run\|Skipped" "$out/ctest_mpi_gpu.log"; then
  result "FAIL GPU MPI agreement SKIPPED (fewer than 2 GPUs visible?)"
else
  result "FAIL GPU MPI agreement (ctest rc $rc; see ctest_mpi_gpu.log)"
fi

say "scaling: weak and strong, N = 7 split PI Navier-Stokes, 1 and 2 GPUs, overlap T/F"
rm -rf "$out/scaling_work"
# 8 threads per rank speed up the mesh set-up on the host; the time steps run on the GPUs
OMP_NUM_THREADS=8 timeout 210 /usr/bin/python3 tools/scaling.py run --hexdg "$hexdg" \
  --launcher "$mpiexec -n {n}" --gpus 1,2 --modes weak,strong --loads 1e5,1e6,4e6 \
  --overlap T,F --steps 10 --warmup 2 --timeout 40 --out "$out/scaling_work"
rc=$?
say "scaling: the 2-GPU points of 4e6 DOF with MPITransport = host, to compare"
OMP_NUM_THREADS=8 timeout 80 /usr/bin/python3 tools/scaling.py run --hexdg "$hexdg" \
  --launcher "$mpiexec -n {n}" --gpus 2 --modes weak,strong --loads 4e6 --overlap T \
  --transport host --steps 10 --warmup 2 --timeout 40 --out "$out/scaling_host"
rc_host=$?
/usr/bin/python3 tools/scaling.py report --out "$out/scaling_work" || true
[ -f "$out/scaling_host/scaling.csv" ] && cp "$out/scaling_host/scaling.csv" "$out/scaling_host.csv"
[ -f "$out/scaling_host/bench.log" ] && cat "$out/scaling_host/bench.log" >>"$out/scaling_work/bench.log"
rm -rf "$out/scaling_host"
echo "PID at 4e6 DOF per GPU (weak) / in total (strong), 2 GPUs, ipc (auto) against host:"
for f in "$out/scaling_work/scaling.csv" "$out/scaling_host.csv"; do
  [ -f "$f" ] && awk -F, 'NR > 1 && $2 == 2 && $5 == "4e+06" {print "  " $1, "overlap " $3, $4, "PID " $9, $11}' "$f"
done
for f in scaling.csv scaling.md scaling.png bench.log; do
  [ -f "$out/scaling_work/$f" ] && cp "$out/scaling_work/$f" "$out/$f"
done
rm -rf "$out/scaling_work"
if [ $rc -eq 0 ] && [ -f "$out/scaling.csv" ] && ! grep -qv ",ok$\|^mode" "$out/scaling.csv"; then
  result "PASS scaling series (every point ran; see scaling.md)"
else
  result "FAIL scaling series (rc $rc; failed points in scaling.csv status column, output in bench.log)"
fi
if [ $rc_host -eq 0 ] && [ -f "$out/scaling_host.csv" ] && ! grep -qv ",ok$\|^mode" "$out/scaling_host.csv"; then
  result "PASS scaling host-transport points (scaling_host.csv)"
else
  result "FAIL scaling host-transport points (rc $rc_host; see scaling_host.csv, bench.log)"
fi

say "summary"
printf '%s\n' "${status[@]}"
