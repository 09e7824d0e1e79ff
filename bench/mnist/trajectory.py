#!/usr/bin/python3
"""Replays bench/mnist/trajectory.tiny's training in PyTorch, step by step.

    bench/mnist/trajectory.py [-steps 30] [-bs 128] [-nt 2000]

It draws the batches (idx.npy), runs trajectory.tiny (CLANG) on them,
then trains torch's model from tiny's initial weights on the same batches,
in float32 and in float64, and prints each step's loss beside tiny's, the
test accuracy of each, and the accuracy torch computes from tiny's final
weights and running statistics (the evaluation path on its own). Training
is chaotic: float32 rounding alone moves the trajectory after a few steps,
so what matters is whether tiny stays as close to float64 as torch's own
float32 does."""

import argparse
import gzip
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("-steps", type=int, default=30)
ap.add_argument("-bs", type=int, default=128)
ap.add_argument("-nt", type=int, default=2000)
ap.add_argument("-tiny", default="go run ./cmd/tiny")
a = ap.parse_args()
torch.set_num_threads(2)
D = os.environ.get("MNIST_DIR", "/usr/share/datasets/fashion-mnist")
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def idx_file(name, off):
    return np.frombuffer(gzip.open(f"{D}/{name}.gz").read()[off:], dtype=np.uint8)


def safetensors(path):  # the format: u64 header length, JSON header, data
    b = open(path, "rb").read()
    n = struct.unpack("<Q", b[:8])[0]
    dt = {"F32": np.float32, "F64": np.float64, "I64": np.int64, "I32": np.int32}
    out = {}
    for k, v in json.loads(b[8:8 + n]).items():
        if k != "__metadata__" and "num_batches" not in k:
            s, e = v["data_offsets"]
            arr = np.frombuffer(b[8 + n + s:8 + n + e], dtype=dt[v["dtype"]]).reshape(v["shape"])
            out[k.replace("layers.", "")] = torch.tensor(arr.copy())
    return out


Xtr = torch.tensor(idx_file("train-images-idx3-ubyte", 16).reshape(-1, 1, 28, 28).copy())
Ytr = torch.tensor(idx_file("train-labels-idx1-ubyte", 8).astype(np.int64))
Xte = torch.tensor(idx_file("t10k-images-idx3-ubyte", 16).reshape(-1, 1, 28, 28)[:a.nt].copy())
Yte = torch.tensor(idx_file("t10k-labels-idx1-ubyte", 8)[:a.nt].astype(np.int64))

tmp = tempfile.mkdtemp()
idx = np.random.default_rng(0).integers(0, Xtr.shape[0], (a.steps, a.bs)).astype(np.int32)
np.save(f"{tmp}/idx.npy", idx)
env = dict(os.environ, TRAJ_DIR=tmp, NT=str(a.nt), DEVICE=os.environ.get("DEVICE", "CLANG"))
res = subprocess.run(a.tiny.split() + ["run", "bench/mnist/trajectory.tiny"], cwd=root, env=env,
                     capture_output=True, text=True)
if res.returncode:
    sys.exit(res.stdout + res.stderr)
tiny_loss = [float(l.split()[3]) for l in res.stdout.splitlines() if l.startswith("step ")]
tiny_acc = res.stdout.splitlines()[-1]


def model(dtype, state):
    m = nn.Sequential(
        nn.Conv2d(1, 32, 5), nn.ReLU(), nn.Conv2d(32, 32, 5), nn.ReLU(), nn.BatchNorm2d(32), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3), nn.ReLU(), nn.Conv2d(64, 64, 3), nn.ReLU(), nn.BatchNorm2d(64), nn.MaxPool2d(2),
        nn.Flatten(1), nn.Linear(576, 10)).to(dtype)
    m.load_state_dict(state, strict=False)
    return m


def accuracy(m, dtype):
    m.eval()
    with torch.no_grad():  # in chunks: float64 convolutions of 10,000 images take 25 GB at once
        pred = torch.cat([m(x.to(dtype)).argmax(1) for x in Xte.split(1000)])
    return (pred == Yte).double().mean().item() * 100


def train(dtype):
    m = model(dtype, safetensors(f"{tmp}/init.safetensors"))
    opt = torch.optim.Adam(m.parameters(), lr=0.001, betas=(0.9, 0.999), eps=1e-8)
    losses = []
    for s in torch.tensor(idx).long():
        m.train()
        opt.zero_grad()
        loss = nn.functional.cross_entropy(m(Xtr[s].to(dtype)), Ytr[s])
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, accuracy(m, dtype)


l32, acc32 = train(torch.float32)
l64, acc64 = train(torch.float64)
print(f"{'step':>4} {'tiny':>10} {'torch f32':>10} {'torch f64':>10} {'tiny-f64':>10} {'f32-f64':>10}")
for i, (t, x, y) in enumerate(zip(tiny_loss, l32, l64)):
    print(f"{i:4} {t:10.6f} {x:10.6f} {y:10.6f} {t - y:10.2e} {x - y:10.2e}")
print(f"test accuracy on {a.nt} images: tiny {tiny_acc.split()[-1]}, torch f32 {acc32:.2f}%, torch f64 {acc64:.2f}%")
print(f"torch (f64) evaluating tiny's final weights and running statistics: "
      f"{accuracy(model(torch.float64, safetensors(f'{tmp}/final.safetensors')), torch.float64):.2f}%")
