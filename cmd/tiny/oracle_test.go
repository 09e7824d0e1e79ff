package main

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"tiny/internal/oracle"
	"tiny/interp"
)

// TestOracle runs tinygrad's oracle programs through the language, in the
// contract's spelling (no "Tensor." or "dtypes.", true/false), and compares
// the results: exact cases bit for bit, the others within their tolerance.
func TestOracle(t *testing.T) {
	cases := oracle.TensorCases(t)
	pass := 0
	for _, c := range cases {
		if msg := runOracleCase(c); msg != "" {
			t.Errorf("%s: %s", c.ID, msg)
			continue
		}
		pass++
	}
	t.Logf("oracle through the language: %d/%d", pass, len(cases))
}

// tinySpelling rewrites a tinygrad expression in the contract's spelling.
var tinySpelling = strings.NewReplacer("Tensor.", "", "dtypes.", "", "True", "true", "False", "false", "None", "none")

// runOracleCase runs one case and returns what is wrong, or "".
func runOracleCase(c oracle.TensorCase) string {
	var src strings.Builder
	for _, name := range []string{"a", "b"} {
		if in, ok := c.Inputs[name]; ok {
			fmt.Fprintf(&src, "%s = %s\n", name, literal(in))
		}
	}
	fmt.Fprintf(&src, "r = %s\n", tinySpelling.Replace(c.Expr))
	it, err := interp.New(interp.Options{Device: "CPU"})
	if err != nil {
		return err.Error()
	}
	if err := it.Exec(context.Background(), c.ID+".tiny", src.String(), false); err != nil {
		return fmt.Sprintf("%s\n%s", it.FormatError(err), src.String())
	}
	v, _ := it.Global("r")
	got, ok := v.(interp.TensorData)
	if !ok {
		return fmt.Sprintf("r is %T, want a tensor", v)
	}
	return compareOracle(c, got)
}

// literal returns the script text that builds the array.
func literal(o oracle.Array) string {
	vals := make([]string, len(o.Data))
	for i, x := range o.Data {
		vals[i] = strconv.FormatFloat(x, 'g', -1, 64)
		if o.DType == "bool" {
			vals[i] = strconv.FormatBool(x != 0)
		}
	}
	shape := make([]string, len(o.Shape))
	for i, d := range o.Shape {
		shape[i] = strconv.Itoa(d)
	}
	return fmt.Sprintf("tensor([%s], dtype=%s).reshape((%s))", strings.Join(vals, ", "), o.DType, strings.Join(shape, ", ")+tupleComma(len(shape)))
}

func tupleComma(n int) string {
	if n == 1 {
		return ","
	}
	return ""
}

// compareOracle checks got's shape, dtype and values against the case's
// result.
func compareOracle(c oracle.TensorCase, got interp.TensorData) string {
	want := c.Result
	if fmt.Sprint(got.Shape) != fmt.Sprint(want.Shape) && !(len(got.Shape) == 0 && len(want.Shape) == 0) {
		return fmt.Sprintf("shape %v, want %v", got.Shape, want.Shape)
	}
	if got.DType != want.DType {
		return fmt.Sprintf("dtype %s, want %s", got.DType, want.DType)
	}
	vals := toFloats(got.Data)
	if len(vals) != len(want.Data) {
		return fmt.Sprintf("%d values, want %d", len(vals), len(want.Data))
	}
	for i, w := range want.Data {
		g := vals[i]
		bad := math.Float64bits(g) != math.Float64bits(w) && !(math.IsNaN(g) && math.IsNaN(w))
		if !c.Exact && c.Tolerance != nil {
			bad = math.IsNaN(w) != math.IsNaN(g) || math.Abs(g-w) > c.Tolerance.Atol+c.Tolerance.Rtol*math.Abs(w)
		}
		if bad {
			return fmt.Sprintf("value %d is %v, want %v (got %v)", i, g, w, vals)
		}
	}
	return ""
}

// toFloats converts a slice of numbers or bools to float64s.
func toFloats(data any) []float64 {
	v := reflect.ValueOf(data)
	if v.Kind() != reflect.Slice {
		return nil
	}
	out := make([]float64, v.Len())
	for i := range out {
		e := v.Index(i)
		if e.Kind() == reflect.Interface {
			e = e.Elem()
		}
		switch e.Kind() {
		case reflect.Bool:
			if e.Bool() {
				out[i] = 1
			}
		case reflect.Float32, reflect.Float64:
			out[i] = e.Float()
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			out[i] = float64(e.Int())
		case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			out[i] = float64(e.Uint())
		}
	}
	return out
}
