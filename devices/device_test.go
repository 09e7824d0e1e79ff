package devices

import (
	"errors"
	"strings"
	"testing"

	"tiny/codegen"
)

// fake is a device whose probe answers probeErr.
type fake struct {
	name     string
	probeErr error
}

func (f *fake) Name() string                             { return f.name }
func (f *fake) Compile(*codegen.Program) (Runner, error) { return nil, errors.New("fake") }
func (f *fake) Probe() (string, error)                   { return "probed", f.probeErr }
func withRegistry(t *testing.T, r map[string]Constructor) {
	mu.Lock()
	old := registry
	registry = r
	mu.Unlock()
	t.Cleanup(func() { mu.Lock(); registry = old; mu.Unlock() })
}

func TestDefaultPrefersCLANG(t *testing.T) {
	withRegistry(t, map[string]Constructor{
		"CPU":   func(Options) (Device, error) { return &fake{name: "CPU"}, nil },
		"CLANG": func(Options) (Device, error) { return &fake{name: "CLANG"}, nil },
	})
	d, why, err := Default(Options{})
	if err != nil || d.Name() != "CLANG" || why != "device CLANG (probed)" {
		t.Fatalf("Default = %v, %q, %v; want CLANG", d, why, err)
	}
}

func TestDefaultFallsBackWithReason(t *testing.T) {
	withRegistry(t, map[string]Constructor{
		"CPU": func(Options) (Device, error) { return &fake{name: "CPU"}, nil },
		"CLANG": func(Options) (Device, error) {
			return &fake{name: "CLANG", probeErr: errors.New("no C compiler found")}, nil
		},
	})
	d, why, err := Default(Options{})
	if err != nil || d.Name() != "CPU" {
		t.Fatalf("Default = %v, %v; want CPU", d, err)
	}
	if !strings.Contains(why, "skipped CLANG: no C compiler found") {
		t.Errorf("reason %q does not say why CLANG was skipped", why)
	}
}

func TestDefaultNothingRuns(t *testing.T) {
	withRegistry(t, map[string]Constructor{
		"CLANG": func(Options) (Device, error) { return &fake{name: "CLANG", probeErr: errors.New("broken")}, nil },
	})
	if _, _, err := Default(Options{}); err == nil || !strings.Contains(err.Error(), "broken") {
		t.Fatalf("Default error = %v, want one naming the probe failure", err)
	}
}

// TestRegisterProbed checks a device that exists only where its probe
// succeeds: Names leaves it out, Open and Check say why, and Default never
// picks it.
func TestRegisterProbed(t *testing.T) {
	withRegistry(t, map[string]Constructor{
		"CPU": func(Options) (Device, error) { return &fake{name: "CPU"}, nil },
	})
	mu.Lock()
	oldProbes := probes
	probes = map[string]*probe{}
	mu.Unlock()
	t.Cleanup(func() { mu.Lock(); probes = oldProbes; mu.Unlock() })
	RegisterProbed("GPU", func(Options) (Device, error) { return &fake{name: "GPU"}, nil }, func() error { return errors.New("no OpenCL platform") })
	if got := Names(); len(got) != 1 || got[0] != "CPU" {
		t.Errorf("Names = %v, want [CPU]", got)
	}
	if _, err := Open("GPU", Options{}); err == nil || !strings.Contains(err.Error(), "device GPU is not available here: no OpenCL platform") {
		t.Errorf("Open(GPU) error = %v", err)
	}
	if err := Check("TPU"); err == nil || !strings.Contains(err.Error(), "unknown device") {
		t.Errorf("Check(TPU) = %v", err)
	}
	if d, _, err := Default(Options{}); err != nil || d.Name() != "CPU" {
		t.Errorf("Default = %v, %v; want CPU", d, err)
	}
	RegisterProbed("GPU2", func(Options) (Device, error) { return &fake{name: "GPU2"}, nil }, func() error { return nil })
	if got := Names(); len(got) != 2 || got[1] != "GPU2" {
		t.Errorf("Names = %v, want [CPU GPU2]", got)
	}
	if d, _, err := Default(Options{}); err != nil || d.Name() != "CPU" {
		t.Errorf("Default = %v, %v; want CPU, never a GPU", d, err)
	}
}

// TestMirror checks a buffer's device copy: host accessors read it back
// once after a kernel wrote it, and mark it stale for the next kernel.
func TestMirror(t *testing.T) {
	b := Alloc(codegen.Float32, 4)
	m := &fakeMirror{data: []byte{0, 0, 128, 63, 0, 0, 0, 64}} // 1.0, 2.0
	b.SetMirror(m, true)
	if _, current := b.Mirrored(); !current {
		t.Fatal("a written mirror is not current")
	}
	if got := b.Float32s()[1]; got != 2 || m.reads != 1 {
		t.Fatalf("b[1] = %v after %d reads, want 2 after 1", got, m.reads)
	}
	_ = b.Float32s()
	if m.reads != 1 {
		t.Errorf("%d reads, want 1: the host copy is current", m.reads)
	}
	if _, current := b.Mirrored(); current {
		t.Error("after a host access the mirror still counts as current")
	}
	b.Free()
	if !m.released {
		t.Error("Free did not release the mirror")
	}
}

type fakeMirror struct {
	data     []byte
	reads    int
	released bool
}

func (f *fakeMirror) Read(dst []byte) error { f.reads++; copy(dst, f.data); return nil }
func (f *fakeMirror) Release()              { f.released = true }

func TestCheckBuffers(t *testing.T) {
	p := &codegen.Program{Name: "E_4", Bufs: []codegen.BufSpec{{DType: codegen.Float32, Size: 4}, {DType: codegen.Int32, Size: 4}}}
	out, in, short, wrong := Alloc(codegen.Float32, 4), Alloc(codegen.Int32, 8), Alloc(codegen.Int32, 3), Alloc(codegen.Float32, 4)
	if err := CheckBuffers("cpu", p, []*Buffer{out, in}); err != nil {
		t.Errorf("fitting buffers: %v", err)
	}
	for _, c := range []struct {
		bufs []*Buffer
		want string
	}{
		{[]*Buffer{out}, "cpu: E_4: got 1 buffers, want 2"},
		{[]*Buffer{out, short}, "cpu: E_4: buffer 1 is int32[3], want int32[4]"},
		{[]*Buffer{out, wrong}, "cpu: E_4: buffer 1 is float32[4], want int32[4]"},
	} {
		if err := CheckBuffers("cpu", p, c.bufs); err == nil || err.Error() != c.want {
			t.Errorf("CheckBuffers = %v, want %q", err, c.want)
		}
	}
}
