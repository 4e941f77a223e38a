#!/bin/bash
# The 2-D cellular detonation (parameter_files/detonation_h2o2ar_2d.ini) in two variants side by
# side, one per GPU of a 2-GPU machine, each stopped by SIGTERM after LIMIT s (its state is
# written), then its soot foil extracted to $OUT/<name>.npz and its transverse spectrum printed
# (tools/soot_foil.py). The binary travels as .devbin/hexdg.xz.aa (xz of a build with
# HEXDG_NATIVE=OFF), the mechanism as .oracle/mechanisms/h2o2.yaml.
# usage (device): V0=name0 A0="--set K=V ..." V1=name1 A1="..." LIMIT=480 bash tools/device_det2d.sh
source .devdeps/setup.sh  # (carry .devdeps, .devbin with hexdg.xz.aa, .oracle/mechanisms)
mkdir -p bin && xz -dc .devbin/hexdg.xz.aa > bin/hexdg && chmod +x bin/hexdg
nvidia-smi -L
R=$PWD
LIMIT=${LIMIT:-480}
variant() {
  gpu=$1; name=$2; shift 2
  mkdir -p run_$name && cd run_$name
  CUDA_VISIBLE_DEVICES=$gpu timeout -s TERM $LIMIT $R/bin/hexdg $R/parameter_files/detonation_h2o2ar_2d.ini \
    --set Mechanism=$R/.oracle/mechanisms/h2o2.yaml --set ProjectName=$name "$@" > log.txt 2>&1
  echo "$name rc $?" >> log.txt
  cd $R
}
variant 0 ${V0:-fo05} $A0 &
variant 1 ${V1:-mm05} $A1 &
wait
for v in ${V0:-fo05} ${V1:-mm05}; do
  grep -v totals run_$v/log.txt | tail -12
  cp run_$v/log.txt $OUT/$v.log
  last=$(ls run_$v/*_State_*.h5 | tail -1)
  echo "last state $last"
  python3 tools/soot_foil.py --ini parameter_files/detonation_h2o2ar_2d.ini --hexdg bin/hexdg $last --npz $OUT/$v.npz 2>&1 | tail -3
  python3 tools/soot_foil.py --from-npz $OUT/$v.npz --xmin 0.06 2>&1 | tail -6
done
