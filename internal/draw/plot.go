package draw

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Series is one line or set of points: Y against X (X nil means 0, 1, 2,
// ...), with a label for the legend ("" for none).
type Series struct {
	Label string
	X, Y  []float64
}

// Plot is a chart: Kind "line", "scatter" or "hist" (a histogram of each
// series' Y in Bins bins), with a title and axis labels.
type Plot struct {
	Kind                  string
	Series                []Series
	Title, XLabel, YLabel string
	Bins                  int
}

// palette are the series' colors, matplotlib's first ones.
var palette = []color.RGBA{
	{0x1f, 0x77, 0xb4, 255}, {0xff, 0x7f, 0x0e, 255}, {0x2c, 0xa0, 0x2c, 255}, {0xd6, 0x27, 0x28, 255},
	{0x94, 0x67, 0xbd, 255}, {0x8c, 0x56, 0x4b, 255}, {0xe3, 0x77, 0xc2, 255}, {0x7f, 0x7f, 0x7f, 255},
}

// build returns the gonum plot of p.
func (p Plot) build() (*plot.Plot, error) {
	if p.Kind != "line" && p.Kind != "scatter" && p.Kind != "hist" {
		return nil, fmt.Errorf("unknown plot kind %q", p.Kind)
	}
	pl := plot.New()
	pl.Title.Text, pl.X.Label.Text, pl.Y.Label.Text = p.Title, p.XLabel, p.YLabel
	pl.Add(plotter.NewGrid())
	pl.Legend.Top = true
	legend := false
	for i, s := range p.Series {
		col := palette[i%len(palette)]
		xys := make(plotter.XYs, 0, len(s.Y))
		for j, y := range s.Y {
			x := float64(j)
			if s.X != nil {
				x = s.X[j]
			}
			if finite(x) && finite(y) {
				xys = append(xys, plotter.XY{X: x, Y: y})
			}
		}
		var thumb plot.Thumbnailer
		switch p.Kind {
		case "line":
			l, err := plotter.NewLine(xys)
			if err != nil {
				return nil, err
			}
			l.Color, l.Width = col, vg.Points(1.5)
			pl.Add(l)
			thumb = l
		case "scatter":
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				return nil, err
			}
			sc.Color, sc.Shape, sc.Radius = col, draw.CircleGlyph{}, vg.Points(2.5)
			pl.Add(sc)
			thumb = sc
		case "hist":
			vals := make(plotter.Values, 0, len(xys))
			for _, xy := range xys {
				vals = append(vals, xy.Y)
			}
			if len(vals) == 0 {
				return nil, fmt.Errorf("nothing to count: every value is NaN or infinite")
			}
			h, err := plotter.NewHist(vals, max(p.Bins, 1))
			if err != nil {
				return nil, err
			}
			h.FillColor = color.NRGBA{R: col.R, G: col.G, B: col.B, A: 150}
			h.LineStyle.Color = col
			pl.Add(h)
			thumb = h
		default:
			return nil, fmt.Errorf("unknown plot kind %q", p.Kind)
		}
		if s.Label != "" {
			pl.Legend.Add(s.Label, thumb)
			legend = true
		}
	}
	if !legend {
		pl.Legend = plot.NewLegend()
	}
	// Plain tick labels (1, 2.5, 10, not 1.00), and a margin so that the
	// data does not touch the frame; a histogram's bars stand on zero.
	pl.X.Tick.Marker, pl.Y.Tick.Marker = niceTicks{}, niceTicks{}
	dx, dy := (pl.X.Max-pl.X.Min)*0.03, (pl.Y.Max-pl.Y.Min)*0.05
	pl.X.Min, pl.X.Max, pl.Y.Max = pl.X.Min-dx, pl.X.Max+dx, pl.Y.Max+dy
	if p.Kind != "hist" {
		pl.Y.Min -= dy
	}
	return pl, nil
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// Plot sizes: 640 by 400 pixels (gonum measures in points, 1/72 inch; a
// pixel is 3/4 point at the 96 dpi browsers assume).
const plotW, plotH = 480 * vg.Length(1), 300 * vg.Length(1)

// SVG draws p as SVG.
func (p Plot) SVG() ([]byte, error) {
	pl, err := p.build()
	if err != nil {
		return nil, err
	}
	c := vgsvg.New(plotW, plotH)
	pl.Draw(pad(draw.New(c)))
	return writeTo(c)
}

// PNG draws p as a PNG image of 640 by 400 pixels.
func (p Plot) PNG() ([]byte, error) {
	pl, err := p.build()
	if err != nil {
		return nil, err
	}
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(plotW, plotH), vgimg.UseDPI(96))}
	pl.Draw(pad(draw.New(c)))
	return writeTo(c)
}

// pad leaves a margin of 8 points around a plot, which gonum draws to the
// canvas' edges.
func pad(c draw.Canvas) draw.Canvas { return draw.Crop(c, 8, -8, 8, -8) }

func writeTo(w io.WriterTo) ([]byte, error) {
	var b bytes.Buffer
	if _, err := w.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// niceTicks marks an axis at multiples of 1, 2 or 5 times a power of ten,
// about five of them labelled, in the shortest form (0.5, 10, 2e+06),
// with unlabelled minor ticks between.
type niceTicks struct{}

func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || !finite(lo) || !finite(hi) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 4, 64)}}
	}
	raw := (hi - lo) / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ticks []plot.Tick
	minor := step / 5
	if step/mag == 2 {
		minor = step / 4
	}
	for i := math.Ceil(lo / minor); i*minor <= hi; i++ {
		v := i * minor
		t := plot.Tick{Value: v}
		if k := math.Round(v / step); math.Abs(v-k*step) < minor/2 {
			v = k*step + 0 // exact, so that 0.30000000000000004 prints as 0.3, and never -0
			t.Value, t.Label = v, strconv.FormatFloat(v, 'g', 6, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}
