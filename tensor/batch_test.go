package tensor

import (
	"bytes"
	"strings"
	"testing"

	"tiny/devices/clang"
)

// TestCompileAhead realizes a softmax (three new kernels) on CLANG with an
// empty cache: the engine hands the schedule's kernels to the device
// together and the C compiler runs once for all three; the same expression
// again compiles nothing.
func TestCompileAhead(t *testing.T) {
	if _, err := clang.Available(); err != nil {
		t.Skip(err)
	}
	var log bytes.Buffer
	e, err := NewEngine(Options{Device: "CLANG", CacheDir: t.TempDir(), Debug: 2, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	x := e.Rand([]int{4, 37}, 1).Realize()
	log.Reset()
	got := x.Softmax(1).Sum([]int{1}, false).Floats()
	for i, v := range got {
		if v < 0.9999 || v > 1.0001 {
			t.Errorf("row %d of softmax sums to %v", i, v)
		}
	}
	if n := strings.Count(log.String(), "clang: compiled"); n != 1 || !strings.Contains(log.String(), "compiled 3 kernels in one run") {
		t.Errorf("want the schedule's 3 kernels compiled in one run, log:\n%s", log.String())
	}
	log.Reset()
	x.Softmax(1).Sum([]int{1}, false).Floats()
	if strings.Contains(log.String(), "clang: compiled") {
		t.Errorf("the same schedule compiled again:\n%s", log.String())
	}
}
