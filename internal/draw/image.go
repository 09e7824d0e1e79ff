package draw

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Image is one picture: H rows of W pixels of C channels (1 grey, 3 RGB,
// 4 RGBA), row-major, channels last, each value in [0, 1].
type Image struct {
	H, W, C int
	Pix     []float64
}

// at returns pixel (y, x) as a color.
func (im Image) at(y, x int) color.RGBA {
	i := (y*im.W + x) * im.C
	v := func(k int) uint8 {
		f := im.Pix[i+k]
		if f != f || f < 0 { // NaN shows black
			f = 0
		}
		return uint8(min(f, 1)*255 + 0.5)
	}
	switch im.C {
	case 1:
		g := v(0)
		return color.RGBA{g, g, g, 255}
	case 3:
		return color.RGBA{v(0), v(1), v(2), 255}
	}
	a := v(3)
	// premultiplied, as image.RGBA holds it
	pm := func(c uint8) uint8 { return uint8(int(c) * int(a) / 255) }
	return color.RGBA{pm(v(0)), pm(v(1)), pm(v(2)), a}
}

// Images draws images in a grid of cols columns (all in one row when cols
// is 0 or more than there are), each scaled up by whole pixels to about
// 112 pixels, the largest image's size, with its label (if labels has one)
// written under it, and returns the PNG.
func Images(ims []Image, labels []string, cols int) ([]byte, error) {
	if cols <= 0 || cols > len(ims) {
		cols = len(ims)
	}
	maxH, maxW := 1, 1
	for _, im := range ims {
		maxH, maxW = max(maxH, im.H), max(maxW, im.W)
	}
	scale := max(1, 112/max(maxH, maxW))
	labelH := 0
	for _, l := range labels {
		if l != "" {
			labelH = 16
		}
	}
	const pad = 6
	cw, ch := maxW*scale+pad, maxH*scale+pad+labelH
	rows := (len(ims) + cols - 1) / cols
	out := image.NewRGBA(image.Rect(0, 0, cols*cw+pad, rows*ch+pad))
	draw.Draw(out, out.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	d := &font.Drawer{Dst: out, Src: image.NewUniform(color.Black), Face: basicfont.Face7x13}
	for n, im := range ims {
		x0, y0 := pad+(n%cols)*cw, pad+(n/cols)*ch
		for y := 0; y < im.H*scale; y++ {
			for x := 0; x < im.W*scale; x++ {
				out.SetRGBA(x0+x, y0+y, im.at(y/scale, x/scale))
			}
		}
		if n < len(labels) && labels[n] != "" {
			l := clip(labels[n], max(1, (cw-pad)/7))
			w := d.MeasureString(l).Round()
			d.Dot = fixed.P(x0+(maxW*scale-w)/2, y0+maxH*scale+13)
			d.DrawString(l)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, out); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
