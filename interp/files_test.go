package interp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The files in testdata/files are written by scripts/files_interop.py:
// NumPy's .npy files and a safetensors file written from the spec, with
// their values in expected.json, and the files tiny wrote that NumPy and
// the spec reader checked.

func filesInterp(t *testing.T, files bool) *Interp {
	t.Helper()
	it, err := New(Options{Device: "CPU", Files: files})
	if err != nil {
		t.Fatal(err)
	}
	return it
}

func execOK(t *testing.T, it *Interp, src string) {
	t.Helper()
	if err := it.Exec(context.Background(), "test.tiny", src, false); err != nil {
		t.Fatalf("%s\n%s", it.FormatError(err), src)
	}
}

// TestLoadNumpyAndSpecFiles loads the files NumPy and the spec writer made
// and compares every value and dtype.
func TestLoadNumpyAndSpecFiles(t *testing.T) {
	raw, err := os.ReadFile("testdata/files/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var expected map[string]json.RawMessage
	if err := json.Unmarshal(raw, &expected); err != nil {
		t.Fatal(err)
	}
	dtypes := map[string]string{"float32": "float32", "int32": "int32", "uint8": "uint8", "bool": "bool",
		"float64": "float64", "float16": "float16", "int64": "int64"}
	check := func(what string, v Value, want torchArray) {
		t.Helper()
		tvl, ok := v.(*TensorValue)
		if !ok {
			t.Errorf("%s: got a %s", what, v.Type())
			return
		}
		if got := tvl.t.DType().String(); got != dtypes[want.DType] {
			t.Errorf("%s: dtype %s, want %s", what, got, want.DType)
		}
		if err := compareTorch(what, v, want, 0, 0, false); err != nil {
			t.Error(err)
		}
	}
	it := filesInterp(t, true)
	for name, msg := range expected {
		path := filepath.Join("testdata", "files", name)
		if strings.HasSuffix(name, ".npy") {
			var want torchArray
			if err := json.Unmarshal(msg, &want); err != nil {
				t.Fatal(err)
			}
			execOK(t, it, `__x = load_npy("`+path+`")`)
			check(name, it.globals.vars["__x"], want)
			if name == "np_fortran.npy" {
				continue
			}
			// tiny writes the bytes NumPy wrote.
			out := filepath.Join(t.TempDir(), name)
			execOK(t, it, `save_npy(__x, "`+out+`")`)
			a, _ := os.ReadFile(path)
			b, _ := os.ReadFile(out)
			if !bytes.Equal(a, b) {
				t.Errorf("%s: save_npy wrote\n%q\nNumPy wrote\n%q", name, b, a)
			}
			continue
		}
		var want map[string]torchArray
		if err := json.Unmarshal(msg, &want); err != nil {
			t.Fatal(err)
		}
		execOK(t, it, `__d = safe_load("`+path+`")`)
		d := it.globals.vars["__d"].(*Dict)
		if len(d.keys) != len(want) {
			t.Errorf("%s: keys %v", name, d.keys)
		}
		for k, w := range want {
			v, ok := d.Get(k)
			if !ok {
				t.Errorf("%s: no tensor %s", name, k)
				continue
			}
			check(name+":"+k, v, w)
		}
	}
}

// TestWriteFilesNumpyRead checks that tiny still writes the bytes of the
// files NumPy and the spec reader accepted.
func TestWriteFilesNumpyRead(t *testing.T) {
	dir := t.TempDir()
	it := filesInterp(t, true)
	src, err := os.ReadFile("../scripts/files_interop.py")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(src), `WRITE = """`)
	write, _, _ := strings.Cut(rest, `"""`)
	execOK(t, it, strings.ReplaceAll(write, "%(dir)s", dir))
	for _, name := range []string{"tiny.safetensors", "tiny.npy", "tiny_0d.npy"} {
		a, _ := os.ReadFile(filepath.Join("testdata", "files", name))
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: tiny now writes\n%q\nPython checked\n%q", name, b, a)
		}
	}
}

// TestFileErrors checks that a host that grants no file access gets a
// clear error, and so do bad files.
func TestFileErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.bin")
	if err := os.WriteFile(bad, []byte("not a tensor file at all!"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		files bool
		src   string
		want  string
	}{
		{false, `from_file("x")`, "file access is not allowed"},
		{false, `safe_save({"a": ones(2)}, "x")`, "file access is not allowed"},
		{false, `load_npy("x")`, "file access is not allowed"},
		{true, `from_file("` + dir + `/missing")`, "no such file"},
		{true, `from_file("` + bad + `", offset=100)`, "outside the file"},
		{true, `from_file("` + bad + `", dtype=float32)`, "whole number of float32"},
		{true, `load_npy("` + bad + `")`, "not a .npy file"},
		{true, `safe_load("` + bad + `")`, "not a safetensors file"},
		{true, `safe_save({"a": 1}, "` + dir + `/a")`, "not a tensor"},
	}
	for _, c := range cases {
		it := filesInterp(t, c.files)
		err := it.Exec(context.Background(), "test.tiny", c.src, false)
		if err == nil {
			t.Errorf("%s: no error", c.src)
			continue
		}
		if msg := it.FormatError(err); !strings.Contains(msg, c.want) {
			t.Errorf("%s: error %q does not contain %q", c.src, msg, c.want)
		}
	}
}

// TestFromFileGzip reads a gzipped IDX file as tinygrad's mnist loader does.
func TestFromFileGzip(t *testing.T) {
	it := filesInterp(t, true)
	execOK(t, it, `__y = from_file("../examples/data/fashion-mnist/t10k-labels-idx1-ubyte.gz", 8)`)
	y := it.globals.vars["__y"].(*TensorValue).t
	if y.Numel() != 1000 || y.DType().String() != "uint8" {
		t.Fatalf("labels: %d of %s", y.Numel(), y.DType())
	}
	if got := y.Ints()[:10]; !slicesEqual(got, []int64{9, 2, 1, 1, 6, 1, 4, 6, 5, 7}) {
		t.Errorf("first labels %v", got)
	}
}

func slicesEqual(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
