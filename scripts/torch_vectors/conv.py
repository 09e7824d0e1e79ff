"""Convolution and pooling: conv2d (1d/2d/3d through one op), conv_transpose2d,
max_pool2d, avg_pool2d and interpolate, forward and gradients."""

import torch
import torch.nn.functional as F

from common import Suite

s = Suite("conv")
r = torch.randn
G = {"gatol": 1e-4, "grtol": 1e-3}


def conv(name, xs, ws, bias=True, grad=True, **kw):
    """A conv2d case; kw are the same keywords in tiny and torch (padding as
    an int or a tuple of one per axis)."""
    args = "".join(f", {k}={tiny(v)}" for k, v in kw.items())
    inputs = {"x": r(*xs), "w": r(*ws)}
    if bias:
        inputs["b"] = r(ws[0])
    fn = {3: F.conv1d, 4: F.conv2d, 5: F.conv3d}[len(xs)]
    src = f"x.conv2d(w{', b' if bias else ''}{args})"
    s.add(name, src, inputs, lambda x, w, b=None: fn(x, w, b, **kw),
          grad=("x", "w", "b") if bias else ("x", "w"), **G)


def tiny(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, tuple):
        return "(" + ", ".join(tiny(e) for e in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, list):
        return "[" + ", ".join(tiny(e) for e in v) + "]"
    if v is None:
        return "none"
    if isinstance(v, str):
        return '"' + v + '"'
    return str(v)


conv("conv2d_basic", (2, 3, 7, 6), (4, 3, 3, 3))
conv("conv2d_nobias", (1, 2, 5, 5), (3, 2, 2, 2), bias=False)
conv("conv2d_stride2", (2, 3, 9, 8), (4, 3, 3, 3), stride=2)
conv("conv2d_stride_tuple", (2, 2, 9, 8), (3, 2, 3, 2), stride=(2, 3))
conv("conv2d_pad1", (2, 3, 6, 6), (4, 3, 3, 3), padding=1)
conv("conv2d_pad_tuple", (1, 2, 5, 6), (3, 2, 3, 3), padding=(2, 1))
conv("conv2d_dilation2", (2, 2, 9, 9), (3, 2, 3, 3), dilation=2)
conv("conv2d_dilation_tuple", (1, 2, 9, 10), (2, 2, 2, 3), dilation=(3, 2), padding=1)
conv("conv2d_groups2", (2, 4, 6, 6), (6, 2, 3, 3), groups=2)
conv("conv2d_depthwise", (2, 3, 6, 5), (3, 1, 3, 3), groups=3, padding=1)
conv("conv2d_all", (2, 4, 11, 10), (4, 2, 3, 2), groups=2, stride=(2, 1), dilation=(1, 2), padding=(1, 2))
conv("conv2d_1x1", (2, 5, 4, 4), (3, 5, 1, 1))
conv("conv2d_stride_gt_kernel", (1, 2, 9, 9), (2, 2, 2, 2), stride=3)
conv("conv2d_kernel_eq_input", (2, 2, 3, 3), (2, 2, 3, 3))
conv("conv2d_mnist_like", (4, 1, 12, 12), (8, 1, 5, 5))
conv("conv1d", (2, 3, 10), (4, 3, 3))
conv("conv1d_stride_dil_pad", (2, 2, 13), (3, 2, 3), stride=2, dilation=2, padding=2)
conv("conv3d", (1, 2, 5, 4, 6), (3, 2, 2, 3, 2))
conv("conv3d_pad_stride", (1, 2, 5, 5, 5), (2, 2, 3, 3, 3), padding=1, stride=2)

# padding as a flat per-side list (left, right, top, bottom), tinygrad style
x, w, b = r(2, 2, 5, 6), r(3, 2, 3, 3), r(3)
s.add("conv2d_pad_per_side", "x.conv2d(w, b, padding=[1, 2, 0, 1])", {"x": x, "w": w, "b": b},
      lambda x, w, b: F.conv2d(F.pad(x, (1, 2, 0, 1)), w, b), grad=("x", "w", "b"), **G)
s.add("conv2d_pad_negative", "x.conv2d(w, padding=[-1, 1, 0, 0])", {"x": r(1, 2, 5, 6), "w": r(2, 2, 3, 3)},
      lambda x, w: F.conv2d(F.pad(x, (-1, 1, 0, 0)), w), grad=("x", "w"), **G)
# non-contiguous input and weight
s.add("conv2d_permuted_input", "x.permute(0, 3, 1, 2).conv2d(w.transpose(0, 1), padding=1)",
      {"x": r(2, 6, 5, 3), "w": r(3, 4, 3, 3)},
      lambda x, w: F.conv2d(x.permute(0, 3, 1, 2), w.transpose(0, 1), padding=1), grad=("x", "w"), **G)
s.add("conv2d_sliced_input", "x[:, :, 1:, ::2].conv2d(w)", {"x": r(2, 2, 7, 12), "w": r(3, 2, 2, 3)},
      lambda x, w: F.conv2d(x[:, :, 1:, ::2], w), grad=("x", "w"), **G)
s.add("conv2d_relu_chain", "x.conv2d(w, b).relu().conv2d(w2).sum(axis=1)",
      {"x": r(2, 1, 10, 10), "w": r(4, 1, 3, 3), "b": r(4), "w2": r(2, 4, 3, 3)},
      lambda x, w, b, w2: F.conv2d(F.conv2d(x, w, b).relu(), w2).sum(1), grad=("x", "w", "b", "w2"), **G)
s.add("conv2d_empty_batch", "x.conv2d(w)", {"x": r(0, 2, 5, 5), "w": r(3, 2, 3, 3)},
      lambda x, w: F.conv2d(x, w), grad=("w",))

s.error("conv2d_channel_mismatch", "x.conv2d(w)", {"x": r(1, 3, 5, 5), "w": r(2, 2, 3, 3)}, "does not match")
s.error("conv2d_rank_mismatch", "x.conv2d(w)", {"x": r(1, 3, 5), "w": r(2, 3, 3, 3)}, "does not match")
s.error("conv2d_kernel_too_big", "x.conv2d(w)", {"x": r(1, 1, 2, 2), "w": r(1, 1, 3, 3)}, "kernel size")
s.error("conv2d_bad_padding_len", "x.conv2d(w, padding=(1, 1, 1))", {"x": r(1, 1, 5, 5), "w": r(1, 1, 3, 3)},
        "padding")
s.error("conv2d_groups_mismatch", "x.conv2d(w, groups=2)", {"x": r(1, 3, 5, 5), "w": r(2, 3, 3, 3)},
        "does not match")


def convt(name, xs, ws, bias=True, **kw):
    args = "".join(f", {k}={tiny(v)}" for k, v in kw.items())
    inputs = {"x": r(*xs), "w": r(*ws)}
    if bias:
        inputs["b"] = r(ws[1] * kw.get("groups", 1))
    fn = {3: F.conv_transpose1d, 4: F.conv_transpose2d, 5: F.conv_transpose3d}[len(xs)]
    src = f"x.conv_transpose2d(w{', b' if bias else ''}{args})"
    s.add(name, src, inputs, lambda x, w, b=None: fn(x, w, b, **kw),
          grad=("x", "w", "b") if bias else ("x", "w"), **G)


convt("conv_transpose2d_basic", (2, 3, 4, 5), (3, 2, 3, 3))
convt("conv_transpose2d_nobias", (1, 2, 4, 4), (2, 3, 2, 2), bias=False)
convt("conv_transpose2d_stride2", (2, 2, 4, 3), (2, 3, 3, 3), stride=2)
convt("conv_transpose2d_stride_pad", (2, 2, 5, 4), (2, 2, 3, 3), stride=2, padding=1)
convt("conv_transpose2d_output_padding", (1, 2, 4, 4), (2, 3, 3, 3), stride=2, padding=1, output_padding=1)
convt("conv_transpose2d_dilation", (1, 2, 4, 5), (2, 2, 3, 2), dilation=2)
convt("conv_transpose2d_groups", (2, 4, 3, 3), (4, 2, 3, 3), groups=2, stride=2)
convt("conv_transpose2d_big_padding", (1, 2, 6, 6), (2, 2, 3, 3), padding=3)
convt("conv_transpose2d_tuples", (1, 2, 5, 4), (2, 3, 3, 2), stride=(2, 3), padding=(1, 0), dilation=(1, 2),
      output_padding=(1, 2))
convt("conv_transpose1d", (2, 3, 6), (3, 2, 3), stride=2)
convt("conv_transpose3d", (1, 2, 3, 3, 2), (2, 2, 2, 2, 2), stride=2)


def pool(name, kind, xs, x=None, **kw):
    args = ", ".join(f"{k}={tiny(v)}" for k, v in kw.items())
    xin = x if x is not None else r(*xs)
    tkw = dict(kw)
    if "kernel_size" not in tkw:
        tkw["kernel_size"] = 2
    ks = tkw["kernel_size"]
    nk = 2 + len(ks) if isinstance(ks, tuple) else 4
    fn = {"max": {3: F.max_pool1d, 4: F.max_pool2d, 5: F.max_pool3d},
          "avg": {3: F.avg_pool1d, 4: F.avg_pool2d, 5: F.avg_pool3d}}[kind][nk]
    if kind == "avg":
        tkw.pop("dilation", None)
    s.add(name, f"x.{kind}_pool2d({args})", {"x": xin}, lambda x: fn(x, **tkw), grad=("x",), **G)


pool("max_pool2d_default", "max", (2, 3, 6, 8))
pool("max_pool2d_odd", "max", (2, 2, 7, 5))
pool("max_pool2d_k3", "max", (1, 2, 9, 9), kernel_size=3)
pool("max_pool2d_k3_s1", "max", (1, 2, 6, 7), kernel_size=3, stride=1)
pool("max_pool2d_k3_s2_p1", "max", (2, 2, 7, 8), kernel_size=3, stride=2, padding=1)
pool("max_pool2d_tuple", "max", (1, 2, 9, 8), kernel_size=(3, 2), stride=(2, 1), padding=(1, 1))
pool("max_pool2d_dilation", "max", (1, 2, 9, 9), kernel_size=3, stride=1, dilation=2)
pool("max_pool2d_dilation_tuple", "max", (1, 1, 10, 11), kernel_size=(2, 3), stride=(1, 2), dilation=(3, 2))
pool("max_pool2d_ceil", "max", (2, 2, 7, 7), kernel_size=2, ceil_mode=True)
pool("max_pool2d_ceil_k3_s2", "max", (1, 2, 8, 9), kernel_size=3, stride=2, ceil_mode=True)
pool("max_pool2d_ceil_pad", "max", (1, 2, 8, 10), kernel_size=3, stride=2, padding=1, ceil_mode=True)
pool("max_pool2d_stride_gt_kernel", "max", (1, 2, 10, 10), kernel_size=2, stride=3)
pool("max_pool2d_3d_input", "max", (3, 6, 8))
pool("max_pool1d", "max", (2, 3, 10), kernel_size=(3,), stride=(2,))
pool("max_pool3d", "max", (1, 2, 4, 6, 4), kernel_size=(2, 2, 2))
pool("max_pool2d_negative", "max", (1, 2, 4, 4), x=-r(1, 2, 4, 4).abs() - 1, kernel_size=3, stride=1, padding=1)
s.add("max_pool2d_permuted", "x.permute(0, 3, 1, 2).max_pool2d()", {"x": r(2, 6, 4, 3)},
      lambda x: F.max_pool2d(x.permute(0, 3, 1, 2), 2), grad=("x",), **G)
s.add("max_pool2d_int", "x.max_pool2d()", {"x": torch.randint(-50, 50, (1, 2, 4, 6), dtype=torch.int32)},
      lambda x: F.max_pool2d(x.double(), 2).int())

pool("avg_pool2d_default", "avg", (2, 3, 6, 8))
pool("avg_pool2d_k3_s1", "avg", (1, 2, 6, 7), kernel_size=3, stride=1)
pool("avg_pool2d_pad", "avg", (1, 2, 7, 7), kernel_size=3, stride=2, padding=1)
pool("avg_pool2d_pad_exclude", "avg", (1, 2, 7, 7), kernel_size=3, stride=2, padding=1, count_include_pad=False)
pool("avg_pool2d_ceil", "avg", (1, 2, 7, 7), kernel_size=2, ceil_mode=True)
pool("avg_pool2d_ceil_pad", "avg", (1, 2, 8, 9), kernel_size=3, stride=2, padding=1, ceil_mode=True)
pool("avg_pool2d_ceil_pad_exclude", "avg", (1, 2, 8, 9), kernel_size=3, stride=2, padding=1, ceil_mode=True,
     count_include_pad=False)
pool("avg_pool2d_tuple", "avg", (2, 1, 9, 8), kernel_size=(3, 2), stride=(2, 1))
pool("avg_pool1d", "avg", (2, 3, 10), kernel_size=(3,), stride=(2,))
pool("avg_pool3d", "avg", (1, 2, 4, 6, 4), kernel_size=(2, 2, 2))
s.add("avg_pool2d_dilation", "x.avg_pool2d(kernel_size=2, stride=1, dilation=2)", {"x": r(1, 2, 6, 6)},
      lambda x: torch.stack([x[:, :, i:i + 3:2, j:j + 3:2].mean((-1, -2)) for i in range(4) for j in range(4)], -1)
      .reshape(1, 2, 4, 4), grad=("x",), **G)
s.error("max_pool2d_kernel_too_big", "x.max_pool2d(kernel_size=5)", {"x": r(1, 1, 3, 3)}, "kernel size")


def interp(name, xs, size, mode, align=None, x=None, grad=True):
    xin = x if x is not None else r(*xs)
    args = f"size={tiny(size)}, mode={tiny(mode)}" + ("" if align is None else f", align_corners={tiny(align)}")
    tmode = {"linear": {1: "linear", 2: "bilinear", 3: "trilinear"}[len(size)]}.get(mode, mode)
    kw = {} if align is None else {"align_corners": align}
    s.add(name, f"x.interpolate({args})", {"x": xin},
          lambda x: F.interpolate(x, size=size, mode=tmode, **kw), grad=("x",) if grad else (), **G)


interp("interpolate_linear_up", (2, 3, 5), (9,), "linear")
interp("interpolate_linear_down", (2, 3, 9), (4,), "linear")
interp("interpolate_linear_align", (2, 3, 5), (8,), "linear", align=True)
interp("interpolate_linear_align_down", (1, 2, 9), (4,), "linear", align=True)
interp("interpolate_linear_to_1_align", (1, 2, 5), (1,), "linear", align=True)
interp("interpolate_bilinear", (2, 2, 4, 5), (7, 3), "bilinear")
interp("interpolate_bilinear_align", (1, 2, 4, 5), (6, 9), "bilinear", align=True)
interp("interpolate_bilinear_as_linear", (1, 2, 4, 5), (8, 10), "linear")
interp("interpolate_trilinear", (1, 2, 3, 4, 5), (5, 3, 6), "trilinear")
interp("interpolate_trilinear_align", (1, 1, 3, 4, 2), (4, 6, 3), "trilinear", align=True)
interp("interpolate_nearest_up", (2, 2, 3, 4), (7, 9), "nearest")
interp("interpolate_nearest_down", (1, 2, 9, 7), (4, 3), "nearest")
interp("interpolate_nearest_1d", (2, 3, 5), (12,), "nearest")
interp("interpolate_nearest_exact", (2, 2, 3, 5), (7, 8), "nearest-exact")
interp("interpolate_nearest_exact_down", (1, 2, 10, 9), (3, 4), "nearest-exact")
interp("interpolate_nearest_3d", (1, 2, 2, 3, 4), (3, 5, 2), "nearest")
s.add("interpolate_nearest_int", 'x.interpolate(size=(5, 6), mode="nearest")',
      {"x": torch.randint(-9, 9, (1, 1, 3, 4), dtype=torch.int32)},
      lambda x: F.interpolate(x.double(), size=(5, 6), mode="nearest").int())
s.add("interpolate_permuted", 'x.permute(0, 3, 1, 2).interpolate(size=(5, 6), mode="bilinear")', {"x": r(1, 3, 4, 2)},
      lambda x: F.interpolate(x.permute(0, 3, 1, 2), size=(5, 6), mode="bilinear"), grad=("x",), **G)
s.error("interpolate_bad_mode", 'x.interpolate(size=(4,), mode="cubic")', {"x": r(1, 1, 3)}, "mode")
s.error("interpolate_align_nearest", 'x.interpolate(size=(4,), mode="nearest", align_corners=true)',
        {"x": r(1, 1, 3)}, "align_corners")
s.error("interpolate_bad_size", 'x.interpolate(size=(4, 4, 4, 4))', {"x": r(1, 1, 3)}, "size")
s.write()
