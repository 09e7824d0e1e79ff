package tensor

// SetDebug changes the engine's DEBUG level (1 kernels, 2 + schedule, 3 +
// uops) for the kernels realized from now on, as a notebook does for one
// cell. What the device itself prints (the generated code at 4, CLANG's
// compiles) stays at the level the engine was opened with.
func (e *Engine) SetDebug(level int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.opts.Debug = level
}
