package devices

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"tiny/codegen"
)

// vmFlags returns the VmFlags of the mapping holding address a, from
// /proc/self/smaps.
func vmFlags(t *testing.T, a uintptr) []string {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) > 0 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			lo, hi, _ := strings.Cut(fields[0], "-")
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(a) >= l && uint64(a) < h
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return fields[1:]
		}
	}
	t.Fatalf("no mapping holds %#x", a)
	return nil
}

// TestHugePages: a fresh buffer of 4 MiB or more is advised to use huge
// pages over the 2 MiB pages it spans, and one of them is entirely inside.
func TestHugePages(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Skip("kernel without transparent huge pages")
	}
	b := Alloc(codegen.Float32, hugeBytes/4+1)
	defer b.Free()
	p := uintptr(unsafe.Pointer(&b.Data[0]))
	mid := (p + hugePage - 1) &^ (hugePage - 1)
	if mid+hugePage > p+uintptr(len(b.Data)) {
		t.Fatalf("no whole 2 MiB page inside a buffer of %d bytes", len(b.Data))
	}
	flags := vmFlags(t, mid)
	for _, f := range flags {
		if f == "hg" {
			return
		}
	}
	t.Errorf("a %d-byte buffer's memory is not advised for huge pages: VmFlags %v", len(b.Data), flags)
}

// TestNoHugePagesPastMax: a fresh buffer of hugeMaxBytes or more keeps
// small pages (no MADV_HUGEPAGE on its memory).
func TestNoHugePagesPastMax(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Skip("kernel without transparent huge pages")
	}
	b := Alloc(codegen.Float32, hugeMaxBytes/4)
	defer b.Free()
	p := uintptr(unsafe.Pointer(&b.Data[0]))
	for _, a := range []uintptr{p, p + uintptr(len(b.Data))/2, p + uintptr(len(b.Data)) - 1} {
		for _, f := range vmFlags(t, a) {
			if f == "hg" {
				t.Fatalf("a %d-byte buffer's memory at %#x is advised for huge pages", len(b.Data), a)
			}
		}
	}
}
