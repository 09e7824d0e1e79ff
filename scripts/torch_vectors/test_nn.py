"""tinygrad's test/test_nn.py and test/test_optim.py (at a2a4ff30) as tiny
programs: the layers (nn.Linear, Conv1d, Conv2d, ConvTranspose1d/2d,
BatchNorm, LayerNorm, LayerNorm2d, GroupNorm, InstanceNorm, RMSNorm,
Embedding, LSTMCell), load_state_dict, sparse_categorical_crossentropy and
batchnorm's axis, and the optimizers (SGD with momentum, nesterov and
weight_decay, Adam, AdamW) against torch, with tinygrad's layer arguments
and tolerances. Writes interp/testdata/torch/test_nn.json.gz.

Where tinygrad initializes a layer and copies its weights into torch, the
weights here are drawn in torch and assigned to the tiny layer (tinygrad's
norm tests do it that way round). Sizes: the layer arguments (channels,
kernel, stride, padding, dilation) are tinygrad's; the batch and the
spatial size of the large tests are cut (each place says so) to keep the
vectors under 2 MB; inputs are rounded to multiples of 1/64 so that they
compress. tinygrad loops its norm tests 10 times over fresh inputs; one
pass is kept, with the gradients of sum(out * upstream) for x, weight and
bias (tinygrad checks those of out.sum()).

Left out, and why:
- test_conv2d_winograd: skipped in tinygrad itself (WINO is a tinygrad
  compile option tiny has no counterpart of).
- test_embedding's TinyJit part and test_embedding_one_kernel: tinygrad's
  JIT and its scheduler's kernel count (tiny has a schedule cache, not a
  JIT, and its own scheduler).
- test_load_state_dict_sharded_*: multi-device sharding, which tiny lacks.
- test_lstm_cell_no_bias checks only that it runs and that the biases are
  None; here it is checked against torch's LSTMCell(bias=False) too.
- test_optim's test_mixed_precision: needs dtypes.default_float = half,
  which tiny has no switch for.
"""

import gzip
import os

import numpy as np
import torch
import torch.nn.functional as F

from common import OUT_DIR, Suite

s = Suite("test_nn", seed=1337)
IMP = '(fn () { import "nn" as nn; '


def q(t):
    """t rounded to multiples of 1/64: short in JSON, exact in float32."""
    return torch.round(t * 64) / 64


def randn(*shape):
    return q(torch.randn(*shape))


def uniform(*shape, low=-1.0, high=1.0):
    return q(torch.empty(*shape).uniform_(low, high))


# ---- test_sparse_cat_cross_entropy: every smoothing, ignore_index and
# reduction, without and with a batch axis of 1.
x = randn(6, 5)
y = torch.tensor([0, 0, 0, 1, 2, 3], dtype=torch.int32)
for smoothing in [0.0, 0.1, 0.5, 1.0]:
    for ignore_index in [-1, 0, 2]:
        for reduction in ["none", "sum", "mean"]:
            args = f"label_smoothing={smoothing}, ignore_index={ignore_index}, reduction=\"{reduction}\""
            loss = torch.nn.CrossEntropyLoss(reduction=reduction, label_smoothing=smoothing, ignore_index=ignore_index)
            s.add(f"sparse_cat_cross_entropy {smoothing} {ignore_index} {reduction}",
                  f"x.sparse_categorical_crossentropy(y, {args})", {"x": x, "y": y},
                  lambda x, y, loss=loss: loss(x, y.long()), grad=("x",), atol=1e-5, rtol=1e-6)
            s.add(f"sparse_cat_cross_entropy batch {smoothing} {ignore_index} {reduction}",
                  f"x.unsqueeze(0).sparse_categorical_crossentropy(y.unsqueeze(0), {args})", {"x": x, "y": y},
                  lambda x, y, loss=loss: loss(x.unsqueeze(0).permute(0, 2, 1), y.long().unsqueeze(0)),
                  grad=("x",), atol=1e-5, rtol=1e-6)


# ---- test_batchnorm2d/3d, training or not, with or without running stats.
def bn_torch(training, track, stats=False):
    # F.batch_norm with the weight and bias as inputs (so that torch's
    # gradients reach them); BatchNorm2d/3d in eval() with .training set, as
    # tinygrad's test, does the same.
    def f(x, w, b, rm=None, rv=None):
        rm = rm.clone() if track else None
        rv = rv.clone() if track else None
        out = F.batch_norm(x, rm, rv, w, b, training=training or not track, momentum=0.1, eps=1e-5)
        if stats:
            return [rm, rv]
        return out
    return f


for training in (False, True):
    for threed in (False, True):
        for track in (True, False):
            tag = f"batchnorm{'3d' if threed else '2d'}{' training' if training else ''}{'' if track else ' no_running_stats'}"
            for sz in [4, 8, 16, 32]:
                w, b = randn(sz), randn(sz)
                ins = {"x": randn(2, sz, 3, 3, 3) if threed else randn(2, sz, 3, 3), "w": w, "b": b}
                src = IMP + f"was = train({'true' if training else 'false'}); bn = nn.BatchNorm({sz}, eps=1e-5, " \
                    f"track_running_stats={'true' if track else 'false'}); bn.weight = w; bn.bias = b; "
                if track:
                    # tinygrad's test means to zero the negative running
                    # variances; here they are |randn| (at least 1/64): a
                    # variance of 0 scales torch's own rounding by 1/sqrt(eps)
                    ins["rm"], ins["rv"] = randn(sz), randn(sz).abs().clamp(min=1 / 64)
                    src += "bn.running_mean = rm.clone(); bn.running_var = rv.clone(); "
                s.add(f"{tag} {sz}", src + "out = bn(x); train(was); return out })()", ins, bn_torch(training, track),
                      grad=("x", "w", "b"), atol=1e-6, rtol=5e-4)
                if track and training:
                    # the running statistics after the step, within tinygrad's rtol 1e-5
                    s.add(f"{tag} {sz} running stats", src + "bn(x); r = [bn.running_mean, bn.running_var]; "
                          "train(was); return r })()", ins, bn_torch(training, track, stats=True), atol=1e-6, rtol=1e-5)

# ---- test_batchnorm_axis: statistics along axes (0, 2) of a 5-D tensor are
# those along axis 1 of the tensor with the two axes merged (tinygrad
# compares the two; here both are also checked against the formula).
x, w, b, mean, invstd = randn(2, 4, 3, 2, 2), randn(2, 3), randn(2, 3), randn(2, 3), randn(2, 3)


def bn_axis(x, w, b, mean, invstd):
    sh = (2, 1, 3, 1, 1)
    ref = (x - mean.reshape(sh)) * w.reshape(sh) * invstd.reshape(sh) + b.reshape(sh)
    ref = ref.permute(1, 0, 2, 3, 4).reshape(4, 6, 2, 2)
    return [ref, ref]


s.add("batchnorm_axis",
      "[x.batchnorm(w, b, mean, invstd, axis=(0, 2)).permute(1, 0, 2, 3, 4).reshape(4, 6, 2, 2), "
      "x.permute(1, 0, 2, 3, 4).reshape(4, 6, 2, 2).batchnorm(w.flatten(), b.flatten(), mean.flatten(), invstd.flatten())]",
      {"x": x, "w": w, "b": b, "mean": mean, "invstd": invstd}, bn_axis, grad=("x", "w", "b", "mean", "invstd"))

# ---- test_linear: (BS, in) and (BS, T, in).
BS, T, in_dim, out_dim = 4, 2, 8, 16
for name, xs in (("linear", (BS, in_dim)), ("linear more dims", (BS, T, in_dim))):
    s.add(name, IMP + f"l = nn.Linear({in_dim}, {out_dim}); l.weight = w; l.bias = b; return l(x) }})()",
          {"x": randn(*xs), "w": uniform(out_dim, in_dim, low=-0.35, high=0.35), "b": uniform(out_dim, low=-0.35, high=0.35)},
          lambda x, w, b: F.linear(x, w, b), atol=5e-4, rtol=1e-5)


# ---- convolutions: tinygrad checks the forward pass only.
def conv_case(name, ctor, xshape, wshape, fn):
    s.add(name, IMP + f"c = nn.{ctor}; c.weight = w; c.bias = b; return c(x) }})()",
          {"x": uniform(*xshape, low=0.0, high=1.0), "w": uniform(*wshape, low=-0.1, high=0.1),
           "b": uniform(wshape[0] if "Transpose" not in ctor else wshape[1], low=-0.1, high=0.1)},
          fn, atol=5e-4, rtol=1e-5)


# test_conv1d: tinygrad's shapes (BS 4, C1 16, W 56; C2 64, K 7, S 2, P 1).
conv_case("conv1d", "Conv1d(16, 64, kernel_size=7, stride=2, padding=1)", (4, 16, 56), (64, 16, 7),
          lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=1))
# test_conv2d: C1 16, C2 64, K 7, S 2, P 1 as tinygrad; batch 4 -> 1 and
# 56x56 -> 20x20 for the vectors' size.
conv_case("conv2d", "Conv2d(16, 64, kernel_size=7, stride=2, padding=1)", (1, 16, 20, 20), (64, 16, 7, 7),
          lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=1))
# test_conv1d_same_padding: tinygrad's shapes.
conv_case("conv1d_same_padding", "Conv1d(3, 16, kernel_size=3, stride=1, padding=\"same\")", (8, 3, 32), (16, 3, 3),
          lambda x, w, b: F.conv1d(x, w, b, padding="same"))
# test_conv2d_same_padding_*: C1, C2, K, D as tinygrad; batch 16 -> 1 and
# the image cut (kept odd/even as tinygrad's: 29x31 -> 9x11, 28x33 ->
# 12x13, 28x28 -> 10x10).
conv_case("conv2d_same_padding_odd_input", "Conv2d(16, 32, kernel_size=5, stride=1, padding=\"same\")",
          (1, 16, 9, 11), (32, 16, 5, 5), lambda x, w, b: F.conv2d(x, w, b, padding="same"))
conv_case("conv2d_same_padding_large_kernel", "Conv2d(16, 32, kernel_size=9, stride=1, padding=\"same\")",
          (1, 16, 12, 13), (32, 16, 9, 9), lambda x, w, b: F.conv2d(x, w, b, padding="same"))
conv_case("conv2d_same_padding_with_dilation", "Conv2d(3, 32, kernel_size=3, stride=1, padding=\"same\", dilation=3)",
          (1, 3, 10, 10), (32, 3, 3, 3), lambda x, w, b: F.conv2d(x, w, b, padding="same", dilation=3))
# An even kernel: torch puts the extra pixel after, as tinygrad's pad does.
conv_case("conv2d_same_padding_even_kernel", "Conv2d(3, 8, kernel_size=(2, 4), padding=\"same\")",
          (2, 3, 5, 6), (8, 3, 2, 4), lambda x, w, b: F.conv2d(x, w, b, padding="same"))
s.error("conv2d_same_padding_invalid_stride", IMP + "nn.Conv2d(16, 32, kernel_size=2, stride=2, padding=\"same\") })()",
        {}, "not supported for strided convolutions")
s.error("conv2d_same_padding_invalid_padding_str",
        IMP + "nn.Conv2d(16, 32, kernel_size=2, stride=1, padding=\"not_same\") })()", {}, "only 'same' is supported")
# test_conv_transpose1d: tinygrad's shapes but W 56 -> 16.
conv_case("conv_transpose1d", "ConvTranspose1d(16, 64, kernel_size=7, stride=2, padding=1)", (4, 16, 16), (16, 64, 7),
          lambda x, w, b: F.conv_transpose1d(x, w, b, stride=2, padding=1))
# test_conv_transpose2d: C1 16, C2 64, K 7, S 2, P 1; batch 4 -> 1 and
# 56x56 -> 6x6.
conv_case("conv_transpose2d", "ConvTranspose2d(16, 64, kernel_size=7, stride=2, padding=1)", (1, 16, 6, 6),
          (16, 64, 7, 7), lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1))


# ---- the norms, forward and backward with tinygrad's tolerances; batch
# 20 -> 2 (the norms' axes keep tinygrad's sizes).
def norm_case(name, ctor, xshape, wshape, fn, atol, rtol, gatol, grtol, bias=True):
    ins = {"x": randn(*xshape), "w": randn(*wshape)}
    src = IMP + f"l = nn.{ctor}; l.weight = w; "
    grad = ("x", "w")
    if bias:
        ins["b"] = randn(*wshape)
        src += "l.bias = b; "
        grad += ("b",)
    s.add(name, src + "return l(x) })()", ins, fn, grad=grad, atol=atol, rtol=rtol, gatol=gatol, grtol=grtol)


norm_case("groupnorm", "GroupNorm(3, 6)", (2, 6, 10, 10), (6,), lambda x, w, b: F.group_norm(x, 3, w, b),
          5e-6, 5e-6, 5e-4, 5e-4)
norm_case("layernorm", "LayerNorm([10, 10])", (2, 5, 10, 10), (10, 10),
          lambda x, w, b: F.layer_norm(x, (10, 10), w, b), 5e-6, 5e-6, 5e-4, 5e-4)
norm_case("layernorm_2d", "LayerNorm2d(5)", (2, 5, 10, 10), (5,),
          lambda x, w, b: F.layer_norm(x.permute(0, 2, 3, 1), (5,), w, b).permute(0, 3, 1, 2), 5e-6, 5e-6, 5e-4, 5e-4)
norm_case("instancenorm_2d", "InstanceNorm(10)", (2, 10, 10, 10), (10,),
          lambda x, w, b: F.instance_norm(x, weight=w, bias=b), 5e-6, 5e-6, 1e-3, 1e-3)
# instancenorm_3d: D, H, W 10 -> 6 for the vectors' size
norm_case("instancenorm_3d", "InstanceNorm(10)", (2, 10, 6, 6, 6), (10,),
          lambda x, w, b: F.instance_norm(x, weight=w, bias=b), 5e-6, 5e-6, 2e-3, 1e-3)

# Beyond tinygrad's tests: the norms and a conv on non-contiguous inputs
# (permuted and strided views), with gradients, and GroupNorm without affine.
s.add("layernorm permuted input", IMP + "l = nn.LayerNorm([10, 10]); l.weight = w; l.bias = b; "
      "return l(x.permute(0, 3, 1, 2)) })()", {"x": randn(2, 10, 10, 5), "w": randn(10, 10), "b": randn(10, 10)},
      lambda x, w, b: F.layer_norm(x.permute(0, 3, 1, 2), (10, 10), w, b), grad=("x", "w", "b"),
      atol=5e-6, rtol=5e-6, gatol=5e-4, grtol=5e-4)
s.add("instancenorm_2d strided input", IMP + "l = nn.InstanceNorm(4); l.weight = w; l.bias = b; "
      "return l(x[:, :, ::2, 1:]) })()", {"x": randn(2, 4, 8, 7), "w": randn(4), "b": randn(4)},
      lambda x, w, b: F.instance_norm(x[:, :, ::2, 1:], weight=w, bias=b), grad=("x", "w", "b"),
      atol=5e-6, rtol=5e-6, gatol=1e-3, grtol=1e-3)
s.add("groupnorm no affine", IMP + "return nn.GroupNorm(2, 4, affine=false)(x) })()", {"x": randn(3, 4, 5)},
      lambda x: F.group_norm(x, 2), grad=("x",), atol=5e-6, rtol=5e-6, gatol=5e-4, grtol=5e-4)
s.add("conv1d permuted input", IMP + "c = nn.Conv1d(3, 4, kernel_size=3, padding=1); c.weight = w; c.bias = b; "
      "return c(x.permute(0, 2, 1)) })()", {"x": randn(2, 9, 3), "w": randn(4, 3, 3), "b": randn(4)},
      lambda x, w, b: F.conv1d(x.permute(0, 2, 1), w, b, padding=1), grad=("x", "w", "b"), atol=5e-4, rtol=1e-5)


def rmsnorm(x, w, eps=1e-6):
    # llama's RMSNorm, as tinygrad's test writes it
    return (x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + eps)).type_as(x) * w


norm_case("rmsnorm", "RMSNorm(20)", (4, 10, 20), (20,), rmsnorm, 5e-6, 5e-6, 2e-3, 1e-3, bias=False)


# ---- test_embedding: (B, T) and empty (B, 0) indices; test_embedding_shape:
# indices of rank 0 to 4.
def emb(w, i):
    return F.embedding(i.long(), w)


B, T, embed_size, vocab_size = 4, 10, 20, 28
ew = uniform(vocab_size, embed_size, low=-0.4, high=0.4)
for name, idx in (("embedding", torch.randint(0, vocab_size, (B, T), dtype=torch.int32)),
                  ("embedding empty", torch.randint(0, vocab_size, (B, 0), dtype=torch.int32))):
    s.add(name, IMP + f"e = nn.Embedding({vocab_size}, {embed_size}); e.weight = w; return e(i) }})()",
          {"w": ew, "i": idx}, emb, grad=("w",), atol=1e-8, rtol=1e-8)
sw = uniform(10, 16, low=-0.5, high=0.5)
for rank in range(5):
    shp = (1,) * rank
    s.add(f"embedding_shape rank {rank}", IMP + f"e = nn.Embedding(10, 16); e.weight = w; return e(i) }})()",
          {"w": sw, "i": torch.tensor([3], dtype=torch.int32).reshape(shp)}, emb, atol=1e-8, rtol=1e-8)

# ---- test_load_state_dict and its shape mismatch.
s.add("load_state_dict", IMP + "l = nn.Conv2d(3, 5, kernel_size=3); nn.state.load_state_dict(l, {\"weight\": w, \"bias\": b}); "
      "return [l.weight, l.bias] })()", {"w": randn(5, 3, 3, 3), "b": randn(5)}, lambda w, b: [w, b])
s.error("load_state_dict_shape_mismatch", IMP + "l = nn.Linear(2, 2, bias=false); "
        "nn.state.load_state_dict(l, {\"weight\": w}) })()", {"w": randn(4, 4)},
        "Shape mismatch in layer `weight`: Expected shape (2, 2), but found (4, 4) in state dict.")


# ---- test_lstm_cell: two steps, the second from the first's (h, c).
def lstm(bias):
    def f(x, wih, whh, bih=None, bhh=None, h=None, c=None):
        cell = torch.nn.LSTMCell(32, 16, bias=bias)
        with torch.no_grad():
            cell.weight_ih[:] = wih
            cell.weight_hh[:] = whh
            if bias:
                cell.bias_ih[:] = bih
                cell.bias_hh[:] = bhh
        h1, c1 = cell(x) if h is None else cell(x, (h, c))
        h2, c2 = cell(x, (h1, c1))
        return [h1, c1, h2, c2]
    return f


lstm_w = {"x": randn(1, 32), "wih": uniform(64, 32, low=-0.25, high=0.25), "whh": uniform(64, 16, low=-0.25, high=0.25)}
s.add("lstm_cell", IMP + "l = nn.LSTMCell(32, 16); l.weight_ih.assign(wih); l.weight_hh.assign(whh); "
      "l.bias_ih.assign(bih); l.bias_hh.assign(bhh); a = l(x); b = l(x, a); return [a[0], a[1], b[0], b[1]] })()",
      dict(lstm_w, bih=uniform(64, low=-0.25, high=0.25), bhh=uniform(64, low=-0.25, high=0.25)), lstm(True), atol=1e-6)
s.add("lstm_cell_no_bias", IMP + "l = nn.LSTMCell(32, 16, bias=false); if l.bias_ih != none or l.bias_hh != none "
      "{ error(\"biases\") }; l.weight_ih.assign(wih); l.weight_hh.assign(whh); a = l(x, (h, c)); b = l(x, a); "
      "return [a[0], a[1], b[0], b[1]] })()", dict(lstm_w, h=randn(1, 16), c=randn(1, 16)), lstm(False), atol=1e-6)

# ---- test_optim: TinyNet (x @ W, relu, log_softmax, * m + m, sum) and
# TeenyNet ((x * W).sum()) with tinygrad's seed-1337 initial values.
np.random.seed(1337)
x_init = torch.tensor(np.random.randn(1, 4).astype(np.float32))
W_init = torch.tensor(np.random.randn(4, 4).astype(np.float32))
m_init = torch.tensor(np.random.randn(1, 4).astype(np.float32))

TINY_FWD = "(px.matmul(pw).relu().log_softmax(1) * m + m).sum()"
TEENY_FWD = "(px * pw).sum()"
TORCH_OPT = {"SGD": torch.optim.SGD, "Adam": torch.optim.Adam, "AdamW": torch.optim.AdamW}


def torch_steps(opt, steps, teeny, kw):
    def f(x, W, m):
        x, W = x.detach().clone().requires_grad_(True), W.detach().clone().requires_grad_(True)
        o = TORCH_OPT[opt]([x, W], **kw)
        for _ in range(steps):
            out = (x * W).sum() if teeny else (x.matmul(W).relu().log_softmax(1) * m + m).sum()
            o.zero_grad()
            out.backward()
            o.step()
        return [x.detach(), W.detach()]
    return f


def tiny_kw(kw):
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in kw.items())


def optim_case(name, opt, steps, kw, atol, rtol, teeny=False):
    src = IMP + f"was = train(); px = x.clone(); pw = W.clone(); o = nn.optim.{opt}([px, pw], {tiny_kw(kw)}); " \
        f"for i in range({steps}) {{ out = {TEENY_FWD if teeny else TINY_FWD}; o.zero_grad(); out.backward(); o.step() }}; " \
        "train(was); return [px, pw] })()"
    s.add(name, src, {"x": x_init, "W": W_init, "m": m_init}, torch_steps(opt, steps, teeny, kw), atol=atol, rtol=rtol)


optim_case("multistep_sgd_high_lr_teeny", "SGD", 2, {"lr": 1.1}, 1e-6, 1e-5, teeny=True)
optim_case("multistep_adam_high_lr_teeny", "Adam", 2, {"lr": 1.1}, 2e-4, 5e-4, teeny=True)
optim_case("sgd", "SGD", 1, {"lr": 0.001}, 1e-6, 0)
optim_case("sgd_high_lr", "SGD", 1, {"lr": 10}, 1e-6, 1e-5)
optim_case("sgd_wd", "SGD", 1, {"lr": 0.001, "weight_decay": 0.1}, 1e-6, 0)
optim_case("sgd_high_lr_wd", "SGD", 1, {"lr": 10, "weight_decay": 0.1}, 1e-6, 1e-5)
optim_case("multistep_sgd", "SGD", 10, {"lr": 0.001}, 1e-6, 0)
optim_case("multistep_sgd_high_lr", "SGD", 10, {"lr": 10}, 1e-6, 3e-4)
optim_case("multistep_sgd_wd", "SGD", 10, {"lr": 0.001, "weight_decay": 0.1}, 1e-6, 0)
optim_case("multistep_sgd_high_lr_wd", "SGD", 10, {"lr": 9, "weight_decay": 0.1}, 1e-6, 3e-4)
optim_case("multistep_sgd_momentum", "SGD", 10, {"lr": 0.001, "momentum": 0.9}, 1e-6, 0)
optim_case("multistep_sgd_high_lr_momentum", "SGD", 10, {"lr": 10, "momentum": 0.9}, 1e-5, 3e-4)
optim_case("multistep_sgd_momentum_wd", "SGD", 10, {"lr": 0.001, "momentum": 0.9, "weight_decay": 0.1}, 1e-6, 0)
optim_case("multistep_sgd_high_lr_momentum_wd", "SGD", 10, {"lr": 10, "momentum": 0.9, "weight_decay": 0.1}, 1e-5, 3e-4)
optim_case("multistep_sgd_nesterov_momentum", "SGD", 10, {"lr": 0.001, "momentum": 0.9, "nesterov": True}, 1e-5, 0)
optim_case("multistep_sgd_high_lr_nesterov_momentum", "SGD", 10, {"lr": 10, "momentum": 0.9, "nesterov": True}, 1e-5, 3e-4)
optim_case("multistep_sgd_nesterov_momentum_wd", "SGD", 10,
           {"lr": 0.001, "momentum": 0.9, "nesterov": True, "weight_decay": 0.1}, 1e-5, 0)
optim_case("multistep_sgd_high_lr_nesterov_momentum_wd", "SGD", 10,
           {"lr": 9, "momentum": 0.9, "nesterov": True, "weight_decay": 0.1}, 1e-5, 3e-4)
optim_case("adam", "Adam", 1, {"lr": 0.001}, 1e-5, 0)
optim_case("adam_high_lr", "Adam", 1, {"lr": 10}, 1e-4, 1e-4)
optim_case("adamw", "AdamW", 1, {"lr": 0.001}, 1e-5, 0)
optim_case("adamw_high_lr", "AdamW", 1, {"lr": 10}, 1e-4, 1e-4)
optim_case("multistep_adam", "Adam", 10, {"lr": 0.001}, 1e-5, 0)
optim_case("multistep_adam_high_lr", "Adam", 10, {"lr": 10}, 2e-3, 5e-4)
optim_case("multistep_adamw", "AdamW", 10, {"lr": 0.001}, 1e-5, 0)
optim_case("multistep_adamw_high_lr", "AdamW", 10, {"lr": 10}, 5e-4, 2e-3)


# test_duped_weights: a parameter listed twice is updated once (the last
# loss is that of the optimizer given it once).
def dup_losses(x):
    out = []
    for opt in (torch.optim.Adam, torch.optim.AdamW, torch.optim.SGD):
        w = x.detach().clone().requires_grad_(True)
        o = opt([w], lr=0.1)
        for _ in range(3):
            loss = w.sum()
            o.zero_grad()
            loss.backward()
            o.step()
        out.append(loss.detach())
    return out


s.add("duped_weights", IMP + "was = train(); r = []; for opt in (nn.optim.Adam, nn.optim.AdamW, nn.optim.SGD) { "
      "for twice in (false, true) { w = x.clone(); ps = [w]; if twice { ps = [w, w] }; o = opt(ps, lr=0.1); for i in range(3) { "
      "loss = w.sum(); o.zero_grad(); loss.backward(); o.step() }; if twice { r.append(loss) } } }; train(was); return r })()",
      {"x": x_init}, dup_losses, atol=1e-4, rtol=0)
s.error("assert_tensor_train", IMP + "t = ones((1, 1), requires_grad=true); o = nn.optim.Adam([t]); o.zero_grad(); "
        "was = train(false); t.sum().backward(); o.step() })()", {}, "call train()")

s.write()
# gzip: the Go test reads test_nn.json.gz
path = os.path.join(OUT_DIR, "test_nn.json")
with open(path, "rb") as f, gzip.open(path + ".gz", "wb", compresslevel=9) as g:
    g.write(f.read())
os.remove(path)
print(path + ".gz:", os.path.getsize(path + ".gz"), "bytes")
