package main

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"tiny/devices/opencl"
)

var update = flag.Bool("update", false, "rewrite the golden files examples/*.out")

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// tinyBinary builds the command once per test run and returns its path.
func tinyBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tinybin")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "tiny")
		if runtime.GOOS == "windows" {
			binPath += ".exe"
		}
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = &buildError{err, out}
		}
	})
	if buildErr != nil {
		t.Fatalf("building tiny: %v", buildErr)
	}
	return binPath
}

type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + string(e.out) }

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// result is what a run of the binary printed and its exit status.
type result struct {
	stdout, stderr string
	status         int
}

// runTiny runs the binary with args, stdin and a clean environment (plus
// env) in dir, and returns what it printed. It runs on the pure-Go CPU
// device unless env picks one.
func runTiny(t *testing.T, dir, stdin string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(tinyBinary(t), args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append([]string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "NO_COLOR=1"}, env...)
	if !picksDevice(env) {
		cmd.Env = append(cmd.Env, "DEVICE=CPU")
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := result{stdout.String(), stderr.String(), 0}
	if ee, ok := err.(*exec.ExitError); ok {
		res.status = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running tiny %v: %v", args, err)
	}
	return res
}

// picksDevice reports whether env sets DEVICE, CPU or CLANG.
func picksDevice(env []string) bool {
	for _, e := range env {
		for _, k := range []string{"DEVICE=", "CPU=", "CLANG="} {
			if strings.HasPrefix(e, k) {
				return true
			}
		}
	}
	return false
}

// TestExamples runs each examples/*.tiny and compares its output with
// examples/NAME.out (rewritten with -update).
func TestExamples(t *testing.T) { testExamples(t, nil, *update) }

// TestExamplesClang runs the examples on the CLANG device: they print the
// same as on the pure-Go CPU device.
func TestExamplesClang(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles kernels")
	}
	found := false
	for _, cc := range []string{"cc", "gcc", "clang"} {
		if _, err := exec.LookPath(cc); err == nil {
			found = true
		}
	}
	if !found {
		t.Skip("no C compiler")
	}
	// The user's kernel cache keeps later runs fast.
	env := []string{"DEVICE=CLANG"}
	if dir, err := os.UserCacheDir(); err == nil {
		env = append(env, "XDG_CACHE_HOME="+dir)
	}
	testExamples(t, env, false)
}

// TestExamplesGPU runs the examples on the GPU device where OpenCL has a
// platform (pocl in CI): the training example's steps and every other
// example print what they print on the CPU device.
func TestExamplesGPU(t *testing.T) {
	if testing.Short() {
		t.Skip("builds kernels")
	}
	if _, err := opencl.Available(); err != nil {
		t.Skip(err)
	}
	env := []string{"DEVICE=GPU"}
	if dir, err := os.UserCacheDir(); err == nil {
		env = append(env, "XDG_CACHE_HOME="+dir)
	}
	testExamples(t, env, false)
}

func testExamples(t *testing.T, env []string, update bool) {
	files, _ := filepath.Glob("../../examples/*.tiny")
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".tiny")
		if name == "beautiful_mnist" {
			continue // trains for minutes and prints times: mnist_test.go runs it
		}
		t.Run(name, func(t *testing.T) {
			res := runTiny(t, "../../examples", "", env, "run", name+".tiny")
			if res.status != 0 || res.stderr != "" {
				t.Fatalf("tiny run %s.tiny: status %d\n%s", name, res.status, res.stderr)
			}
			golden := strings.TrimSuffix(file, ".tiny") + ".out"
			if update {
				if err := os.WriteFile(golden, []byte(res.stdout), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run the test with -update)", err)
			}
			if res.stdout != string(want) {
				t.Errorf("tiny run %s.tiny printed\n%s\nwant (%s)\n%s", name, res.stdout, golden, want)
			}
		})
	}
}

// BenchmarkStartup measures "tiny -c 'print(1)'" from exec to exit; the
// budget is 20 ms (go test -bench Startup -run XXX ./cmd/tiny).
func BenchmarkStartup(b *testing.B) {
	bin := tinyBinary(b)
	for b.Loop() {
		if err := exec.Command(bin, "-c", "print(1)").Run(); err != nil {
			b.Fatal(err)
		}
	}
}
