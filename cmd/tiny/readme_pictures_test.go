package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tiny/interp"
)

// TestReadmePictures runs docs/img/pictures.tiny, as its comment says to,
// in a scratch directory, and checks that every picture it writes is the
// one committed in docs/img (the README shows them), and that README.md
// shows each and holds the tensor table as written.
func TestReadmePictures(t *testing.T) {
	root, _ := filepath.Abs("../..")
	src, err := os.ReadFile(filepath.Join(root, "docs/img/pictures.tiny"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	if err := os.MkdirAll("docs/img", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll("examples", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "examples/data"), "examples/data"); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	it, err := interp.New(interp.Options{Device: "CPU", Stdout: &out, Stderr: &out, Files: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := it.ExecFile(context.Background(), "docs/img/pictures.tiny", src); err != nil {
		t.Fatal(it.FormatError(err))
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	written := strings.Fields(out.String())
	if len(written) != 7 {
		t.Fatalf("pictures.tiny wrote %q", written)
	}
	for _, p := range written {
		got, _ := os.ReadFile(p)
		want, err := os.ReadFile(filepath.Join(root, p))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is not what pictures.tiny draws now (%v): run DEVICE=CPU tiny run docs/img/pictures.tiny", p, err)
		}
		if strings.HasSuffix(p, ".html") {
			if !bytes.Contains(readme, bytes.TrimSpace(got)) {
				t.Errorf("README.md does not hold the table of %s", p)
			}
		} else if !bytes.Contains(readme, []byte("("+p+")")) {
			t.Errorf("README.md does not show %s", p)
		}
	}
}
