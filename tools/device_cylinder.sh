#!/usr/bin/env bash
# On the GPU machine: the cylinder case (parameter_files/cylinder_re100.ini) in /tmp/cylinder, with
# the mesh path made absolute; `start` launches it detached (it keeps the GPU while other commands
# run), `wait` waits for it and copies the body-force CSV and the log to $OUT.
set -u
root=$(pwd)
dir=/tmp/cylinder
case ${1:-start} in
start)
  mkdir -p $dir
  sed "s#meshes/cylinder.msh#$root/meshes/cylinder.msh#" parameter_files/cylinder_re100.ini >$dir/cylinder.ini
  (cd $dir && setsid nohup "$root/build-gpu/hexdg" cylinder.ini >run.log 2>&1 &)
  echo "cylinder started in $dir" ;;
wait)
  while pgrep -f "hexdg cylinder.ini" >/dev/null; do sleep 5; done
  tail -3 $dir/run.log
  cp $dir/run.log "${OUT:-.}/cylinder.log"
  cp $dir/*_BodyForces_*.csv "${OUT:-.}/" ;;
esac
