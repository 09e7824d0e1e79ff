package interp

// This file defines input(prompt) and the DEBUG level of a session, which
// a notebook kernel sets for one cell.

func init() {
	tensorBuiltins["input"] = input_
	builtinDocs["input"] = `input(prompt="") reads a line and returns it as a string, without the newline.
In a notebook it asks in a text box under the cell (when the frontend allows input).`
}

func input_(it *Interp, c *call) Value {
	prompt := ""
	it.unpack(c, "prompt?", &prompt)
	if it.opts.Input == nil {
		it.failf(c.pos, "input: this session reads no input")
	}
	line, err := it.opts.Input(it.ctx, prompt)
	if err != nil {
		if cerr := it.ctx.Err(); cerr != nil {
			panic(it.newError(c.pos, "interrupted", cerr))
		}
		it.failf(c.pos, "input: %v", err)
	}
	return String(line)
}

// SetDebug sets the DEBUG level (1 kernels, 2 + schedule, 3 + uops) of
// the kernels realized from now on; Debug returns it.
func (it *Interp) SetDebug(level int) {
	it.opts.Debug = level
	if it.eng != nil {
		it.eng.SetDebug(level)
	}
}

// Debug returns the session's DEBUG level.
func (it *Interp) Debug() int { return it.opts.Debug }
