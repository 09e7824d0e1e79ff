// Package oracle finds and decodes the vectors recorded from tinygrad at
// commit a2a4ff30 (shape/testdata/ORACLE_NOTES.md), for the tests of every
// package that replays them: tensor_vectors_public.json, small tensor
// programs with tinygrad's results, and shape_vectors_public.json, movement
// op sequences with tinygrad's views, renders and index maps.
//
// It imports nothing of the module, so that shape's tests may use it as
// well as those of tensor, interp and cmd/tiny; what a case means to a
// package (a Tracker, a Tensor, a script) stays in that package's tests.
package oracle

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TensorCase is one program of tensor_vectors_public.json: a tinygrad
// expression over inputs a and b, and the result tinygrad computed.
type TensorCase struct {
	ID     string           `json:"id"`
	Inputs map[string]Array `json:"inputs"`
	Expr   string           `json:"expr"`
	Result Array            `json:"result"`
	// Exact cases must match bit for bit; the others within Tolerance.
	Exact     bool       `json:"exact"`
	Tolerance *Tolerance `json:"tolerance"`
}

// Tolerance bounds |got-want| by Atol + Rtol*|want|.
type Tolerance struct {
	Rtol float64 `json:"rtol"`
	Atol float64 `json:"atol"`
}

// Array is a tensor of the vectors: flat row-major data, its shape, and a
// dtype (float32, int32 or bool).
type Array struct {
	Shape []int  `json:"shape"`
	DType string `json:"dtype"`
	Data  Floats `json:"data"`
}

// Floats reads a JSON list of numbers, bools (as 0 and 1) and the strings
// "nan", "inf" and "-inf" as float64s.
type Floats []float64

// UnmarshalJSON fails on any other element.
func (f *Floats) UnmarshalJSON(b []byte) error {
	var raw []any
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	out := make(Floats, len(raw))
	for i, v := range raw {
		switch x := v.(type) {
		case bool:
			if x {
				out[i] = 1
			}
		case float64:
			out[i] = x
		case string:
			var err error
			if out[i], err = strconv.ParseFloat(x, 64); err != nil {
				return fmt.Errorf("oracle data: %q", x)
			}
		default:
			return fmt.Errorf("oracle data: %v", v)
		}
	}
	*f = out
	return nil
}

// ShapeCase is one case of shape_vectors_public.json: a start shape and
// its movement ops (or, for some named cases, one View.create), and what
// tinygrad made of them.
type ShapeCase struct {
	ID         string            `json:"id"`
	StartShape []int             `json:"start_shape"`
	Ops        []json.RawMessage `json:"ops"` // each [name, argument]
	Construct  *struct {
		Create struct {
			Shape   []int64    `json:"shape"`
			Strides []int64    `json:"strides"`
			Offset  int64      `json:"offset"`
			Mask    [][2]int64 `json:"mask"`
		} `json:"view_create"`
	} `json:"construct"`
	Views     []View `json:"views"` // as built, not simplified
	Expr      string `json:"expr"`
	ExprRaw   string `json:"expr_raw"`
	Valid     string `json:"valid"`
	Semantics string `json:"render_semantics"`
	// IndexMap is the buffer index at each output position, row-major, or
	// -1 where the position is invalid.
	IndexMap   []int64 `json:"index_map"`
	Simplified struct {
		Views []View `json:"views"`
		Expr  string `json:"expr"`
		Valid string `json:"valid"`
	} `json:"simplified"`
}

// View is one of tinygrad's views as the vectors record it.
type View struct {
	Shape      []int64    `json:"shape"`
	Strides    []int64    `json:"strides"`
	Offset     int64      `json:"offset"`
	Mask       [][2]int64 `json:"mask"`
	Contiguous bool       `json:"contiguous"`
}

// TensorCases returns the cases of tensor_vectors_public.json, or fails t.
func TensorCases(t testing.TB) []TensorCase {
	t.Helper()
	var f struct {
		Cases []TensorCase `json:"cases"`
	}
	load(t, "tensor/testdata/tensor_vectors_public.json", &f)
	return f.Cases
}

// ShapeCases returns the named cases and the random ones of
// shape_vectors_public.json, or fails t.
func ShapeCases(t testing.TB) (named, random []ShapeCase) {
	t.Helper()
	var f struct {
		Named []ShapeCase `json:"named_cases"`
		Cases []ShapeCase `json:"cases"`
	}
	load(t, "shape/testdata/shape_vectors_public.json", &f)
	return f.Named, f.Cases
}

// Repr returns tinygrad's print of a ShapeTracker of views, as in
// "ShapeTracker(views=(View(shape=(2, 3), strides=(3, 1), offset=0,
// mask=None, contiguous=True),))".
func Repr(views []View) string {
	parts := make([]string, len(views))
	for i, v := range views {
		mask := "None"
		if v.Mask != nil {
			pairs := make([]string, len(v.Mask))
			for j, m := range v.Mask {
				pairs[j] = tuple(m[:])
			}
			mask = tupleOf(pairs)
		}
		contiguous := "False"
		if v.Contiguous {
			contiguous = "True"
		}
		parts[i] = fmt.Sprintf("View(shape=%s, strides=%s, offset=%d, mask=%s, contiguous=%s)",
			tuple(v.Shape), tuple(v.Strides), v.Offset, mask, contiguous)
	}
	return "ShapeTracker(views=" + tupleOf(parts) + ")"
}

func tuple(xs []int64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatInt(x, 10)
	}
	return tupleOf(parts)
}

// tupleOf joins parts as a Python tuple: "(1, 2)", "(3,)" or "()".
func tupleOf(parts []string) string {
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// load decodes the file at rel, a path from the module's root, into v.
func load(t testing.TB, rel string, v any) {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
}

// moduleRoot returns the nearest directory at or above the working one
// (a test's package directory) that holds go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("oracle: no go.mod at or above the working directory")
		}
		dir = up
	}
}
