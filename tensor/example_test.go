package tensor_test

import (
	"fmt"

	_ "tiny/devices/cpu"
	"tiny/tensor"
)

// The path of (tensor([1, 2, 3]) + 2).tolist(): a lazy graph, one kernel,
// then data.
func Example() {
	e, err := tensor.NewEngine(tensor.Options{Device: "CPU"})
	if err != nil {
		panic(err)
	}
	a := e.FromData([]int{1, 2, 3})
	b := a.Add(2) // returns at once: nothing has run
	for _, k := range b.Schedule() {
		fmt.Print(k.Name, "\n", k)
	}
	fmt.Println(b.ListString())
	fmt.Println(b)
	// Output:
	// E_3
	//   0  ━┳ STORE MemBuffer(idx=0, dtype=int32, st=ShapeTracker(views=(View(shape=(3,), strides=(1,), offset=0, mask=None, contiguous=True),)))
	//   1  ┗━┳ ADD
	//   2    ┣━━ LOAD MemBuffer(idx=1, dtype=int32, st=ShapeTracker(views=(View(shape=(3,), strides=(1,), offset=0, mask=None, contiguous=True),)))
	//   3    ┗━━ CONST ConstBuffer(val=2, dtype=int32, st=ShapeTracker(views=(View(shape=(3,), strides=(0,), offset=0, mask=None, contiguous=False),)))
	// [3, 4, 5]
	// tensor([3, 4, 5], dtype=int32)
}

// A reduce fuses its elementwise input and output into one kernel.
func ExampleTensor_Schedule() {
	e, _ := tensor.NewEngine(tensor.Options{})
	x := e.FromData([][]float64{{1, 2}, {3, 4}})
	y := x.Mul(2).Sum([]int{1}, false).Sqrt()
	ks := y.Schedule()
	fmt.Println(len(ks), ks[0].Name)
	fmt.Println(y)
	// Output:
	// 1 r_2_2
	// tensor([2.4494898, 3.7416575])
}

// Bad input panics with a *tensor.Error; Try returns it as an error.
func ExampleTry() {
	e, _ := tensor.NewEngine(tensor.Options{})
	_, err := tensor.Try(func() *tensor.Tensor {
		return e.Zeros(tensor.Float32, 2, 3).Add(e.Zeros(tensor.Float32, 4))
	})
	fmt.Println(err)
	// Output:
	// cannot broadcast shapes (2, 3) and (4,)
}

// Gradients of a scalar loss, as lazy tensors; Backward stores them in the
// tensors marked with SetRequiresGrad.
func ExampleTensor_Gradient() {
	e, _ := tensor.NewEngine(tensor.Options{})
	x := e.FromData([][]float64{{1, 2}, {3, 4}})
	w := e.FromData([]float64{0.5, -1})
	loss := x.Matmul(w).Square().Mean(nil, false)
	g := loss.Gradient(w, x)
	fmt.Println(g[0])
	fmt.Println(g[1].ListString())

	b := e.Zeros(tensor.Float32, 1).SetRequiresGrad(true)
	x.Matmul(w).Add(b).Square().Mean(nil, false).Backward()
	fmt.Println(b.Grad(), w.Grad())
	// Output:
	// tensor([ -9.0, -13.0])
	// [[-0.75, 1.5], [-1.25, 2.5]]
	// tensor([-4.0]) <nil>
}
