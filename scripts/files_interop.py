"""Interoperability of tiny's file formats with NumPy and the safetensors
spec, both ways. Run from the repository root with /usr/bin/python3 (needs
numpy and a Go toolchain); it rewrites interp/testdata/files/, which
interp/files_test.go checks without Python:

1. NumPy writes .npy files and a safetensors writer written here from the
   format's spec (8-byte little-endian header size, JSON header of dtype,
   shape and data_offsets, then the bytes) writes py.safetensors; the values
   go to expected.json. The Go test loads them with tiny.
2. tiny writes tiny.npy and tiny.safetensors (the script WRITE below); this
   script reads them with NumPy and the spec reader here and checks the
   values. The Go test checks that tiny still writes those same bytes.
"""

import json
import os
import struct
import subprocess

import numpy as np

OUT = os.path.join("interp", "testdata", "files")

ARRAYS = {
    "f32": np.arange(6, dtype=np.float32).reshape(2, 3) / 4,
    "i32": np.array([1, -2, 3, 2**31 - 1], dtype=np.int32),
    "u8": np.array([[0, 255], [7, 128]], dtype=np.uint8),
    "bool": np.array([True, False, True]),
    "f64": np.array(3.25, dtype=np.float64),
    "f16": np.array([0.5, -2.0, 65504.0], dtype=np.float16),
    "i64": np.array([-(2**40), 5], dtype=np.int64),
    "empty": np.zeros((0, 3), dtype=np.float32),
}

SAFE = {"F32": np.float32, "F64": np.float64, "F16": np.float16, "I32": np.int32, "I64": np.int64,
        "U8": np.uint8, "BOOL": np.bool_}


def safe_write(path, tensors, metadata=None):
    header, blob = {}, b""
    for name in sorted(tensors):
        a = np.asarray(tensors[name]).copy(order="C")
        code = next(k for k, v in SAFE.items() if v == a.dtype.type)
        data = a.astype(a.dtype.newbyteorder("<")).tobytes()
        header[name] = {"dtype": code, "shape": list(a.shape), "data_offsets": [len(blob), len(blob) + len(data)]}
        blob += data
    if metadata:
        header["__metadata__"] = metadata
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + blob)


def safe_read(path):
    raw = open(path, "rb").read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    data = raw[8 + n:]
    out = {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        lo, hi = e["data_offsets"]
        out[name] = np.frombuffer(data[lo:hi], dtype=np.dtype(SAFE[e["dtype"]]).newbyteorder("<")).reshape(e["shape"])
    return out, header.get("__metadata__")


def enc(a):
    return {"dtype": str(a.dtype), "shape": list(a.shape), "data": a.reshape(-1).tolist()}


WRITE = """
safe_save({"w": arange(6).reshape(2, 3).float() / 4, "flags": tensor([true, false]), "n": tensor([3, -4], dtype=int64),
           "h": tensor([0.5, 1.5], dtype=float16), "t": arange(4).reshape(2, 2).T}, "%(dir)s/tiny.safetensors",
          metadata={"format": "pt"})
save_npy((arange(6).reshape(3, 2).float() - 2).T, "%(dir)s/tiny.npy")
save_npy(tensor(7, dtype=int32), "%(dir)s/tiny_0d.npy")
"""


def main():
    os.makedirs(OUT, exist_ok=True)
    expected = {}
    for name, a in ARRAYS.items():
        np.save(os.path.join(OUT, f"np_{name}.npy"), a)
        expected[f"np_{name}.npy"] = enc(a)
    fort = np.asfortranarray(np.arange(6, dtype=np.float32).reshape(3, 2))
    np.save(os.path.join(OUT, "np_fortran.npy"), fort)
    expected["np_fortran.npy"] = enc(np.ascontiguousarray(fort))
    safe = {k: ARRAYS[k] for k in ("f32", "i32", "u8", "bool", "f64", "f16", "i64", "empty")}
    safe_write(os.path.join(OUT, "py.safetensors"), safe, {"note": "written by files_interop.py"})
    expected["py.safetensors"] = {k: enc(v) for k, v in safe.items()}
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")

    subprocess.run(["go", "run", "./cmd/tiny", "-c", WRITE % {"dir": OUT}], check=True)
    got, meta = safe_read(os.path.join(OUT, "tiny.safetensors"))
    assert meta == {"format": "pt"}, meta
    want = {"w": np.arange(6, dtype=np.float32).reshape(2, 3) / 4, "flags": np.array([True, False]),
            "n": np.array([3, -4], dtype=np.int64), "h": np.array([0.5, 1.5], dtype=np.float16),
            "t": np.arange(4, dtype=np.int32).reshape(2, 2).T}
    assert sorted(got) == sorted(want), sorted(got)
    for k, v in want.items():
        assert got[k].dtype == v.dtype and np.array_equal(got[k], v), (k, got[k], v)
    a = np.load(os.path.join(OUT, "tiny.npy"))
    assert a.dtype == np.float32 and np.array_equal(a, (np.arange(6, dtype=np.float32).reshape(3, 2) - 2).T), a
    z = np.load(os.path.join(OUT, "tiny_0d.npy"))
    assert z.dtype == np.int32 and z.shape == () and z == 7, z
    print("NumPy and the spec reader read tiny's files; tiny's expected inputs written to", OUT)


if __name__ == "__main__":
    main()
