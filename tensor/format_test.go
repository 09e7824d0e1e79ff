package tensor

import (
	"math"
	"strings"
	"testing"
)

func TestFormat(t *testing.T) {
	e := cpuEngine(t)
	cases := []struct {
		t    *Tensor
		want string
	}{
		{e.FromData([][]int{{1, 2}, {3, 4}}), "tensor([[1, 2],\n        [3, 4]], dtype=int32)"},
		{e.FromData([]float64{0.5, 1}), "tensor([0.5, 1.0])"},
		{e.FromData([]float64{0.1, -2.25, 100}), "tensor([  0.1, -2.25, 100.0])"},
		{e.FromData([]bool{true, false}), "tensor([ true, false], dtype=bool)"},
		{e.FromData(3.5), "tensor(3.5)"},
		{e.FromData(7), "tensor(7, dtype=int32)"},
		{e.FromData([]float64{1e-5, 1e16}), "tensor([1e-05, 1e+16])"},
		{e.Zeros(Float32, 0, 3), "tensor([], shape=(0, 3))"},
		{e.Zeros(Float32, 0), "tensor([])"},
		{e.Full([]int{1 << 20, 1 << 20}, 2, Int32).Index(Int(0), Slice(nil, 4, 1)), "tensor([2, 2, 2, 2], dtype=int32)"},
		{e.Arange(0, 8, 1).Reshape(2, 2, 2), "tensor([[[0, 1],\n         [2, 3]],\n\n        [[4, 5],\n         [6, 7]]], dtype=int32)"},
		{e.Arange(0, 2000, 1), "tensor([   0,    1,    2, ..., 1997, 1998, 1999], dtype=int32)"},
		{e.FromData([]float64{1, 2}).Cast(Float64).Div(3), "tensor([0.3333333333333333, 0.6666666666666666], dtype=float64)"},
		{e.FromData([]float64{0.1}).Cast(Float16), "tensor([0.1], dtype=float16)"},
	}
	for _, c := range cases {
		if got := c.t.String(); got != c.want {
			t.Errorf("got\n%s\nwant\n%s", got, c.want)
		}
	}
	// Summarized rows and wrapped lines.
	big := e.Arange(0, 1200, 1).Reshape(40, 30).String()
	if !strings.Contains(big, "...") || !strings.HasPrefix(big, "tensor([[   0,    1,    2, ...,   27,   28,   29],\n        [  30,") {
		t.Errorf("summarized:\n%s", big)
	}
	wrapped := e.Arange(0, 40, 1).String()
	for _, line := range strings.Split(wrapped, "\n") {
		if len(line) > 75 {
			t.Errorf("line longer than 75: %q", line)
		}
	}
	if !strings.HasPrefix(strings.Split(wrapped, "\n")[1], "        ") {
		t.Errorf("continuation not indented:\n%s", wrapped)
	}
}

func TestListString(t *testing.T) {
	e := cpuEngine(t)
	cases := []struct {
		t    *Tensor
		want string
	}{
		{e.FromData([][]int{{1, 2}, {3, 4}}), "[[1, 2], [3, 4]]"},
		{e.FromData([]float64{0.1, 1}), "[0.1, 1.0]"},
		{e.FromData([]bool{true, false}), "[true, false]"},
		{e.FromData(2), "2"},
		{e.Zeros(Int32, 2, 0), "[[], []]"},
	}
	for _, c := range cases {
		if got := c.t.ListString(); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
}

func TestFormatFloat(t *testing.T) {
	cases := []struct {
		v    float64
		d    DType
		want string
	}{
		{float64(float32(0.1)), Float32, "0.1"},
		{1, Float32, "1.0"},
		{math.Copysign(0, -1), Float32, "-0.0"},
		{1e-5, Float64, "1e-05"},
		{123456789, Float64, "123456789.0"},
		{1e16, Float64, "1e+16"},
		{1.5e-7, Float64, "1.5e-07"},
	}
	for _, c := range cases {
		if got := FormatFloat(c.v, c.d); got != c.want {
			t.Errorf("FormatFloat(%v, %s) = %q, want %q", c.v, c.d, got, c.want)
		}
	}
}
