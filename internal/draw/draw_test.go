package draw

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// keep writes a picture to $DRAW_OUT, when set, to look at.
func keep(t *testing.T, name string, data []byte) {
	if dir := os.Getenv("DRAW_OUT"); dir != "" {
		os.WriteFile(filepath.Join(dir, name), data, 0o644)
	}
}

// checkSVG fails unless data is well-formed XML whose root is an svg
// element, and returns its text content.
func checkSVG(t *testing.T, data []byte) string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	var text strings.Builder
	root := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, data)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = tok.Name.Local
			}
		case xml.CharData:
			text.Write(tok)
			text.WriteByte(' ')
		}
	}
	if root != "svg" {
		t.Fatalf("root element %q, want svg", root)
	}
	return text.String()
}

func TestViews(t *testing.T) {
	// A (2, 3) tensor permuted: reads 0 3 / 1 4 / 2 5; a padded row masked.
	svg := Views([]Panel{
		{Title: "permute", Notes: []string{"strides (1, 3)"}, Shape: []int{3, 2}, Reads: []int{0, 3, 1, 4, 2, 5}, Size: 6},
		{Title: "pad", Shape: []int{2, 2, 2}, Reads: []int{-1, -1, 0, 1, 2, 3, -1, -1}, Size: 4},
	})
	keep(t, "views.svg", svg)
	text := checkSVG(t, svg)
	for _, want := range []string{"permute", "strides (1, 3)", "pad", "0,1", "1,1"} {
		if !strings.Contains(text, want) {
			t.Errorf("views lack %q: %s", want, text)
		}
	}
	if n := strings.Count(string(svg), "<path d=\"M"); n != 4 {
		t.Errorf("%d masked cells crossed, want 4", n)
	}
	big := Views([]Panel{{Title: "big", Shape: []int{100, 100}, Reads: make([]int, 10000), Size: 1}})
	if text := checkSVG(t, big); !strings.Contains(text, "first 24×24 of 100×100") {
		t.Errorf("a big view is not cut: %s", text)
	}
}

func TestGraph(t *testing.T) {
	// a diamond: 0 reads 1 and 2, both read 3
	svg := Graph("kernel", []Node{
		{Label: "STORE", Kind: "store", Srcs: []int{1, 2}},
		{Label: "ADD", Kind: "alu", Srcs: []int{3}},
		{Label: "MUL", Kind: "alu", Srcs: []int{3}},
		{Label: "LOAD", Detail: "buf 1", Kind: "load"},
	})
	keep(t, "graph.svg", svg)
	text := checkSVG(t, svg)
	for _, want := range []string{"kernel", "STORE", "ADD", "MUL", "LOAD", "buf 1"} {
		if !strings.Contains(text, want) {
			t.Errorf("graph lacks %q", want)
		}
	}
	if n := strings.Count(string(svg), "marker-end"); n != 4 {
		t.Errorf("%d edges, want 4", n)
	}
}

func TestImages(t *testing.T) {
	grey := Image{H: 2, W: 3, C: 1, Pix: []float64{0, 0.5, 1, 1, 0.5, 0}}
	rgb := Image{H: 2, W: 2, C: 3, Pix: []float64{1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1}}
	data, err := Images([]Image{grey, rgb, grey}, []string{"a", "b", "c"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	keep(t, "images.png", data)
	im, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	// scale 112/3 = 37: cells 111+6 wide, 74+6+16 tall; 2 columns, 2 rows
	if b := im.Bounds(); b.Dx() != 2*(3*37+6)+6 || b.Dy() != 2*(2*37+6+16)+6 {
		t.Errorf("size %v", b)
	}
	if r, g, b, _ := im.At(6+37+1, 6).RGBA(); r>>8 != 128 || g>>8 != 128 || b>>8 != 128 {
		t.Errorf("grey pixel 0.5 = %d %d %d", r>>8, g>>8, b>>8)
	}
	if r, g, b, _ := im.At(6+117, 6).RGBA(); r>>8 != 255 || g != 0 || b != 0 {
		t.Errorf("rgb pixel (1,0,0) = %d %d %d", r>>8, g>>8, b>>8)
	}
}

func TestPlot(t *testing.T) {
	xs := []float64{0, 1, 2, 3, 4}
	for _, kind := range []string{"line", "scatter", "hist"} {
		p := Plot{Kind: kind, Title: "loss " + kind, XLabel: "step", YLabel: "value", Bins: 4,
			Series: []Series{{Label: "train", Y: []float64{4, 3, 2, 1.5, 1}}, {Label: "test", X: xs, Y: []float64{5, 4, 3, 2.5, 2}}}}
		svg, err := p.SVG()
		if err != nil {
			t.Fatal(err)
		}
		keep(t, "plot_"+kind+".svg", svg)
		text := checkSVG(t, svg)
		for _, want := range []string{"loss " + kind, "step", "value", "train", "test"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s plot lacks %q: %s", kind, want, text)
			}
		}
		data, err := p.PNG()
		if err != nil {
			t.Fatal(err)
		}
		im, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if b := im.Bounds(); b.Dx() != 640 || b.Dy() != 400 {
			t.Errorf("%s png %v, want 640x400", kind, b)
		}
	}
	if _, err := (Plot{Kind: "pie"}).SVG(); err == nil {
		t.Error("an unknown kind drew")
	}
	if _, err := (Plot{Kind: "hist", Series: []Series{{Y: []float64{nan()}}}}).SVG(); err == nil {
		t.Error("a histogram of NaN drew")
	}
}

func nan() float64 { z := 0.0; return z / z }

func TestNiceTicks(t *testing.T) {
	var labels []string
	for _, tk := range (niceTicks{}).Ticks(-0.87, 29.87) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "0 10 20" {
		t.Errorf("labels %q", got)
	}
	labels = nil
	for _, tk := range (niceTicks{}).Ticks(0.1, 0.9) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "0.2 0.4 0.6 0.8" {
		t.Errorf("labels %q", got)
	}
}
