"""Writes grad_vectors.json: gradients of a small MLP's softmax cross-entropy
loss, computed once by PyTorch in float64, for tensor/grad_test.go.

Run from this directory with /usr/bin/python3 (torch 1.13):
    python3 grad_vectors.py > grad_vectors.json
"""
import json

import torch

torch.manual_seed(7)
x = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
w1 = torch.randn(3, 5, dtype=torch.float64, requires_grad=True)
b1 = torch.randn(5, dtype=torch.float64, requires_grad=True)
w2 = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
b2 = torch.randn(3, dtype=torch.float64, requires_grad=True)
labels = torch.tensor([0, 2, 1, 2])

h = torch.relu(x @ w1 + b1)
logits = h @ w2 + b2
loss = torch.nn.functional.cross_entropy(logits, labels)
loss.backward()

params = {"x": x, "w1": w1, "b1": b1, "w2": w2, "b2": b2}
out = {
    "loss_expr": "cross_entropy(relu(x @ w1 + b1) @ w2 + b2, labels), mean over rows",
    "torch": torch.__version__,
    "labels": labels.tolist(),
    "loss": loss.item(),
    "inputs": {k: {"shape": list(v.shape), "data": v.detach().flatten().tolist()} for k, v in params.items()},
    "grads": {k: v.grad.flatten().tolist() for k, v in params.items()},
}
print(json.dumps(out, indent=1))
