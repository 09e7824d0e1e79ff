package tensor

import (
	"slices"

	"tiny/codegen"
)

// Cat joins t and others along axis dim; every other dimension must match.
// The result is the sum of each operand padded to the full length, so it
// fuses into its consumer. It panics with a *Error on mismatched shapes or a
// bad axis.
func (t *Tensor) Cat(dim int, others ...*Tensor) *Tensor {
	return Cat(dim, append([]*Tensor{t}, others...)...)
}

// Cat joins tensors along axis dim; see (*Tensor).Cat.
func Cat(dim int, ts ...*Tensor) *Tensor {
	if len(ts) == 0 {
		fail("cat: got 0 tensors, want at least 1")
	}
	first := ts[0]
	if first.Ndim() == 0 {
		fail("cat: zero-dimensional tensors cannot be concatenated")
	}
	d := normAxis("cat", dim, first.Ndim())
	dt := first.n.dtype
	total := 0
	for _, x := range ts {
		if x.Ndim() != first.Ndim() {
			fail("cat: cannot concatenate shapes %s and %s along axis %d", FormatShape(first.n.shape), FormatShape(x.n.shape), d)
		}
		for i := range x.n.shape {
			if i != d && x.n.shape[i] != first.n.shape[i] {
				fail("cat: cannot concatenate shapes %s and %s along axis %d", FormatShape(first.n.shape), FormatShape(x.n.shape), d)
			}
		}
		dt = codegen.Promote(dt, x.n.dtype)
		total += x.n.shape[d]
	}
	if len(ts) == 1 {
		return first
	}
	var out *Tensor
	at := 0
	for _, x := range ts {
		p := make([][2]int, first.Ndim())
		p[d] = [2]int{at, total - at - x.n.shape[d]}
		at += x.n.shape[d]
		padded := x.Cast(dt).Pad(p)
		if out == nil {
			out = padded
		} else {
			out = out.Add(padded)
		}
	}
	return out
}

// Stack joins tensors of one shape along a new axis dim. It panics with a
// *Error on mismatched shapes or a bad axis.
func Stack(dim int, ts ...*Tensor) *Tensor {
	if len(ts) == 0 {
		fail("stack: got 0 tensors, want at least 1")
	}
	d := normAxis("stack", dim, ts[0].Ndim()+1)
	us := make([]*Tensor, len(ts))
	for i, x := range ts {
		if !slices.Equal(x.n.shape, ts[0].n.shape) {
			fail("stack: cannot stack shapes %s and %s", FormatShape(ts[0].n.shape), FormatShape(x.n.shape))
		}
		us[i] = x.Unsqueeze(d)
	}
	return Cat(d, us...)
}

// Matmul returns the matrix product t @ w, batched and broadcast like
// NumPy's: 1-d operands act as a row (left) or column (right) vector. It is
// a broadcast multiply and a sum over the last axis, so it is one kernel. It
// panics with a *Error when the inner dimensions differ or an operand is 0-d.
func (t *Tensor) Matmul(w *Tensor) *Tensor {
	a, b := rowMajorOperands(t, w)
	x, y := a.matmulOperands(b)
	// Accumulated in the sum dtype, given in the operands' (tinygrad's dot):
	// uint8 @ uint8 is uint8, bool @ bool is bool.
	return x.Mul(y).Sum([]int{-1}, false).Cast(codegen.Promote(t.n.dtype, w.n.dtype))
}

// MatmulAcc is Matmul accumulated in, and given as, dtype acc (tinygrad's
// dot and matmul with acc_dtype=): int8 operands with acc Int32 give exact
// int32 sums, float16 ones with acc Float32 a float32 result.
func (t *Tensor) MatmulAcc(w *Tensor, acc DType) *Tensor {
	checkDType("matmul", acc)
	a, b := rowMajorOperands(t, w)
	x, y := a.matmulOperands(b)
	return x.Mul(y).SumAcc([]int{-1}, false, acc)
}

// rowMajorOperands returns t and w, each copied into row-major order when
// it is a transposed view (transposed) and the product is large enough
// to pay for the copy. A matmul's register tile runs along the columns of
// w, with a panel of it packed for its rows, and takes each row's
// elements of t one at a time. Read along its rows (a @ b.T: a Linear's
// weight, attention's keys), w got a kernel of dot products instead, each
// with a vector accumulator summed at its end: 119 GFLOP/s for 1024x1024
// against 296 for a @ b, attention's q @ k.T (64 of 256x64 @ 64x256) 40
// against 190. t read down its columns (a.T @ b: a weight's gradient)
// took 17-18.5 ms for 1024x1024 against 9-11. A copy reads the operand
// once (about 1 ms for 1024x1024).
func rowMajorOperands(t, w *Tensor) (*Tensor, *Tensor) {
	n1, n2 := t.Ndim(), w.Ndim()
	if n1 < 2 || n2 < 2 {
		return t, w
	}
	rows, cols, k := t.n.shape[n1-2], w.n.shape[n2-1], t.n.shape[n1-1]
	if rows >= minCopyRows && cols >= minCopyColumns && (k < minDotReduce || rows >= minCopyRowsLong) && transposed(w) {
		w = w.Contiguous()
	}
	if cols >= minCopyRows && rows >= minCopyColumns && transposed(t) {
		t = t.Contiguous()
	}
	return t, w
}

// transposed reports whether t is a view that steps by one element along
// its second-to-last axis and by a whole row (or more) along its last.
func transposed(t *Tensor) bool {
	n := t.Ndim()
	if t.n.kind != kView || !simpleView(t.n) {
		return false
	}
	st := t.n.st.Views[0].Strides
	r, ok := st[n-2].Int()
	c, ok2 := st[n-1].Int()
	return ok && ok2 && r == 1 && c >= int64(t.n.shape[n-2])
}

// minCopyRows and minCopyColumns say when rowMajorOperands copies: the
// other operand's extent shares the copy's cost (t's rows for w, w's
// columns for t), and a tile needs rows and columns enough to fill it.
// 96 rows by 1024x8192 (a Linear's weight): the copy 6.6 ms, the product
// 7.8 against 15.8 ms without it, no gain worth the memory.
//
// A reduce of minDotReduce or more leaves w read along its rows below
// minCopyRowsLong rows of t: the dot-product kernel, its lanes folded in
// vectors (codegen's tiny_fold16) and its longer operand's loop outside
// (SWAP), beat the copy and the tile there. x @ w.T, the copy's time
// against the kernel's in loops of 20-40 calls: 128x1024 by an 8192x1024
// weight 18.3-21.1 against 16.6-17.8 ms, 192 rows 20.3-27.9 against
// 18.7-23.0, 256 even, 384 38-39 against 44-48; 192x1024 by 256x1024
// 0.94-0.99 against 0.69-0.71; 192x1024 by 1024x1024 2.52-2.88 against
// 1.95-2.38. Reduces of 128 and 256 were even, and attention's keys (a
// reduce of 64) are faster through the copy.
const (
	minCopyRows     = 128
	minCopyColumns  = 32
	minDotReduce    = 512
	minCopyRowsLong = 256
)

// matmulOperands checks t @ w and gives the two broadcastable operands
// whose product summed over the last axis is the matrix product.
func (t *Tensor) matmulOperands(w *Tensor) (*Tensor, *Tensor) {
	n1, n2 := t.Ndim(), w.Ndim()
	if n1 == 0 || n2 == 0 {
		fail("matmul: 0-d operand in shapes %s and %s", FormatShape(t.n.shape), FormatShape(w.n.shape))
	}
	k1, k2 := t.n.shape[n1-1], w.n.shape[n2-min(n2, 2)]
	if k1 != k2 {
		fail("matmul: shapes %s and %s cannot be multiplied (%d != %d)", FormatShape(t.n.shape), FormatShape(w.n.shape), k1, k2)
	}
	one := min(n1-1, n2-1, 1)
	xs := append([]int(nil), t.n.shape[:n1-1]...)
	for i := 0; i < one; i++ {
		xs = append(xs, 1)
	}
	x := t.Reshape(append(xs, k1)...)
	ws := append([]int(nil), w.n.shape[:n2-min(n2, 2)]...)
	for i := 0; i < one; i++ {
		ws = append(ws, 1)
	}
	y := w.Reshape(append(ws, w.n.shape[n2-min(n2, 2):]...)...).Transpose(-1, -min(n2, 2))
	if _, err := BroadcastShape(x.n.shape[:x.Ndim()-1], y.n.shape[:y.Ndim()-1]); err != nil {
		fail("matmul: shapes %s and %s cannot be multiplied", FormatShape(t.n.shape), FormatShape(w.n.shape))
	}
	return x, y
}

// Dot is Matmul.
func (t *Tensor) Dot(w *Tensor) *Tensor { return t.Matmul(w) }
