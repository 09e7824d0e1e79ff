"""PyTorch's side of bench/conv_compare: beautiful_mnist's four conv layers
(batch 512), forward alone and forward+backward (weight, bias and, but for
the first layer, input gradients), median ms, on 2 threads. One JSON line
per layer, as bench/convbench prints."""

import json
import sys
import time

import torch
import torch.nn.functional as F

LAYERS = [(1, 32, 28, 5, False), (32, 32, 24, 5, True), (32, 64, 12, 3, True), (64, 64, 10, 3, True)]


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    only = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    torch.set_num_threads(2)
    torch.manual_seed(0)
    for i, (cin, cout, h, k, ingrad) in enumerate(LAYERS):
        if only and only != i + 1:
            continue
        o = h - k + 1
        x = torch.randn(512, cin, h, h, requires_grad=ingrad)
        w = (torch.randn(cout, cin, k, k) * 0.1).requires_grad_()
        b = torch.randn(cout, requires_grad=True)
        up = torch.randn(512, cout, o, o)

        def fwd():
            with torch.no_grad():
                F.conv2d(x, w, b)

        def both():
            y = F.conv2d(x, w, b)
            torch.autograd.grad((y * up).sum(), [w, b] + ([x] if ingrad else []))

        def med(f):
            for _ in range(2):
                f()
            ts, cs = [], []
            for _ in range(runs):
                t, c = time.perf_counter(), time.process_time()
                f()
                ts.append((time.perf_counter() - t) * 1e3)
                cs.append((time.process_time() - c) * 1e3)
            return sorted(ts)[len(ts) // 2], sorted(cs)[len(cs) // 2]

        (fw, fc), (bw, bc) = med(fwd), med(both)
        print(json.dumps({"device": "torch", "layer": i + 1, "fwd_ms": fw, "fwdbwd_ms": bw,
                          "fwd_cpu_ms": fc, "fwdbwd_cpu_ms": bc}), flush=True)


main()
