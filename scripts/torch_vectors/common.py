"""Shared code of the torch vector generators.

Each generator (one per group of ops, e.g. conv.py) builds a Suite of cases:
a tiny expression over named input tensors, torch's result for the same
computation, and torch's gradients of sum(out * upstream) with respect to the
inputs named in grad. It writes interp/testdata/torch/<suite>.json, which
interp/torch_test.go runs through the language on every device.

Run from the repository root:  /usr/bin/python3 scripts/torch_vectors/conv.py
(or scripts/torch_vectors/all.sh for every suite). Needs Debian's
python3-torch; the Go tests that read the output do not.
"""

import json
import math
import os

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.join(HERE, "..", "..", "interp", "testdata", "torch")

DTYPES = {
    torch.bool: "bool",
    torch.uint8: "uint8",
    torch.int8: "int8",
    torch.int16: "int16",
    torch.int32: "int32",
    torch.int64: "int64",
    torch.float16: "float16",
    torch.bfloat16: "bfloat16",
    torch.float32: "float32",
    torch.float64: "float64",
}
for name in ("uint16", "uint32", "uint64"):
    if hasattr(torch, name):
        DTYPES[getattr(torch, name)] = name


def _enc(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v


def arr(t):
    """A tensor as {"dtype", "shape", "data"} with data flat, row-major;
    nan and infinities are the strings "nan", "inf", "-inf"."""
    t = t.detach().cpu()
    if t.dtype == torch.bfloat16:
        flat = t.float().reshape(-1).tolist()
    else:
        flat = t.reshape(-1).tolist()
    return {"dtype": DTYPES[t.dtype], "shape": list(t.shape), "data": [_enc(v) for v in flat]}


class Suite:
    """A named list of cases, written by write()."""

    def __init__(self, name, seed=0):
        self.name = name
        self.cases = []
        self.names = set()
        torch.manual_seed(seed)

    def _new(self, name, src, inputs):
        assert name not in self.names, f"duplicate case {name}"
        self.names.add(name)
        return {"name": name, "src": src, "inputs": {k: arr(v) for k, v in inputs.items()}}

    def add(self, name, src, inputs, fn, grad=(), atol=None, rtol=None, gatol=None, grtol=None,
            signed_zeros=False, upstream=None):
        """A case: src is a tiny expression over the inputs (a dict of name
        to tensor); fn(**inputs) computes torch's result (a tensor, or a
        tuple/list of tensors for an op that returns several). grad names the
        inputs to differentiate sum(out_i * upstream_i) with respect to.
        signed_zeros: the results' zeros must have torch's signs.
        upstream: a function of the (detached) results giving the upstream
        gradients, instead of random normal ones."""
        case = self._new(name, src, inputs)
        if signed_zeros:
            case["signed_zeros"] = True
        ins = {k: v.detach().clone().requires_grad_(k in grad) for k, v in inputs.items()}
        out = fn(**ins)
        multi = isinstance(out, (tuple, list))
        outs = list(out) if multi else [out]
        case["out"] = [arr(o) for o in outs]
        case["multi"] = multi
        for key, v in (("atol", atol), ("rtol", rtol), ("gatol", gatol), ("grtol", grtol)):
            if v is not None:
                case[key] = v
        if grad:
            if upstream is not None:
                ups = [u if o.is_floating_point() else None for o, u in zip(outs, upstream([o.detach() for o in outs]))]
            else:
                ups = [torch.randn(o.shape, dtype=o.dtype) if o.is_floating_point() else None for o in outs]
            loss = sum((o * u).sum() for o, u in zip(outs, ups) if u is not None)
            gs = torch.autograd.grad(loss, [ins[k] for k in grad], allow_unused=True)
            case["upstream"] = [arr(u) if u is not None else None for u in ups]
            case["grads"] = {
                k: arr(g if g is not None else torch.zeros_like(ins[k])) for k, g in zip(grad, gs)
            }
        self.cases.append(case)

    def error(self, name, src, inputs, contains):
        """A case whose evaluation must fail with a message containing
        contains (tinygrad raises there too)."""
        case = self._new(name, src, inputs)
        case["error"] = contains
        self.cases.append(case)

    def write(self):
        os.makedirs(OUT_DIR, exist_ok=True)
        path = os.path.join(OUT_DIR, self.name + ".json")
        with open(path, "w") as f:
            json.dump({"suite": self.name, "cases": self.cases}, f, separators=(",", ":"))
            f.write("\n")
        print(f"{path}: {len(self.cases)} cases")
