package jupyter

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestRichOutput: pictures are display_data, a tensor result has an HTML
// table beside its text, and a progress bar is one display updated in
// place.
func TestRichOutput(t *testing.T) {
	k, rec := newTestKernel(t)
	_, pub := execute(t, k, rec, `print("before")
imshow(ones(4, 4) * 0.5, labels=["grey"])
display(shapetracker((2, 3)).permute(1, 0), arange(3))
for i in progress(3, desc="epochs") { }
arange(6).reshape(2, 3)`)
	var types []string
	var bundles []map[string]any
	for _, p := range pub {
		typ, body, _ := strings.Cut(p, ": ")
		types = append(types, typ)
		var c struct {
			Data map[string]any `json:"data"`
		}
		json.Unmarshal([]byte(body), &c)
		bundles = append(bundles, c.Data)
	}
	want := "status execute_input stream display_data display_data display_data display_data update_display_data execute_result status"
	if strings.Join(types, " ") != want {
		t.Fatalf("published %s\nwant %s\n%q", strings.Join(types, " "), want, pub)
	}
	png, err := base64.StdEncoding.DecodeString(bundles[3]["image/png"].(string))
	if err != nil || !strings.HasPrefix(string(png), "\x89PNG") {
		t.Errorf("imshow: not a PNG in base64: %v", err)
	}
	if svg, _ := bundles[4]["image/svg+xml"].(string); !strings.Contains(svg, "<svg") || !strings.Contains(svg, "strides (1, 3)") {
		t.Errorf("a tracker displays as %v", bundles[4])
	}
	if html, _ := bundles[5]["text/html"].(string); !strings.Contains(html, "<table") || bundles[5]["text/plain"] != "tensor([0, 1, 2], dtype=int32)" {
		t.Errorf("a tensor displays as %v", bundles[5])
	}
	if !strings.Contains(pub[6], `"display_id":"tiny-progress`) || !strings.Contains(pub[7], "3/3") {
		t.Errorf("progress: %s then %s", pub[6], pub[7])
	}
	if html, _ := bundles[8]["text/html"].(string); !strings.Contains(html, "shape (2, 3) · int32 · CPU") {
		t.Errorf("result: %v", bundles[8])
	}
}

// TestCellDebug: "%debug N" runs one cell at DEBUG=N, keeping its line
// numbers, and the next cell runs at the kernel's level again.
func TestCellDebug(t *testing.T) {
	k, rec := newTestKernel(t)
	_, pub := execute(t, k, rec, "%debug 2\nx = (arange(4) + 1).sum()\nprint(x)")
	if out := strings.Join(pub, "\n"); !strings.Contains(out, "kernel") || !strings.Contains(out, "10") {
		t.Errorf("%%debug 2 printed no kernels:\n%s", out)
	}
	_, pub = execute(t, k, rec, "y = (arange(5) + 2).sum()\nprint(y)")
	if out := strings.Join(pub, "\n"); strings.Contains(out, "kernel") {
		t.Errorf("DEBUG stayed on:\n%s", out)
	}
	c, _ := execute(t, k, rec, "%debug 2\n\nnope")
	if tb := c["traceback"]; !strings.Contains(fmt.Sprint(tb), "<cell 3>:3:1") {
		t.Errorf("line numbers moved: %v", tb)
	}
	if c, _ := execute(t, k, rec, "%debug lots"); !strings.Contains(jsonText(c["evalue"]), "want a DEBUG level") {
		t.Errorf("bad %%debug: %v", c)
	}
}

// TestInputNotAllowed: input() fails as ipykernel's does when the
// frontend takes no input.
func TestInputNotAllowed(t *testing.T) {
	k, rec := newTestKernel(t)
	_, c, _ := do(t, k, rec, request(t, "execute_request", map[string]any{"code": `input("name? ")`, "allow_stdin": false}))
	if !strings.Contains(jsonText(c["evalue"]), "does not support input requests") {
		t.Errorf("input without stdin: %v", c)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestSVGImg: an SVG picture's HTML form is an <img> of its own size in
// CSS pixels (gonum's plots are sized in points).
func TestSVGImg(t *testing.T) {
	for svg, want := range map[string]string{
		`<svg xmlns="http://www.w3.org/2000/svg" width="300" height="120" viewBox="0 0 300 120">`: `width="300" height="120"`,
		"<?xml version=\"1.0\"?>\n<svg width=\"480pt\" height=\"300pt\" viewBox=\"0 0 480 300\"":  `width="640" height="400"`,
	} {
		img := svgImg([]byte(svg))
		b64 := base64.StdEncoding.EncodeToString([]byte(svg))
		if !strings.Contains(img, want) || !strings.Contains(img, `src="data:image/svg+xml;base64,`+b64+`"`) {
			t.Errorf("svgImg(%q) = %s, want %s", svg, img, want)
		}
	}
	if b := mimeBundle(map[string][]byte{"image/svg+xml": []byte("<svg/>"), "text/plain": []byte("x")}); b["text/html"] == nil {
		t.Error("an SVG output has no HTML form")
	}
}

// TestTrangeInPlace: trange, which draws lines on a terminal, updates one
// display in a notebook.
func TestTrangeInPlace(t *testing.T) {
	k, rec := newTestKernel(t)
	_, pub := execute(t, k, rec, `for i in trange(3, desc="train") { }`)
	var types []string
	for _, p := range pub {
		typ, _, _ := strings.Cut(p, ": ")
		types = append(types, typ)
	}
	if got := strings.Join(types, " "); got != "status execute_input display_data update_display_data status" ||
		!strings.Contains(pub[3], "train 100%") || !strings.Contains(pub[3], `"display_id":"tiny-progress`) {
		t.Errorf("published %s\n%q", got, pub)
	}
}
