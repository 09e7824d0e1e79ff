package jupyter

import (
	"sync"
	"time"
	"unicode/utf8"
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
		s.flushLocked(false)
	} else if s.timer == nil {
		s.timer = time.AfterFunc(flushAfter, s.Flush)
	}
	return len(p), nil
}

// Flush sends what is buffered, but for the bytes of a character that a
// later write completes.
func (s *stream) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked(false)
}

// flushLocked sends what is buffered; unless final, it keeps back an
// incomplete UTF-8 sequence at the end, which JSON would garble.
func (s *stream) flushLocked(final bool) {
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	if len(s.buf) == 0 || s.parent == nil {
		return
	}
	n := len(s.buf)
	if !final {
		n = completeUTF8(s.buf)
	}
	text := string(s.buf[:n])
	s.buf = append(s.buf[:0], s.buf[n:]...)
	if text != "" {
		s.send(s.parent, s.name, text)
	}
}

// completeUTF8 returns the length of b without a trailing incomplete UTF-8
// sequence.
func completeUTF8(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}

// setParent flushes the output of the previous request and makes later
// output answer parent.
func (s *stream) setParent(parent *Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked(true)
	s.buf = s.buf[:0]
	s.parent = parent
}
