package interp

import (
	"bytes"
	"compress/gzip"
	"context"
	"image/png"
	"io"
	"os"
	"strings"
	"testing"
)

// runIn runs src in a fresh interpreter whose working directory is a
// temporary one, without a Displayer (as tiny run), and returns stdout.
func runIn(t *testing.T, src string) (string, error) {
	t.Helper()
	t.Chdir(t.TempDir())
	var out bytes.Buffer
	it, err := New(Options{Device: "CPU", Stdout: &out, Files: true})
	if err != nil {
		t.Fatal(err)
	}
	err = it.Exec(context.Background(), "pic.tiny", src, false)
	if err != nil {
		err = &formatted{it.FormatError(err)}
	}
	return out.String(), err
}

type formatted struct{ s string }

func (f *formatted) Error() string { return f.s }

func TestPicturesToFiles(t *testing.T) {
	out, err := runIn(t, `imshow(arange(12).reshape(3, 4) / 11)
imshow([ones(2, 2), zeros(2, 2, 3)], labels=["one", "zero"], vmin=-1, vmax=2)
plot([1, 3, 2], title="t")
plot(arange(3), arange(3) * 2, label="double", path="twice.png")
scatter([1, 2], [3, 4])
hist(randn(100), bins=5)
display(view((2, 3)).permute(1, 0), 7)
display(shapetracker((2, 3)).permute(1, 0).reshape(6).pad(((1, 0),)))
display((ones(2) + 1).schedule(), (ones(2) * 3).graph())
`)
	if err != nil {
		t.Fatal(err)
	}
	want := "image.png\nimage-2.png\nplot.svg\ntwice.png\nplot-2.svg\nplot-3.svg\nview.svg\n7\nshapetracker.svg\nschedule.svg\ngraph.svg\n"
	if out != want {
		t.Fatalf("printed\n%s\nwant\n%s", out, want)
	}
	for _, name := range strings.Fields(want) {
		if name == "7" {
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".png") {
			if _, err := png.Decode(bytes.NewReader(data)); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		} else if !strings.HasPrefix(string(data), "<svg") && !strings.HasPrefix(string(data), "<?xml") {
			t.Errorf("%s is not SVG: %.60s", name, data)
		}
	}
	st, _ := os.ReadFile("shapetracker.svg")
	for _, want := range []string{"view 0: reads the buffer", "view 1: reads view 0", "all 2 views", "mask ((1, 7))", "offset -1"} {
		if !strings.Contains(string(st), want) {
			t.Errorf("the two-view tracker's diagram lacks %q", want)
		}
	}
	sched, _ := os.ReadFile("schedule.svg")
	if !strings.Contains(string(sched), "STORE") || !strings.Contains(string(sched), "ADD") {
		t.Errorf("the schedule's tree lacks its ops")
	}
}

func TestPictureErrors(t *testing.T) {
	for src, want := range map[string]string{
		`imshow(ones(2, 2, 2, 2, 2))`:             "pic.tiny:1:1: error: imshow: cannot read shape (2, 2, 2, 2, 2) as images",
		`imshow([ones(2, 2)], labels=["a", "b"])`: "imshow: 2 labels for 1 images",
		`imshow(3)`:                          "imshow: want a tensor or a list of tensors, got int",
		`plot([1, 2], [1, 2, 3])`:            "plot: x has 2 values, series 0 has 3",
		`plot([1, 2], labels=["a", "b"])`:    "plot: 2 labels for 1 series",
		`scatter([1, 2])`:                    "scatter: want (x, y)",
		`hist([1, 2], bins=0)`:               "hist: bins must be an int in [1, 10000], got 0",
		`display(ones(2), path="x.svg")`:     "cannot write x.svg: this value is drawn as .html, .txt",
		`display(view((n, 2)))`:              "undefined: n",
		`display(view((var("n", 1, 4), 2)))`: "cannot draw a view of symbolic shape",
		`for i in progress("ab") { }`:        "",
		`plot(ones(2, 2, 2))`:                "plot: want a 1-D or 2-D tensor, got shape (2, 2, 2)",
		`input("x")`:                         "input: this session reads no input",
	} {
		_, err := runIn(t, src)
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", src, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", src, err, want)
		}
	}
}

func TestProgressOnTerminal(t *testing.T) {
	out, err := runIn(t, `for i in progress(range(3), desc="go") { }`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "\rgo:   0%|") || !strings.HasSuffix(out, "\n") || !strings.Contains(out, "3/3") || strings.Count(out, "\n") != 1 {
		t.Errorf("progress printed %q", out)
	}
}

func TestInspect(t *testing.T) {
	it, _ := New(Options{Device: "CPU"})
	if err := it.Exec(context.Background(), "a.tiny", "import \"nn\" as nn\n# adds one\n# to x\nfn inc(x, by=1) { return x + by }\nt = ones(2)", false); err != nil {
		t.Fatal(err)
	}
	for expr, want := range map[string]string{
		"inc":     "fn inc(x, by=1)\n\nadds one\nto x",
		"t":       "type: tensor\nvalue: tensor([1.0, 1.0])",
		"imshow":  "builtin imshow\n\nimshow(x,",
		"t.sum":   "method sum of tensor",
		"nn":      "fn linear(",
		"nn.nope": "",
	} {
		got, ok := it.Inspect(expr)
		if ok != (want != "") || !strings.HasPrefix(got, want) && !strings.Contains(got, want) {
			t.Errorf("Inspect(%q) = %q, %v; want %q", expr, got, ok, want)
		}
	}
}

func TestTensorHTML(t *testing.T) {
	it, _ := New(Options{Device: "CPU"})
	for src, want := range map[string][]string{
		"arange(2000).reshape(2, 10, 100)": {"shape (2, 10, 100) · int32 · CPU", "<caption", "[0, :, :]", "[1, :, :]", ">1999<", ">…<"},
		"tensor(true)":                     {"shape () · bool · CPU", ">true<"},
		"zeros(0, 3)":                      {"shape (0, 3)", "(no elements)"},
		"arange(3) < 2":                    {">true<", ">false<"},
	} {
		v, err := it.Eval(context.Background(), src)
		if err != nil {
			t.Fatal(err)
		}
		out, err := it.Rich(context.Background(), v)
		if err != nil {
			t.Fatal(err)
		}
		html := string(out.Data[MIMEHTML])
		for _, w := range want {
			if !strings.Contains(html, w) {
				t.Errorf("%s: the table lacks %q:\n%s", src, w, html)
			}
		}
		if strings.Count(html, "<td") > 2*7*7+1 {
			t.Errorf("%s: %d cells, not elided", src, strings.Count(html, "<td"))
		}
	}
}

// TestFashionMNISTGrid: what a user tries first, the first Fashion-MNIST
// samples in a grid with their class names, from Debian's
// dataset-fashion-mnist.
func TestFashionMNISTGrid(t *testing.T) {
	const dir = "/usr/share/datasets/fashion-mnist/"
	read := func(name string, skip, n int) []int32 {
		f, err := os.Open(dir + name)
		if err != nil {
			t.Skipf("Fashion-MNIST is not installed (apt-get install dataset-fashion-mnist): %v", err)
		}
		defer f.Close()
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, skip+n)
		if _, err := io.ReadFull(z, b); err != nil {
			t.Fatal(err)
		}
		out := make([]int32, n)
		for i := range out {
			out[i] = int32(b[skip+i])
		}
		return out
	}
	images := read("train-images-idx3-ubyte.gz", 16, 16*28*28)
	labels := read("train-labels-idx1-ubyte.gz", 8, 16)
	t.Chdir(t.TempDir())
	var out bytes.Buffer
	it, _ := New(Options{Device: "CPU", Stdout: &out, Files: true})
	it.SetGlobal("x", Tensor(images, 16, 28, 28))
	it.SetGlobal("y", Tensor(labels, 16))
	src := `names = ["T-shirt", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Boot"]
labels = []
for l in y.tolist() { labels.append(names[l]) }
imshow(x.cast(uint8), labels=labels, path="fashion.png")`
	if err := it.Exec(context.Background(), "f.tiny", src, false); err != nil {
		t.Fatal(it.FormatError(err))
	}
	data, err := os.ReadFile("fashion.png")
	if err != nil {
		t.Fatal(err)
	}
	im, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	// 8 to a row, each 28 pixels scaled 4 times, with 6 pixels between and
	// 16 for the label.
	if b := im.Bounds(); b.Dx() != 8*(112+6)+6 || b.Dy() != 2*(112+6+16)+6 {
		t.Errorf("grid %v", b.Size())
	}
	lit := 0
	for y := 6; y < 6+112; y++ {
		for x := 6; x < 6+112; x++ {
			if r, _, _, _ := im.At(x, y).RGBA(); r>>8 > 30 {
				lit++
			}
		}
	}
	if lit < 1000 || lit > 112*112-1000 {
		t.Errorf("the first image has %d lit pixels of %d", lit, 112*112)
	}
	keepPicture(t, "fashion.png", data)
}

// keepPicture writes a picture to $DRAW_OUT, when set, to look at.
func keepPicture(t *testing.T, name string, data []byte) {
	if dir := os.Getenv("DRAW_OUT"); dir != "" {
		os.WriteFile(dir+"/"+name, data, 0o644)
	}
}

// TestPicturesNeedFiles: without the host's grant nothing is written.
func TestPicturesNeedFiles(t *testing.T) {
	t.Chdir(t.TempDir())
	it, _ := New(Options{Device: "CPU"})
	for _, src := range []string{`imshow(ones(2, 2))`, `plot([1, 2], path="p.svg")`, `display(view((2, 2)))`} {
		err := it.Exec(context.Background(), "p.tiny", src, false)
		if err == nil || !strings.Contains(err.Error(), "file access is not allowed here") {
			t.Errorf("%s: %v", src, err)
		}
	}
	if err := it.Exec(context.Background(), "p.tiny", `display(3)`, false); err != nil {
		t.Errorf("display of a value with no picture needs no file: %v", err)
	}
	if files, _ := os.ReadDir("."); len(files) != 0 {
		t.Errorf("wrote %v", files)
	}
}
