#!/usr/bin/env bash
# Issue 21's runs on a machine of several GPUs (nvidia-h100-x4 / nvidia-h200-x4), after
# `source .devdeps/setup.sh`:
#   bash tools/device_multigpu.sh [mpitest] [tgv] [cascade] [det] [cells] ...
# Each part has its own time limit; the parts run in the order given. Carry .devdeps, and for
# det the mechanism (.oracle/mechanisms/h2o2.yaml), for cascade the level-1 mesh
# (.r37/rotor37_L1_mesh.h5.xz: tools/mesh_cascade.py --level 1 --ngeo 2, xz -9: 1.9 MB).
#   mpitest  tests/mpi/run_mpi_gpu.sh on the GPUs there are (2 and 4 ranks, MPITransport = ipc,
#            CUDA graphs): states equal 1 rank to 1e-12; test_rank_max_gpu on 2 and 4 ranks
#            where it was built
#   tgv      air TGV box (N = 7, split PI, Navier-Stokes), tools/scaling.py: weak at 1.1e5 and 1e6
#            DOF per GPU with and without CUDA graphs (200 steps: 60 read 0.81/0.71 where 200
#            read 0.88/0.80 on 2/4 H200), strong at 1.7e7 DOF (overlap T and F), 1/2/4 GPUs
#   cascade  Rotor 37 cascade LES (level CASCADE_LEVEL, default 1; N = 5) for CASCADE_STEPS steps
#            from the start on CASCADE_GPUS (default 1, 2, 4) GPUs: PID, EPID, wall time per step;
#            the mesh travels as .r37/rotor37_L<level>_mesh.h5.xz
#   ipc      the TGV points with HEXDG_IPC_FUSED = F and T (scaling_ipc.csv, first column)
#   det      2-D cellular detonation: tools/chem_scaling.py (weak and strong, weights F/T);
#            DET_SET="--set Partitioner=metis" passes keys to every run; DET_SHARE (default
#            F,T): the ChemLoadBalance values of the multi-rank restarts
#   cells    the 2-D cellular detonation of parameter_files/detonation_h2o2ar_2d.ini started from
#            its ZND wave (IniZND) with an unreacted pocket behind the front (IniZNDPocket), 9 cm x
#            3 cm at 0.1 mm nodes to CELLS_TEND (52e-6 s): two runs of 2 GPUs side by side, the
#            pocket alone and with 2 % density noise; soot foils (tools/soot_foil.py --npz) to
#            $OUT/cells_<run>.npz, drawn elsewhere with --from-npz. CELLS_ELEMS, CELLS_UPPER,
#            CELLS_POCKET replace BoxElems, BoxUpper, IniZNDPocket; CELLS_KEYS adds one line
#            (e.g. "FV_alpha_max = 0.25"); CELLS_CASE=detonation_h2o2ar_2d_front runs the
#            shock-attached twin (give CELLS_ELEMS, CELLS_UPPER and CELLS_POCKET of that file; its
#            foil comes from RecordFrontPressure with x = CELLS_SPEED t, default 1616.9 m/s)
# Files in $OUT (at most 8): multigpu.log, scaling.csv, scaling.md, scaling.png, chem_scaling.csv,
# chem_scaling.md, chem_scaling.png, cascade.log, cells_*.npz (and build.log on a failure).
set -u
out=${OUT:-.}
mkdir -p "$out"
exec > >(tee -a "$out/multigpu.log") 2>&1
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
t_start=$(date +%s)
say() { echo "== $(($(date +%s) - t_start)) s: $*"; }
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c GPU)
say "GPUs: $ngpu"; nvidia-smi -L; nvidia-smi topo -m 2>/dev/null | head -8
gpus=1; [ "$ngpu" -ge 2 ] && gpus=1,2; [ "$ngpu" -ge 4 ] && gpus=1,2,4
source "$(dirname "${BASH_SOURCE[0]}")/device_python.sh"
py=$(device_python numpy h5py)  # the images differ: Debian's /usr/bin/python3 may lack them
say "Python: $py"

left() { echo $(( ${DEADLINE:-585} - ($(date +%s) - t_start) )); }  # seconds to the deadline
cmp_bin=build-gpu/tests/compare_states
if ls .devbin/hexdg.xz.* >/dev/null 2>&1; then  # the binaries of an earlier call (same sources)
  say "unpacking the carried binaries (.devbin)"
  mkdir -p build-gpu/tests
  cat .devbin/hexdg.xz.* | xz -d >build-gpu/hexdg
  xz -dc .devbin/compare_states.xz >$cmp_bin
  chmod +x build-gpu/hexdg $cmp_bin
else
  say "build"
  [ -f build-gpu/CMakeCache.txt ] || cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release \
    -DHEXDG_CUDA_ARCHS=90 $HEXDG_CMAKE_ARGS >"$out/build.log" 2>&1
  if ! timeout 420 cmake --build build-gpu -j "$(nproc)" --target hexdg compare_states \
      >>"$out/build.log" 2>&1; then
    grep -m 20 -E "error|Error" "$out/build.log"; say "build failed"; exit 1
  fi
  rm -f "$out/build.log"
  if [ "${EXPORT_BIN:-0}" = 1 ]; then  # for a later call on a fresh machine: carry .devbin
    xz -T0 -6 -c build-gpu/hexdg | split -b 15M - "$out/hexdg.xz."
    xz -T0 -6 -c $cmp_bin >"$out/compare_states.xz"
    ls -la "$out"/hexdg.xz.* "$out/compare_states.xz"
  fi
fi
hexdg=$PWD/build-gpu/hexdg
mpiexec=$(grep -m1 '^MPIEXEC_EXECUTABLE' build-gpu/CMakeCache.txt 2>/dev/null | cut -d= -f2)
[ -x "${mpiexec:-}" ] || mpiexec=$(command -v mpiexec)
say "built; hexdg sees $("$hexdg" --gpu-count) GPU(s)"

for part in "$@"; do
  case $part in
  mpitest)
    say "GPU MPI agreement (tests/mpi/run_mpi_gpu.sh, MPITransport = ipc)"
    rm -rf /tmp/mpitest && mkdir -p /tmp/mpitest
    (cd /tmp/mpitest && MPI_GPU_TRANSPORT=ipc MPI_RUN_TIMEOUT=90 timeout $(left) bash \
      "$OLDPWD/tests/mpi/run_mpi_gpu.sh" "$hexdg" "$OLDPWD" "$mpiexec" \
      "$OLDPWD/$cmp_bin" >/tmp/mpitest/log 2>&1; echo "rc $?" >>/tmp/mpitest/log)
    grep -v "^  " /tmp/mpitest/log | cut -c1-170 | tail -60
    rmt=build-gpu/tests/test_rank_max_gpu  # built by tools/device_build.sh, not in .devbin
    if [ -x $rmt ]; then
      for n in 2 4; do [ "$ngpu" -ge $n ] && timeout 120 "$mpiexec" -n $n $rmt; done
    else
      say "test_rank_max_gpu not built (tools/device_build.sh builds it): skipped"
    fi
    ;;
  tgv)
    say "TGV scaling (N = 7 split PI NS): weak 1.1e5 / 1e6 with and without graphs, strong 1.7e7"
    w=/tmp/tgvscaling; rm -rf $w
    OMP_NUM_THREADS=8 timeout 200 $py tools/scaling.py run --hexdg "$hexdg" \
      --launcher "$mpiexec -n {n}" --gpus $gpus --modes weak --loads 1.1e5,1e6 --overlap T \
      --graphs T,F --steps 200 --warmup 10 --timeout 40 --out $w
    OMP_NUM_THREADS=8 timeout 160 $py tools/scaling.py run --hexdg "$hexdg" \
      --launcher "$mpiexec -n {n}" --gpus $gpus --modes strong --loads 1.7e7 --overlap T,F \
      --graphs T --steps 30 --warmup 5 --timeout 60 --out $w
    $py tools/scaling.py report --out $w
    for f in scaling.csv scaling.md scaling.png; do [ -f $w/$f ] && cp $w/$f "$out/$f"; done
    grep -E "^PID|bench:|rror" $w/bench.log | cut -c1-200 | tail -60
    ;;
  ipc)
    say "IPC exchange kernels: HEXDG_IPC_FUSED = F (chain of nodes) against T (one kernel a side)"
    for fz in F T; do
      w=/tmp/ipc$fz; rm -rf $w
      HEXDG_IPC_FUSED=$fz OMP_NUM_THREADS=8 timeout $(left) $py tools/scaling.py run \
        --hexdg "$hexdg" --launcher "$mpiexec -n {n}" --gpus $gpus --modes weak --loads 1.1e5,1e6 \
        --overlap T --graphs T --steps 60 --warmup 5 --timeout 25 --out $w
      HEXDG_IPC_FUSED=$fz OMP_NUM_THREADS=8 timeout $(left) $py tools/scaling.py run \
        --hexdg "$hexdg" --launcher "$mpiexec -n {n}" --gpus $gpus --modes strong --loads 1.7e7 \
        --overlap T --graphs T --steps 12 --warmup 3 --timeout 30 --out $w
      sed "s/^/$fz,/" $w/scaling.csv >>"$out/scaling_ipc.csv"
    done
    ;;
  cascade)
    lv=${CASCADE_LEVEL:-1}; cg=${CASCADE_GPUS:-$gpus}
    say "Rotor 37 cascade LES, level $lv, N = 5, ${CASCADE_STEPS:=300} steps on $cg GPUs"
    w=/tmp/cascade; rm -rf $w; mkdir -p $w
    xz -dc .r37/rotor37_L${lv}_mesh.h5.xz >$w/rotor37_L${lv}_mesh.h5
    cp parameter_files/rotor37_cascade_les.ini $w/
    for g in ${cg//,/ }; do
      (cd $w && OMP_NUM_THREADS=8 timeout $(left) "$mpiexec" -n $g "$hexdg" rotor37_cascade_les.ini \
        --set MeshFile=rotor37_L${lv}_mesh.h5 --set maxIter=$CASCADE_STEPS --set Analyze_dt=1e-3 \
        --set nWriteData=1000 --set RP_SamplingOffset=10 >run_g$g.log 2>&1; echo "rc $?" >>run_g$g.log)
      echo "--- $g GPU(s):"; grep -E "^(t =|hexdg finished|MPI:|backend)|FV_alpha|rc |rror" \
        $w/run_g$g.log | cut -c1-220
      { echo "=== level $lv, $g GPU(s)"; cat $w/run_g$g.log; } >>"$out/cascade.log"
      rm -f $w/r37les_*.h5
    done
    ;;
  det)
    say "2-D detonation scaling (tools/chem_scaling.py)"
    w=/tmp/detscaling; rm -rf $w
    t=$(left); [ $t -gt ${DET_MAX:-100000} ] && t=$DET_MAX
    OMP_NUM_THREADS=4 timeout $t $py tools/chem_scaling.py run \
      --hexdg "$hexdg" --mech .oracle/mechanisms/h2o2.yaml --gpus $gpus \
      --pre-time ${DET_PRE:-1e-5} --steps ${DET_STEPS:-100} --timeout 150 --share ${DET_SHARE:-F,T} ${DET_SET:-} \
      --launcher "$mpiexec -n {n}" --out $w
    $py tools/chem_scaling.py report --out $w
    for f in chem_scaling.csv chem_scaling.md chem_scaling.png; do
      [ -f $w/$f ] && cp $w/$f "$out/$f"
    done
    grep -E "^(t =|  chemistry|hexdg finished|hexdg: partition|MPI:)|rror" $w/runs.log | cut -c1-200 | tail -80
    ;;
  cells)
    say "2-D cellular detonation from the ZND wave with an unreacted pocket"
    cells_run() { # name, GPUs, extra keys
      local name=$1 dev=$2 w=/tmp/cells_$1; shift 2
      rm -rf $w && mkdir -p $w
      sed -e "s|^Mechanism .*|Mechanism = $PWD/.oracle/mechanisms/h2o2.yaml|" \
        -e "s|^ProjectName .*|ProjectName = $name|" -e "s|^BoxElems .*|BoxElems = ${CELLS_ELEMS:-(/300,100,1/)}|" \
        -e "s|^BoxUpper .*|BoxUpper = ${CELLS_UPPER:-(/0.09,0.03,0.0003/)}|" -e 's|^IniAxis .*|IniAxis = (/1.,0.,0./)|' \
        -e "s|^tend .*|tend = ${CELLS_TEND:-52e-6}|" -e 's|^Analyze_dt .*|Analyze_dt = 13e-6|' \
        -e 's|^nWriteData .*|nWriteData = 1|' parameter_files/${CELLS_CASE:-detonation_h2o2ar_2d}.ini >$w/$name.ini
      local line key
      for line in "IniZND = T" "IniZNDPocket = ${CELLS_POCKET:-(/0.006,0.011,-1.,0.0085,0.017,1./)}" \
          "$@" ${CELLS_KEYS:+"$CELLS_KEYS"}; do  # a key given here replaces the file's
        key=$(echo "${line%%=*}" | tr -d ' ')
        sed -i "/^$key[ =]/d" $w/$name.ini
        echo "$line" >>$w/$name.ini
      done
      (cd $w && CUDA_VISIBLE_DEVICES=$dev OMP_NUM_THREADS=4 timeout $(( $(left) > 100 ? $(left) - 40 : 60 )) \
        "$mpiexec" -n 2 "$hexdg" $name.ini >log.txt 2>&1; echo "$name rc $?" >>log.txt)
    }
    if [ "$ngpu" -ge 4 ]; then
      cells_run pocket 0,1 & cells_run noise 2,3 "IniNoiseAmplitude = 0.02" \
        "IniNoiseWavelengths = (/0.001,0.01/)" "IniNoiseDims = 2" & wait
    else
      cells_run pocket 0,1
    fi
    oabs=$(cd "$out" && pwd)
    for name in pocket noise; do
      w=/tmp/cells_$name; [ -d $w ] || continue
      grep -E "IniZND|^t = |hexdg finished| rc |rror" $w/log.txt | cut -c1-180 | tail -6
      front=$(ls $w/${name}_FrontPressure_*.h5 2>/dev/null | tail -1)
      last=$(ls $w/${name}_State_*.h5 2>/dev/null | tail -1); [ -n "$last$front" ] || continue
      if [ -n "$front" ]; then  # the shock-attached frame: the front-pressure record, x = D t
        $py tools/soot_foil.py --front "$front" --speed ${CELLS_SPEED:-1616.9} \
          --npz "$oabs/cells_$name.npz" 2>&1 | tail -1
      else
        (cd $w && $py "$OLDPWD/tools/soot_foil.py" --ini $name.ini --hexdg "$hexdg" \
          "$last" --npz "$oabs/cells_$name.npz" 2>&1 | tail -1)
      fi
      $py tools/soot_foil.py --from-npz "$oabs/cells_$name.npz" --xmin 0.03 2>&1 | tail -4
    done
    ;;
  *) echo "unknown part $part" ;;
  esac
done
say "done"
