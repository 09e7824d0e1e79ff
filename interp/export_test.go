package interp

// SetMaxNumel sets the largest tensor a script may build, for tests.
func (it *Interp) SetMaxNumel(n int) { it.maxNumel = n }
