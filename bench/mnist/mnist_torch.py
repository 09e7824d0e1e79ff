"""Times training steps of beautiful_mnist's model in PyTorch, on 2 threads
(the machine's cores), as bench/mnist/mnist.tiny does in tiny: same layers
and initial scale, Adam with tinygrad's defaults, randint batches of BS out
of 2,000 random images; then, with EVALS > 0, the evaluation's forward pass over
10,000 images in one batch, EVALS times, as bench/mnist/mnist.tiny does."""

import os
import time

import torch
import torch.nn as nn

torch.set_num_threads(int(os.environ.get("THREADS", 2)))
STEPS, BS = int(os.environ.get("STEPS", 6)), int(os.environ.get("BS", 512))
X = torch.randint(0, 256, (2000, 1, 28, 28), dtype=torch.uint8)
Y = torch.randint(0, 10, (2000,))

model = nn.Sequential(
    nn.Conv2d(1, 32, 5), nn.ReLU(), nn.Conv2d(32, 32, 5), nn.ReLU(), nn.BatchNorm2d(32), nn.MaxPool2d(2),
    nn.Conv2d(32, 64, 3), nn.ReLU(), nn.Conv2d(64, 64, 3), nn.ReLU(), nn.BatchNorm2d(64), nn.MaxPool2d(2),
    nn.Flatten(1), nn.Linear(576, 10))
opt = torch.optim.Adam(model.parameters(), lr=0.001, betas=(0.9, 0.999), eps=1e-8)
model.train()
for i in range(STEPS):
    t0 = time.perf_counter()
    samples = torch.randint(0, X.shape[0], (BS,))
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(X[samples].float()), Y[samples])
    loss.backward()
    opt.step()
    loss = loss.item()
    print(f"step {i} {(time.perf_counter() - t0) * 1000:.1f} ms loss {loss:.3f}")

model.eval()
X_test = torch.randint(0, 256, (10000, 1, 28, 28), dtype=torch.uint8)
Y_test = torch.randint(0, 10, (10000,))
for i in range(int(os.environ.get("EVALS", 0))):
    t0 = time.perf_counter()
    with torch.no_grad():
        acc = (model(X_test.float()).argmax(1) == Y_test).float().mean().item() * 100
    print(f"eval {i} {(time.perf_counter() - t0) * 1000:.1f} ms accuracy {acc:.2f}")
