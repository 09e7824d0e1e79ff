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
// final accuracy is a sample with a spread of several points (BatchNorm's
// running statistics lag the weights; the accuracy moves by 2-5 points
// between evaluations 10 steps apart), while tiny's step equals float64
// PyTorch's to 1e-6 (bench/mnist/trajectory.py): with the random generator
// before rand became a kernel, seed 0 ended at 80.29% and seed 1 at
// 82.52%; PyTorch's seeds 0-3 ended at 82.78-83.91%. $SEED picks the run. It
// runs when TINY_MNIST_FULL is set: the run takes 300 s of CPU (48 minutes
// of wall time under load) and 2.2 GB at its peak, and one chance sample
// should not decide CI.
func TestBeautifulMNIST(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a conv net for minutes")
	}
	if os.Getenv("TINY_MNIST_FULL") == "" {
		t.Skip("70 steps of 512 take 300 s of CPU (about 3 minutes on 2 idle cores, up to an hour under load): set TINY_MNIST_FULL=1 to run them")
	}
	if _, err := os.Stat(debianMNIST + "/train-images-idx3-ubyte.gz"); err != nil {
		t.Skip("Debian's dataset-fashion-mnist is not installed (apt-get install dataset-fashion-mnist): " + err.Error())
	}
	if d, ok := t.Deadline(); ok && time.Until(d) < 40*time.Minute {
		t.Skip("trains for up to half an hour: give go test -timeout 40m or more, as .ci/run does")
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
