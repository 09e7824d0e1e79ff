package clang

import (
	"bytes"
	"strings"
	"testing"

	"tiny/codegen"
	"tiny/devices"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

func TestRegistered(t *testing.T) {
	d, err := devices.Open("CLANG", devices.Options{})
	if err != nil || d.Name() != "CLANG" {
		t.Fatalf("Open(CLANG) = %v, %v", d, err)
	}
}

// TestDebugSource checks that Debug 4 prints each kernel's C source.
func TestDebugSource(t *testing.T) {
	open(t, "", 1)
	var log bytes.Buffer
	d, _ := Open(devices.Options{Debug: 4, Log: &log})
	s := shape.FromInts(12)
	p, err := codegen.Lower(kt.Kernel(s, kt.Op(codegen.OpNeg, f32, kt.Load(1, f32, s)), kt.Spec(f32, 12)), codegen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Compile(p); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "void E_12(float* restrict data0, const float* restrict data1, long start, long end)") {
		t.Errorf("debug output lacks the kernel:\n%s", log.String())
	}
}

// TestNoCompiler checks the error when no compiler can be found.
func TestNoCompiler(t *testing.T) {
	found.Lock()
	saved := found.tc
	found.tc = nil
	found.Unlock()
	defer func() {
		found.Lock()
		found.tc = saved
		found.Unlock()
	}()
	t.Setenv("PATH", t.TempDir())
	t.Setenv("CC", "")
	d, err := Open(devices.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := shape.FromInts(3)
	p, _ := codegen.Lower(kt.Kernel(s, kt.Load(1, f32, s), kt.Spec(f32, 3)), codegen.Options{})
	if _, err := d.Compile(p); err == nil || !strings.Contains(err.Error(), "no C compiler found") {
		t.Errorf("Compile without a compiler: %v", err)
	}
}
