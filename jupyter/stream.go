package jupyter

import (
	"sync"
	"time"
)

// flushAfter is how long output may wait in a stream before it is sent, so
// that a loop printing many lines sends a few messages rather than one per
// line, while a slow cell's output still shows as it comes.
const flushAfter = 50 * time.Millisecond

// flushSize is how much output a stream holds before sending it at once.
const flushSize = 64 << 10

// stream is an io.Writer that publishes what a cell writes as "stream"
// messages named stdout or stderr. Its parent is the request being run;
// with none, writes are dropped (nothing runs outside a request).
type stream struct {
	name string
	send func(parent *Message, name, text string)

	mu     sync.Mutex
	parent *Message
	buf    []byte
	timer  *time.Timer
}

func (s *stream) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.parent == nil {
		return len(p), nil
	}
	s.buf = append(s.buf, p...)
	if len(s.buf) >= flushSize {
		s.flushLocked()
	} else if s.timer == nil {
		s.timer = time.AfterFunc(flushAfter, s.Flush)
	}
	return len(p), nil
}

// Flush sends what is buffered.
func (s *stream) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked()
}

func (s *stream) flushLocked() {
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	if len(s.buf) == 0 || s.parent == nil {
		return
	}
	text := string(s.buf)
	s.buf = s.buf[:0]
	s.send(s.parent, s.name, text)
}

// setParent flushes the output of the previous request and makes later
// output answer parent.
func (s *stream) setParent(parent *Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked()
	s.parent = parent
}
