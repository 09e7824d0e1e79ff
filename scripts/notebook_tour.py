"""Writes examples/notebook.ipynb (unexecuted) from the cells below."""
import json

cells = []
def md(s): cells.append({"cell_type": "markdown", "metadata": {}, "source": s.strip("\n")})
def code(s, tags=None):
    meta = {"tags": tags} if tags else {}
    cells.append({"cell_type": "code", "execution_count": None, "metadata": meta, "outputs": [], "source": s.strip("\n")})

md("""
# A tour of tiny in Jupyter

Install the kernel once with `tiny kernel install` (see `docs/jupyter.md`), open this notebook and pick the kernel **tiny**. Every cell runs in the same session; the value of a cell's last expression is its result, and tiny shows it as a picture where it has one: a tensor as a table, a view as a grid, a kernel as a tree.
""")
code("""
a = [[1, 2, 3], [4, 5, 6]]
print(a.shape, a.dtype)
a * 2 + 1
""")
md("""
A tensor shows as a table with its shape, dtype and device; a large one is elided as NumPy prints it, the first and last three of each axis.
""")
code("""
arange(2000).reshape(40, 50) / 10
""")
md("""
Globals and functions stay for the next cells.
""")
code("""
fn relu(x) { return x.maximum(0) }
relu(a - 3).sum(axis=1)
""")
md("""
## Views: what a movement does to the indices

A movement op changes only the view: its shape, strides, offset and mask. A view draws as the grid of its indices, each cell showing the buffer element it reads; cells of the same element share a color, masked cells are crossed. `display` shows several values from one cell.
""")
code("""
st = shapetracker((2, 3))
display(st.permute(1, 0), st.reshape(2, 1, 3).expand(2, 4, 3), st.pad(((1, 0), (0, 1))), st.shrink(((0, 2), (1, 3))))
""")
md("""
A reshape that the strides cannot express needs a second view: one panel per view, and a last one composing them.
""")
code("""
st.permute(1, 0).reshape(6)
""")
md("""
## Kernels and the lazy graph

Nothing runs until a value is read. `.schedule()` draws the kernels realizing a tensor as trees (what tinygrad prints at `DEBUG=2`): the transpose, the add and the sum fuse into one. `.graph()` draws the lazy graph itself (tinygrad's `GRAPH=1`).
""")
code("""
(a.T + 2).sum(axis=1).schedule()
""")
code("""
((a + 1) * a.float().exp()).sum(axis=0).graph()
""")
md("""
`%debug N` on a cell's first line runs that cell at `DEBUG=N`.
""")
code("""
%debug 1
(a * 2).sum()
""")
md("""
## Images

`imshow` shows a tensor of shape (H, W), (H, W, C) or (C, H, W), floats in [0, 1] or integers in [0, 255], or a batch or list of them in a grid with labels.
""")
code("""
ramp = arange(64).reshape(8, 8) / 63
checker = ((arange(8).reshape(8, 1) + arange(8)) % 2).float()
rgb = stack([ramp, ramp.T, 1 - ramp], dim=2)
imshow([ramp, checker, rgb, (rgb * 255).cast(uint8).permute(2, 0, 1)], labels=["ramp", "checker", "HWC", "CHW uint8"])
""")
md("""
The first Fashion-MNIST training images with their classes: from Debian's `dataset-fashion-mnist` when it is installed, else from the subset that comes with tiny in `examples/data`. `from_file` reads the IDX files (gunzipped) past their headers.
""")
code("""
dir = "/usr/share/datasets/fashion-mnist"
if not file_exists(dir + "/train-images-idx3-ubyte.gz") { dir = "data/fashion-mnist" }
X = from_file(dir + "/train-images-idx3-ubyte.gz", 16).reshape(-1, 28, 28)
Y = from_file(dir + "/train-labels-idx1-ubyte.gz", 8)
names = ["T-shirt", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Boot"]
labels = []
for c in Y[:16].tolist() { labels.append(names[c]) }
imshow(X[:16], labels=labels)
""")
md("""
## Plots

A loss curve is the first plot: a small MLP learns those images for 60 steps of Adam, under a `trange` bar that updates in place.
""")
code("""
import "nn" as nn
model = nn.sequential([nn.flatten, nn.Linear(784, 64), nn.relu, nn.Linear(64, 10)])
opt = nn.optim.Adam(nn.get_parameters(model))
fn step(bs) {
  was = train(true)
  opt.zero_grad()
  s = randint(bs, high=X.shape[0])
  loss = model(X[s].float() / 255).sparse_categorical_crossentropy(Y[s])
  loss.backward()
  opt.step()
  train(was)
  return loss.item()
}
manual_seed(1)
losses = []
for i in trange(60, desc="train") { losses.append(step(128)) }
plot(losses, title="Fashion-MNIST: a 784-64-10 MLP", xlabel="step", ylabel="loss", label="train")
""")
md("""

`plot`, `scatter` and `hist` draw with titles, axis labels and a legend; `progress(x)` is a bar for any loop. Gradient descent on a least-squares fit, at two step sizes:
""")
code("""
x = [[1.0, 2.0], [3.0, 4.0]]
y = tensor([1.0, 2.0])
curves = []
for lr in progress([0.01, 0.02], desc="step sizes") {
  w = tensor([0.5, -1.0])
  losses = []
  for step in range(30) {
    loss = (x @ w - y).square().mean()
    g = loss.gradient(w)[0]
    losses.append(loss.item())
    w = (w - lr * g).realize()
  }
  curves.append(losses)
}
plot(curves, labels=["lr 0.01", "lr 0.02"], title="least squares", xlabel="step", ylabel="loss")
""")
code("""
manual_seed(0)
pts = randn(200, 2)
scatter(pts[:, 0], pts[:, 0] * 0.5 + pts[:, 1] * 0.3, title="scatter", xlabel="x", ylabel="y")
hist([randn(500), randn(500) * 0.5 + 2], bins=20, labels=["N(0, 1)", "N(2, 0.25)"], title="histogram", xlabel="value", ylabel="count")
""")
md("""
An error names the cell, line and column, and the session goes on. (This cell is tagged `raises-exception`, so that `jupyter nbconvert --execute` runs the rest.)
""")
code("""
b = a.reshape(4, 2)
""", tags=["raises-exception"])
code("""
a.reshape(3, 2).tolist()
""")

nb = {"cells": cells, "metadata": {"kernelspec": {"display_name": "tiny", "language": "tiny", "name": "tiny"},
      "language_info": {"name": "tiny", "file_extension": ".tiny", "mimetype": "text/x-tiny", "pygments_lexer": "python", "codemirror_mode": "python"}}, "nbformat": 4, "nbformat_minor": 4}
for c in cells:
    src = c["source"].split("\n")
    c["source"] = [l + "\n" for l in src[:-1]] + [src[-1]]
json.dump(nb, open("examples/notebook.ipynb", "w"), indent=1, ensure_ascii=False)
open("examples/notebook.ipynb", "a").write("\n")
