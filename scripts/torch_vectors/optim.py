"""Vectors for nn.optim and nn's layers: optimizer trajectories (the
parameters after each of a few steps on a small least-squares loss) from
torch.optim, and layer outputs from torch.nn. LAMB and LARS, which torch
lacks, follow their papers' update rules written out in torch below (the
rules tinygrad's optimizers use)."""

import torch

from common import Suite

STEPS = 3


def loss_fn(w, b, x, y):
    return ((x @ w + b - y) ** 2).mean()


def trajectory(make_opt, w, b, x, y, steps=STEPS):
    w = w.detach().clone().requires_grad_(True)
    b = b.detach().clone().requires_grad_(True)
    opt = make_opt([w, b])
    out = []
    for _ in range(steps):
        opt.zero_grad()
        loss_fn(w, b, x, y).backward()
        opt.step()
        out += [w.detach().clone(), b.detach().clone()]
    return out


class LAMB(torch.optim.Optimizer):
    """LAMB (arXiv 1904.00962): Adam's bias-corrected step plus weight
    decay, scaled per tensor by |w| / |step| (1 where either is 0)."""

    def __init__(self, params, lr=0.001, b1=0.9, b2=0.999, eps=1e-6, wd=0.0):
        super().__init__(params, dict(lr=lr, b1=b1, b2=b2, eps=eps, wd=wd))

    @torch.no_grad()
    def step(self):
        for grp in self.param_groups:
            for p in grp["params"]:
                st = self.state[p]
                if not st:
                    st["t"], st["m"], st["v"] = 0, torch.zeros_like(p), torch.zeros_like(p)
                st["t"] += 1
                g = p.grad
                st["m"].mul_(grp["b1"]).add_((1 - grp["b1"]) * g)
                st["v"].mul_(grp["b2"]).add_((1 - grp["b2"]) * g * g)
                mh = st["m"] / (1 - grp["b1"] ** st["t"])
                vh = st["v"] / (1 - grp["b2"] ** st["t"])
                up = mh / (vh.sqrt() + grp["eps"]) + grp["wd"] * p
                r1, r2 = p.norm(), up.norm()
                r = (r1 / r2) if (r1 > 0 and r2 > 0) else 1.0
                p.sub_(grp["lr"] * r * up)


class LARS(torch.optim.Optimizer):
    """LARS (arXiv 1708.03888) with classic momentum: the gradient plus
    weight decay, scaled by lr and the trust ratio tcoef*|w|/(|g|+wd*|w|),
    accumulated into the momentum buffer."""

    def __init__(self, params, lr=0.001, momentum=0.9, wd=1e-4, tcoef=0.001):
        super().__init__(params, dict(lr=lr, momentum=momentum, wd=wd, tcoef=tcoef))

    @torch.no_grad()
    def step(self):
        for grp in self.param_groups:
            for p in grp["params"]:
                st = self.state[p]
                if not st:
                    st["b"] = torch.zeros_like(p)
                g = p.grad
                r1, r2 = p.norm(), g.norm()
                r = grp["tcoef"] * r1 / (r2 + grp["wd"] * r1) if (r1 > 0 and r2 > 0) else 1.0
                g = (g + grp["wd"] * p) * r * grp["lr"]
                st["b"].mul_(grp["momentum"]).add_(g)
                p.sub_(st["b"])


CASES = [
    ("sgd", "nn.optim.SGD(ps, lr=0.1)", lambda ps: torch.optim.SGD(ps, lr=0.1)),
    ("sgd momentum", "nn.optim.SGD(ps, lr=0.1, momentum=0.9)", lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9)),
    ("sgd nesterov wd", "nn.optim.SGD(ps, lr=0.05, momentum=0.8, weight_decay=0.1, nesterov=true)",
     lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.8, weight_decay=0.1, nesterov=True)),
    ("sgd wd", "nn.optim.SGD(ps, lr=0.1, weight_decay=0.01)", lambda ps: torch.optim.SGD(ps, lr=0.1, weight_decay=0.01)),
    ("adam", "nn.optim.Adam(ps)", lambda ps: torch.optim.Adam(ps)),
    ("adam lr", "nn.optim.Adam(ps, lr=0.1, b1=0.8, b2=0.99, eps=1e-6)",
     lambda ps: torch.optim.Adam(ps, lr=0.1, betas=(0.8, 0.99), eps=1e-6)),
    ("adamw", "nn.optim.AdamW(ps, lr=0.01)", lambda ps: torch.optim.AdamW(ps, lr=0.01)),
    ("adamw wd", "nn.optim.AdamW(ps, lr=0.05, weight_decay=0.5)", lambda ps: torch.optim.AdamW(ps, lr=0.05, weight_decay=0.5)),
    ("lamb", "nn.optim.LAMB(ps, lr=0.01)", lambda ps: LAMB(ps, lr=0.01)),
    ("lamb wd", "nn.optim.LAMB(ps, lr=0.02, weight_decay=0.1)", lambda ps: LAMB(ps, lr=0.02, wd=0.1)),
    ("lars", "nn.optim.LARS(ps, lr=0.5)", lambda ps: LARS(ps, lr=0.5)),
]


def steps_src(make):
    # The parameters are copies of the inputs; each step's values are
    # realized copies, since the next step overwrites the parameters in place.
    return ("(fn () { import \"nn\" as nn; was = train(); pw = w.clone(); pb = b.clone(); ps = [pw, pb]; opt = " + make +
            "; out = []; for i in range(%d) { opt.zero_grad(); ((x @ pw + pb - y).square().mean()).backward(); "
            "opt.step(); out.append(pw.clone().realize()); out.append(pb.clone().realize()) }; train(was); return out })()" % STEPS)


def main():
    s = Suite("optim", seed=11)
    x, y = torch.randn(5, 3), torch.randn(5, 2)
    w, b = torch.randn(3, 2), torch.randn(2)
    for name, src, make in CASES:
        s.add(name, steps_src(src), {"w": w, "b": b, "x": x, "y": y},
              lambda w, b, x, y, make=make: trajectory(make, w, b, x, y), atol=1e-5, rtol=1e-4)
    s.error("step without train", "(fn () { import \"nn\" as nn; was = train(false); opt = nn.optim.SGD([w]); "
            "(w * w).sum().backward(); opt.step() })()", {"w": w}, "call train()")
    s.error("step without backward", "(fn () { import \"nn\" as nn; was = train(); opt = nn.optim.SGD([w.clone()]); "
            "opt.step() })()", {"w": w}, "has no grad")
    s.error("no params", "(fn () { import \"nn\" as nn; opt = nn.optim.SGD([w.requires_grad_(false)]) })()", {"w": w},
            "at least one param")
    s.write()


if __name__ == "__main__":
    main()


def bn_train(x, w, b, steps=2):
    bn = torch.nn.BatchNorm2d(x.shape[1])
    with torch.no_grad():
        bn.weight.copy_(w)
        bn.bias.copy_(b)
    bn.train()
    for _ in range(steps - 1):
        bn(x.detach() * 2)
    out = bn(x)
    return [out, bn.running_mean.clone(), bn.running_var.clone(), bn.num_batches_tracked.clone().reshape(1)]


def bn_eval(x, w, b):
    bn = torch.nn.BatchNorm2d(x.shape[1])
    with torch.no_grad():
        bn.weight.copy_(w)
        bn.bias.copy_(b)
    bn.train()
    bn(x.detach() * 2)
    bn.eval()
    return bn(x)


def layers():
    s = Suite("nn_layers", seed=12)
    imp = "(fn () { import \"nn\" as nn; "
    x = torch.randn(4, 3)
    w, b = torch.randn(2, 3), torch.randn(2)
    s.add("linear", imp + "l = nn.Linear(3, 2); l.weight.assign(w); l.bias.assign(b); return l(x) })()",
          {"x": x, "w": w, "b": b}, lambda x, w, b: torch.nn.functional.linear(x, w, b), grad=("x", "w", "b"))
    s.add("linear no bias", imp + "l = nn.Linear(3, 2, bias=false); l.weight.assign(w); return l(x) })()",
          {"x": x, "w": w}, lambda x, w: torch.nn.functional.linear(x, w), grad=("x",))
    x4 = torch.randn(3, 4, 2, 5)
    cw, cb = torch.randn(4), torch.randn(4)
    s.add("batchnorm train", imp + "was = train(); bn = nn.BatchNorm(4); bn.weight.assign(w); bn.bias.assign(b); "
          "bn((x * 2).detach()); out = bn(x); r = [out, bn.running_mean, bn.running_var, bn.num_batches_tracked]; "
          "train(was); return r })()",
          {"x": x4, "w": cw, "b": cb}, bn_train, grad=("x",), atol=1e-5)
    s.add("batchnorm eval", imp + "was = train(); bn = nn.BatchNorm(4); bn.weight.assign(w); bn.bias.assign(b); "
          "realize(bn((x * 2).detach()), bn.running_mean, bn.running_var); train(false); out = bn(x); train(was); "
          "return out })()", {"x": x4, "w": cw, "b": cb}, bn_eval, grad=("x",), atol=1e-5)
    x3 = torch.randn(2, 5, 6)
    lw, lb = torch.randn(6), torch.randn(6)
    s.add("layernorm", imp + "ln = nn.LayerNorm(6); ln.weight.assign(w); ln.bias.assign(b); return ln(x) })()",
          {"x": x3, "w": lw, "b": lb}, lambda x, w, b: torch.nn.functional.layer_norm(x, (6,), w, b), grad=("x", "w", "b"),
          atol=1e-5)
    s.add("layernorm 2 axes", imp + "ln = nn.LayerNorm((5, 6), elementwise_affine=false); return ln(x) })()",
          {"x": x3}, lambda x: torch.nn.functional.layer_norm(x, (5, 6)), grad=("x",), atol=1e-5)
    s.error("layernorm shape", imp + "ln = nn.LayerNorm(4); return ln(x) })()", {"x": x3}, "must match")
    xg = torch.randn(2, 6, 3, 2)
    gw, gb = torch.randn(6), torch.randn(6)
    s.add("groupnorm", imp + "gn = nn.GroupNorm(3, 6); gn.weight.assign(w); gn.bias.assign(b); return gn(x) })()",
          {"x": xg, "w": gw, "b": gb}, lambda x, w, b: torch.nn.functional.group_norm(x, 3, w, b), grad=("x", "w", "b"),
          atol=1e-5)
    ew = torch.randn(7, 3)
    idx = torch.tensor([[1, 6, 0], [3, 3, 2]], dtype=torch.int32)
    s.add("embedding", imp + "e = nn.Embedding(7, 3); e.weight.assign(w); return e(i) })()",
          {"w": ew, "i": idx}, lambda w, i: torch.nn.functional.embedding(i.long(), w), grad=("w",))
    xc = torch.randn(2, 4, 7, 6)
    kw, kb = torch.randn(6, 2, 3, 3), torch.randn(6)
    s.add("conv2d", imp + "c = nn.Conv2d(4, 6, 3, stride=2, padding=1, groups=2); c.weight.assign(w); c.bias.assign(b); "
          "return c(x) })()", {"x": xc, "w": kw, "b": kb},
          lambda x, w, b: torch.nn.functional.conv2d(x, w, b, stride=2, padding=1, groups=2), grad=("x", "w", "b"),
          atol=1e-5)
    tw, tb = torch.randn(4, 3, 3, 2), torch.randn(3)
    s.add("conv_transpose2d", imp + "c = nn.ConvTranspose2d(4, 3, (3, 2), stride=2, padding=1, output_padding=1); "
          "c.weight.assign(w); c.bias.assign(b); return c(x) })()", {"x": xc, "w": tw, "b": tb},
          lambda x, w, b: torch.nn.functional.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1),
          grad=("x", "w", "b"), atol=1e-5)
    s.add("dropout eval", imp + "d = nn.Dropout(0.5); return d(x) })()", {"x": x}, lambda x: x * 1, grad=("x",))
    s.add("sequential", imp + "l = nn.Linear(3, 2); l.weight.assign(w); l.bias.assign(b); "
          "m = nn.sequential([l, nn.relu, fn (t) { return t * 2 }]); return m(x) })()",
          {"x": x, "w": w, "b": b}, lambda x, w, b: torch.relu(torch.nn.functional.linear(x, w, b)) * 2, grad=("x", "w"))
    s.write()


layers()
