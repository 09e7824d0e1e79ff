package clang

import (
	"strings"
	"testing"

	"tiny/codegen"
	kt "tiny/devices/internal/kerneltest"
	"tiny/shape"
)

// TestTransposeTiles runs transposes big enough for codegen's square tiles
// in every dtype on CLANG against the reference device: a matrix, a batch
// of matrices (permute(0, 2, 1)), and a window of a larger matrix (an
// offset and row strides that are not the tile's), whose 4-byte forms are
// rendered as register transposes (tiny_tr8) and the others as loops (the
// matrix alone: their loops are the ones every transpose had before).
func TestTransposeTiles(t *testing.T) {
	for _, dt := range codegen.DTypes {
		mat := kt.Must(shape.FromInts(96, 64).Permute([]int{1, 0}))
		batch := kt.Must(shape.FromInts(3, 48, 80).Permute([]int{0, 2, 1}))
		window := kt.Must(kt.Must(shape.FromInts(100, 70).ShrinkInts([][2]int{{3, 99}, {5, 69}})).Permute([]int{1, 0}))
		ks := []*codegen.Kernel{kt.Kernel(shape.FromInts(64, 96), kt.Load(1, dt, mat), kt.Spec(dt, 96*64))}
		if dt.Size() == 4 {
			ks = append(ks, kt.Kernel(shape.FromInts(3, 80, 48), kt.Load(1, dt, batch), kt.Spec(dt, 3*48*80)),
				kt.Kernel(shape.FromInts(64, 96), kt.Load(1, dt, window), kt.Spec(dt, 100*70)))
		}
		for _, k := range ks {
			check(t, k)
			p, err := codegen.Lower(k, codegen.Options{})
			if err != nil {
				t.Fatal(err)
			}
			src := codegen.RenderC(p)
			if got, want := strings.Contains(src, "tiny_tr8("), dt.Size() == 4; got != want {
				t.Errorf("%s %s: register transpose %v, want %v:\n%s", k.Name, dt, got, want, src)
			}
		}
	}
}

// TestTransposeStreamed runs transposes with outputs of CStreamBytes or
// more (a matrix, a batch of matrices, float32 and int32) on CLANG against
// the reference device: Lower records STREAM for them and RenderC writes
// their 16 x 16 blocks with tiny_tr16s, each destination row's cache line
// streamed at once; with STREAM skipped they keep tiny_tr8's plain stores.
func TestTransposeStreamed(t *testing.T) {
	for _, dt := range []codegen.DType{codegen.Float32, codegen.Int32} {
		mat := kt.Must(shape.FromInts(1024, 1040).Permute([]int{1, 0}))
		batch := kt.Must(shape.FromInts(4, 528, 512).Permute([]int{0, 2, 1}))
		for _, k := range []*codegen.Kernel{
			kt.Kernel(shape.FromInts(1040, 1024), kt.Load(1, dt, mat), kt.Spec(dt, 1024*1040)),
			kt.Kernel(shape.FromInts(4, 512, 528), kt.Load(1, dt, batch), kt.Spec(dt, 4*528*512)),
		} {
			check(t, k)
			for _, skip := range []bool{false, true} {
				var opts codegen.Options
				if skip {
					opts.Skip = []codegen.OptOp{codegen.OptStream}
				}
				p, err := codegen.Lower(k, opts)
				if err != nil {
					t.Fatal(err)
				}
				src := codegen.RenderC(p)
				if got := p.Opts.Has(codegen.OptStream) && strings.Contains(src, "tiny_tr16s(&") && strings.Contains(src, "tiny_sfence();"); got == skip {
					t.Errorf("%s %s, STREAM skipped %v: streamed blocks %v (opts %s):\n%s", k.Name, dt, skip, got, p.Opts, src)
				}
				if skip && !strings.Contains(src, "tiny_tr8(&") {
					t.Errorf("%s %s: no register transpose without STREAM:\n%s", k.Name, dt, src)
				}
			}
		}
	}
}
