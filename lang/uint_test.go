package lang

import "testing"

// An int literal past int64 up to 2**64-1 is exact (IsUint, its bits in
// Int); past that it is an error.
func TestIntLiteralPastInt64(t *testing.T) {
	for lit, want := range map[string]uint64{
		"9223372036854775808":   1 << 63,
		"18446744073709551615":  1<<64 - 1,
		"0xffff_ffff_ffff_ffff": 1<<64 - 1,
	} {
		n, msg := parseNumber(lit, map[bool]int{true: 16, false: 10}[lit[1] == 'x'], false)
		if msg != "" || !n.IsUint || uint64(n.Int) != want {
			t.Errorf("%s: %+v %q, want %d", lit, n, msg, want)
		}
	}
	if n, _ := parseNumber("9223372036854775807", 10, false); n.IsUint || n.Int != 1<<63-1 {
		t.Errorf("int64's largest: %+v", n)
	}
	if _, msg := parseNumber("18446744073709551616", 10, false); msg != "integer 18446744073709551616 is too large for int64 and uint64" {
		t.Errorf("2**64: %q", msg)
	}
}
