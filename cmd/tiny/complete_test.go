package main

import (
	"context"
	"testing"

	"tiny/interp"
)

func TestCompleter(t *testing.T) {
	it, err := interp.New(interp.Options{Device: "CPU"})
	if err != nil {
		t.Fatal(err)
	}
	if err := it.Exec(context.Background(), "<test>", "myvalue = [1, 2]", false); err != nil {
		t.Fatal(err)
	}
	has := func(line, want string, wantLen int) {
		t.Helper()
		cands, n := completer{it}.Do([]rune(line), len([]rune(line)))
		for _, c := range cands {
			if string(c) == want && n == wantLen {
				return
			}
		}
		t.Errorf("Do(%q) = %q, %d; want %q among them, %d", line, cands, n, want, wantLen)
	}
	has("x = myv", "alue", 3)
	has("myvalue.tol", "ist", 3)
	has("whi", "le", 3)
	has("print(myvalue.", "sum", 0)
}
