#!/usr/bin/env bash
# Install the Debian packages hexdg needs, only those that are missing (needs root or sudo).
set -euo pipefail
# libyaml: Cantera YAML mechanisms; python3-venv: the chemistry test oracle (tools/install_oracle.sh)
# MPI build (default): MPICH, parallel HDF5 against it, METIS; libhdf5-dev stays for HEXDG_MPI=OFF
pkgs=(build-essential cmake libhdf5-dev libcmocka-dev python3-numpy python3-h5py python3-matplotlib
      mpich libhdf5-mpich-dev libmetis-dev libyaml-dev python3-venv
      libglu1-mesa libxrender1 libxcursor1 libxft2 libxinerama1) # last line: the PyPI gmsh wheel
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "hexdg: installing missing packages: ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
