package cpu

import (
	"math"
	"math/rand"
	"testing"

	"tiny/codegen"
)

// TestMulAddRows checks the float32 row-group loops (AVX-512 and AVX2
// assembly with FMA3 where the CPU has them, plus a Go tail) bit for bit
// against the same sums written as codegen.FMA32s, for every length up to
// 40, with the AVX-512 loop on (where the CPU has it) and off.
func TestMulAddRows(t *testing.T) {
	defer func(w bool) { useAVX512 = w }(useAVX512)
	modes := []bool{false}
	if useAVX512 {
		modes = append(modes, true)
	} else {
		t.Log("no AVX-512 here: its loop is not checked")
	}
	for _, wide := range modes {
		useAVX512 = wide
		checkMulAddRows(t)
	}
}

func checkMulAddRows(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	vec := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = rng.Float32()*4 - 2
		}
		return v
	}
	for n := 0; n <= 40; n++ {
		a, b := vec(n), vec(n)
		x := [][]float32{vec(n), vec(n), vec(n), vec(n)}
		s, u := vec(4), vec(4)
		wa, wb := make([]float32, n), make([]float32, n)
		for j := range n {
			wa[j], wb[j] = a[j], b[j]
			for k := range 4 {
				wa[j] = codegen.FMA32(x[k][j], s[k], wa[j])
				wb[j] = codegen.FMA32(x[k][j], u[k], wb[j])
			}
		}
		one := append([]float32(nil), a...)
		mulAdd2x4(a, b, x[0], x[1], x[2], x[3], s, u)
		mulAdd1x4(one, x[0], x[1], x[2], x[3], s)
		for j := range n {
			if a[j] != wa[j] || b[j] != wb[j] || one[j] != wa[j] {
				t.Fatalf("n=%d (FMA %v, AVX-512 %v), element %d: %v %v %v, want %v %v", n, useFMA, useAVX512, j, a[j], b[j], one[j], wa[j], wb[j])
			}
		}
	}
}

// TestExp2Run checks exp2Run and exp2ScaledRun (AVX2 assembly where the CPU has it, with the
// Go loop for groups holding special cases and for the tail) bit for bit
// against the Go loop, over the whole range, its edges, NaN and infinities.
func TestExp2Run(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	a := make([]float32, 100003)
	for i := range a {
		switch i % 5 {
		case 0:
			a[i] = rng.Float32()*300 - 170
		case 1:
			a[i] = math.Float32frombits(rng.Uint32())
		default:
			a[i] = rng.Float32()*40 - 20
		}
	}
	copy(a, []float32{-151, -150.99, 127.99, 128, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)), 1e-30})
	got, want := make([]float32, len(a)), make([]float32, len(a))
	for _, n := range []int{len(a), 17, 4, 3, 0} {
		exp2Run(got[:n], a[:n])
		exp2RunGo(want[:n], a[:n])
		for i := range n {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("n=%d (AVX2 %v): exp2(%v) = %v, want %v", n, useAVX2, a[i], got[i], want[i])
			}
		}
		// softmax's exp(x - max): (x + add) rounded to float32, times
		// log2(e) unrounded
		add, mul := float32(-3.25), math.Log2E
		exp2ScaledRun(got[:n], a[:n], add, mul)
		exp2ScaledRunGo(want[:n], a[:n], add, mul)
		for i := range n {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("n=%d (AVX2 %v): exp2((%v + %v) * %v) = %v, want %v", n, useAVX2, a[i], add, mul, got[i], want[i])
			}
		}
	}
}

// TestSinRun checks sinRun (AVX2 assembly where the CPU has it, with the Go
// loop for groups holding special cases and for the tail) bit for bit
// against the Go loop, on small, large, huge and special arguments.
func TestSinRun(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	a := make([]float32, 100003)
	for i := range a {
		switch i % 4 {
		case 0:
			a[i] = rng.Float32()*2e5 - 1e5
		case 1:
			a[i] = math.Float32frombits(rng.Uint32())
		default:
			a[i] = rng.Float32()*20 - 10
		}
	}
	copy(a, []float32{1e5, -1e5, 99999.99, float32(math.NaN()), float32(math.Inf(1)), 0, float32(math.Pi), float32(math.Pi / 2), 1e-30, -3})
	got, want := make([]float32, len(a)), make([]float32, len(a))
	for _, n := range []int{len(a), 17, 4, 3, 0} {
		sinRun(got[:n], a[:n])
		sinRunGo(want[:n], a[:n])
		for i := range n {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("n=%d (AVX2 %v): sin(%v) = %v, want %v", n, useAVX2, a[i], got[i], want[i])
			}
		}
	}
}
