#!/usr/bin/env python3
"""Print the header of a hexdg/FLEXI state file: its root attributes, the mechanism of a reacting
run, the shape of DG_Solution and the element-wise datasets (FV_alpha, ElemCost, ...).

usage: read_state.py FILE.h5 [--stats]

Element-wise datasets are printed with their min/max/mean; --stats also prints them for every
variable of DG_Solution. Needs numpy and h5py; if the running Python
lacks them, the script re-runs itself with /usr/bin/python3. The format is described in
docs/formats.md.
"""
import os
import sys

REEXEC_GUARD = "HEXDG_READ_STATE_REEXEC"

try:
    import h5py
    import numpy as np
except ImportError:
    from system_python import rerun_or_exit

    rerun_or_exit(REEXEC_GUARD, "read_state.py: needs numpy and h5py (pip install numpy h5py)")


def as_text(value):
    """Attribute value -> printable text; FLEXI strings are blank-padded bytes."""
    if isinstance(value, bytes):
        return value.decode("ascii", errors="replace").rstrip(" \0")
    if isinstance(value, str):
        return value.rstrip(" \0")
    if isinstance(value, np.ndarray):
        items = [as_text(v) for v in value.ravel()]
        return items[0] if len(items) == 1 else "[" + ", ".join(items) + "]"
    return repr(value.item() if isinstance(value, np.generic) else value)


def describe_type(attr_id):
    dtype = attr_id.dtype
    if dtype.kind == "S":
        return f"string[{dtype.itemsize}]"
    if dtype.kind == "O":
        return "string[variable]"
    return str(dtype)


def print_mechanism(f):
    """Reacting runs write Mechanism and MechanismHash; air files have neither."""
    if "Mechanism" not in f.attrs and "MechanismHash" not in f.attrs:
        print("mechanism: none (air)")
        return
    mechanism = as_text(f.attrs["Mechanism"]) if "Mechanism" in f.attrs else "?"
    digest = as_text(f.attrs["MechanismHash"]) if "MechanismHash" in f.attrs else "none"
    print(f"mechanism: {mechanism} (MechanismHash {digest})")


def print_elem_datasets(f, n_elems):
    """The datasets of one value per element beside DG_Solution (docs/formats.md)."""
    names = [name for name, obj in f.items()
             if isinstance(obj, h5py.Dataset) and obj.shape == (n_elems,)]
    if not names:
        return
    print("element datasets:")
    width = max(len(name) for name in names)
    for name in names:
        data = f[name][...]
        print(f"  {name:<{width}}  min {data.min(): .9e}  max {data.max(): .9e}  "
              f"mean {data.mean(): .9e}")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(next(line for line in __doc__.splitlines() if line.startswith("usage:")))
    path = args[0]
    try:
        f = h5py.File(path, "r")
    except OSError as err:
        sys.exit(f"read_state.py: cannot open '{path}': {err}")
    with f:
        print(f"file: {path}")
        print("attributes:")
        width = max((len(k) for k in f.attrs), default=0)
        for name in f.attrs:
            attr_id = f.attrs.get_id(name)
            shape = attr_id.shape
            print(f"  {name:<{width}}  {describe_type(attr_id):<16} {str(shape):<6} "
                  f"{as_text(f.attrs[name])}")
        print_mechanism(f)
        print("datasets:")
        for name, obj in f.items():
            if isinstance(obj, h5py.Dataset):
                print(f"  {name}  shape {obj.shape}  {obj.dtype}")
        if "DG_Solution" not in f:
            sys.exit(f"read_state.py: '{path}' has no DG_Solution dataset")
        u = f["DG_Solution"]
        if u.ndim == 5:
            print(f"  (nElems, N+1, N+1, N+1, nVar) = {u.shape}: nElems = {u.shape[0]}, "
                  f"N = {u.shape[1] - 1}, nVar = {u.shape[4]}")
            print_elem_datasets(f, u.shape[0])
        if "--stats" in sys.argv:
            data = u[...]
            names = [as_text(n) for n in f.attrs.get("VarNames", [])]
            for v in range(data.shape[-1]):
                col = data[..., v]
                label = names[v] if v < len(names) else f"var{v + 1}"
                print(f"  {label:<24} min {col.min(): .9e}  max {col.max(): .9e}  "
                      f"mean {col.mean(): .9e}")


if __name__ == "__main__":
    main()
