package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// python is the interpreter that has Debian's Jupyter packages.
const python = "/usr/bin/python3"

// needPython skips the test unless python can import module, naming the
// Debian package that provides it.
func needPython(t *testing.T, module, pkg string) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts Python and the kernel")
	}
	if err := exec.Command(python, "-c", "import "+module).Run(); err != nil {
		t.Skipf("%s cannot import %s: install %s (apt-get install -y %s)", python, module, pkg, pkg)
	}
}

// jupyterEnv installs the kernelspec of the test binary into a fresh
// Jupyter data dir and returns an environment that uses it.
func jupyterEnv(t *testing.T) []string {
	t.Helper()
	home, data := t.TempDir(), t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "JUPYTER_DATA_DIR=" + data,
		"JUPYTER_RUNTIME_DIR=" + filepath.Join(home, "runtime"), "DEVICE=CPU", "JUPYTER_PLATFORM_DIRS=1"}
	cmd := exec.Command(tinyBinary(t), "kernel", "install")
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tiny kernel install: %v\n%s", err, out)
	}
	return env
}

// TestKernelPythonClient drives the kernel with jupyter_client, the
// library every Jupyter frontend uses, through the installed kernelspec.
func TestKernelPythonClient(t *testing.T) {
	needPython(t, "jupyter_client", "python3-jupyter-client")
	cmd := exec.Command(python, "testdata/kernel_client.py")
	cmd.Env = jupyterEnv(t)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(out)), "ok") {
		t.Fatalf("kernel_client.py: %v\n%s", err, out)
	}
	t.Logf("jupyter_client session: %v", time.Since(start).Round(time.Millisecond))
}

// TestKernelParity runs the same protocol scenarios against ipykernel and
// tiny (testdata/kernel_parity.py): Run All after a failure, a replayed
// message, comm_open for an unknown target, store_history=False, input,
// and the keys of every reply, which must come out alike.
func TestKernelParity(t *testing.T) {
	needPython(t, "jupyter_client", "python3-jupyter-client")
	needPython(t, "ipykernel", "python3-ipykernel")
	cmd := exec.Command(python, "-Xfrozen_modules=off", "testdata/kernel_parity.py")
	cmd.Env = append(jupyterEnv(t), "PYDEVD_DISABLE_FILE_VALIDATION=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(out)), "ok") {
		t.Fatalf("kernel_parity.py: %v\n%s", err, out)
	}
}

// TestKernelNotebook executes a notebook with jupyter nbconvert, as a user
// would, and checks the outputs saved in it.
func TestKernelNotebook(t *testing.T) {
	var nb struct {
		Cells []struct {
			CellType       string `json:"cell_type"`
			ExecutionCount *int   `json:"execution_count"`
			Outputs        []struct {
				OutputType string         `json:"output_type"`
				Text       any            `json:"text"`
				Data       map[string]any `json:"data"`
				Ename      string         `json:"ename"`
				Traceback  []string       `json:"traceback"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	data := executeNotebook(t, "testdata/kernel.ipynb", &nb)
	var got []string
	for _, c := range nb.Cells[1:] {
		if c.ExecutionCount == nil {
			t.Fatalf("a code cell did not run:\n%s", data)
		}
		for _, o := range c.Outputs {
			s := fmt.Sprintf("%d %s: %v%v%s%s", *c.ExecutionCount, o.OutputType, text(o.Text), text(o.Data["text/plain"]), o.Ename, strings.Join(o.Traceback, "\n"))
			got = append(got, s)
		}
	}
	want := []string{
		"1 stream: (2, 3)\n",
		"2 execute_result: tensor([ 3, 12], dtype=int32)",
		"3 error: EvalError<cell 3>:1:3: error: reshape: cannot reshape (2, 3) to (4, 2)\n    x.reshape(4, 2)\n      ^",
		"4 execute_result: [[0, 3], [1, 4], [2, 5]]",
	}
	if strings.Join(got, "\n---\n") != strings.Join(want, "\n---\n") {
		t.Errorf("outputs:\n%s\nwant:\n%s", strings.Join(got, "\n---\n"), strings.Join(want, "\n---\n"))
	}
}

// TestKernelExampleNotebook executes examples/notebook.ipynb: every code
// cell runs, and only the one tagged raises-exception fails.
func TestKernelExampleNotebook(t *testing.T) {
	var nb struct {
		Cells []struct {
			CellType       string `json:"cell_type"`
			ExecutionCount *int   `json:"execution_count"`
			Metadata       struct {
				Tags []string `json:"tags"`
			} `json:"metadata"`
			Outputs []struct {
				OutputType string `json:"output_type"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	executeNotebook(t, "../../examples/notebook.ipynb", &nb)
	for i, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		failed := false
		for _, o := range c.Outputs {
			failed = failed || o.OutputType == "error"
		}
		tagged := strings.Contains(fmt.Sprint(c.Metadata.Tags), "raises-exception")
		if c.ExecutionCount == nil || len(c.Outputs) == 0 || failed != tagged {
			t.Errorf("cell %d: count %v, %d outputs, failed %v, tagged %v", i, c.ExecutionCount, len(c.Outputs), failed, tagged)
		}
	}
}

// executeNotebook runs the notebook at path with jupyter nbconvert through
// the installed kernelspec, as a user would, decodes the executed copy into
// nb and returns its text. It skips the test where nbconvert is missing.
func executeNotebook(t *testing.T, path string, nb any) []byte {
	t.Helper()
	needPython(t, "nbconvert, nbclient", "jupyter-nbconvert")
	out := t.TempDir()
	cmd := exec.Command(python, "-m", "nbconvert", "--to", "notebook", "--execute",
		"--ExecutePreprocessor.timeout=60", "--output-dir", out, "--output", "executed", path)
	cmd.Env = jupyterEnv(t)
	start := time.Now()
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nbconvert: %v\n%s", err, msg)
	}
	t.Logf("nbconvert --execute %s: %v", path, time.Since(start).Round(time.Millisecond))
	data, err := os.ReadFile(filepath.Join(out, "executed.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, nb); err != nil {
		t.Fatal(err)
	}
	return data
}

// text joins a notebook's multi-line string, saved as a list of lines.
func text(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, s := range v {
			fmt.Fprint(&b, s)
		}
		return b.String()
	}
	return ""
}
