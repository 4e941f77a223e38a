#!/usr/bin/env bash
# On the GPU machine: the TGV at 256^3 DOF (parameter_files/tgv_re1600_ma0.1_256.ini) to t = 20 in
# two legs with a restart between them, as a batch job would: the first leg is stopped by SIGTERM
# after $1 seconds (default 600) and writes its state; the second restarts from the newest state
# file. `start` runs both legs detached in /tmp/tgv256; `wait [s]` waits up to s seconds (default
# 580) and copies the TGVAnalysis CSV and the logs to $OUT.
set -u
root=$(pwd)
dir=/tmp/tgv256
ini=$root/parameter_files/tgv_re1600_ma0.1_256.ini
case ${1:-start} in
start)
  leg1=${2:-600}
  mkdir -p $dir
  cat >$dir/job.sh <<JOB
cd $dir
timeout -s TERM $leg1 $root/build-gpu/hexdg $ini >leg1.log 2>&1
state=\$(ls -t TGV_Re1600_Ma0.1_256_State_*.h5 | head -1)
echo "restart from \$state" >leg2.log
$root/build-gpu/hexdg $ini \$state >>leg2.log 2>&1
echo done >finished
JOB
  (cd $dir && OMP_NUM_THREADS=16 setsid nohup bash job.sh >/dev/null 2>&1 &)
  echo "TGV 256^3 started in $dir" ;;
wait)
  limit=${2:-580}
  for ((s = 0; s < limit; s += 5)); do [ -f $dir/finished ] && break; sleep 5; done
  tail -2 $dir/leg1.log; tail -3 $dir/leg2.log 2>/dev/null
  cp $dir/*_TGVAnalysis.csv $dir/leg1.log "${OUT:-.}/" 2>/dev/null
  [ -f $dir/leg2.log ] && cp $dir/leg2.log "${OUT:-.}/"
  ls $dir ;;
esac
