package main

// This file checks the tour notebook as a person sees it: executed with
// nbconvert, exported to HTML, and opened in headless Chromium, where every
// picture must load and draw.

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromium returns the path of a Chromium binary, or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("chromium is not installed (apt-get install -y chromium): it renders the tour notebook's HTML export")
	return ""
}

// headless runs Chromium without a display on url with args, and returns
// its stdout.
func headless(t *testing.T, bin, url string, args ...string) []byte {
	t.Helper()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
		"--disable-dev-shm-usage", "--user-data-dir=" + t.TempDir(), "--virtual-time-budget=10000"}
	cmd := exec.Command(bin, append(append(base, args...), url)...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
		}
	case <-time.After(120 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("chromium %v did not finish in 2 minutes", args)
	}
	return out.Bytes()
}

// checkScript, added to a copy of the page, waits for every image to
// decode and writes what it found into the title: how many images loaded,
// how many failed, and how many of them are tiny's pictures (SVG as <img>).
const checkScript = `<script>
window.addEventListener("load", function () {
  var imgs = Array.prototype.slice.call(document.images);
  Promise.all(imgs.map(function (im) {
    return im.decode().then(function () { return im.naturalWidth > 0 && im.naturalHeight > 0 ? 1 : 0; }, function () { return 0; });
  })).then(function (ok) {
    var loaded = ok.filter(function (x) { return x; }).length;
    var tiny = imgs.filter(function (im, i) { return ok[i] && im.alt == "tiny picture" && im.getBoundingClientRect().width > 100; }).length;
    document.title = "checked images=" + imgs.length + " loaded=" + loaded + " tiny=" + tiny;
  });
});
</script>`

// TestNotebookHTML executes examples/notebook.ipynb, converts it to HTML
// and opens it in headless Chromium: the pictures (PNG images, SVG views,
// trees and plots) are in the page and load, and a screenshot shows them:
// the plots' blue, the view grids' colors and the images' black and white.
func TestNotebookHTML(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nbconvert and chromium")
	}
	const pictures = 11
	bin := chromium(t)
	// Only a missing Chromium skips this test: with Chromium there, the
	// rest of what it needs must be too (.ci/run installs it all).
	for module, pkg := range map[string]string{"nbconvert, nbclient": "jupyter-nbconvert", "jupyter_client": "python3-jupyter-client"} {
		if err := exec.Command(python, "-c", "import "+module).Run(); err != nil {
			t.Fatalf("%s cannot import %s: install %s (apt-get install -y %s)", python, module, pkg, pkg)
		}
	}
	dir := t.TempDir()
	cmd := exec.Command(python, "-m", "nbconvert", "--to", "html", "--execute", "--ExecutePreprocessor.timeout=60",
		"--output-dir", dir, "--output", "tour", "../../examples/notebook.ipynb")
	cmd.Env = jupyterEnv(t)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nbconvert: %v\n%s", err, msg)
	}
	page, err := os.ReadFile(filepath.Join(dir, "tour.html"))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	// 5 views, a schedule, a lazy graph and 4 plots in SVG; two image
	// grids (the Fashion-MNIST one) in PNG.
	if n := strings.Count(html, `<img src="data:image/svg+xml;base64,`); n != pictures {
		t.Errorf("%d SVG pictures in the page, want %d", n, pictures)
	}
	if n := strings.Count(html, `src="data:image/png;base64,`); n != 2 {
		t.Errorf("%d PNG images in the page, want 2", n)
	}
	for _, want := range []string{"tensor · shape (40, 50) · float32 · CPU", "<table", "train 100%", "step sizes: 100%",
		"Sneaker", "error: reshape: cannot reshape"} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	checked := filepath.Join(dir, "checked.html")
	os.WriteFile(checked, []byte(strings.Replace(html, "</body>", checkScript+"</body>", 1)), 0o644)
	// --dump-dom can return before the decode promises settle when the
	// machine is busy (virtual time does not wait for image decoding): a
	// page whose title is not yet set is dumped again, up to three times.
	var dom []byte
	var m [][]byte
	for try := 0; try < 3 && m == nil; try++ {
		dom = headless(t, bin, "file://"+checked, "--dump-dom")
		m = regexp.MustCompile(`<title>checked images=(\d+) loaded=(\d+) tiny=(\d+)</title>`).FindSubmatch(dom)
	}
	if m == nil {
		t.Fatalf("the check script did not run; title: %s", regexp.MustCompile(`<title>[^<]*</title>`).Find(dom))
	}
	if string(m[1]) != string(m[2]) || string(m[3]) != fmt.Sprint(pictures) {
		t.Errorf("in Chromium: %s images, %s loaded, %s of tiny's SVG pictures drawn (want all, and %d)", m[1], m[2], m[3], pictures)
	}

	const w, h = 1100, 9000
	shot := filepath.Join(dir, "shot.png")
	headless(t, bin, "file://"+filepath.Join(dir, "tour.html"), "--screenshot="+shot, fmt.Sprintf("--window-size=%d,%d", w, h))
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	im, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := im.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Errorf("screenshot %v, want %dx%d", b.Size(), w, h)
	}
	counts := colorCounts(im)
	t.Logf("screenshot pixels: %v", counts)
	for name, least := range map[string]int{"plot blue": 2000, "view colors": 20000, "black": 5000, "white": w * h / 3} {
		if counts[name] < least {
			t.Errorf("the screenshot has %d %s pixels, want at least %d", counts[name], name, least)
		}
	}
}

// colorCounts counts the pixels of im near the colors the pictures use.
func colorCounts(im image.Image) map[string]int {
	counts := map[string]int{}
	near := func(r, g, b, R, G, B, d int) bool {
		return abs(r-R) <= d && abs(g-G) <= d && abs(b-B) <= d
	}
	bd := im.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			r16, g16, b16, _ := im.At(x, y).RGBA()
			r, g, b := int(r16>>8), int(g16>>8), int(b16>>8)
			switch {
			case near(r, g, b, 0x1f, 0x77, 0xb4, 40):
				counts["plot blue"]++
			case r > 150 && g > 150 && b > 150 && max(r, g, b)-min(r, g, b) > 40:
				counts["view colors"]++ // the light hues of the grid cells
			case r < 30 && g < 30 && b < 30:
				counts["black"]++
			case r > 250 && g > 250 && b > 250:
				counts["white"]++
			}
		}
	}
	return counts
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
