package jupyter

import "sync"

// digestHistory remembers the signatures of the last messages received, so
// that a message sent again frame for frame (a replay by whoever saw it on
// the wire) is refused, as jupyter_client's Session does. It holds at most
// max signatures, forgetting the oldest first.
type digestHistory struct {
	mu   sync.Mutex
	max  int
	seen map[string]bool
	ring []string // the signatures in the order seen, a circular buffer once full
	next int      // where the next one goes in ring, once it is full
}

// maxDigests is the history's bound, jupyter_client's digest_history_size.
const maxDigests = 1 << 16

func newDigestHistory(max int) *digestHistory {
	return &digestHistory{max: max, seen: map[string]bool{}}
}

// add records sig and reports whether it is new. An empty signature
// (signing off) is never recorded.
func (h *digestHistory) add(sig string) bool {
	if sig == "" {
		return true
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seen[sig] {
		return false
	}
	h.seen[sig] = true
	if len(h.ring) < h.max {
		h.ring = append(h.ring, sig)
		return true
	}
	delete(h.seen, h.ring[h.next])
	h.ring[h.next] = sig
	h.next = (h.next + 1) % h.max
	return true
}
