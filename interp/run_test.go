package interp_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"tiny/interp"
)

// TestRunFile runs the script named by $TINY_RUN, for manual checks.
func TestRunFile(t *testing.T) {
	path := os.Getenv("TINY_RUN")
	if path == "" {
		t.Skip("TINY_RUN not set")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	it, _ := interp.New(interp.Options{Stdout: os.Stdout, Stderr: os.Stderr})
	if err := it.ExecFile(context.Background(), path, src); err != nil {
		fmt.Println(it.FormatError(err))
	}
}
