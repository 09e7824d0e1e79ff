package jupyter

import (
	"strings"
	"unicode/utf8"
)

// HelpLink is an entry of the notebook's Help menu.
type HelpLink struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// helpLinks returns the help_links of kernel_info: the options' links.
func (k *Kernel) helpLinks() []HelpLink {
	if k.links == nil {
		return []HelpLink{}
	}
	return k.links
}

// inspect answers an inspect_request (Shift-TAB in a notebook) with the
// documentation the interpreter has of the name or attribute chain at the
// cursor: a stdlib module's or fn's doc comment, a fn's signature, a
// builtin's doc, or else the value's type and text. While a cell runs
// there is nothing found rather than a wait.
func (k *Kernel) inspect(req *Message) map[string]any {
	var c struct {
		Code      string `json:"code"`
		CursorPos int    `json:"cursor_pos"`
	}
	_ = req.Unmarshal(&c)
	reply := map[string]any{"status": "ok", "found": false, "data": map[string]any{}, "metadata": map[string]any{}}
	expr := chainAt(c.Code, c.CursorPos)
	if expr == "" || !k.itMu.TryLock() {
		return reply
	}
	defer k.itMu.Unlock()
	doc, ok := k.it.Inspect(expr)
	if ok {
		reply["found"] = true
		reply["data"] = map[string]any{"text/plain": doc}
	}
	return reply
}

// chainAt returns the name or attribute chain (nn.linear) that the cursor,
// counted in code points, is in or just after. A cursor just after an
// opening parenthesis names the function called, as Shift-TAB in
// f(| does.
func chainAt(code string, cursor int) string {
	head := prefixRunes(code, cursor)
	tail := code[len(head):]
	if strings.HasSuffix(head, "(") {
		head = strings.TrimRight(head[:len(head)-1], " ")
		tail = ""
	}
	start := len(head)
	for start > 0 && (isWordByte(head[start-1]) || head[start-1] == '.') {
		start--
	}
	end := 0
	for end < len(tail) && isWordByte(tail[end]) {
		end++
	}
	chain := strings.Trim(head[start:]+tail[:end], ".")
	if chain == "" || !utf8.ValidString(chain) || chain[0] >= '0' && chain[0] <= '9' {
		return ""
	}
	return chain
}
