package interp_test

import (
	"context"
	"strings"
	"testing"

	"tiny/interp"
)

// Lists and strings count against Options.MaxBytes as tensor buffers do:
// one that would pass the bound is a positioned error, not an out-of-memory
// kill of the host. Tensors held count too.
func TestListsAndStringsCountAgainstBudget(t *testing.T) {
	cases := []struct{ src, want string }{
		{"l = []\nwhile true { l.append(1) }", "<run>:2:16: error: out of memory: a list of 65537 elements (1.0 MiB)"},
		{"s = \"x\" * 2000000", "<run>:1:9: error: out of memory: a string of 2000000 bytes (1.9 MiB)"},
		{"s = \"ab\"\nwhile true { s = s + s }", "<run>:2:20: error: out of memory: a string of 2097152 bytes"},
		{"l = list(range(100000))", "<run>:1:5: error: out of memory: a list of"},
		{"l = [i for i in range(100000)]", "<run>:1:5: error: out of memory: a list of"},
		{"l = [none] * 100000", "<run>:1:12: error: out of memory: a list of 100000 elements"},
		{"l = \",\".join([\"abcdefghabcdefghabcdefghabcdefgh\" for i in range(50000)])", "<run>:1:9: error: out of memory: a string of"},
		{"x = zeros(200000).contiguous().realize()\ns = \"x\" * 400000", "on top of the 781.2 KiB of tensors held would pass the limit of 1.0 MiB"},
	}
	for _, c := range cases {
		it, err := interp.New(interp.Options{MaxBytes: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		err = it.Exec(context.Background(), "<run>", c.src, false)
		if err == nil || !strings.Contains(it.FormatError(err), c.want) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.want)
		}
	}
	it, _ := interp.New(interp.Options{MaxBytes: 1 << 20})
	if err := it.Exec(context.Background(), "<run>", "l = list(range(1000)); s = \"x\" * 100000", false); err != nil {
		t.Errorf("small values under the bound: %v", err)
	}
}
