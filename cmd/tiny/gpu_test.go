package main

import (
	"strings"
	"testing"
)

// TestGPUWithoutPlatform runs tiny where the OpenCL loader finds no driver
// (OCL_ICD_VENDORS names an empty directory; where libOpenCL itself is
// missing the loader is not found at all): DEVICE=GPU is a clear error,
// not a crash, and the default device never falls back to GPU.
func TestGPUWithoutPlatform(t *testing.T) {
	env := []string{"OCL_ICD_VENDORS=" + t.TempDir()}
	res := runTiny(t, ".", "", append(env, "DEVICE=GPU"), "-c", "print(1)")
	if res.status != 1 || !strings.Contains(res.stderr, "device GPU is not available here") || strings.Contains(res.stderr, "panic") || res.stdout != "" {
		t.Errorf("DEVICE=GPU without a platform: status %d, stdout %q, stderr %q", res.status, res.stdout, res.stderr)
	}
	res = runTiny(t, ".", "", append(env, "DEVICE="), "-c", "print((tensor([1, 2]) + 1).tolist())")
	if res.status != 0 || res.stdout != "[2, 3]\n" {
		t.Errorf("default device without a platform: status %d, stdout %q, stderr %q", res.status, res.stdout, res.stderr)
	}
}
