#!/usr/bin/python3
"""Trains beautiful_mnist's model in PyTorch as examples/beautiful_mnist.tiny
does (tinygrad's initialisation, raw 0-255 pixels, Adam with tinygrad's
defaults, randint batches of BS, evaluation with BatchNorm's running
statistics) once per seed, and prints each seed's test accuracy on the
10,000 test images after every 10 steps and at the last: how much one
run's final accuracy varies from seed to seed.

    SEEDS=0-7 STEPS=70 BS=512 bench/mnist/accuracy_torch.py
"""

import gzip
import os
import time

import numpy as np
import torch
import torch.nn as nn

torch.set_num_threads(int(os.environ.get("THREADS", 2)))
D = os.environ.get("MNIST_DIR", "/usr/share/datasets/fashion-mnist")
STEPS, BS = int(os.environ.get("STEPS", 70)), int(os.environ.get("BS", 512))
lo, hi = (int(x) for x in os.environ.get("SEEDS", "0-7").split("-"))


def idx_file(name, off):
    return np.frombuffer(gzip.open(f"{D}/{name}.gz").read()[off:], dtype=np.uint8)


Xtr = torch.tensor(idx_file("train-images-idx3-ubyte", 16).reshape(-1, 1, 28, 28).copy())
Ytr = torch.tensor(idx_file("train-labels-idx1-ubyte", 8).astype(np.int64))
Xte = torch.tensor(idx_file("t10k-images-idx3-ubyte", 16).reshape(-1, 1, 28, 28).copy()).float()
Yte = torch.tensor(idx_file("t10k-labels-idx1-ubyte", 8).astype(np.int64))

for seed in range(lo, hi + 1):
    torch.manual_seed(seed)
    model = nn.Sequential(
        nn.Conv2d(1, 32, 5), nn.ReLU(), nn.Conv2d(32, 32, 5), nn.ReLU(), nn.BatchNorm2d(32), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3), nn.ReLU(), nn.Conv2d(64, 64, 3), nn.ReLU(), nn.BatchNorm2d(64), nn.MaxPool2d(2),
        nn.Flatten(1), nn.Linear(576, 10))
    for m in model:  # tinygrad's: weight and bias uniform in +-1/sqrt(fan_in)
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            b = m.weight[0].numel() ** -0.5
            nn.init.uniform_(m.weight, -b, b)
            nn.init.uniform_(m.bias, -b, b)
    opt = torch.optim.Adam(model.parameters(), lr=0.001, betas=(0.9, 0.999), eps=1e-8)
    t0, accs = time.time(), []
    for i in range(STEPS):
        model.train()
        s = torch.randint(0, Xtr.shape[0], (BS,))
        opt.zero_grad()
        nn.functional.cross_entropy(model(Xtr[s].float()), Ytr[s]).backward()
        opt.step()
        if i % 10 == 9 or i == STEPS - 1:
            model.eval()
            with torch.no_grad():
                accs.append((model(Xte).argmax(1) == Yte).float().mean().item() * 100)
    print(f"seed {seed}: " + " ".join(f"{x:.2f}" for x in accs) + f"  ({time.time() - t0:.0f} s)", flush=True)
