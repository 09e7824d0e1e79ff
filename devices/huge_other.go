//go:build !linux

package devices

// hugeBytes is the size from which Alloc would ask for huge pages: only on
// Linux (huge_linux.go).
const hugeBytes = 1 << 62

func adviseHuge([]byte) {}
