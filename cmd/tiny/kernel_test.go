package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestKernelInstall(t *testing.T) {
	data := t.TempDir()
	res := runTiny(t, t.TempDir(), "", []string{"JUPYTER_DATA_DIR=" + data}, "kernel", "install")
	if res.status != 0 || !strings.Contains(res.stdout, filepath.Join(data, "kernels", "tiny")) {
		t.Fatalf("install: %+v", res)
	}
	checkSpec(t, filepath.Join(data, "kernels", "tiny", "kernel.json"))

	home := t.TempDir() // --user without JUPYTER_DATA_DIR: ~/.local/share/jupyter
	cmd := exec.Command(tinyBinary(t), "kernel", "install", "--user")
	cmd.Env = []string{"HOME=" + home}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("install --user: %v\n%s", err, out)
	}
	checkSpec(t, filepath.Join(home, ".local", "share", "jupyter", "kernels", "tiny", "kernel.json"))

	prefix := t.TempDir()
	if res := runTiny(t, t.TempDir(), "", nil, "kernel", "install", "--prefix", prefix); res.status != 0 {
		t.Fatalf("install --prefix: %+v", res)
	}
	checkSpec(t, filepath.Join(prefix, "share", "jupyter", "kernels", "tiny", "kernel.json"))
}

// checkSpec checks a kernel.json written by tiny kernel install.
func checkSpec(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		Argv          []string `json:"argv"`
		DisplayName   string   `json:"display_name"`
		Language      string   `json:"language"`
		InterruptMode string   `json:"interrupt_mode"`
	}
	if err := json.Unmarshal(data, &spec); err != nil {
		t.Fatal(err)
	}
	bin, _ := filepath.EvalSymlinks(tinyBinary(t))
	if len(spec.Argv) != 3 || spec.Argv[0] != bin || spec.Argv[1] != "kernel" || spec.Argv[2] != "{connection_file}" ||
		spec.DisplayName != "tiny" || spec.Language != "tiny" || spec.InterruptMode != "message" {
		t.Errorf("%s:\n%s", path, data)
	}
}

func TestKernelUsage(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"ip": "127.0.0.1"}`), 0o600)
	tests := []struct {
		args   []string
		status int
		stderr string
	}{
		{[]string{"kernel"}, 2, "want CONNECTION_FILE"},
		{[]string{"kernel", "a.json", "b.json"}, 2, "want CONNECTION_FILE"},
		{[]string{"kernel", "install", "--system"}, 2, "want [--user|--prefix DIR]"},
		{[]string{"kernel", "install", "--prefix"}, 2, "want [--user|--prefix DIR]"},
		{[]string{"kernel", filepath.Join(dir, "missing.json")}, 1, "no such file"},
		{[]string{"kernel", bad}, 1, "port 0 out of range"},
	}
	for _, tc := range tests {
		res := runTiny(t, dir, "", nil, tc.args...)
		if res.status != tc.status || !strings.Contains(res.stderr, tc.stderr) {
			t.Errorf("tiny %v: %+v, want status %d and %q", tc.args, res, tc.status, tc.stderr)
		}
	}
	if res := runTiny(t, dir, "", nil, "help"); !strings.Contains(res.stdout, "tiny kernel install [--user|--prefix DIR]") {
		t.Errorf("help does not show the kernel: %s", res.stdout)
	}
}

// writeConnection writes a connection file with free loopback ports and
// returns its path and content.
func writeConnection(t *testing.T, dir string) (string, map[string]any) {
	t.Helper()
	conn := map[string]any{"ip": "127.0.0.1", "transport": "tcp", "signature_scheme": "hmac-sha256",
		"key": fmt.Sprintf("test-key-%d", time.Now().UnixNano()), "kernel_name": "tiny"}
	for _, name := range []string{"shell_port", "iopub_port", "stdin_port", "control_port", "hb_port"} {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		conn[name] = l.Addr().(*net.TCPAddr).Port
		defer l.Close()
	}
	data, _ := json.Marshal(conn)
	path := filepath.Join(dir, "kernel.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, conn
}

// TestKernelParentDies starts the kernel from a shell that exits at once,
// as a crashed frontend would: the kernel notices and exits by itself.
func TestKernelParentDies(t *testing.T) {
	if testing.Short() || runtime.GOOS == "windows" {
		t.Skip("starts the kernel")
	}
	dir := t.TempDir()
	path, _ := writeConnection(t, dir)
	sh := exec.Command("sh", "-c", `JPY_PARENT_PID=$$ "$0" kernel "$1" </dev/null >/dev/null 2>&1 & echo $!`, tinyBinary(t), path)
	out, err := sh.Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("kernel pid %q: %v", out, err)
	}
	defer syscall.Kill(pid, syscall.SIGKILL)
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(100 * time.Millisecond) {
		if !running(pid) {
			return
		}
	}
	t.Error("the kernel still runs 10 s after its parent exited")
}

// running reports whether process pid exists and is not a zombie.
func running(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z")
}
