#!/usr/bin/env bash
# CUDA backend on 2 ranks (one GPU each) against 1 rank: Navier-Stokes manufactured solution
# (mu0 0.01) on a curved periodic box, with and without overlap and with METIS; Euler; the
# unstructured gmsh mesh with isothermal walls (all flips, body forces); the Taylor-Green vortex
# (TGV integrals reduced over the ranks); the MMS case at N = 5 (also on 4 ranks); Sod with FV
# blending and alpha spread across the rank boundary; the reacting H2-air tube (species, FV,
# chemistry; its reactors shared among the ranks and not, bit for bit); the MMS case with a 3S*
# scheme (ketchesonrk4-20). States agree to 1e-12
# relative, CSV lines to 1e-11.
# The 2-rank runs use MPITransport = $MPI_GPU_TRANSPORT (default auto: CUDA IPC where possible),
# the MMS case once more with MPITransport = host; with 4 GPUs also 4 ranks (MMS, walls). Exits 77
# (skipped) when fewer than 2 GPUs are visible, unless MPI_GPU_SHARE=1 (2 ranks share one GPU:
# a correctness run, not a speed one; auto then means host, so set MPI_GPU_TRANSPORT=ipc to test
# CUDA IPC). With MPITransport = ipc the stages run as CUDA graphs; the MMS case once more
# without graphs (the same state).
# usage: run_mpi_gpu.sh hexdg repo_root mpiexec compare_states
source "$(dirname "$0")/mpi_lib.sh"
gpus=$("$hexdg" --gpu-count 2>/dev/null || echo 0)
if [ "${gpus:-0}" -lt 2 ] && ! { [ "${MPI_GPU_SHARE:-0}" = 1 ] && [ "${gpus:-0}" -ge 1 ]; }; then
  echo "SKIP: $gpus CUDA device(s) visible, the GPU MPI test needs 2"
  exit 77
fi
write_mms_ini mms.ini mms '(/4,4,3/)' 0.01 cuda
transport=${MPI_GPU_TRANSPORT:-auto}
echo "MPITransport = $transport" >>mms.ini
sed 's/^MPITransport.*/MPITransport = host/' mms.ini >mms_host.ini
sed 's/^Backend.*/&\nOverlapMPI   = F/' mms.ini >mms_serial.ini
sed 's/^Backend.*/&\nPartitioner  = metis/' mms.ini >mms_metis.ini
sed 's/^Backend.*/&\nUseCudaGraphs = F/' mms.ini >mms_nograph.ini
sed 's/^mu0.*/mu0          = 0./' mms.ini >euler.ini
write_walls_ini walls.ini cuda
echo "MPITransport = $transport" >>walls.ini
write_tgv_ini tgv.ini cuda
echo "MPITransport = $transport" >>tgv.ini
write_sod_ini sod.ini cuda
echo "MPITransport = $transport" >>sod.ini
run_ranks mms1 1 mms.ini
run_ranks mms2 2 mms.ini
run_ranks mms2serial 2 mms_serial.ini
run_ranks mms2metis 2 mms_metis.ini
run_ranks mms2host 2 mms_host.ini
run_ranks mms2nograph 2 mms_nograph.ini
for r in mms2 mms2serial mms2metis mms2host mms2nograph; do
  same_state mms1 $r
  same_csv mms1/mms_ErrorNorms.csv $r/mms_ErrorNorms.csv
done
# N = 5: the lifting line kernel with one element a block (N >= 5), 1 rank to 1e-12
write_mms_ini mms5.ini mms '(/6,4,4/)' 0.01 cuda
sed -i 's/^N  .*/N            = 5/; s/^maxIter.*/maxIter      = 30/' mms5.ini
echo "MPITransport = $transport" >>mms5.ini
run_ranks mms5_1 1 mms5.ini
run_ranks mms5_2 2 mms5.ini
same_state mms5_1 mms5_2
run_ranks euler1 1 euler.ini
run_ranks euler2 2 euler.ini
same_state euler1 euler2
same_csv euler1/mms_ErrorNorms.csv euler2/mms_ErrorNorms.csv
# a 3S* scheme (its registers prepared before the first update: the step's dt cannot run beside
# that stage), 1 and 2 ranks
sed 's/^Backend.*/&\nTimeDiscMethod = ketchesonrk4-20/' mms.ini >mms_3s.ini
run_ranks mms3s1 1 mms_3s.ini
run_ranks mms3s2 2 mms_3s.ini
same_state mms3s1 mms3s2
run_ranks walls1 1 walls.ini
run_ranks walls2 2 walls.ini
same_state walls1 walls2
same_csv walls1/walls_BodyForces_walls.csv walls2/walls_BodyForces_walls.csv
run_ranks tgv1 1 tgv.ini
run_ranks tgv2 2 tgv.ini
same_state tgv1 tgv2
same_csv tgv1/tgv_TGVAnalysis.csv tgv2/tgv_TGVAnalysis.csv
run_ranks sod1 1 sod.ini
run_ranks sod2 2 sod.ini
same_state sod1 sod2
# reacting flow: the H2-air tube (Li 2004, 9 species) with FV blending, the positivity limiter
# and Strang chemistry on the device, against 1 rank and the CPU (skipped without the mechanism)
mech=$root/../shared/data/mechanisms/li2004/mechanism.yaml
[ -r "$mech" ] || mech=$root/.oracle/mechanisms/li.yaml
if [ -r "$mech" ]; then
  cat >tube.ini <<INI
ProjectName = tube
MeshFile = box
BoxElems = (/24,1,1/)
BoxLower = (/0.,0.,0./)
BoxUpper = (/0.0096,0.0004,0.0004/)
BoxPeriodic = (/F,T,T/)
BoundaryName = BC_xminus
BoundaryType = (/9,0/)
BoundaryName = BC_xplus
BoundaryType = (/2,0/)
N = 3
NodeType = GAUSS-LOBATTO
SplitDG = PI
Riemann = HLLC
Mechanism = $mech
IniExactFunc = 16
IniCenter = (/0.002,0.,0./)
IniAxis = (/1.,0.,0./)
RefState = (/5.097,0.,0.,0.,4053000./)
RefState = (/0.8495,0.,0.,0.,101325./)
RefStateX = H2:2,O2:1,N2:3.76
RefStateX = H2:2,O2:1,N2:3.76
IndicatorType = hennemann
FV_alpha_max = 1.
FV_doExtendAlpha = T
FV_LimiterType = MinMod
FV_PositivityLimiter = T
ChemistrySplitting = strang
ChemTmin = 600.
CFLscale = 0.5
tend = 1e10
maxIter = 30
CalcErrorNorms = F
Backend = cuda
MPITransport = $transport
INI
  sed 's/^Backend.*/Backend = cpu/' tube.ini >tube_cpu.ini
  run_ranks tube1 1 tube.ini
  run_ranks tube2 2 tube.ini
  run_ranks tube1cpu 1 tube_cpu.ini
  same_state tube1 tube2
  same_state tube1 tube1cpu
  # ChemLoadBalance (default T): the hot half's reactors shared with the cold rank; without it
  # the cold rank integrates none. A reactor's result does not depend on the rank: the same bits
  sed 's/^MPITransport.*/&\nChemLoadBalance = F/' tube.ini >tube_own.ini
  run_ranks tube2own 2 tube_own.ini
  if "$compare" "$(last_state tube2)" "$(last_state tube2own)" 0; then :; else fails=$((fails + 1)); fi
  if grep -q 'rank [01]: [^,]*, 0 reactors' tube2own/out.txt &&
     ! grep -q 'rank [01]: [^,]*, 0 reactors' tube2/out.txt; then
    echo "ok   - tube2: both ranks integrate reactors (tube2own: one rank none)"
  else
    echo "FAIL - tube2: the reactors were not shared (rank lines below)"
    grep 'chemistry per time step, ' tube2/out.txt tube2own/out.txt
    fails=$((fails + 1))
  fi
else
  echo "(reacting tube skipped: no Li 2004 mechanism)"
fi
# 4 ranks where 4 GPUs are visible (nvidia-h200-x4): the MMS and the gmsh walls case
if [ "$gpus" -ge 4 ]; then
  run_ranks mms4 4 mms.ini
  same_state mms1 mms4
  run_ranks mms5_4 4 mms5.ini
  same_state mms5_1 mms5_4
  same_csv mms1/mms_ErrorNorms.csv mms4/mms_ErrorNorms.csv
  run_ranks walls4 4 walls.ini
  same_state walls1 walls4
  run_ranks sod4 4 sod.ini
  same_state sod1 sod4
  same_csv walls1/walls_BodyForces_walls.csv walls4/walls_BodyForces_walls.csv
else
  echo "(4-rank runs skipped: $gpus GPUs visible)"
fi
# the runs must have used the CUDA backend, not fallen back to the CPU
for r in mms1 mms2 euler2 walls2 tgv2 sod2; do
  if grep -q "^backend: CPU" $r/out.txt; then
    echo "FAIL - $r ran on the CPU backend"
    fails=$((fails + 1))
  fi
done
# the transports: host where asked for, ipc where required
for r in mms2 mms2host; do
  echo "transport of $r: $(grep -o 'MPI transport [a-z]*' $r/out.txt)"
done
# graphs: where the transport is ipc (the stages captured), never for host or when switched off
for r in mms2 mms2host mms2nograph; do
  echo "graphs of $r: $(grep -o '[a-z ]*CUDA graphs' $r/out.txt)"
done
# sod2: the blending factors' spreading across ranks goes GPU to GPU, so it is captured too;
# tube2: the mixture's flow stages too (its chemistry stage runs outside the graph)
for r in mms2 sod2 $([ -d tube2 ] && echo tube2); do
  if grep -q "MPI transport ipc" $r/out.txt && ! grep -q ", CUDA graphs" $r/out.txt; then
    echo "FAIL - $r used the ipc transport but no CUDA graphs"
    fails=$((fails + 1))
  fi
done
if ! grep -q "no CUDA graphs" mms2host/out.txt || ! grep -q "no CUDA graphs" mms2nograph/out.txt; then
  echo "FAIL - mms2host or mms2nograph used CUDA graphs"
  fails=$((fails + 1))
fi
if ! grep -q "MPI transport host" mms2host/out.txt; then
  echo "FAIL - mms2host did not use MPITransport = host"
  fails=$((fails + 1))
fi
if [ "$transport" != auto ]; then
  for r in mms2 mms2serial mms2metis euler2 walls2 tgv2; do
    if ! grep -q "MPI transport $transport" $r/out.txt; then
      echo "FAIL - $r did not use MPITransport = $transport"
      fails=$((fails + 1))
    fi
  done
fi
finish
