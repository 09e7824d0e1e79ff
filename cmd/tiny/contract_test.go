package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"testing"

	"tiny/interp"
)

// TestContractTaste runs the "A taste" block of LANGUAGE.md
// (testdata/taste.tiny) and checks that it prints what the contract says.
func TestContractTaste(t *testing.T) {
	src, err := os.ReadFile("testdata/taste.tiny")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	it, err := interp.New(interp.Options{Stdout: &out, Device: "CPU"})
	if err != nil {
		t.Fatal(err)
	}
	if err := it.ExecFile(context.Background(), "taste.tiny", src); err != nil {
		t.Fatal(it.FormatError(err))
	}
	want := regexp.MustCompile(`^tensor\(\[17, 31\], dtype=int32\)
\[17, 31\]
0 \d\S*
1 \d\S*
2 \d\S*
ShapeTracker\(views=\(View\(shape=\(2, 3\), strides=\(1, 2\), offset=0, mask=None, contiguous=False\), View\(shape=\(3, 2\), strides=\(2, 1\), offset=0, mask=None, contiguous=True\)\)\)
\("\(\(\(\(\(ridx0\*2\)\+ridx1\)%3\)\*2\)\+\(\(\(ridx0\*2\)\+ridx1\)//3\)\)", "True"\)
$`)
	if !want.MatchString(out.String()) {
		t.Errorf("taste.tiny printed\n%s", out.String())
	}
}
