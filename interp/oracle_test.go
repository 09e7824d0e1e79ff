package interp_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"tiny/internal/oracle"
	"tiny/interp"
)

// tinySpelling translates tinygrad's spelling to the language's (dim= and
// axis= are the same keyword, so dim= stays).
func tinySpelling(expr string) string {
	r := strings.NewReplacer("Tensor.", "", "dtypes.", "", "True", "true", "False", "false")
	return r.Replace(expr)
}

// goData converts an array of the vectors to the embedding API's form.
func goData(d oracle.Array) interp.TensorData {
	td := interp.TensorData{Shape: d.Shape}
	data := d.Data
	switch d.DType {
	case "int32":
		xs := make([]int32, len(data))
		for i, v := range data {
			xs[i] = int32(v)
		}
		td.Data = xs
	case "bool":
		xs := make([]bool, len(data))
		for i, v := range data {
			xs[i] = v != 0
		}
		td.Data = xs
	default:
		xs := make([]float32, len(data))
		for i, v := range data {
			xs[i] = float32(v)
		}
		td.Data = xs
	}
	if td.Shape == nil {
		td.Shape = []int{}
	}
	return td
}

// TestOracle runs tinygrad's recorded tensor programs through the language.
func TestOracle(t *testing.T) {
	cases := oracle.TensorCases(t)
	pass := 0
	for _, c := range cases {
		if err := runOracle(c); err != nil {
			t.Errorf("%s: %s: %v", c.ID, tinySpelling(c.Expr), err)
			continue
		}
		pass++
	}
	t.Logf("oracle: %d/%d programs pass through the language", pass, len(cases))
}

func runOracle(c oracle.TensorCase) error {
	it, err := interp.New(interp.Options{Device: os.Getenv("TINY_DEVICE")})
	if err != nil {
		return err
	}
	for name, d := range c.Inputs {
		if err := it.SetGlobal(name, goData(d)); err != nil {
			return err
		}
	}
	ctx := context.Background()
	if err := it.Exec(ctx, "oracle.tiny", "result = "+tinySpelling(c.Expr), false); err != nil {
		return fmt.Errorf("%s", it.FormatError(err))
	}
	v, _ := it.Global("result")
	got, ok := v.(interp.TensorData)
	if !ok {
		return fmt.Errorf("result is %T, not a tensor", v)
	}
	if fmt.Sprint(got.Shape) != fmt.Sprint(c.Result.Shape) && !(len(got.Shape) == 0 && len(c.Result.Shape) == 0) {
		return fmt.Errorf("shape %v, want %v", got.Shape, c.Result.Shape)
	}
	if got.DType != c.Result.DType {
		return fmt.Errorf("dtype %s, want %s", got.DType, c.Result.DType)
	}
	vals := floats(got.Data)
	for i, want := range c.Result.Data {
		g := vals[i]
		if c.Exact || c.Tolerance == nil {
			if g != want && !(math.IsNaN(g) && math.IsNaN(want)) {
				return fmt.Errorf("element %d = %v, want %v exactly", i, g, want)
			}
		} else if math.Abs(g-want) > c.Tolerance.Atol+c.Tolerance.Rtol*math.Abs(want) {
			return fmt.Errorf("element %d = %v, want %v", i, g, want)
		}
	}
	return nil
}

func floats(data any) []float64 {
	var out []float64
	switch d := data.(type) {
	case []float32:
		for _, x := range d {
			out = append(out, float64(x))
		}
	case []int32:
		for _, x := range d {
			out = append(out, float64(x))
		}
	case []bool:
		for _, x := range d {
			out = append(out, map[bool]float64{true: 1}[x])
		}
	}
	return out
}
