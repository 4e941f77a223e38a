#!/usr/bin/python3
"""Seed inputs of the structured fuzz targets (docs/fuzzing.md): encodes HOPR mesh files
(fuzz_hopr.c's layout) and state files (fuzz_state.c's layout) written by hexdg itself.

  make_seeds.py hopr  mesh.h5  out.bin
  make_seeds.py state state.h5 out.bin
"""
import struct
import sys

import h5py
import numpy as np


def bstring(s, max_len):
    b = s.encode() if isinstance(s, str) else bytes(s)
    b = b.rstrip(b" \0")[:max_len]
    return bytes([len(b)]) + b


def attr_text(f, name):
    v = f.attrs[name]
    v = v[0] if isinstance(v, np.ndarray) else v
    return v.decode() if isinstance(v, bytes) else str(v)


def encode_hopr(f):
    elem = np.asarray(f["ElemInfo"], dtype="<i4")
    side = np.asarray(f["SideInfo"], dtype="<i4")
    nodes = np.asarray(f["NodeCoords"], dtype="<f8")
    bctype = np.asarray(f["BCType"], dtype="<i4")
    names = [n.decode() if isinstance(n, bytes) else n for n in f["BCNames"][()]]
    ngeo = int(np.asarray(f.attrs["Ngeo"]).ravel()[0])
    out = struct.pack("<Bii", 0, ngeo, elem.shape[0])
    out += struct.pack("<BBHBHB", elem.shape[0], elem.shape[1], side.shape[0], side.shape[1],
                       nodes.shape[0], nodes.shape[1])
    out += struct.pack("<BBB", len(names), bctype.shape[0], bctype.shape[1])
    out += elem.tobytes() + side.tobytes() + nodes.tobytes() + bctype.tobytes()
    for n in names:
        out += bstring(n, 32)
    return out


def encode_state(f):
    u = np.asarray(f["DG_Solution"], dtype="<f8")
    flags = 0
    texts = [attr_text(f, k) for k in ("File_Type", "Project_Name", "MeshFile", "NodeType")]
    mech = ["", ""]
    if "Mechanism" in f.attrs:
        flags |= 1 << 10
        mech = [attr_text(f, "Mechanism"), attr_text(f, "MechanismHash")]
    has_alpha = "FV_alpha" in f
    if has_alpha:
        flags |= 1 << 11
    has_field = "FieldData" in f
    if has_field:
        flags |= 1 << 12
    var_names = [v.decode() if isinstance(v, bytes) else v for v in f.attrs["VarNames"]]
    n = int(np.asarray(f.attrs["N"]).ravel()[0])
    t = float(np.asarray(f.attrs["Time"]).ravel()[0])
    out = struct.pack("<Hid", flags, n, t)
    out += bytes([5]) + bytes(u.shape) + bytes([len(var_names)])
    for s in texts + mech:
        out += bstring(s, 40)
    for v in var_names:
        out += bstring(v, 16)
    alpha = np.asarray(f["FV_alpha"], dtype="<f8") if has_alpha else np.zeros(0)
    field = np.asarray(f["FieldData"], dtype="<f8") if has_field else np.zeros((0, 0, 0, 0, 0))
    out += bytes([alpha.size]) + bytes(field.shape)
    field_names = list(f.attrs["VarNamesAddField"]) if has_field else []
    out += bytes([len(field_names)])
    for v in field_names:
        out += bstring(v, 16)
    return out + u.tobytes() + alpha.tobytes() + field.tobytes()


def main():
    kind, src, dst = sys.argv[1:4]
    with h5py.File(src, "r") as f:
        data = encode_hopr(f) if kind == "hopr" else encode_state(f)
    with open(dst, "wb") as out:
        out.write(data)
    print(f"{dst}: {len(data)} bytes")


if __name__ == "__main__":
    main()
