package jupyter

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestUserDataDir(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	got, err := UserDataDir(env(map[string]string{"JUPYTER_DATA_DIR": "/j", "HOME": "/h"}))
	if err != nil || got != "/j" {
		t.Errorf("JUPYTER_DATA_DIR: %q %v", got, err)
	}
	if _, err := UserDataDir(env(nil)); err == nil {
		t.Error("no HOME: no error")
	}
	if runtime.GOOS != "linux" {
		return
	}
	for kv, want := range map[[2]string]string{
		{"XDG_DATA_HOME", "/x"}: "/x/jupyter",
		{"HOME", "/h"}:          "/h/.local/share/jupyter",
	} {
		if got, err := UserDataDir(env(map[string]string{kv[0]: kv[1]})); err != nil || got != want {
			t.Errorf("%s=%s: %q %v, want %q", kv[0], kv[1], got, err, want)
		}
	}
}

func TestInstall(t *testing.T) {
	data := filepath.Join(t.TempDir(), "share", "jupyter")
	dir, err := Install(data, Spec("/opt/tiny/bin/tiny"))
	if err != nil || dir != filepath.Join(data, "kernels", "tiny") {
		t.Fatalf("Install: %q %v", dir, err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec map[string]any
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatal(err)
	}
	want := `{"argv":["/opt/tiny/bin/tiny","kernel","{connection_file}"],"display_name":"tiny","interrupt_mode":"message","language":"tiny"}`
	if got, _ := json.Marshal(spec); string(got) != want {
		t.Errorf("kernel.json %s, want %s", got, want)
	}
	if got := PrefixDataDir("/usr/local"); got != filepath.Join("/usr/local", "share", "jupyter") {
		t.Errorf("PrefixDataDir = %s", got)
	}
	// Installing again overwrites.
	if _, err := Install(data, Spec("/other/tiny")); err != nil {
		t.Fatal(err)
	}
}
