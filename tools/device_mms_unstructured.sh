#!/usr/bin/env bash
# On the GPU machine (after `source .devdeps/setup.sh`): manufactured-solution convergence
# (IniExactFunc = 4) on the curved unstructured mesh meshes/mms_quarter_cylinder.msh, refined
# uniformly by hexdg (MeshRefine = L), with Backend = cuda, for N = 1..5, Euler and Navier-Stokes
# (mu0 = 0.001), weak form (GAUSS, the default) and split form (GAUSS-LOBATTO, PI). Prints an EOC
# table (L2 of the density between consecutive levels) and writes to $OUT:
#   mms_unstructured.csv   one row per run: eq,form,N,level,elems,dof,steps,L2_rho,Linf_rho,EOC,wall_s
#   mms_unstructured.log   the table and, for failed runs, the end of their output
# Usage: bash tools/device_mms_unstructured.sh [N list] [levels list]
#   defaults "1 2 3 4 5" and levels 0..3, but 0..2 for N = 5 (level 3 reaches the round-off floor
#   of the L2 error, about 1e-12 on this small domain) and for Navier-Stokes at N >= 3 (there
#   the viscous time step rules level 3: 5000 steps at N = 4, and at N = 3 FLEXI's DFLscale 0.9
#   is unstable on it; docs/mms.md). About 5 minutes on an H100 for both forms, one of them the
#   build.
# Environment: MMS_TEND (default 0.1), MMS_CFL (0.9; 0.5 for N >= 4, as in
# tests/regression/mms.h, and for Navier-Stokes: at 0.9 FLEXI's time step, the smaller of the
# convective and the viscous one, is unstable on the finest levels where the two are close), MMS_EQS ("euler ns"), MMS_FORMS ("weak split"), MMS_MU0 (0.001; with
# 0.01 the finest levels are diffusion-dominated, see docs/mms.md), MMS_MESH (another .msh/.h5
# mesh), MMS_RUN_LIMIT (seconds per run, default 150), MMS_SKIP_BUILD=1 (use the existing
# build-gpu/hexdg).
set -euo pipefail
out=${OUT:-.}
root=$(pwd)
exe=$root/build-gpu/hexdg
mesh=${MMS_MESH:-$root/meshes/mms_quarter_cylinder.msh}
tend=${MMS_TEND:-0.1}
limit=${MMS_RUN_LIMIT:-150}
n_list=${1:-"1 2 3 4 5"}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
[[ -f $mesh ]] || { echo "missing $mesh (run from the repository root)"; exit 1; }
if [[ ${MMS_SKIP_BUILD:-0} != 1 ]]; then bash tools/device_build.sh; fi
[[ -x $exe ]] || { echo "missing $exe: build with tools/device_build.sh"; exit 1; }
csv=$out/mms_unstructured.csv
log=$out/mms_unstructured.log
echo "eq,form,N,level,elems,dof,steps,L2_rho,Linf_rho,EOC,wall_s" >"$csv"
: >"$log"
work=$(mktemp -d /tmp/mms_unstructured.XXXXXX)
trap 'rm -rf "$work"' EXIT

levels_for() { # levels_for N eq [levels]
  if [[ -n ${3:-} ]]; then echo "$3"
  elif [[ $1 -ge 5 ]] || [[ $2 == ns && $1 -ge 3 ]]; then echo "0 1 2"
  else echo "0 1 2 3"; fi
}
# run_one eq form N L: prints "elems dof steps L2 Linf wall" or "FAILED"
run_one() {
  local eq=$1 form=$2 N=$3 L=$4 dir=$work/$1_$2_$3_$4 cfl=${MMS_CFL:-0.9}
  [[ -z ${MMS_CFL:-} && ($N -ge 4 || $eq == ns) ]] && cfl=0.5
  mkdir -p "$dir"
  {
    echo "ProjectName = mms"
    echo "MeshFile = $mesh"
    echo "MeshRefine = $L"
    echo "N = $N"
    if [[ $form == split ]]; then echo "NodeType = GAUSS-LOBATTO"; echo "SplitDG = PI"
    else echo "NodeType = GAUSS"; fi
    echo "Riemann = RoeEntropyFix"
    echo "IniExactFunc = 4"
    echo "AdvVel = (/1., 1., 1./)"
    echo "TimeDiscMethod = carpenterrk4-5"
    echo "CFLscale = $cfl"
    [[ $eq == ns ]] && echo "mu0 = ${MMS_MU0:-0.001}"
    echo "tend = $tend"
    echo "Analyze_dt = $tend"
    echo "nWriteData = 1000000"
    echo "Backend = cuda"
  } >"$dir/mms.ini"
  local t0 rc=0
  t0=$SECONDS
  (cd "$dir" && timeout "$limit" "$exe" mms.ini >run.log 2>&1) || rc=$?
  if ((rc != 0)) || ! grep -q "hexdg finished" "$dir/run.log"; then
    { echo "--- $eq $form N=$N level $L: exit code $rc"; tail -15 "$dir/run.log"; } >>"$log"
    echo FAILED
    return
  fi
  # the last analysis holds the errors at tend; the first line names the elements and DOF
  local elems dof steps l2 linf
  elems=$(grep -m1 -oE "[0-9]+ elements" "$dir/run.log" | cut -d' ' -f1)
  dof=$(grep -m1 -oE "[0-9]+ DOF" "$dir/run.log" | cut -d' ' -f1)
  steps=$(grep "hexdg finished" "$dir/run.log" | grep -oE "steps [0-9]+" | cut -d' ' -f2)
  l2=$(grep "L2   :" "$dir/run.log" | tail -1 | awk '{print $3}')
  linf=$(grep "Linf :" "$dir/run.log" | tail -1 | awk '{print $3}')
  echo "$elems $dof $steps $l2 $linf $((SECONDS - t0))"
}

printf "%-5s %-6s %2s %5s %8s %9s %7s %12s %12s %6s %7s\n" eq form N level elems DOF steps \
  "L2(rho)" "Linf(rho)" EOC wall | tee -a "$log"
for N in $n_list; do
  for eq in ${MMS_EQS:-euler ns}; do
    for form in ${MMS_FORMS:-weak split}; do
      prev=""
      for L in $(levels_for "$N" $eq "${2:-}"); do
        res=$(run_one $eq $form "$N" "$L")
        if [[ $res == FAILED ]]; then
          printf "%-5s %-6s %2d %5d FAILED (see mms_unstructured.log)\n" $eq $form "$N" "$L" | tee -a "$log"
          prev=""
          continue
        fi
        read -r elems dof steps l2 linf wall <<<"$res"
        eoc=$(python3 -c "import math,sys; a,b=sys.argv[1:]; print('%.2f'%(math.log(float(a)/float(b))/math.log(2)) if a else '-')" "$prev" "$l2")
        printf "%-5s %-6s %2d %5d %8d %9d %7d %12.4e %12.4e %6s %7d\n" $eq $form "$N" "$L" "$elems" \
          "$dof" "$steps" "$l2" "$linf" "$eoc" "$wall" | tee -a "$log"
        echo "$eq,$form,$N,$L,$elems,$dof,$steps,$l2,$linf,$eoc,$wall" >>"$csv"
        prev=$l2
      done
    done
  done
done
echo "target: EOC >= N + 0.7 on the finest pair; results in $csv"
