//go:build !linux

package devices

// hugeBytes and hugeMaxBytes bound the sizes for which Alloc asks for huge
// pages: only on Linux (huge_linux.go).
const hugeBytes, hugeMaxBytes = 1 << 62, 1 << 62

func adviseHuge([]byte) {}
