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
