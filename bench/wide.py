#!/usr/bin/python3
"""The wide table of tiny/internal/suite (every op family on shapes users meet), timed in NumPy and
PyTorch, for side-by-side comparison with tiny's BenchmarkWide in one run (bench/wide_compare).

  /usr/bin/python3 bench/wide.py [--runs 7] [--warm 0] [--only NAME] [--json out.json]

Every row: 2 untimed warm-up calls (and more until --warm seconds have passed, as BenchmarkWide's
-warm), then RUNS timed calls; prints the median and min-max in ms,
and records the median CPU time of a call (process_time, all threads) beside it.
NumPy runs elementwise ops, reductions and scans on one thread and matmuls on OpenBLAS's threads
(2 here); PyTorch is set to 2 threads. NumPy has no conv2d: the row is what a NumPy user writes
(sliding_window_view and tensordot), and the pools reshape into 2x2 windows.
"""
import argparse, json, time
import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("--runs", type=int, default=7)
ap.add_argument("--warm", type=float, default=0)
ap.add_argument("--only", default="")
ap.add_argument("--json", default="")
args = ap.parse_args()
rng = np.random.default_rng(0)


def f32(*shape): return rng.random(shape, dtype=np.float32)


def want(name): return not args.only or args.only == name


def log_softmax(x):
    m = x.max(axis=1, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=1, keepdims=True))


def bilinear2x(x):
    """Doubles the last two axes as torch's bilinear, align_corners=False: each axis blends two taps."""
    h = x.shape[-1]
    f = np.clip((np.arange(2 * h) + 0.5) / 2 - 0.5, 0, h - 1)
    lo, hi = np.floor(f).astype(np.intp), np.ceil(f).astype(np.intp)
    w = (f - lo).astype(np.float32)
    r = x[:, :, lo, :] * (1 - w)[:, None] + x[:, :, hi, :] * w[:, None]
    return r[:, :, :, lo] * (1 - w) + r[:, :, :, hi] * w


def conv2d(x, w):
    win = np.lib.stride_tricks.sliding_window_view(x, (3, 3), axis=(2, 3))  # (b, cin, 26, 26, 3, 3)
    return np.ascontiguousarray(np.tensordot(win, w, axes=([1, 4, 5], [1, 2, 3])).transpose(0, 3, 1, 2))


X = f32(4096, 4096)
S, S2 = f32(4096, 1024), f32(4096, 1024)
bias = f32(1024)
Y = f32(64, 256, 256)
Q, K = f32(64, 128, 64), f32(64, 64, 128)
B1, B2 = f32(16, 256, 256), f32(16, 256, 256)
L1, L2 = f32(96, 1024), f32(1024, 8192)
LW = f32(8192, 1024)
gidx = rng.integers(0, 1024, (4096, 64))
table, eidx = f32(16384, 256), rng.integers(0, 16384, 4096)
G = f32(4096, 64)
R = f32(2048, 512)
cls = rng.integers(0, 1024, 4096)
MA, MB = f32(1024, 1024), f32(1024, 1024)
AQ, AK, AV = f32(8, 8, 256, 64), f32(8, 8, 256, 64), f32(8, 8, 256, 64)


def layernorm(x):
    m = x.mean(axis=1, keepdims=True)
    return (x - m) / np.sqrt(x.var(axis=1, keepdims=True) + np.float32(1e-5))


def logsumexp(x):
    m = x.max(axis=1, keepdims=True)
    return (m + np.log(np.exp(x - m).sum(axis=1, keepdims=True)))[:, 0]


def cross_entropy(x, c):
    return -log_softmax(x)[np.arange(len(c)), c].mean()


def attention(q, k, v):
    s = q @ k.transpose(0, 1, 3, 2) / np.float32(8)
    s = np.exp(s - s.max(axis=-1, keepdims=True))
    return (s / s.sum(axis=-1, keepdims=True)) @ v


def scatter_rows():
    y = S.copy()
    np.put_along_axis(y, gidx, G, axis=1)
    return y


cx, cw = f32(32, 32, 28, 28), f32(64, 32, 3, 3)
P = f32(64, 64, 56, 56)
Z = f32(64, 128, 256)
ohidx = rng.integers(0, 1000, 4096)
IX = f32(32, 64, 28, 28)
c = np.float32(np.sqrt(2 / np.pi))

ROWS = {
    "gelu": lambda: 0.5 * S * (1 + np.tanh(c * (S + np.float32(0.044715) * S * S * S))),
    "add_bias": lambda: S + bias,
    "sum_axis0": lambda: X.sum(axis=0),
    "sum_mid": lambda: Y.sum(axis=1),
    "max_axis1": lambda: S.max(axis=1),
    "var_rows": lambda: S.var(axis=1, ddof=1),
    "mean_all": lambda: X.mean(),
    "argmax_rows": lambda: S.argmax(axis=1),
    "argmin_rows": lambda: S.argmin(axis=1),
    "argmax_cols": lambda: S.argmax(axis=0),
    "cumsum_rows": lambda: np.cumsum(S, axis=1),
    "cumsum_cols": lambda: np.cumsum(S, axis=0),
    "logcumsumexp_rows": lambda: np.logaddexp.accumulate(S, axis=1),
    "cummax_rows": lambda: np.maximum.accumulate(S, axis=1),
    "bmm_attn": lambda: Q @ K,
    "bmm_256": lambda: B1 @ B2,
    "linear_wide": lambda: L1 @ L2,
    "matmul_nt": lambda: MA @ MB.T,
    "linear_nt": lambda: L1 @ LW.T,
    "attention": lambda: attention(AQ, AK, AV),
    "log_softmax": lambda: log_softmax(S),
    "logsumexp_rows": lambda: logsumexp(S),
    "layernorm": lambda: layernorm(S),
    "cross_entropy": lambda: cross_entropy(S, cls),
    "gather_rows": lambda: np.take_along_axis(S, gidx, axis=1),
    "scatter_rows": scatter_rows,
    "embedding": lambda: table[eidx],
    "conv2d": lambda: conv2d(cx, cw),
    "maxpool": lambda: P.reshape(64, 64, 28, 2, 28, 2).max(axis=(3, 5)),
    "avgpool": lambda: P.reshape(64, 64, 28, 2, 28, 2).mean(axis=(3, 5)),
    "cat": lambda: np.concatenate((S, S2), axis=1),
    "pad": lambda: np.pad(S, 1),
    "roll": lambda: np.roll(S, 1, axis=1),
    "repeat": lambda: np.tile(R, (2, 2)),
    "permute": lambda: np.ascontiguousarray(Z.transpose(0, 2, 1)),
    "flip": lambda: np.ascontiguousarray(S[:, ::-1]),
    "pow": lambda: S ** np.float32(2.5),
    "pow_frac": lambda: S ** np.float32(1.3),
    "sigmoid": lambda: 1 / (1 + np.exp(-S)),
    "softplus": lambda: np.logaddexp(np.float32(0), S),
    "clip": lambda: np.clip(S, np.float32(0.2), np.float32(0.8)),
    "floor": lambda: np.floor(S * np.float32(10)),
    "where_log": lambda: np.log(np.where(S > 0.5, S, np.float32(1))),
    "tril": lambda: np.tril(S),
    "one_hot": lambda: (ohidx[:, None] == np.arange(1000)).astype(np.int32),
    "interp_nearest": lambda: IX[:, :, (np.arange(56) // 2)[:, None], np.arange(56) // 2],
    "interp_bilinear": lambda: bilinear2x(IX),
}


def measure(fn):
    """Median, min and max wall ms, and the median CPU ms of the process (all its threads)."""
    t0, k = time.perf_counter(), 0
    while k < 2 or time.perf_counter() - t0 < args.warm:
        fn(); k += 1
    ts, cs = [], []
    for _ in range(args.runs):
        c, t = time.process_time(), time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t) * 1e3); cs.append((time.process_time() - c) * 1e3)
    ts.sort(); cs.sort()
    return ts[len(ts) // 2], ts[0], ts[-1], cs[len(cs) // 2]


out = {}
for name, fn in ROWS.items():
    if not want(name): continue
    med, lo, hi, cpu = measure(fn)
    out[name] = {"numpy_ms": med, "min": lo, "max": hi, "numpy_cpu_ms": cpu}
    print("%-12s numpy %.2f [%.2f-%.2f]" % (name, med, lo, hi))
try:
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(2)
    T = {k: torch.from_numpy(v) for k, v in dict(X=X, S=S, S2=S2, bias=bias, Y=Y, Q=Q, K=K, B1=B1, B2=B2, L1=L1, L2=L2, LW=LW,
                                                  MA=MA, MB=MB, AQ=AQ, AK=AK, AV=AV, table=table, G=G, R=R, cx=cx, cw=cw, P=P, Z=Z, IX=IX).items()}
    tg, te, toh = torch.from_numpy(gidx), torch.from_numpy(eidx), torch.from_numpy(ohidx)
    tcls = torch.from_numpy(cls)
    TROWS = {
        "gelu": lambda: F.gelu(T["S"], approximate="tanh"),
        "add_bias": lambda: T["S"] + T["bias"],
        "sum_axis0": lambda: T["X"].sum(0),
        "sum_mid": lambda: T["Y"].sum(1),
        "max_axis1": lambda: T["S"].amax(1),
        "var_rows": lambda: T["S"].var(1),
        "mean_all": lambda: T["X"].mean(),
        "argmax_rows": lambda: T["S"].argmax(1),
        "argmin_rows": lambda: T["S"].argmin(1),
        "argmax_cols": lambda: T["S"].argmax(0),
        "cumsum_rows": lambda: T["S"].cumsum(1),
        "cumsum_cols": lambda: T["S"].cumsum(0),
        "logcumsumexp_rows": lambda: torch.logcumsumexp(T["S"], 1),
        "cummax_rows": lambda: T["S"].cummax(1).values,
        "bmm_attn": lambda: T["Q"] @ T["K"],
        "bmm_256": lambda: T["B1"] @ T["B2"],
        "linear_wide": lambda: T["L1"] @ T["L2"],
        "matmul_nt": lambda: T["MA"] @ T["MB"].T,
        "linear_nt": lambda: T["L1"] @ T["LW"].T,
        "attention": lambda: torch.softmax(T["AQ"] @ T["AK"].transpose(-2, -1) / 8, -1) @ T["AV"],
        "log_softmax": lambda: torch.log_softmax(T["S"], 1),
        "logsumexp_rows": lambda: torch.logsumexp(T["S"], 1),
        "layernorm": lambda: F.layer_norm(T["S"], (1024,)),
        "cross_entropy": lambda: F.cross_entropy(T["S"], tcls),
        "gather_rows": lambda: T["S"].gather(1, tg),
        "scatter_rows": lambda: T["S"].scatter(1, tg, T["G"]),
        "embedding": lambda: T["table"][te],
        "conv2d": lambda: F.conv2d(T["cx"], T["cw"]),
        "maxpool": lambda: F.max_pool2d(T["P"], 2),
        "avgpool": lambda: F.avg_pool2d(T["P"], 2),
        "cat": lambda: torch.cat((T["S"], T["S2"]), 1),
        "pad": lambda: F.pad(T["S"], (1, 1, 1, 1)),
        "roll": lambda: torch.roll(T["S"], 1, 1),
        "repeat": lambda: T["R"].repeat(2, 2),
        "permute": lambda: T["Z"].permute(0, 2, 1).contiguous(),
        "flip": lambda: T["S"].flip(1),
        "pow": lambda: T["S"] ** 2.5,
        "pow_frac": lambda: T["S"] ** 1.3,
        "sigmoid": lambda: torch.sigmoid(T["S"]),
        "softplus": lambda: F.softplus(T["S"]),
        "clip": lambda: torch.clamp(T["S"], 0.2, 0.8),
        "floor": lambda: torch.floor(T["S"] * 10),
        "where_log": lambda: torch.log(torch.where(T["S"] > 0.5, T["S"], 1.0)),
        "tril": lambda: torch.tril(T["S"]),
        "one_hot": lambda: F.one_hot(toh, 1000),
        "interp_nearest": lambda: F.interpolate(T["IX"], (56, 56), mode="nearest"),
        "interp_bilinear": lambda: F.interpolate(T["IX"], (56, 56), mode="bilinear", align_corners=False),
    }
    with torch.no_grad():
        for name, fn in TROWS.items():
            if not want(name): continue
            med, lo, hi, cpu = measure(fn)
            out.setdefault(name, {})["torch_ms"] = med
            print("%-12s torch %.2f [%.2f-%.2f]" % (name, med, lo, hi))
except ImportError:
    pass
if args.json:
    json.dump(out, open(args.json, "w"), indent=1)
