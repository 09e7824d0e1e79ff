package opencl

import (
	"os"
	"path/filepath"
	"testing"
)

func filepathGlob(dir string) ([]string, error) { return filepath.Glob(filepath.Join(dir, "*.bin")) }

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
