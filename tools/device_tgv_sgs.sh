#!/usr/bin/env bash
# On the GPU machine: the TGV (Re 1600, Ma 0.1) at 64^3 DOF = 8^3 elements of N = 7 (FLEXI-style
# LES resolution; parameter_files/tgv_re1600_ma0.1_64.ini: LGL, split PI) to t = 20 with each
# eddy-viscosity model, then -dEk/dt of every run against the 512^3 spectral DNS
# (tools/plot_tgv.py prints the misfits, writes $OUT/tgv_sgs.png). CSV series and logs in $OUT.
# usage: bash tools/device_tgv_sgs.sh [MODEL ...]   (default: none smagorinsky vreman sigma)
# Constants: CS = 0.1 for smagorinsky and vreman (Vreman's c = 2.5 CS^2), C_sigma = 1.35
# (Nicoud et al. 2011). Each run takes a few minutes on an H100: split the models over several
# calls if one call has a time limit (the CSVs stay in $OUT; re-plot with tools/plot_tgv.py).
set -u
out=${OUT:-.}
root=$(pwd)
export OMP_NUM_THREADS=16
models=("$@")
[ ${#models[@]} -eq 0 ] && models=(none smagorinsky vreman sigma)
bash tools/device_build.sh || exit 1
base="$root/parameter_files/tgv_re1600_ma0.1_64.ini"
for model in "${models[@]}"; do
  case $model in
    none) cs="" ;;
    smagorinsky | vreman) cs="CS = 0.1" ;;
    sigma) cs="CS = 1.35" ;;
    *) echo "device_tgv_sgs.sh: unknown model '$model' (none smagorinsky vreman sigma)"; exit 1 ;;
  esac
  name="TGV_SGS_$model"
  dir=/tmp/$name && mkdir -p "$dir" && cd "$dir" || exit 1
  sed "s/^ProjectName .*/ProjectName = $name/; s/^nWriteData .*/nWriteData = 1000000/" "$base" >case.ini
  printf 'eddyViscType = %s\n%s\n' "$model" "$cs" >>case.ini
  start=$(date +%s)
  timeout 580 "$root/build-gpu/hexdg" case.ini >"$out/$name.log" 2>&1
  echo "$model: rc $? in $(($(date +%s) - start)) s; $(grep -E "backend" "$out/$name.log" | head -1)"
  cp ./*_TGVAnalysis.csv "$out/$name.csv" 2>/dev/null || echo "$model: no TGVAnalysis CSV"
  cd "$root" || exit 1
done
csvs=()
for model in none smagorinsky vreman sigma; do
  [ -f "$out/TGV_SGS_$model.csv" ] && csvs+=("$out/TGV_SGS_$model.csv")
done
[ ${#csvs[@]} -gt 0 ] && /usr/bin/python3 tools/plot_tgv.py "${csvs[@]}" --out "$out/tgv_sgs.png"
