package interp_test

import (
	"context"
	"fmt"
	"os"

	_ "tiny/devices/cpu"
	"tiny/interp"
)

// ExampleInterp_ExecFile runs a script that defines a function and prints
// a tensor computation.
func ExampleInterp_ExecFile() {
	it, _ := interp.New(interp.Options{Stdout: os.Stdout})
	src := `
fn relu(x) { return x.maximum(0) }
a = [[1, -2], [-3, 4]]
print(relu(a))
print(relu(a).sum(axis=0).tolist())
`
	if err := it.ExecFile(context.Background(), "demo.tiny", []byte(src)); err != nil {
		fmt.Println(it.FormatError(err))
	}
	// Output:
	// tensor([[1, 0],
	//         [0, 4]], dtype=int32)
	// [1, 4]
}

// ExampleInterp_FormatError shows a runtime error with its source line,
// caret and call frame.
func ExampleInterp_FormatError() {
	it, _ := interp.New(interp.Options{})
	src := `fn step(a, b) {
    return a + b.sum(axis=0)
}
x = step(ones(2, 3), ones(4, 4))
`
	err := it.ExecFile(context.Background(), "model.tiny", []byte(src))
	fmt.Println(it.FormatError(err))
	// Output:
	// model.tiny:2:14: error: cannot broadcast shapes (2, 3) and (4,)
	//         return a + b.sum(axis=0)
	//                  ^
	//   in fn step (model.tiny:4:5)
}

// ExampleInterp_SetGlobal passes a Go slice in as a tensor and reads the
// result back.
func ExampleInterp_SetGlobal() {
	it, _ := interp.New(interp.Options{})
	it.SetGlobal("x", interp.Tensor([]float32{1, 2, 3, 4}, 2, 2))
	it.SetGlobal("scale", 0.5)
	it.Exec(context.Background(), "<go>", "y = (x * scale).sum(axis=1)", false)
	y, _ := it.Global("y")
	fmt.Printf("%+v\n", y)
	// Output:
	// {Data:[1.5 3.5] Shape:[2] DType:float32}
}

// ExampleInterp_Eval evaluates an expression and converts the result.
func ExampleInterp_Eval() {
	it, _ := interp.New(interp.Options{})
	v, err := it.Eval(context.Background(), `"{} + {} = {}".format(1, 2, 1 + 2)`)
	fmt.Println(v, err)
	// Output:
	// "1 + 2 = 3" <nil>
}

// ExampleInterp_Register adds a Go function as a builtin.
func ExampleInterp_Register() {
	it, _ := interp.New(interp.Options{Stdout: os.Stdout})
	it.Register("double", func(ctx context.Context, args []interp.Value, kwargs map[string]interp.Value) (interp.Value, error) {
		n, ok := args[0].(interp.Int)
		if !ok {
			return nil, fmt.Errorf("double: want an int")
		}
		return n * 2, nil
	})
	it.Exec(context.Background(), "<go>", "print(double(21))", false)
	// Output:
	// 42
}

// ExampleInterp_Exec shows the REPL mode: expression values are echoed.
func ExampleInterp_Exec() {
	it, _ := interp.New(interp.Options{Stdout: os.Stdout})
	it.Exec(context.Background(), "<stdin>", `x = (1, "a")`, true)
	it.Exec(context.Background(), "<stdin>", `x`, true)
	it.Exec(context.Background(), "<stdin>", `print(x[1])`, true)
	// Output:
	// (1, "a")
	// a
}

// ExampleInterp_ExecCell shows the notebook mode: earlier expressions are
// echoed, and the last one's value is returned rather than printed.
func ExampleInterp_ExecCell() {
	it, _ := interp.New(interp.Options{Stdout: os.Stdout})
	res, err := it.ExecCell(context.Background(), "<cell 1>", "x = (1, 2)\nx\nprint(\"sum\")\nx[0] + x[1]")
	fmt.Printf("%q %v\n", res, err)
	res, err = it.ExecCell(context.Background(), "<cell 2>", "y = x")
	fmt.Printf("%q %v\n", res, err)
	// Output:
	// (1, 2)
	// sum
	// "3" <nil>
	// "" <nil>
}

// ExampleInterp_Completions completes names, keywords and, after a dot,
// the methods and attributes of a value.
func ExampleInterp_Completions() {
	it, _ := interp.New(interp.Options{})
	it.Exec(context.Background(), "<stdin>", `config = {"lr": 0.1}`, false)
	fmt.Println(it.Completions("con"))
	fmt.Println(it.Completions("config.l"))
	fmt.Println(it.Completions("x = wh"))
	// Output:
	// [config continue]
	// [config.lr]
	// [x = where x = while]
}
