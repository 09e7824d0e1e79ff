#include "textflag.h"

// func mulAdd2x4AVX2(a, b, x0, x1, x2, x3 *float32, n int, s, t *float32)
// a[j] = fma(x3[j], s[3], fma(x2[j], s[2], fma(x1[j], s[1], fma(x0[j], s[0], a[j])))),
// and b the same with t, eight elements at a time, each multiply-add
// rounded once (FMA3); n is a multiple of 8.
TEXT ·mulAdd2x4AVX2(SB), NOSPLIT, $0-72
	MOVQ a+0(FP), DI
	MOVQ b+8(FP), SI
	MOVQ x0+16(FP), R8
	MOVQ x1+24(FP), R9
	MOVQ x2+32(FP), R10
	MOVQ x3+40(FP), R11
	MOVQ n+48(FP), CX
	MOVQ s+56(FP), AX
	MOVQ t+64(FP), BX
	VBROADCASTSS 0(AX), Y0
	VBROADCASTSS 4(AX), Y1
	VBROADCASTSS 8(AX), Y2
	VBROADCASTSS 12(AX), Y3
	VBROADCASTSS 0(BX), Y4
	VBROADCASTSS 4(BX), Y5
	VBROADCASTSS 8(BX), Y6
	VBROADCASTSS 12(BX), Y7
	SHLQ $2, CX
	XORQ DX, DX

loop2:
	CMPQ DX, CX
	JGE  done2
	VMOVUPS (R8)(DX*1), Y8
	VMOVUPS (R9)(DX*1), Y9
	VMOVUPS (R10)(DX*1), Y10
	VMOVUPS (R11)(DX*1), Y11
	VMOVUPS (DI)(DX*1), Y12
	VFMADD231PS Y0, Y8, Y12
	VFMADD231PS Y1, Y9, Y12
	VFMADD231PS Y2, Y10, Y12
	VFMADD231PS Y3, Y11, Y12
	VMOVUPS Y12, (DI)(DX*1)
	VMOVUPS (SI)(DX*1), Y13
	VFMADD231PS Y4, Y8, Y13
	VFMADD231PS Y5, Y9, Y13
	VFMADD231PS Y6, Y10, Y13
	VFMADD231PS Y7, Y11, Y13
	VMOVUPS Y13, (SI)(DX*1)
	ADDQ    $32, DX
	JMP     loop2

done2:
	VZEROUPPER
	RET

// func mulAdd1x4AVX2(a, x0, x1, x2, x3 *float32, n int, s *float32)
TEXT ·mulAdd1x4AVX2(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), DI
	MOVQ x0+8(FP), R8
	MOVQ x1+16(FP), R9
	MOVQ x2+24(FP), R10
	MOVQ x3+32(FP), R11
	MOVQ n+40(FP), CX
	MOVQ s+48(FP), AX
	VBROADCASTSS 0(AX), Y0
	VBROADCASTSS 4(AX), Y1
	VBROADCASTSS 8(AX), Y2
	VBROADCASTSS 12(AX), Y3
	SHLQ $2, CX
	XORQ DX, DX

loop1:
	CMPQ DX, CX
	JGE  done1
	VMOVUPS (R8)(DX*1), Y8
	VMOVUPS (R9)(DX*1), Y9
	VMOVUPS (R10)(DX*1), Y10
	VMOVUPS (R11)(DX*1), Y11
	VMOVUPS (DI)(DX*1), Y12
	VFMADD231PS Y0, Y8, Y12
	VFMADD231PS Y1, Y9, Y12
	VFMADD231PS Y2, Y10, Y12
	VFMADD231PS Y3, Y11, Y12
	VMOVUPS Y12, (DI)(DX*1)
	ADDQ    $32, DX
	JMP     loop1

done1:
	VZEROUPPER
	RET

// func exp2RunAVX2(d, a *float32, n int, table *float64, consts *uint64, add float32, mul float64) int
// exp2ScaledRun's loop (d = 2**((a + add) * mul), the sum rounded to
// float32, the product taken in float64), four elements at a time in float64
// with the same operations in the same order (no fused multiply-add). It stops before the
// first group of four whose argument is NaN or outside [-151, 128) and
// returns how many elements it did; n is a multiple of 4.
// consts: shift, ln2, 1, 1/2, 1/6, 1/24, 128, -151 (float64 bits), 31, 1023*32.
TEXT ·exp2RunAVX2(SB), NOSPLIT, $0-64
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ table+24(FP), R8
	MOVQ consts+32(FP), R9
	VBROADCASTSD 0(R9), Y15
	VBROADCASTSD 8(R9), Y14
	VBROADCASTSD 16(R9), Y13
	VBROADCASTSD 24(R9), Y12
	VBROADCASTSD 32(R9), Y11
	VBROADCASTSD 40(R9), Y10
	SHLQ $2, CX
	XORQ DX, DX

loope:
	CMPQ DX, CX
	JGE  donee
	VMOVUPS (SI)(DX*1), X0
	VBROADCASTSS add+40(FP), X8
	VADDPS X8, X0, X0
	VCVTPS2PD X0, Y0
	VBROADCASTSD mul+48(FP), Y8
	VMULPD Y8, Y0, Y0
	VBROADCASTSD 48(R9), Y8
	VCMPPD $1, Y8, Y0, Y6
	VBROADCASTSD 56(R9), Y8
	VCMPPD $13, Y8, Y0, Y7
	VANDPD Y7, Y6, Y6
	VMOVMSKPD Y6, AX
	CMPQ AX, $15
	JNE  donee
	VADDPD Y15, Y0, Y1
	VPSUBQ Y15, Y1, Y2
	VSUBPD Y15, Y1, Y3
	VSUBPD Y3, Y0, Y4
	VMULPD Y14, Y4, Y4
	VMULPD Y10, Y4, Y5
	VADDPD Y11, Y5, Y5
	VMULPD Y4, Y5, Y5
	VADDPD Y12, Y5, Y5
	VMULPD Y4, Y5, Y5
	VADDPD Y13, Y5, Y5
	VMULPD Y4, Y5, Y5
	VADDPD Y13, Y5, Y5
	VPBROADCASTQ 64(R9), Y8
	VPAND Y8, Y2, Y6
	VPCMPEQQ Y7, Y7, Y7
	VGATHERQPD Y7, (R8)(Y6*8), Y8
	VPBROADCASTQ 72(R9), Y9
	VPADDQ Y9, Y2, Y9
	VPSRLQ $5, Y9, Y9
	VPSLLQ $52, Y9, Y9
	VMULPD Y8, Y5, Y5
	VMULPD Y9, Y5, Y5
	VCVTPD2PSY Y5, X5
	VMOVUPS X5, (DI)(DX*1)
	ADDQ $16, DX
	JMP  loope

donee:
	VZEROUPPER
	SHRQ $2, DX
	MOVQ DX, ret+56(FP)
	RET

// func sinRunAVX2(d, a *float32, n int, consts *uint64) int
// sinRunGo's loop, four elements at a time in float64 with its operations
// in its order. It stops before the first group of four holding a NaN or a
// value of magnitude 1e5 or more and returns how many elements it did; n is
// a multiple of 4. consts: see sinConsts.
TEXT ·sinRunAVX2(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ consts+24(FP), R9
	VBROADCASTSD 8(R9), Y15
	VBROADCASTSD 16(R9), Y14
	VBROADCASTSD 24(R9), Y13
	VBROADCASTSD 32(R9), Y12
	VBROADCASTSD 40(R9), Y11
	VBROADCASTSD 48(R9), Y10
	SHLQ $2, CX
	XORQ DX, DX

loops:
	CMPQ DX, CX
	JGE  dones
	VCVTPS2PD (SI)(DX*1), Y0
	VBROADCASTSD 112(R9), Y8
	VANDPD Y8, Y0, Y1
	VBROADCASTSD 0(R9), Y8
	VCMPPD $1, Y8, Y1, Y1
	VMOVMSKPD Y1, AX
	CMPQ AX, $15
	JNE  dones
	// t = v*(1/pi) + shift, k = t - shift
	VMULPD Y15, Y0, Y1
	VADDPD Y14, Y1, Y1
	VSUBPD Y14, Y1, Y2
	// r = ((v - k*pia) - k*pib) - k*pic
	VMULPD Y13, Y2, Y3
	VSUBPD Y3, Y0, Y3
	VMULPD Y12, Y2, Y4
	VSUBPD Y4, Y3, Y3
	VMULPD Y11, Y2, Y4
	VSUBPD Y4, Y3, Y3
	// r2 = r*r; q = c13 - r2*c15; q = c11 - r2*q; ... q = c3 - r2*q
	VMULPD Y3, Y3, Y4
	VBROADCASTSD 104(R9), Y5
	VMULPD Y5, Y4, Y5
	VBROADCASTSD 96(R9), Y6
	VSUBPD Y5, Y6, Y5
	VMULPD Y5, Y4, Y5
	VBROADCASTSD 88(R9), Y6
	VSUBPD Y5, Y6, Y5
	VMULPD Y5, Y4, Y5
	VBROADCASTSD 80(R9), Y6
	VSUBPD Y5, Y6, Y5
	VMULPD Y5, Y4, Y5
	VBROADCASTSD 72(R9), Y6
	VSUBPD Y5, Y6, Y5
	VMULPD Y5, Y4, Y5
	VBROADCASTSD 64(R9), Y6
	VSUBPD Y5, Y6, Y5
	VMULPD Y5, Y4, Y5
	VBROADCASTSD 56(R9), Y6
	VSUBPD Y5, Y6, Y5
	// s = r * (1 - r2*q)
	VMULPD Y5, Y4, Y5
	VSUBPD Y5, Y10, Y5
	VMULPD Y5, Y3, Y5
	// flip the sign when k is odd: t's lowest bit
	VPSLLQ $63, Y1, Y1
	VXORPD Y1, Y5, Y5
	VCVTPD2PSY Y5, X5
	VMOVUPS X5, (DI)(DX*1)
	ADDQ $16, DX
	JMP  loops

dones:
	VZEROUPPER
	SHRQ $2, DX
	MOVQ DX, ret+32(FP)
	RET

// func dot4FMA(x, y *float32, n int, ys int, s *float32)
// s[k] = fma(x[i], y[i*ys], s[k]) for i = k, k+4, ... < n (ys 0 or 1),
// four partial sums in the lanes of one register, as dot32's Go loop;
// n is a multiple of 4.
TEXT ·dot4FMA(SB), NOSPLIT, $0-40
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ n+16(FP), CX
	MOVQ ys+24(FP), BX
	MOVQ s+32(FP), AX
	VMOVUPS (AX), X0
	VBROADCASTSS (DI), X2
	SHLQ $2, CX
	XORQ DX, DX
	TESTQ BX, BX
	JZ   bcast4

loop4:
	CMPQ DX, CX
	JGE  done4
	VMOVUPS (SI)(DX*1), X1
	VMOVUPS (DI)(DX*1), X2
	VFMADD231PS X2, X1, X0
	ADDQ $16, DX
	JMP  loop4

bcast4:
	CMPQ DX, CX
	JGE  done4
	VMOVUPS (SI)(DX*1), X1
	VFMADD231PS X2, X1, X0
	ADDQ $16, DX
	JMP  bcast4

done4:
	VMOVUPS X0, (AX)
	RET

// func dotChain4FMA(x, y, z, w *float32, n int, ys int, s *float32)
// s[k] = fma(fma(x[i], y[i*ys], z[i]), w[i], s[k]) for i = k, k+4, ... < n
// (ys 0 or 1), as dotChain32's Go loop with z and w contiguous; n is a
// multiple of 4.
TEXT ·dotChain4FMA(SB), NOSPLIT, $0-56
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ z+16(FP), R8
	MOVQ w+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ ys+40(FP), BX
	MOVQ s+48(FP), AX
	VMOVUPS (AX), X0
	VBROADCASTSS (DI), X2
	SHLQ $2, CX
	XORQ DX, DX

loopc:
	CMPQ DX, CX
	JGE  donec
	VMOVUPS (SI)(DX*1), X1
	TESTQ BX, BX
	JZ   fixedc
	VMOVUPS (DI)(DX*1), X2

fixedc:
	VMOVUPS (R8)(DX*1), X3
	VFMADD231PS X2, X1, X3
	VMOVUPS (R9)(DX*1), X4
	VFMADD231PS X4, X3, X0
	ADDQ $16, DX
	JMP  loopc

donec:
	VMOVUPS X0, (AX)
	RET

// func mulAdd2x4AVX512(a, b, x0, x1, x2, x3 *float32, n int, s, t *float32)
// mulAdd2x4AVX2 sixteen elements at a time (AVX-512F); n is a multiple of
// 16. The same fused multiply-adds in the same order, so the same results.
TEXT ·mulAdd2x4AVX512(SB), NOSPLIT, $0-72
	MOVQ a+0(FP), DI
	MOVQ b+8(FP), SI
	MOVQ x0+16(FP), R8
	MOVQ x1+24(FP), R9
	MOVQ x2+32(FP), R10
	MOVQ x3+40(FP), R11
	MOVQ n+48(FP), CX
	MOVQ s+56(FP), AX
	MOVQ t+64(FP), BX
	VBROADCASTSS 0(AX), Z0
	VBROADCASTSS 4(AX), Z1
	VBROADCASTSS 8(AX), Z2
	VBROADCASTSS 12(AX), Z3
	VBROADCASTSS 0(BX), Z4
	VBROADCASTSS 4(BX), Z5
	VBROADCASTSS 8(BX), Z6
	VBROADCASTSS 12(BX), Z7
	SHLQ $2, CX
	XORQ DX, DX

loop2z:
	CMPQ DX, CX
	JGE  done2z
	VMOVUPS (R8)(DX*1), Z8
	VMOVUPS (R9)(DX*1), Z9
	VMOVUPS (R10)(DX*1), Z10
	VMOVUPS (R11)(DX*1), Z11
	VMOVUPS (DI)(DX*1), Z12
	VFMADD231PS Z0, Z8, Z12
	VFMADD231PS Z1, Z9, Z12
	VFMADD231PS Z2, Z10, Z12
	VFMADD231PS Z3, Z11, Z12
	VMOVUPS Z12, (DI)(DX*1)
	VMOVUPS (SI)(DX*1), Z13
	VFMADD231PS Z4, Z8, Z13
	VFMADD231PS Z5, Z9, Z13
	VFMADD231PS Z6, Z10, Z13
	VFMADD231PS Z7, Z11, Z13
	VMOVUPS Z13, (SI)(DX*1)
	ADDQ    $64, DX
	JMP     loop2z

done2z:
	VZEROUPPER
	RET

// func mulAdd1x4AVX512(a, x0, x1, x2, x3 *float32, n int, s *float32)
// mulAdd1x4AVX2 sixteen elements at a time; n is a multiple of 16.
TEXT ·mulAdd1x4AVX512(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), DI
	MOVQ x0+8(FP), R8
	MOVQ x1+16(FP), R9
	MOVQ x2+24(FP), R10
	MOVQ x3+32(FP), R11
	MOVQ n+40(FP), CX
	MOVQ s+48(FP), AX
	VBROADCASTSS 0(AX), Z0
	VBROADCASTSS 4(AX), Z1
	VBROADCASTSS 8(AX), Z2
	VBROADCASTSS 12(AX), Z3
	SHLQ $2, CX
	XORQ DX, DX

loop1z:
	CMPQ DX, CX
	JGE  done1z
	VMOVUPS (R8)(DX*1), Z8
	VMOVUPS (R9)(DX*1), Z9
	VMOVUPS (R10)(DX*1), Z10
	VMOVUPS (R11)(DX*1), Z11
	VMOVUPS (DI)(DX*1), Z12
	VFMADD231PS Z0, Z8, Z12
	VFMADD231PS Z1, Z9, Z12
	VFMADD231PS Z2, Z10, Z12
	VFMADD231PS Z3, Z11, Z12
	VMOVUPS Z12, (DI)(DX*1)
	ADDQ    $64, DX
	JMP     loop1z

done1z:
	VZEROUPPER
	RET
