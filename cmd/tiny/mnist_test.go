package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The beautiful_mnist example trains tinygrad's conv net on Fashion-MNIST.
// The quick test runs a few steps on the subset shipped in the repository;
// the full one runs tinygrad's 70 steps of 512 on Debian's full data set
// and wants tinygrad's accuracy.

const debianMNIST = "/usr/share/datasets/fashion-mnist"

var lastLine = regexp.MustCompile(`(?m)^test accuracy: (\d+\.\d\d)%\n\z`)

// mnistEnv picks CLANG when a C compiler works (the CPU device is the slow
// reference) and keeps the user's kernel cache.
func mnistEnv(env ...string) []string {
	for _, cc := range []string{"cc", "gcc", "clang"} {
		if _, err := exec.LookPath(cc); err == nil {
			env = append(env, "DEVICE=CLANG")
			break
		}
	}
	if dir, err := os.UserCacheDir(); err == nil {
		env = append(env, "XDG_CACHE_HOME="+dir)
	}
	return env
}

// runMNIST runs the example and returns its accuracy and output.
func runMNIST(t *testing.T, env []string) (float64, string) {
	t.Helper()
	res := runTiny(t, "../..", "", env, "run", "examples/beautiful_mnist.tiny")
	if res.status != 0 || res.stderr != "" {
		t.Fatalf("status %d\n%s\n%s", res.status, res.stdout, res.stderr)
	}
	m := lastLine.FindStringSubmatch(res.stdout)
	if m == nil {
		t.Fatalf("the last line is not 'test accuracy: NN.NN%%':\n%s", res.stdout)
	}
	acc, _ := strconv.ParseFloat(m[1], 64)
	return acc, res.stdout
}

// TestBeautifulMNISTSubset trains 10 steps of 64 on the shipped subset,
// which the example falls back to, saying so in one line.
func TestBeautifulMNISTSubset(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a conv net")
	}
	acc, out := runMNIST(t, mnistEnv("MNIST_DIR=/nonexistent", "STEPS=10", "BS=64"))
	t.Logf("test accuracy %.2f%% on the subset", acc)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], "no Fashion-MNIST in /nonexistent") || !strings.Contains(lines[0], "examples/data/fashion-mnist") {
		t.Errorf("first line %q does not say it uses the subset", lines[0])
	}
	if !strings.Contains(out, "10/10 [") {
		t.Errorf("no progress line for the last step:\n%s", out)
	}
	if acc < 40 {
		t.Errorf("accuracy after 10 steps of 64 on the subset: %.2f%%, want >= 40%%\n%s", acc, out)
	}
}

// TestBeautifulMNIST trains tinygrad's 70 steps of 512 on the full data set
// (.ci/run installs dataset-fashion-mnist) and wants at least 82% on the
// 10,000 test images (PyTorch reaches 83.4% with this model). One run's
// final accuracy is a sample with a spread of a few points, while tiny's
// step equals float64 PyTorch's to 1e-6 (bench/mnist/trajectory.py): tiny's
// seeds ended at 83.54 and 83.45% (80.29 and 82.52% with the random
// generator before), PyTorch's seeds 0-7 between 80.18 and 84.09%, one of
// them below 82%. $SEED picks the run. It runs when TINY_MNIST_FULL is set,
// as .ci/run sets it (about 2.5 minutes idle, 2.3 GB): tiny's results are
// the same bits on every run, so it passes or fails deterministically, but
// a change in any kernel's rounding moves the whole trajectory (seed 0 went
// from 83.54% to 82.27% with the fused multiply-add), so such a change can
// fail it by chance about one time in eight.
func TestBeautifulMNIST(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a conv net for minutes")
	}
	if os.Getenv("TINY_MNIST_FULL") == "" {
		t.Skip("70 steps of 512 take about 3 minutes of CPU (up to an hour of wall time under load): set TINY_MNIST_FULL=1 to run them")
	}
	if _, err := os.Stat(debianMNIST + "/train-images-idx3-ubyte.gz"); err != nil {
		t.Skip("Debian's dataset-fashion-mnist is not installed (apt-get install dataset-fashion-mnist): " + err.Error())
	}
	if d, ok := t.Deadline(); ok && time.Until(d) < 20*time.Minute {
		t.Skip("trains for minutes (an hour on a heavily loaded machine): give go test -timeout 20m or more")
	}
	var env []string
	if seed := os.Getenv("SEED"); seed != "" {
		env = append(env, "SEED="+seed)
	}
	acc, out := runMNIST(t, mnistEnv(env...))
	t.Logf("test accuracy %.2f%%", acc)
	if acc < 82 {
		t.Errorf("test accuracy %.2f%% after 70 steps of 512, want >= 82%%\n%s", acc, out)
	}
}
