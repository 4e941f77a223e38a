#!/usr/bin/env bash
# FLEXI's indicators and FV switching on the CUDA backend on several ranks (gpu/gpu_mpi_fv.cu)
# against 1 rank and against the CPU backend: each case runs on the GPU on 1 rank, on 2 ranks
# with MPITransport = ipc and = host (and on 4 ranks with both where 4 GPUs are visible), and on
# the CPU on 1 rank. The GPU runs on 2 and 4 ranks end on the 1-rank GPU state to 1e-12 relative
# (same_state); the 1-rank GPU state agrees with the CPU's to 1e-10 for the shock cases (the
# bound of tests/gpu/test_gpu_indicators.c and test_gpu_fv_gauss.c) and to 1e-12 for the smooth
# Navier-Stokes waves (test_gpu_fv_gauss.c's AGREE_VISC). The cases:
#   lgl_persson   Sod, FV_Mode = switching on Gauss-Lobatto nodes, Persson's indicator (every
#                 element FV until IndStartTime, then switching back);
#   lgl_jameson   a Mach 2 shock through a curved 3-D box, switching by Jameson's indicator
#                 (its ghost layer reads the neighbours' face values across the rank boundary);
#   blend_jameson the same shock with FV_Mode = blending, Jameson, alpha spread to the
#                 neighbours, METIS partitions (MPI sides of several orientations);
#   gauss_sod     Sod with switching on Gauss nodes (Persson; the face subcells' states,
#                 neighbours and fluxes cross the rank boundary), also with Backend = auto on 2
#                 ranks, which must choose the GPU;
#   gauss_ns_cb   Navier-Stokes density wave on a curved periodic box, FV/DG checkerboard (the
#                 lifting values and face gradients of both kinds of element cross it);
#   gauss_ns_sw   the same wave with Persson switching elements both ways (mu0 = 0.02).
# Every GPU run must report the CUDA backend, the 2-rank runs the transport they asked for, and
# the ipc runs CUDA graphs (no host call in their stages). Exits 77 (skipped) when fewer than 2
# GPUs are visible, unless MPI_GPU_SHARE=1 (the ranks share one GPU: a correctness run);
# MPI_GPU_RANKS="2 4" sets the rank counts (4 ranks on 2 GPUs with MPI_GPU_SHARE=1).
# usage: run_mpi_gpu_fv.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
gpus=$("$hexdg" --gpu-count 2>/dev/null || echo 0)
if [ "${gpus:-0}" -lt 2 ] && ! { [ "${MPI_GPU_SHARE:-0}" = 1 ] && [ "${gpus:-0}" -ge 1 ]; }; then
  echo "SKIP: $gpus CUDA device(s) visible, the GPU MPI test needs 2"
  exit 77
fi

# close_state ref other rtol: final states agree to rtol relative (compare_states)
close_state() {
  if "$compare" "$(last_state "$1")" "$(last_state "$2")" "$3"; then :; else fails=$((fails + 1)); fi
}

# expect name pattern what: the run's output has the line pattern, else a failure
expect() {
  if ! grep -q "$2" "$1/out.txt"; then
    echo "FAIL - $1: $3"
    fails=$((fails + 1))
  fi
}

# gpu_case name rtol_cpu: name.ini (Backend = cuda) on the GPU on 1 rank, 2 ranks with ipc and
# host, 4 ranks with both where 4 GPUs are visible, and on the CPU on 1 rank; compared
gpu_case() {
  local name=$1 rtol=$2
  sed 's/^Backend.*/Backend = cpu/' $name.ini >${name}_cpu.ini
  for t in ipc host; do
    sed "s/^Backend.*/&\nMPITransport = $t/" $name.ini >${name}_$t.ini
  done
  run_ranks ${name}1 1 $name.ini
  run_ranks ${name}1cpu 1 ${name}_cpu.ini
  close_state ${name}1cpu ${name}1 $rtol
  local ranks=2
  [ "$gpus" -ge 4 ] && ranks="2 4"
  ranks=${MPI_GPU_RANKS:-$ranks} # e.g. "2 4" with MPI_GPU_SHARE=1 on 2 GPUs
  for n in $ranks; do
    for t in ipc host; do
      run_ranks $name$n$t $n ${name}_$t.ini
      same_state ${name}1 $name$n$t
      expect $name$n$t "MPI transport $t" "not run with MPITransport = $t"
    done
    expect $name${n}ipc ", CUDA graphs" "the ipc transport without CUDA graphs"
  done
  local fv=$(grep 'blended elements' ${name}1/out.txt | tail -1 | sed 's/.*blended elements \([0-9]*\).*/\1/')
  echo "$name: FV (blended) elements at the end ${fv:-none}"
  if [ "${fv:-0}" -eq 0 ]; then
    echo "FAIL - $name: no FV element at the end, the case does not test shock capturing"
    fails=$((fails + 1))
  fi
  for r in ${name}1 $(for n in $ranks; do echo $name${n}ipc $name${n}host; done); do
    if grep -q "^backend: CPU" $r/out.txt; then
      echo "FAIL - $r ran on the CPU backend"
      fails=$((fails + 1))
    fi
  done
}

write_lgl_switch_sod_ini lgl_persson.ini lglp cuda "SplitDG = PI" "CalcErrorNorms = F" \
  "IndicatorType = persson" "IndVar = 1" "IndStartTime = 0.005" "FV_IndUpperThreshold = -3." \
  "FV_IndLowerThreshold = -4."
shock3d() { # file project mode
  cat >"$1" <<INI
ProjectName  = $2
MeshFile     = box
BoxElems     = (/8,3,3/)
NGeo         = 3
BoxCurving   = 0.04
BoxLower     = (/0., 0., 0./)
BoxUpper     = (/10., 3., 3./)
BoxPeriodic  = (/F,T,T/)
N            = 3
NodeType     = GAUSS-LOBATTO
SplitDG      = PI
Riemann      = Roe
IniExactFunc = 10
MachShock    = 2.
PreShockDens = 1.
tend         = 1e10
maxIter      = 50
CFLscale     = 0.5
CalcErrorNorms = F
FV_Mode      = $3
IndicatorType = jameson
IndVar       = 6
FV_IndUpperThreshold = 0.01
FV_IndLowerThreshold = 0.005
Backend      = cuda
INI
}
shock3d lgl_jameson.ini lglj switching
shock3d blend_jameson.ini blj blending
cat >>blend_jameson.ini <<INI
FV_alpha_max = 0.8
FV_doExtendAlpha = T
Partitioner  = metis
INI
write_fvg_sod_ini gauss_sod.ini cuda "CalcErrorNorms = F"
write_fvg_wave_ini gauss_ns_cb.ini fvgv 0.05 cuda "CalcErrorNorms = F" "IndicatorType = checkerboard"
write_fvg_wave_ini gauss_ns_sw.ini fvgw 0.1 cuda "CalcErrorNorms = F" "IndicatorType = persson" "IndVar = 1" "IndStartTime = 0.02" \
  "FV_IndUpperThreshold = -2.4" "FV_IndLowerThreshold = -2.5"

gpu_case lgl_persson 1e-10
gpu_case lgl_jameson 1e-10
gpu_case blend_jameson 1e-10
gpu_case gauss_sod 1e-10
gpu_case gauss_ns_cb 1e-12
gpu_case gauss_ns_sw 1e-12
# Backend = auto on 2 ranks: switching on Gauss nodes now runs on the GPU
sed 's/^Backend.*/Backend = auto/' gauss_sod.ini >gauss_sod_auto.ini
run_ranks gauss_sod2auto 2 gauss_sod_auto.ini
same_state gauss_sod1 gauss_sod2auto
if grep -q "^backend: CPU" gauss_sod2auto/out.txt; then
  echo "FAIL - Backend = auto chose the CPU for switching on Gauss nodes on 2 ranks"
  fails=$((fails + 1))
fi
finish
