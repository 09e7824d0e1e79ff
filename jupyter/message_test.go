package jupyter

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// pyFrames is a message as jupyter_client's Session serializes it with the
// key "secret" (Session(key=b"secret", session="abc").serialize(...)).
var pyFrames = [][]byte{
	[]byte("client-1"),
	[]byte("<IDS|MSG>"),
	[]byte("65523f4de2b681c1b8cb24ab97adf45df0e08dda057c4cf93e7292a28af15cac"),
	[]byte(`{"msg_id": "abc_22805_0", "msg_type": "execute_request", "username": "username", "session": "abc", "date": "2026-11-22T08:08:16.826032Z", "version": "5.3"}`),
	[]byte("{}"),
	[]byte("{}"),
	[]byte(`{"code": "x = 1\nprint(x)", "silent": false}`),
}

func TestSign(t *testing.T) {
	// The value is Python's hmac.new(b"secret", digestmod=sha256) over the
	// four parts.
	got := Sign([]byte("secret"), []byte(`{"msg_id":"1"}`), []byte("{}"), []byte("{}"), []byte(`{"code":"1"}`))
	if want := "260b97890d61eb0e6ad1283eaca56d59541c56327271b249b87dde0226568bfb"; got != want {
		t.Errorf("Sign = %s, want %s", got, want)
	}
	if got := Sign(nil, []byte("{}"), nil, nil, nil); got != "" {
		t.Errorf("Sign without a key = %q, want \"\"", got)
	}
}

func TestDecodePython(t *testing.T) {
	m, err := Decode(pyFrames, []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	if string(m.Identities[0]) != "client-1" || len(m.Identities) != 1 {
		t.Errorf("identities %q", m.Identities)
	}
	want := Header{MsgID: "abc_22805_0", Session: "abc", Username: "username",
		Date: "2026-11-22T08:08:16.826032Z", MsgType: "execute_request", Version: "5.3"}
	if m.Header != want {
		t.Errorf("header %+v, want %+v", m.Header, want)
	}
	var c executeRequest
	if err := m.Unmarshal(&c); err != nil || c.Code != "x = 1\nprint(x)" {
		t.Errorf("content %+v, %v", c, err)
	}
	// A reply echoes the header byte for byte as its parent_header and goes
	// back to the same identity.
	r, err := NewMessage("kernel", "execute_reply", m, map[string]any{"status": "ok"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(r.ParentHeader, pyFrames[3]) || string(r.Identities[0]) != "client-1" {
		t.Errorf("reply parent %s, identities %q", r.ParentHeader, r.Identities)
	}
}

func TestDecodeErrors(t *testing.T) {
	key := []byte("secret")
	bad := func(i int, b string) [][]byte {
		f := append([][]byte(nil), pyFrames...)
		f[i] = []byte(b)
		return f
	}
	tests := []struct {
		name   string
		frames [][]byte
		want   error
		msg    string
	}{
		{"no delimiter", pyFrames[2:], ErrNoDelimiter, ""},
		{"short", pyFrames[:6], ErrShort, ""},
		{"signature", bad(2, strings.Repeat("0", 64)), ErrBadSignature, ""},
		{"signature not hex", bad(2, "zz"), ErrBadSignature, ""},
		{"content changed", bad(6, `{"code": "rm"}`), ErrBadSignature, ""},
	}
	for _, tc := range tests {
		_, err := Decode(tc.frames, key)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: err %v, want %v", tc.name, err, tc.want)
		}
	}
	// Without a key nothing is checked but the JSON.
	for i, s := range map[int]string{3: "[1]", 4: "nope", 5: "1", 6: `"x"`} {
		if _, err := Decode(bad(i, s), nil); err == nil {
			t.Errorf("frame %d = %s: no error", i, s)
		}
	}
	if _, err := Decode(bad(2, "whatever"), nil); err != nil {
		t.Errorf("no key: %v", err)
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	key := []byte("k")
	m, err := NewMessage("s", "stream", nil, map[string]any{"name": "stdout", "text": "héllo\n"})
	if err != nil {
		t.Fatal(err)
	}
	m.Identities = [][]byte{[]byte("topic")}
	m.Buffers = [][]byte{{0, 1, 2}}
	frames, err := m.Encode(key)
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != 8 || string(frames[1]) != delimiter {
		t.Fatalf("frames %q", frames)
	}
	back, err := Decode(frames, key)
	if err != nil {
		t.Fatal(err)
	}
	if back.Header != m.Header || !reflect.DeepEqual(back.Identities, m.Identities) ||
		!reflect.DeepEqual(back.Buffers, m.Buffers) || string(back.Content) != string(m.Content) ||
		string(back.ParentHeader) != "{}" || string(back.Metadata) != "{}" {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, m)
	}
	var h map[string]any
	if err := json.Unmarshal(frames[3], &h); err != nil || h["version"] != ProtocolVersion || h["msg_type"] != "stream" {
		t.Errorf("header %s (%v)", frames[3], err)
	}
	if _, err := Decode(frames, []byte("other key")); !errors.Is(err, ErrBadSignature) {
		t.Errorf("decoding under another key: %v", err)
	}
}

func TestNewID(t *testing.T) {
	a, b := newID(), newID()
	if a == b || len(a) != 36 || a[14] != '4' {
		t.Errorf("ids %s %s", a, b)
	}
}
