package jupyter

import (
	"bytes"
	"reflect"
	"testing"
)

// FuzzDecode feeds Decode arbitrary frames (the input split at NUL bytes)
// and keys. Decode must not panic, and a message it accepts must survive
// Encode and Decode unchanged.
func FuzzDecode(f *testing.F) {
	f.Add(bytes.Join(pyFrames, []byte{0}), []byte("secret"))
	f.Add(bytes.Join(pyFrames, []byte{0}), []byte(nil))
	m, _ := NewMessage("s", "status", nil, map[string]any{"execution_state": "idle"})
	frames, _ := m.Encode(nil)
	f.Add(bytes.Join(frames, []byte{0}), []byte(nil))
	f.Fuzz(func(t *testing.T, data, key []byte) {
		m, err := Decode(bytes.Split(data, []byte{0}), key)
		if err != nil {
			return
		}
		frames, err := m.Encode(key)
		if err != nil {
			t.Fatalf("Encode of a decoded message: %v", err)
		}
		back, err := Decode(frames, key)
		if err != nil {
			t.Fatalf("Decode(Encode(m)): %v", err)
		}
		if back.Header != m.Header || !reflect.DeepEqual(back.Identities, m.Identities) ||
			!bytes.Equal(back.ParentHeader, m.ParentHeader) || !bytes.Equal(back.Metadata, m.Metadata) ||
			!bytes.Equal(back.Content, m.Content) || !reflect.DeepEqual(back.Buffers, m.Buffers) {
			t.Fatalf("round trip changed the message:\n%+v\n%+v", m, back)
		}
		// A reply to it always encodes.
		r, err := NewMessage("k", "x_reply", m, map[string]any{"status": "ok"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Encode(key); err != nil {
			t.Fatal(err)
		}
	})
}
