package interp_test

import (
	"context"
	"strings"
	"testing"

	"tiny/interp"
)

// uint64 elements past int64 read back exactly (not negative) through
// .item() and .tolist(), compute as Python ints do with ints, and make
// uint64 tensors again; results past 2**64-1 or below -2**63 are errors.
func TestUint64PastInt64(t *testing.T) {
	it := newInterp(t, nil)
	ctx := context.Background()
	if err := it.Exec(ctx, "<t>", "u = tensor([9223372036854775807], dtype=uint64) * 2 + 1\nv = (tensor([2**62], dtype=uint64) * 3).item()", false); err != nil {
		t.Fatal(err)
	}
	wantEvals(t, it, map[string]string{
		"u.item()":   "18446744073709551615",
		"u.tolist()": "[18446744073709551615]",
		"tensor([9223372036854775807], dtype=uint64).tolist()": "[9223372036854775807]",
		"type(v)": "\"int\"",
		"(v + 1, v - v, v // 3, v % 7, v > 2**62, v == v, v == 2**62)": "(13835058055282163713, 0, 4611686018427387904, 5, true, true, false)",
		"(float(v), int(v), abs(v), -(v - 2**62), v & 255, v / 2)":     "(1.3835058055282164e+19, 13835058055282163712, 13835058055282163712, -9223372036854775808, 0, 6.917529027641082e+18)",
		"tensor(u.tolist()).dtype":                                     "uint64",
		"tensor([v, 1], dtype=uint64).tolist()":                        "[13835058055282163712, 1]",
		"\"%d\" % v":                                                   "\"13835058055282163712\"",
		"(v, 0) == (v, 0)":                                             "true",
		"sorted((v, 2**62, 3))":                                        "[3, 4611686018427387904, 13835058055282163712]",
		"(18446744073709551615, 0xffffffffffffffff - 1, type(9223372036854775808))": "(18446744073709551615, 18446744073709551614, \"int\")",
		"[18446744073709551615, 1].tolist()":                                        "[18446744073709551615, 1]",
		"[18446744073709551615].dtype":                                              "uint64",
		"(tensor([18446744073709551615, 3], dtype=uint64) // 3).tolist()":           "[6148914691236517205, 1]",
		"[v, 0].tolist()": "[13835058055282163712, 0]",
	})
	for src, want := range map[string]string{
		"u.item() + 1":                  "integer overflow in 18446744073709551615 + 1",
		"-v":                            "integer overflow in 0 - 13835058055282163712",
		"v * 2":                         "integer overflow",
		"tensor([v, -1], dtype=uint64)": "does not fit uint64",
		"tensor([v], dtype=int64)":      "13835058055282163712 does not fit int64",
		"[18446744073709551615, -1]":    "18446744073709551615 does not fit int64",
		"-18446744073709551615":         "integer overflow in 0 - 18446744073709551615",
	} {
		_, err := it.Eval(ctx, src)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error containing %q", src, err, want)
		}
	}
}

// A uint64 tensor against an int past int64 is an elementwise op giving a
// tensor, as in tinygrad (it used to fall back to Python's == on the
// values and give one bool); the int is exact even where float64 rounds it
// (18446744073709551614 is not 2**64-1).
func TestUint64TensorCompareBigInt(t *testing.T) {
	it := newInterp(t, nil)
	ctx := context.Background()
	if err := it.Exec(ctx, "<t>", "u = tensor([1, 2, 18446744073709551615, 18446744073709551614], dtype=uint64)", false); err != nil {
		t.Fatal(err)
	}
	wantEvals(t, it, map[string]string{
		"(tensor([1, 2], dtype=uint64) == 18446744073709551615).tolist()": "[false, false]",
		"(u == 18446744073709551615).tolist()":                            "[false, false, true, false]",
		"(18446744073709551615 == u).tolist()":                            "[false, false, true, false]",
		"(u != 18446744073709551615).tolist()":                            "[true, true, false, true]",
		"(u >= 18446744073709551614).tolist()":                            "[false, false, true, true]",
		"(18446744073709551614 < u).tolist()":                             "[false, false, true, false]",
		"(u - 18446744073709551613).tolist()":                             "[4, 5, 2, 1]",
		"(u == 18446744073709551615).dtype":                               "bool",
		"18446744073709551614 in u":                                       "true",
		"(tensor([9223372036854775807, 9223372036854775806], dtype=int64) == 9223372036854775807).tolist()": "[true, false]",
	})
}

// wantEvals evaluates each expression in it and wants its value printed as
// given.
func wantEvals(t *testing.T, it *interp.Interp, cases map[string]string) {
	t.Helper()
	for src, want := range cases {
		got, err := it.Eval(context.Background(), src)
		if err != nil {
			t.Errorf("%s: %v", src, it.FormatError(err))
			continue
		}
		if got.String() != want {
			t.Errorf("%s = %s, want %s", src, got, want)
		}
	}
}
