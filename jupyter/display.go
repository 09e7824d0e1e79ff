package jupyter

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"tiny/interp"
)

// This file connects the interpreter's rich output to the frontend: its
// pictures and progress bars become display_data and update_display_data
// messages, a cell's last value an execute_result with every form it has,
// and input() an input_request on the stdin channel.

// displayer is the kernel as the interpreter's Displayer.
type displayer struct{ k *Kernel }

// Show publishes out as display_data answering the running cell, or
// update_display_data when it replaces the display of the same id. The
// cell's output so far is flushed first, so that it shows above.
func (d displayer) Show(out interp.Output) error {
	k := d.k
	k.mu.Lock()
	parent := k.parent
	k.mu.Unlock()
	if parent == nil {
		return nil
	}
	k.stdout.Flush()
	k.stderr.Flush()
	typ := "display_data"
	if out.Update {
		typ = "update_display_data"
	}
	content := map[string]any{"data": mimeBundle(out.Data), "metadata": map[string]any{}}
	if out.ID != "" {
		content["transient"] = map[string]any{"display_id": out.ID}
	}
	k.pub(parent, typ, content)
	return nil
}

// mimeBundle is the JSON of an output's forms: text as strings, PNG in
// base64, as the notebook format stores them. A picture in SVG also gets
// an HTML form, an <img> of it, which every frontend ranks above SVG:
// nbconvert 6.5 (Debian 12's) strips the elements of an SVG output when it
// exports HTML, leaving it blank, but not an HTML output; and an <img> is
// not styled by the page around it.
func mimeBundle(data map[string][]byte) map[string]any {
	out := map[string]any{}
	if svg, ok := data[interp.MIMESVG]; ok && data[interp.MIMEHTML] == nil {
		out[interp.MIMEHTML] = svgImg(svg)
	}
	for mime, d := range data {
		if mime == interp.MIMEPNG {
			out[mime] = base64.StdEncoding.EncodeToString(d)
			continue
		}
		out[mime] = string(d)
	}
	return out
}

// errNoStdin is input()'s error when the frontend does not take input, as
// ipykernel's StdinNotImplementedError says it.
var errNoStdin = errors.New("this frontend does not support input requests")

// input asks the frontend for a line with an input_request on the stdin
// channel, routed to the client that sent the running cell, and waits for
// its input_reply or for the cell to be interrupted.
func (k *Kernel) input(ctx context.Context, prompt string) (string, error) {
	k.mu.Lock()
	parent, allow, send := k.parent, k.allowStdin, k.stdinSend
	k.mu.Unlock()
	if parent == nil || !allow || send == nil {
		return "", errNoStdin
	}
	k.stdout.Flush()
	k.stderr.Flush()
	for len(k.inputs) > 0 { // a reply to an earlier, interrupted request
		<-k.inputs
	}
	m, err := NewMessage(k.session, "input_request", parent, map[string]any{"prompt": prompt, "password": false})
	if err != nil {
		return "", err
	}
	send(m)
	select {
	case v := <-k.inputs:
		return v, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// cellDebug reads a first line "%debug N" (N from 0 to 4): the cell runs
// with DEBUG=N. The line is blanked, so that the cell's line numbers stay
// those the notebook shows. level is -1 when there is no such line.
func cellDebug(code string) (rest string, level int, err error) {
	first, tail, _ := strings.Cut(code, "\n")
	arg, found := strings.CutPrefix(strings.TrimSpace(first), "%debug")
	if !found {
		return code, -1, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(arg))
	if err != nil || n < 0 || n > 4 {
		return code, -1, fmt.Errorf("%%debug: want a DEBUG level from 0 to 4, got %q", strings.TrimSpace(arg))
	}
	if strings.Contains(code, "\n") {
		return "\n" + tail, n, nil
	}
	return "", n, nil
}

// svgImg is the HTML <img> showing an SVG document, at its own size.
func svgImg(svg []byte) string {
	size := ""
	if m := svgSize.FindSubmatch(svg); m != nil {
		w, _ := strconv.ParseFloat(string(m[1]), 64)
		h, _ := strconv.ParseFloat(string(m[3]), 64)
		if string(m[2]) == "pt" { // 96 pixels to 72 points
			w, h = w*4/3, h*4/3
		}
		size = fmt.Sprintf(` width="%.0f" height="%.0f"`, w, h)
	}
	return fmt.Sprintf(`<img src="data:image/svg+xml;base64,%s"%s alt="tiny picture">`, base64.StdEncoding.EncodeToString(svg), size)
}

// svgSize reads the pixel size of an SVG that draw made (or gonum's, in
// points, which the browser reads as CSS units).
var svgSize = regexp.MustCompile(`<svg[^>]*?\swidth="([0-9.]+)(pt|px)?"[^>]*?\sheight="([0-9.]+)(?:pt|px)?"`)
