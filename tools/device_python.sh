#!/usr/bin/env bash
# Sourced by the device scripts: device_python MODULE... prints a Python that imports every MODULE
# (the machine images differ: python3 on PATH or Debian's /usr/bin/python3 may lack numpy/h5py);
# /usr/bin/python3 when none does, so that the caller's import error names the missing module.
device_python() {
  local p mods
  mods=$(IFS=,; echo "$*")  # "numpy,h5py" (${*// /, } would substitute in each word, then join)
  for p in python3 /usr/bin/python3 python3.12 python3.11; do
    if command -v "$p" >/dev/null && "$p" -c "import $mods" 2>/dev/null; then
      command -v "$p"
      return 0
    fi
  done
  echo /usr/bin/python3
}
