#!/usr/bin/env bash
# On the GPU machine (after `source .devdeps/setup.sh` and tools/device_build.sh): the shock-capturing
# cases of docs/shock_capturing.md on the CUDA backend -- double Mach reflection, Sedov blast, the
# compressible TGV (Re 1600, Ma 1.25) at 64^3 and 128^3 DOF -- and the FV cost benchmark. Logs,
# TGV CSVs and the gzipped final states of DMR and Sedov (split into 15 MB parts) go to $OUT; make
# the pictures here with `hexdg convert` and tools/plot_slice.py (docs/shock_capturing.md).
set -u
root=$(pwd)
out=${OUT:-.}
hexdg=$root/build-gpu/hexdg
run_case() { # name ini [extra sed]
  local name=$1 ini=$2
  mkdir -p /tmp/fvcases/$name && cd /tmp/fvcases/$name
  sed -e 's/^OutputFormat.*/OutputFormat = None/' "$root/$ini" >case.ini
  echo "Backend = cuda" >>case.ini
  /usr/bin/time -f "$name wall %e s" $hexdg case.ini >run.log 2>&1
  tail -2 run.log | cut -c1-200
  grep "FV_alpha" run.log | tail -3
  cp run.log "$out/$name.log"
  cd "$root"
}
run_case dmr parameter_files/dmr.ini
run_case sedov parameter_files/sedov.ini
run_case tgv125_64 parameter_files/tgv_re1600_ma1.25_64.ini
run_case tgv125_128 parameter_files/tgv_re1600_ma1.25_128.ini
cp /tmp/fvcases/tgv125_*/*_TGVAnalysis.csv "$out/"
for c in dmr sedov; do
  f=$(ls -t /tmp/fvcases/$c/*_State_*.h5 | head -1)
  gzip -1 -c "$f" | split -b 15M - "$out/${c}_final.h5.gz.part"
  echo "$c: $(basename "$f") $(du -h "$f" | cut -f1)"
done
# cost of the blending (PID with alpha everywhere vs pure DG), Euler and Navier-Stokes
for a in "--N 2 --elems 54" "--N 3 --elems 40" "--N 4 --elems 32" "--N 5 --elems 27" \
  "--N 6 --elems 23" "--N 7 --elems 20" "--N 3 --elems 40 --mu0 6.25e-4" \
  "--N 5 --elems 27 --mu0 6.25e-4" "--N 7 --elems 20 --mu0 6.25e-4"; do
  for fv in none hennemann 0.5; do $hexdg bench $a --steps 20 --fv $fv | grep PID | sed "s/^/$a --fv $fv: /"; done
done
