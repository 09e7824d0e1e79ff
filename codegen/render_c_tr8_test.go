package codegen

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestTr8Helper compiles tiny_tr8 with and without AVX and checks that both
// move every element (a, b) of an 8 x 8 tile, from rows ss apart, to
// d[a*ds + b], bit for bit (NaN payloads included), and nothing else.
func TestTr8Helper(t *testing.T) {
	main := cPrelude(map[string]bool{"tr8": true}) + `
#include <stdio.h>
#include <string.h>
int main(void) {
  uint32_t s[8*20], d[8*11];
  for (int i = 0; i < 8*20; i++) s[i] = 0x7fc00000u + i * 977u;
  for (int i = 0; i < 8*11; i++) d[i] = 0xdeadbeefu;
  tiny_tr8(s, 20, d, 11);
  int bad = 0;
  for (int a = 0; a < 8; a++)
    for (int b = 0; b < 11; b++)
      bad += d[a*11 + b] != (b < 8 ? s[b*20 + a] : 0xdeadbeefu);
  printf("%d\n", bad);
  return 0;
}
`
	checkCHelper(t, main, []cBuild{{"-mavx", true}, {"-mno-avx", true}})
}

// TestTr16sHelper compiles tiny_tr16s with AVX-512, with AVX2 alone (each
// row's line as two streamed halves) and without AVX, and checks that each
// moves every element (a, b) of a 16 x 16 tile to d[a*ds + b], bit for bit,
// and nothing else: into rows whole cache lines apart from an aligned d
// (streamed), and where d or the row stride is not a multiple of 64 bytes
// (plain stores), from a source that is not aligned either.
func TestTr16sHelper(t *testing.T) {
	main := cPrelude(map[string]bool{"tr8": true}) + `
#include <stdio.h>
int main(void) {
  static uint32_t s[16*40], d[17*48 + 16] __attribute__((aligned(64)));
  const long cases[3][2] = {{0, 48}, {1, 48}, {0, 20}}; /* offset of d, row stride */
  int bad = 0;
  for (int i = 0; i < 16*40; i++) s[i] = 0x7fc00000u + i * 977u;
  for (int c = 0; c < 3; c++) {
    long off = cases[c][0], ds = cases[c][1];
    for (int i = 0; i < 17*48 + 16; i++) d[i] = 0xdeadbeefu;
    tiny_tr16s(s + 3, 40, d + off, ds);
    for (long i = 0; i < 17*48 + 16; i++) {
      long j = i - off, a = j / ds, b = j % ds;
      uint32_t want = j >= 0 && a < 16 && b < 16 ? s[3 + b*40 + a] : 0xdeadbeefu;
      bad += d[i] != want;
    }
  }
  printf("%d\n", bad);
  return 0;
}
`
	checkCHelper(t, main, []cBuild{{"-mavx512f", cpu.X86.HasAVX512F}, {"-mavx2", cpu.X86.HasAVX2}, {"-mno-avx", true}})
}

// TestVec16Helper compiles tiny_fma16 and tiny_bc16 with and without
// AVX-512 (without, gcc splits each vector in two) and checks both against
// fmaf lane by lane, bit for bit.
func TestVec16Helper(t *testing.T) {
	main := cPrelude(map[string]bool{"vec16": true}) + `
#include <stdio.h>
int main(void) {
  int bad = 0;
  for (int k = 0; k < 100; k++) {
    tiny_v16 a, b, c = tiny_bc16(0.1f * k);
    for (int i = 0; i < 16; i++) { a[i] = 1.0f / (i + k + 1); b[i] = (float)(i * 3 - k) / 7.0f; }
    tiny_v16 r = tiny_fma16(a, b, c);
    for (int i = 0; i < 16; i++) bad += r[i] != __builtin_fmaf(a[i], b[i], 0.1f * k);
  }
  printf("%d\n", bad);
  return 0;
}
`
	checkCHelper(t, main, []cBuild{{"-mavx512f", cpu.X86.HasAVX512F}, {"-mno-avx512f", true}}, "-mfma")
}

// cBuild is one build of a helper's test program: the flag it is compiled
// with, and whether this CPU can run the result.
type cBuild struct {
	flag string
	run  bool
}

// checkCHelper compiles main, a C program that prints how many of its
// checks failed, once per build (each with the extra flags too), runs every
// build the CPU can run, and fails unless each prints 0.
func checkCHelper(t *testing.T, main string, builds []cBuild, extra ...string) {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler")
	}
	if runtime.GOARCH != "amd64" {
		t.Skip("the vector forms are x86-64's")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "helper.c")
	if err := os.WriteFile(src, []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, b := range builds {
		bin := filepath.Join(dir, "helper"+b.flag)
		// -ffp-contract=off as the CLANG device compiles: gcc's default
		// would fuse a multiply and an add written apart.
		args := append(append([]string{"-O2", "-ffp-contract=off", b.flag}, extra...), "-o", bin, src, "-lm")
		if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", b.flag, err, out)
		}
		if !b.run {
			continue // built, but this CPU cannot run it
		}
		out, err := exec.Command(bin).Output()
		if err != nil {
			t.Fatalf("%s: %v", b.flag, err)
		}
		if got := strings.TrimSpace(string(out)); got != "0" {
			t.Errorf("%s: %s checks failed", b.flag, got)
		}
	}
}
