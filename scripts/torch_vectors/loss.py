"""Losses and statistics: nll_loss, cross_entropy,
sparse_categorical_crossentropy, binary_crossentropy(_logits), var/std with
correction, std_mean, var_mean, logsumexp, logcumsumexp, cummax, all, any,
einsum and scaled_dot_product_attention, with tinygrad's signatures."""

import math

import torch
import torch.nn.functional as F

from common import Suite

s = Suite("loss")
r = torch.randn


def ints(*v):
    return torch.tensor(v, dtype=torch.int32)


# var / std / std_mean / var_mean
s.add("var_default", "x.var()", {"x": r(3, 4)}, lambda x: x.var(), grad=("x",))
s.add("var_axis_correction0", "x.var(axis=1, correction=0)", {"x": r(3, 4)}, lambda x: x.var(1, correction=0), grad=("x",))
s.add("var_keepdim_tuple", "x.var(axis=(0, 2), keepdim=true)", {"x": r(2, 3, 4)},
      lambda x: x.var((0, 2), keepdim=True), grad=("x",))
s.add("var_correction2", "x.var(0, correction=2)", {"x": r(5, 2)}, lambda x: x.var(0, correction=2), grad=("x",))
s.add("var_noncontig", "x.T.var(axis=0)", {"x": r(4, 3)}, lambda x: x.T.var(0), grad=("x",))
s.add("var_int", "x.var()", {"x": torch.tensor([1, 2, 4], dtype=torch.int32)}, lambda x: x.float().var())
s.add("var_0d", "x.var(correction=0)", {"x": torch.tensor(2.0)}, lambda x: x.var(None, correction=0))
s.add("std_default", "x.std()", {"x": r(6)}, lambda x: x.std(), grad=("x",))
s.add("std_axis_correction0", "x.std(axis=-1, correction=0)", {"x": r(2, 5)}, lambda x: x.std(-1, correction=0), grad=("x",))
s.add("std_mean", "x.std_mean(axis=1)", {"x": r(3, 4)}, lambda x: torch.std_mean(x, 1), grad=("x",))
s.add("std_mean_all_keepdim", "x.std_mean(keepdim=true, correction=0)", {"x": r(2, 3)},
      lambda x: torch.std_mean(x, None, keepdim=True, correction=0), grad=("x",))
s.add("var_mean", "x.var_mean(0)", {"x": r(4, 2)}, lambda x: torch.var_mean(x, 0), grad=("x",))

# logsumexp, logcumsumexp, cummax
s.add("logsumexp_all", "x.logsumexp()", {"x": r(3, 4)}, lambda x: x.logsumexp((0, 1)), grad=("x",))
s.add("logsumexp_axis", "x.logsumexp(axis=1)", {"x": r(3, 4) * 50}, lambda x: x.logsumexp(1), grad=("x",))
s.add("logsumexp_keepdim", "x.logsumexp(0, keepdim=true)", {"x": r(3, 4)}, lambda x: x.logsumexp(0, keepdim=True),
      grad=("x",))
s.add("logsumexp_large", "x.logsumexp(1)", {"x": torch.tensor([[1000.0, 1000.0], [-1000.0, -999.0]])},
      lambda x: x.logsumexp(1), grad=("x",))
s.add("logsumexp_neg_inf", "x.logsumexp(1)", {"x": torch.tensor([[-math.inf, -math.inf], [0.0, -math.inf]])},
      lambda x: x.logsumexp(1))
s.add("logsumexp_0d", "x.logsumexp()", {"x": torch.tensor(1.5)}, lambda x: x.logsumexp(0), grad=("x",))
s.add("logsumexp_noncontig", "x.T.logsumexp(axis=1)", {"x": r(4, 3)}, lambda x: x.T.logsumexp(1), grad=("x",))
s.add("logcumsumexp", "x.logcumsumexp()", {"x": r(5)}, lambda x: x.logcumsumexp(0), grad=("x",))
s.add("logcumsumexp_axis1", "x.logcumsumexp(axis=1)", {"x": r(3, 4) * 30}, lambda x: x.logcumsumexp(1), grad=("x",))
s.add("logcumsumexp_0d", "x.logcumsumexp()", {"x": torch.tensor(0.5)}, lambda x: x.logcumsumexp(0), grad=("x",))
s.add("cummax", "x.cummax()", {"x": r(6)}, lambda x: x.cummax(0).values, grad=("x",))
s.add("cummax_axis1", "x.cummax(axis=1)", {"x": r(3, 5)}, lambda x: x.cummax(1).values, grad=("x",))
s.add("cummax_int", "x.cummax(0)", {"x": torch.tensor([3, -2147483648, 5, 1], dtype=torch.int32)},
      lambda x: x.cummax(0).values)
s.add("cummax_empty", "x.cummax(1)", {"x": r(2, 0)}, lambda x: x.cummax(1).values)
s.error("cummax_axis_error", "x.cummax(2)", {"x": r(2, 3)}, "out of range")

# all / any
B = torch.tensor([[True, True], [True, False], [False, False]])
s.add("any_all", "x.any()", {"x": B}, lambda x: x.any())
s.add("any_axis", "x.any(axis=1)", {"x": B}, lambda x: x.any(1))
s.add("all_axis0_keepdim", "x.all(axis=0, keepdim=true)", {"x": B}, lambda x: x.all(0, keepdim=True))
s.add("all_float", "x.all(1)", {"x": torch.tensor([[1.0, 0.0], [2.0, -1.0]])}, lambda x: x.all(1))
s.add("any_int", "x.any(0)", {"x": torch.tensor([[0, 0], [3, 0]], dtype=torch.int32)}, lambda x: x.any(0))
s.add("all_empty", "x.all(1)", {"x": torch.zeros(2, 0, dtype=torch.bool)}, lambda x: x.all(1))
s.add("any_empty", "x.any()", {"x": torch.zeros(0, dtype=torch.bool)}, lambda x: x.any())

# binary cross entropy
p = torch.rand(3, 4) * 0.9 + 0.05
t = torch.rand(3, 4)
s.add("bce_mean", "x.binary_crossentropy(y)", {"x": p, "y": t}, lambda x, y: F.binary_cross_entropy(x, y),
      grad=("x", "y"))
s.add("bce_sum", "x.binary_crossentropy(y, reduction='sum')", {"x": p, "y": t},
      lambda x, y: F.binary_cross_entropy(x, y, reduction="sum"), grad=("x",))
s.add("bce_none", "x.binary_crossentropy(y, reduction='none')", {"x": p, "y": (t > 0.5).float()},
      lambda x, y: F.binary_cross_entropy(x, y, reduction="none"), grad=("x",))
s.add("bce_logits", "x.binary_crossentropy_logits(y)", {"x": r(3, 4) * 5, "y": t},
      lambda x, y: F.binary_cross_entropy_with_logits(x, y), grad=("x", "y"))
s.add("bce_logits_none", "x.binary_crossentropy_logits(y, reduction='none')", {"x": r(5) * 40, "y": torch.rand(5)},
      lambda x, y: F.binary_cross_entropy_with_logits(x, y, reduction="none"), grad=("x",))
s.add("bce_logits_broadcast", "x.binary_crossentropy_logits(y, 'sum')", {"x": r(2, 3), "y": torch.rand(3)},
      lambda x, y: F.binary_cross_entropy_with_logits(x, y.expand(2, 3), reduction="sum"), grad=("x",))
s.error("bce_bad_reduction", "x.binary_crossentropy(y, reduction='avg')", {"x": p, "y": t}, "must be one of")

# sparse categorical cross entropy (classes last) against F.cross_entropy
L = r(4, 5)
Y = ints(0, 3, 4, 1)
s.add("scce", "x.sparse_categorical_crossentropy(y)", {"x": L, "y": Y},
      lambda x, y: F.cross_entropy(x, y.long()), grad=("x",))
s.add("scce_sum", "x.sparse_categorical_crossentropy(y, reduction='sum')", {"x": L, "y": Y},
      lambda x, y: F.cross_entropy(x, y.long(), reduction="sum"), grad=("x",))
s.add("scce_none", "x.sparse_categorical_crossentropy(y, reduction='none')", {"x": L, "y": Y},
      lambda x, y: F.cross_entropy(x, y.long(), reduction="none"), grad=("x",))
s.add("scce_ignore", "x.sparse_categorical_crossentropy(y, ignore_index=3)", {"x": L, "y": ints(3, 0, 3, 2)},
      lambda x, y: F.cross_entropy(x, y.long(), ignore_index=3), grad=("x",))
s.add("scce_smoothing", "x.sparse_categorical_crossentropy(y, label_smoothing=0.2)", {"x": L, "y": Y},
      lambda x, y: F.cross_entropy(x, y.long(), label_smoothing=0.2), grad=("x",))
s.add("scce_ignore_smoothing_none", "x.sparse_categorical_crossentropy(y, ignore_index=1, label_smoothing=0.1, reduction='none')",
      {"x": L, "y": ints(1, 0, 4, 1)},
      lambda x, y: F.cross_entropy(x, y.long(), ignore_index=1, label_smoothing=0.1, reduction="none"), grad=("x",))
s.add("scce_3d", "x.sparse_categorical_crossentropy(y)", {"x": r(2, 3, 4), "y": torch.randint(0, 4, (2, 3), dtype=torch.int32)},
      lambda x, y: F.cross_entropy(x.permute(0, 2, 1), y.long()), grad=("x",))
s.add("scce_noncontig", "x.T.sparse_categorical_crossentropy(y)", {"x": r(5, 4), "y": Y},
      lambda x, y: F.cross_entropy(x.T, y.long()), grad=("x",))
s.error("scce_bad_smoothing", "x.sparse_categorical_crossentropy(y, label_smoothing=1.5)", {"x": L, "y": Y}, "label_smoothing")

# cross entropy (classes on axis 1)
s.add("ce", "x.cross_entropy(y)", {"x": L, "y": Y}, lambda x, y: F.cross_entropy(x, y.long()), grad=("x",))
s.add("ce_sum_smoothing", "x.cross_entropy(y, reduction='sum', label_smoothing=0.3)", {"x": L, "y": Y},
      lambda x, y: F.cross_entropy(x, y.long(), reduction="sum", label_smoothing=0.3), grad=("x",))
s.add("ce_none", "x.cross_entropy(y, 'none')", {"x": L, "y": Y},
      lambda x, y: F.cross_entropy(x, y.long(), reduction="none"), grad=("x",))
s.add("ce_probs", "x.cross_entropy(y)", {"x": L, "y": torch.softmax(r(4, 5), 1)},
      lambda x, y: F.cross_entropy(x, y), grad=("x", "y"))
s.add("ce_probs_smoothing", "x.cross_entropy(y, label_smoothing=0.1)", {"x": L, "y": torch.softmax(r(4, 5), 1)},
      lambda x, y: F.cross_entropy(x, y, label_smoothing=0.1), grad=("x", "y"))
s.add("ce_big_logits", "x.cross_entropy(y)", {"x": r(3, 4) * 100, "y": ints(0, 1, 2)},
      lambda x, y: F.cross_entropy(x, y.long()), grad=("x",))

# nll_loss
LP = torch.log_softmax(r(4, 5), 1)
W = torch.rand(5) + 0.5
s.add("nll", "x.nll_loss(y)", {"x": LP, "y": Y}, lambda x, y: F.nll_loss(x, y.long()), grad=("x",))
s.add("nll_weight", "x.nll_loss(y, weight=w)", {"x": LP, "y": Y, "w": W},
      lambda x, y, w: F.nll_loss(x, y.long(), weight=w), grad=("x",))
s.add("nll_ignore", "x.nll_loss(y, ignore_index=3)", {"x": LP, "y": ints(3, 0, 3, 2)},
      lambda x, y: F.nll_loss(x, y.long(), ignore_index=3), grad=("x",))
s.add("nll_ignore_minus100", "x.nll_loss(y, ignore_index=-100)", {"x": LP, "y": ints(-100, 0, 4, -100)},
      lambda x, y: F.nll_loss(x, y.long(), ignore_index=-100), grad=("x",))
s.add("nll_weight_ignore_sum", "x.nll_loss(y, w, 1, 'sum')", {"x": LP, "y": ints(1, 0, 4, 1), "w": W},
      lambda x, y, w: F.nll_loss(x, y.long(), weight=w, ignore_index=1, reduction="sum"), grad=("x",))
s.add("nll_none", "x.nll_loss(y, reduction='none')", {"x": LP, "y": Y},
      lambda x, y: F.nll_loss(x, y.long(), reduction="none"), grad=("x",))
s.add("nll_3d", "x.nll_loss(y)", {"x": r(2, 3, 4), "y": torch.randint(0, 3, (2, 4), dtype=torch.int32)},
      lambda x, y: F.nll_loss(x, y.long()), grad=("x",))
s.add("nll_noncontig", "x.T.nll_loss(y)", {"x": r(5, 4), "y": Y}, lambda x, y: F.nll_loss(x.T, y.long()), grad=("x",))
s.error("nll_float_target", "x.nll_loss(y)", {"x": LP, "y": torch.zeros(4)}, "not an integer")

# einsum
A, Bm, C = r(2, 3), r(3, 4), r(4)
s.add("einsum_matmul", "einsum('ij,jk->ik', a, b)", {"a": A, "b": Bm}, lambda a, b: torch.einsum("ij,jk->ik", a, b),
      grad=("a", "b"))
s.add("einsum_list_operands", "einsum('ij,jk->ik', [a, b])", {"a": A, "b": Bm}, lambda a, b: a @ b, grad=("a", "b"))
s.add("einsum_implicit", "einsum('ij,jk', a, b)", {"a": A, "b": Bm}, lambda a, b: torch.einsum("ij,jk", a, b),
      grad=("a", "b"))
s.add("einsum_transpose", "einsum('ij->ji', a)", {"a": A}, lambda a: torch.einsum("ij->ji", a), grad=("a",))
s.add("einsum_sum_all", "einsum('ij->', a)", {"a": A}, lambda a: torch.einsum("ij->", a), grad=("a",))
s.add("einsum_outer", "einsum('i,j->ij', c, d)", {"c": C, "d": r(3)}, lambda c, d: torch.einsum("i,j->ij", c, d),
      grad=("c", "d"))
s.add("einsum_dot", "einsum('i,i', c, d)", {"c": C, "d": r(4)}, lambda c, d: torch.einsum("i,i", c, d), grad=("c", "d"))
s.add("einsum_batch", "einsum('bij,bjk->bik', a, b)", {"a": r(2, 3, 4), "b": r(2, 4, 5)},
      lambda a, b: torch.einsum("bij,bjk->bik", a, b), grad=("a", "b"))
s.add("einsum_three", "einsum('ij,jk,k->i', a, b, c)", {"a": A, "b": Bm, "c": C},
      lambda a, b, c: torch.einsum("ij,jk,k->i", a, b, c), grad=("a", "b", "c"))
s.add("einsum_ellipsis", "einsum('...ij,...jk->...ik', a, b)", {"a": r(2, 2, 3), "b": r(2, 3, 4)},
      lambda a, b: torch.einsum("...ij,...jk->...ik", a, b), grad=("a", "b"))
s.add("einsum_ellipsis_broadcast", "einsum('...ij,jk->...ik', a, b)", {"a": r(5, 2, 3), "b": Bm},
      lambda a, b: torch.einsum("...ij,jk->...ik", a, b), grad=("a", "b"))
s.add("einsum_ellipsis_implicit", "einsum('...j', a)", {"a": r(2, 3)}, lambda a: torch.einsum("...j", a), grad=("a",))
s.add("einsum_ellipsis_sum", "einsum('i...->...', a)", {"a": r(2, 3, 4)}, lambda a: torch.einsum("i...->...", a),
      grad=("a",))
s.add("einsum_spaces", "einsum('i j , j k -> k i', a, b)", {"a": A, "b": Bm},
      lambda a, b: torch.einsum("ij,jk->ki", a, b), grad=("a", "b"))
s.add("einsum_noncontig", "einsum('ij,jk->ik', a.T, b)", {"a": r(3, 2), "b": Bm},
      lambda a, b: torch.einsum("ij,jk->ik", a.T, b), grad=("a", "b"))
s.add("einsum_int", "einsum('ij,j->i', a, c)", {"a": torch.arange(6, dtype=torch.int32).reshape(2, 3),
                                                "c": torch.tensor([1, 2, 3], dtype=torch.int32)},
      lambda a, c: torch.einsum("ij,j->i", a, c))
s.add("einsum_empty", "einsum('ij,jk->ik', a, b)", {"a": r(2, 0), "b": r(0, 3)},
      lambda a, b: torch.einsum("ij,jk->ik", a, b), grad=("a", "b"))
s.error("einsum_arity", "einsum('ij,jk->ik', a)", {"a": A}, "number of inputs doesn't match")
s.error("einsum_rank", "einsum('ijk->i', a)", {"a": A}, "does not match the number of axes")
s.error("einsum_size", "einsum('ij,ij->i', a, b)", {"a": A, "b": r(2, 4)}, "subscript 'j' has size")
s.error("einsum_output_letter", "einsum('ij->k', a)", {"a": A}, "does not appear in an input")

# scaled dot product attention (torch 1.13 has no F.scaled_dot_product_attention:
# its documented formula)
def sdpa(q, k, v, attn_mask=None, is_causal=False):
    if is_causal:
        attn_mask = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril()
    if attn_mask is not None and attn_mask.dtype == torch.bool:
        attn_mask = torch.zeros(attn_mask.shape).masked_fill(~attn_mask, -math.inf)
    w = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if attn_mask is not None:
        w = w + attn_mask
    return w.softmax(-1) @ v


q, k, v = r(2, 3, 4), r(2, 5, 4), r(2, 5, 6)
s.add("sdpa", "q.scaled_dot_product_attention(k, v)", {"q": q, "k": k, "v": v},
      lambda q, k, v: sdpa(q, k, v), grad=("q", "k", "v"))
s.add("sdpa_causal", "q.scaled_dot_product_attention(k, v, is_causal=true)", {"q": r(2, 4, 4), "k": r(2, 4, 4), "v": r(2, 4, 3)},
      lambda q, k, v: sdpa(q, k, v, is_causal=True), grad=("q", "k", "v"))
s.add("sdpa_bool_mask", "q.scaled_dot_product_attention(k, v, attn_mask=m)",
      {"q": q, "k": k, "v": v, "m": torch.tensor([[True, False, True, True, False]] * 3)},
      lambda q, k, v, m: sdpa(q, k, v, attn_mask=m), grad=("q", "k", "v"))
s.add("sdpa_float_mask", "q.scaled_dot_product_attention(k, v, m)", {"q": q, "k": k, "v": v, "m": r(3, 5)},
      lambda q, k, v, m: sdpa(q, k, v, attn_mask=m), grad=("q", "k", "v", "m"))
s.add("sdpa_heads", "q.scaled_dot_product_attention(k, v, dropout_p=0.0)", {"q": r(1, 2, 3, 8), "k": r(1, 2, 3, 8), "v": r(1, 2, 3, 8)},
      lambda q, k, v: sdpa(q, k, v), grad=("q", "k", "v"))
s.write()
