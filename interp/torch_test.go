package interp

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tiny/devices"
	"tiny/devices/opencl"
	"tiny/tensor"
)

// This file runs the torch vectors: interp/testdata/torch/*.json, written by
// scripts/torch_vectors/*.py (see common.py there for the format). Each case
// is a tiny expression over named input tensors with torch's result and
// torch's gradients of sum(out_i * upstream_i); it runs through the language
// on every device, with tinygrad's test tolerances unless the case sets its
// own.

type torchArray struct {
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
	Data  []any  `json:"data"`
}

type torchCase struct {
	Name     string                `json:"name"`
	Src      string                `json:"src"`
	Inputs   map[string]torchArray `json:"inputs"`
	Out      []torchArray          `json:"out"`
	Multi    bool                  `json:"multi"`
	Upstream []*torchArray         `json:"upstream"`
	Grads    map[string]torchArray `json:"grads"`
	Error    string                `json:"error"`
	Atol     *float64              `json:"atol"`
	Rtol     *float64              `json:"rtol"`
	Gatol    *float64              `json:"gatol"`
	Grtol    *float64              `json:"grtol"`
	// SignedZeros: a zero of the results must have torch's sign.
	SignedZeros bool `json:"signed_zeros"`
}

// floats returns the array's data as float64s (nan and infinities from
// their strings, bools as 0/1).
func (a torchArray) floats() []float64 {
	out := make([]float64, len(a.Data))
	for i, v := range a.Data {
		switch x := v.(type) {
		case float64:
			out[i] = x
		case bool:
			if x {
				out[i] = 1
			}
		case string:
			switch x {
			case "nan":
				out[i] = math.NaN()
			case "inf":
				out[i] = math.Inf(1)
			case "-inf":
				out[i] = math.Inf(-1)
			default:
				panic("torch vectors: bad number " + x)
			}
		}
	}
	return out
}

// goData converts the array to SetGlobal's form and says which dtype to
// cast the bound tensor to ("" when it already has the array's dtype).
func (a torchArray) goData() (TensorData, string) {
	fs := a.floats()
	td := TensorData{Shape: a.Shape}
	if td.Shape == nil {
		td.Shape = []int{}
	}
	switch a.DType {
	case "float32":
		xs := make([]float32, len(fs))
		for i, v := range fs {
			xs[i] = float32(v)
		}
		td.Data = xs
		return td, ""
	case "float64":
		td.Data = fs
		return td, ""
	case "bool":
		xs := make([]bool, len(fs))
		for i, v := range fs {
			xs[i] = v != 0
		}
		td.Data = xs
		return td, ""
	case "int32":
		xs := make([]int32, len(fs))
		for i, v := range fs {
			xs[i] = int32(v)
		}
		td.Data = xs
		return td, ""
	}
	if strings.HasPrefix(a.DType, "float") || a.DType == "bfloat16" {
		td.Data = fs
		return td, a.DType
	}
	// Integers travel as int64 (exact: JSON numbers of int64 vectors are
	// integral and the generators keep them below 2^53).
	xs := make([]int64, len(fs))
	for i, v := range fs {
		xs[i] = int64(v)
	}
	td.Data = xs
	if a.DType == "int64" {
		return td, ""
	}
	return td, a.DType
}

type torchSuite struct {
	Suite string      `json:"suite"`
	Cases []torchCase `json:"cases"`
}

func TestTorchVectors(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "torch", "*.json"))
	if len(files) == 0 {
		t.Fatal("no torch vectors in testdata/torch")
	}
	var suites []torchSuite
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var suite torchSuite
		if err := json.Unmarshal(raw, &suite); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		suites = append(suites, suite)
	}
	if _, err := opencl.Available(); err != nil {
		t.Run("GPU", func(t *testing.T) { t.Skip(err) })
	}
	for _, dev := range devices.Names() {
		if dev == "REF" && os.Getenv("TINY_TEST_REF") == "" {
			// The reference interpreter takes minutes over the suites
			// (2 min of CPU): opt-in.
			t.Log("REF not tested here: set TINY_TEST_REF=1")
			continue
		}
		if dev == "GPU" {
			prebuildTorchGPU(t, suites)
		}
		for _, suite := range suites {
			t.Run(dev+"/"+suite.Suite, func(t *testing.T) {
				for _, c := range suite.Cases {
					if err := runTorchCase(dev, nil, c); err != nil {
						t.Errorf("%s: %s\n    %s", c.Name, c.Src, err)
					}
				}
			})
		}
	}
}

// prebuildTorchGPU runs the suites on a device that lowers as the GPU
// device does but runs on the CPU device (subtests GPU-prebuild/...),
// then builds every program they met on the GPU device in a few driver
// builds (opencl.Prebuild): built case by case, each schedule's kernels
// would cost a driver build of their own (about a second on pocl, over
// about two thousand schedules).
func prebuildTorchGPU(t *testing.T, suites []torchSuite) {
	host, err := devices.Open("CPU", devices.Options{})
	if err != nil {
		t.Fatalf("CPU device: %v", err)
	}
	rec := opencl.NewRecorder(host)
	for _, suite := range suites {
		t.Run("GPU-prebuild/"+suite.Suite, func(t *testing.T) {
			for _, c := range suite.Cases {
				if err := runTorchCase("", rec, c); err != nil {
					t.Errorf("%s: %s\n    %s", c.Name, c.Src, err)
				}
			}
		})
	}
	start := time.Now()
	n, err := rec.Prebuild()
	if err != nil {
		t.Fatalf("GPU prebuild: %v", err)
	}
	t.Logf("GPU: built %d programs ahead in %v", n, time.Since(start).Round(time.Millisecond))
}

// runTorchCase runs one case on a device (on dev, or on the device rec
// when it is not nil) and compares it with torch's values.
func runTorchCase(dev string, rec devices.Device, c torchCase) error {
	it, err := New(Options{Device: dev})
	if err != nil {
		return err
	}
	if rec != nil {
		it.eng = tensor.NewEngineOn(rec, tensor.Options{Context: func() context.Context { return it.ctx }})
	}
	ctx := context.Background()
	var setup strings.Builder
	for name, a := range c.Inputs {
		td, cast := a.goData()
		if err := it.SetGlobal("__in_"+name, td); err != nil {
			return fmt.Errorf("input %s: %v", name, err)
		}
		expr := "__in_" + name
		if cast != "" {
			expr += ".cast(" + cast + ")"
		}
		if _, ok := c.Grads[name]; ok {
			// Marked, so that reading the result keeps the graph the
			// gradient needs, as in tinygrad.
			expr += ".requires_grad_()"
		}
		fmt.Fprintf(&setup, "%s = %s\n", name, expr)
	}
	if err := it.Exec(ctx, "setup", setup.String(), false); err != nil {
		return fmt.Errorf("setup: %s", it.FormatError(err))
	}
	err = it.Exec(ctx, "case.tiny", "__out = "+c.Src+"\n", false)
	if c.Error != "" {
		if err == nil {
			// A lazy error shows when the value is read.
			err = it.Exec(ctx, "read.tiny", "realize(__out)\n", false)
		}
		if err == nil {
			return fmt.Errorf("want an error containing %q, got none", c.Error)
		}
		if msg := it.FormatError(err); !strings.Contains(msg, c.Error) {
			return fmt.Errorf("want an error containing %q, got:\n%s", c.Error, msg)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s", it.FormatError(err))
	}
	out := it.globals.vars["__out"]
	var outs []Value
	if c.Multi {
		seq, ok := out.(Sequence)
		if !ok {
			return fmt.Errorf("want %d results, got a %s", len(c.Out), out.Type())
		}
		for i := 0; i < seq.Len(); i++ {
			outs = append(outs, seq.At(i))
		}
	} else {
		outs = []Value{out}
	}
	if len(outs) != len(c.Out) {
		return fmt.Errorf("want %d results, got %d", len(c.Out), len(outs))
	}
	atol, rtol := tolOr(c.Atol, 1e-6), tolOr(c.Rtol, 1e-3)
	for i, o := range outs {
		if err := compareTorch(fmt.Sprintf("result %d", i), o, c.Out[i], atol, rtol, c.SignedZeros); err != nil {
			return err
		}
	}
	if len(c.Grads) == 0 {
		return nil
	}
	// loss = sum(out_i * upstream_i); grads of it with respect to c.Grads' inputs.
	var loss, names []string
	for i, u := range c.Upstream {
		if u == nil {
			continue
		}
		td, cast := u.goData()
		if err := it.SetGlobal(fmt.Sprintf("__up%d", i), td); err != nil {
			return err
		}
		up := fmt.Sprintf("__up%d", i)
		if cast != "" {
			up += ".cast(" + cast + ")"
		}
		res := "__out"
		if c.Multi {
			res = fmt.Sprintf("__out[%d]", i)
		}
		loss = append(loss, fmt.Sprintf("(%s * %s).sum()", res, up))
	}
	for name := range c.Grads {
		names = append(names, name)
	}
	src := fmt.Sprintf("__grads = (%s).gradient(%s)\n", strings.Join(loss, " + "), strings.Join(names, ", "))
	if err := it.Exec(ctx, "grad.tiny", src, false); err != nil {
		return fmt.Errorf("gradient: %s", it.FormatError(err))
	}
	grads := it.globals.vars["__grads"].(Sequence)
	gatol, grtol := tolOr(c.Gatol, 1e-4), tolOr(c.Grtol, 1e-3)
	for i, name := range names {
		if err := compareTorch("gradient of "+name, grads.At(i), c.Grads[name], gatol, grtol, false); err != nil {
			return err
		}
	}
	return nil
}

func tolOr(p *float64, def float64) float64 {
	if p != nil {
		return *p
	}
	return def
}

// compareTorch checks a result against torch's: shape and dtype exactly,
// values within atol + rtol*|want| (nan where torch has nan, infinities
// equal, integers and bools exactly; with signedZeros a zero's sign too).
func compareTorch(what string, got Value, want torchArray, atol, rtol float64, signedZeros bool) (err error) {
	tvl, ok := got.(*TensorValue)
	if !ok {
		return fmt.Errorf("%s: want a tensor, got %s", what, got.Type())
	}
	t := tvl.t
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*tensor.Error); ok {
				err = fmt.Errorf("%s: %v", what, e)
				return
			}
			panic(r)
		}
	}()
	wantShape := want.Shape
	if wantShape == nil {
		wantShape = []int{}
	}
	if tensor.FormatShape(t.Shape()) != tensor.FormatShape(wantShape) {
		return fmt.Errorf("%s: shape %s, torch %s", what, tensor.FormatShape(t.Shape()), tensor.FormatShape(wantShape))
	}
	if d := t.DType().String(); d != want.DType {
		return fmt.Errorf("%s: dtype %s, torch %s", what, d, want.DType)
	}
	w := want.floats()
	var g []float64
	exact := !t.DType().IsFloat()
	if exact {
		if t.DType() == tensor.Bool {
			for _, b := range t.Bools() {
				g = append(g, b2f(b))
			}
		} else if t.DType() == tensor.Uint64 {
			g = t.Floats() // above 2**63 an int64 would be negative
		} else {
			for _, x := range t.Ints() {
				g = append(g, float64(x))
			}
		}
	} else {
		g = t.Floats()
	}
	bad, first := 0, -1
	for i := range w {
		var ok bool
		switch {
		case exact:
			ok = g[i] == w[i]
		case math.IsNaN(w[i]):
			ok = math.IsNaN(g[i])
		case math.IsInf(w[i], 0):
			ok = g[i] == w[i]
		case signedZeros && w[i] == 0:
			ok = g[i] == 0 && math.Signbit(g[i]) == math.Signbit(w[i])
		default:
			ok = math.Abs(g[i]-w[i]) <= atol+rtol*math.Abs(w[i])
		}
		if !ok {
			bad++
			if first < 0 {
				first = i
			}
		}
	}
	if bad > 0 {
		return fmt.Errorf("%s: %d of %d values differ; first at flat index %d: got %v, torch %v", what, bad, len(w), first, g[first], w[first])
	}
	return nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
