package cpu

import "golang.org/x/sys/cpu"

// useAVX2 says whether the float32 exp2 and sin loops run the AVX2 assembly
// of simd_amd64.s: Go does not vectorize, and a matmul spends its time
// in them.
var useAVX2 = cpu.X86.HasAVX2

// useFMA says whether the float32 row-group loops run the AVX2 assembly,
// whose multiply-adds are fused (FMA3), as MULACC is.
var useFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// useAVX512 says whether the float32 row-group loops take sixteen elements
// at a time (AVX-512F, with the OS saving its registers) before the AVX2
// loop takes what is left in eights.
var useAVX512 = useFMA && cpu.X86.HasAVX512F

// mulAdd2x4AVX2 is mulAdd2x4 for float32 over n elements, n a multiple of
// 8, with s and t pointing at four factors each. Each multiply-add is
// fused, in the order of the Go loop, so the results are those of
// codegen.FMA32.
//
//go:noescape
func mulAdd2x4AVX2(a, b, x0, x1, x2, x3 *float32, n int, s, t *float32)

// mulAdd1x4AVX2 is mulAdd2x4AVX2 for one row.
//
//go:noescape
func mulAdd1x4AVX2(a, x0, x1, x2, x3 *float32, n int, s *float32)

// mulAdd2x4AVX512 is mulAdd2x4AVX2 with n a multiple of 16, in 512-bit
// registers: the same multiply-adds in the same order.
//
//go:noescape
func mulAdd2x4AVX512(a, b, x0, x1, x2, x3 *float32, n int, s, t *float32)

// mulAdd1x4AVX512 is mulAdd2x4AVX512 for one row.
//
//go:noescape
func mulAdd1x4AVX512(a, x0, x1, x2, x3 *float32, n int, s *float32)

// exp2RunAVX2 is exp2ScaledRun's loop over n elements (a multiple of 4) up
// to the first group of four that needs exp2f's special cases; it returns
// how many elements it did. table is exp2Table, consts exp2Consts.
//
//go:noescape
func exp2RunAVX2(d, a *float32, n int, table *float64, consts *uint64, add float32, mul float64) int

// sinRunAVX2 is sinRunGo's loop over n elements (a multiple of 4) up to the
// first group of four that needs math.Sin; it returns how many elements it
// did. consts is sinConsts.
//
//go:noescape
func sinRunAVX2(d, a *float32, n int, consts *uint64) int

// dot4FMA runs dot32's passes over n elements (a multiple of 4) with the
// four partial sums s[0..3] in the lanes of one register: the same fused
// multiply-adds in the same order.
//
//go:noescape
func dot4FMA(x, y *float32, n int, ys int, s *float32)

// dotChain4FMA is dot4FMA for dotChain32 with z and w contiguous.
//
//go:noescape
func dotChain4FMA(x, y, z, w *float32, n int, ys int, s *float32)
