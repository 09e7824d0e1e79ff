package devices

import (
	"syscall"
	"unsafe"
)

// hugeBytes is the size from which Alloc asks the kernel to back a fresh
// buffer with 2 MiB pages (NumPy asks for them from 4 MiB too). With 4 KiB
// pages a matmul's pack of a weight panel, one cache line from each of 1024
// rows 32 KiB apart, needs a page walk for every row, and a page walk inside
// a virtual machine reads both the guest's and the host's page tables:
// linear_wide (96x1024 @ 1024x8192) ran about 9% faster with them (medians of
// six rounds, old and new alternated in one run).
const hugeBytes = 4 << 20

// hugeMaxBytes is the size from which Alloc leaves a fresh buffer to small
// pages again. A buffer that large is written once in a pass (an
// activation of a batch of thousands, beautiful_mnist's evaluation on its
// 10,000 test images: 703 MiB for the first layer), where its faults cost
// more than a page walk a 4 KiB page saves: on this Firecracker VM a huge
// page the kernel has to find (and zero, and have the host back) took
// 1-30 ms per 4 MiB, small pages 0.63-0.68 ms per MiB steadily. The
// evaluation's forward pass took 2.2-3.6 s a call with small pages for its
// buffers of 64 MiB or more, 2.8-4.8 s with huge ones (three rounds of
// three calls, alternated).
const hugeMaxBytes = 64 << 20

// hugePage is the size of a transparent huge page on x86-64 and arm64.
const hugePage = 2 << 20

// adviseHuge asks for huge pages under the whole 2 MiB pages inside b
// (madvise MADV_HUGEPAGE; the system's setting is "madvise" on Debian). It
// must run before b is first written: the kernel picks a page's size when a
// write first faults it in, and memory the Go heap hands out again keeps the
// pages it has. The advice is a hint: where the kernel has no huge page to
// give, or refuses, b keeps small pages and nothing else changes.
func adviseHuge(b []byte) {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (p + hugePage - 1) &^ (hugePage - 1)
	hi := (p + uintptr(len(b))) &^ (hugePage - 1)
	if hi > lo {
		syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, syscall.MADV_HUGEPAGE)
	}
}
