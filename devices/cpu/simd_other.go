//go:build !amd64

package cpu

// useAVX2 and useFMA are false off amd64: the row-group loops are plain Go.
const (
	useAVX2 = false
	useFMA  = false
)

// useAVX512 is a variable, as on amd64, for the tests that turn it off.
var useAVX512 = false

func mulAdd2x4AVX2(a, b, x0, x1, x2, x3 *float32, n int, s, t *float32) {
	panic("internal error: no AVX2 here")
}

func mulAdd1x4AVX2(a, x0, x1, x2, x3 *float32, n int, s *float32) {
	panic("internal error: no AVX2 here")
}

func mulAdd2x4AVX512(a, b, x0, x1, x2, x3 *float32, n int, s, t *float32) {
	panic("internal error: no AVX-512 here")
}

func mulAdd1x4AVX512(a, x0, x1, x2, x3 *float32, n int, s *float32) {
	panic("internal error: no AVX-512 here")
}

func exp2RunAVX2(d, a *float32, n int, table *float64, consts *uint64, add float32, mul float64) int {
	panic("internal error: no AVX2 here")
}

func sinRunAVX2(d, a *float32, n int, consts *uint64) int {
	panic("internal error: no AVX2 here")
}

func dot4FMA(x, y *float32, n int, ys int, s *float32) {
	panic("internal error: no FMA here")
}

func dotChain4FMA(x, y, z, w *float32, n int, ys int, s *float32) {
	panic("internal error: no FMA here")
}
