package jupyter

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ProtocolVersion is the version of the Jupyter messaging protocol spoken.
const ProtocolVersion = "5.3"

// delimiter separates the routing identities of a message from its body.
const delimiter = "<IDS|MSG>"

// Header is a message's header. Its MsgID is unique; Session names the
// sender's session.
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// Message is one Jupyter message. Identities route a reply back through a
// ROUTER socket. ParentHeader, Metadata and Content are JSON objects, kept
// as raw JSON so that a parent's header is echoed unchanged in replies.
type Message struct {
	Identities   [][]byte
	Header       Header
	ParentHeader json.RawMessage
	Metadata     json.RawMessage
	Content      json.RawMessage
	Buffers      [][]byte

	rawHeader json.RawMessage // the header as received, for replies' parent_header
	signature string          // the signature frame as received
	received  time.Time       // when the kernel read it off its socket
}

// Errors Decode returns.
var (
	ErrNoDelimiter  = errors.New("jupyter: no <IDS|MSG> delimiter")
	ErrShort        = errors.New("jupyter: fewer than 5 frames after the delimiter")
	ErrBadSignature = errors.New("jupyter: bad signature")
)

// Sign returns the hex HMAC-SHA256 of the four JSON frames under key, or ""
// when key is empty (signing is off).
func Sign(key []byte, header, parent, metadata, content []byte) string {
	if len(key) == 0 {
		return ""
	}
	mac := hmac.New(sha256.New, key)
	for _, part := range [][]byte{header, parent, metadata, content} {
		mac.Write(part)
	}
	return hex.EncodeToString(mac.Sum(nil))
}

// verify reports whether sig signs the frames under key. With an empty key
// every signature passes, as in jupyter_client.
func verify(key []byte, sig string, parts [][]byte) bool {
	if len(key) == 0 {
		return true
	}
	got, err := hex.DecodeString(sig)
	if err != nil {
		return false
	}
	want, _ := hex.DecodeString(Sign(key, parts[0], parts[1], parts[2], parts[3]))
	return hmac.Equal(got, want)
}

// Decode parses the frames of a message received on a socket and checks its
// signature under key. It never panics, whatever the frames hold.
func Decode(frames [][]byte, key []byte) (*Message, error) {
	i := 0
	for i < len(frames) && string(frames[i]) != delimiter {
		i++
	}
	if i == len(frames) {
		return nil, ErrNoDelimiter
	}
	body := frames[i+1:]
	if len(body) < 5 {
		return nil, ErrShort
	}
	if !verify(key, string(body[0]), body[1:5]) {
		return nil, ErrBadSignature
	}
	m := &Message{Identities: frames[:i], Buffers: body[5:], signature: string(body[0])}
	if err := json.Unmarshal(body[1], &m.Header); err != nil {
		return nil, fmt.Errorf("jupyter: header: %w", err)
	}
	m.rawHeader = json.RawMessage(body[1])
	parts := []*json.RawMessage{&m.ParentHeader, &m.Metadata, &m.Content}
	names := []string{"parent_header", "metadata", "content"}
	for j, p := range parts {
		if err := checkObject(body[2+j]); err != nil {
			return nil, fmt.Errorf("jupyter: %s: %w", names[j], err)
		}
		*p = json.RawMessage(body[2+j])
	}
	return m, nil
}

// checkObject returns an error unless b is one JSON object.
func checkObject(b []byte) error {
	var obj map[string]json.RawMessage
	return json.Unmarshal(b, &obj)
}

// Encode returns the frames of m signed under key.
func (m *Message) Encode(key []byte) ([][]byte, error) {
	header := []byte(m.rawHeader)
	if header == nil {
		var err error
		if header, err = json.Marshal(m.Header); err != nil {
			return nil, err
		}
	}
	parent, meta, content := orEmpty(m.ParentHeader), orEmpty(m.Metadata), orEmpty(m.Content)
	frames := make([][]byte, 0, len(m.Identities)+6+len(m.Buffers))
	frames = append(frames, m.Identities...)
	frames = append(frames, []byte(delimiter), []byte(Sign(key, header, parent, meta, content)),
		header, parent, meta, content)
	return append(frames, m.Buffers...), nil
}

// orEmpty returns raw, or "{}" when it is empty.
func orEmpty(raw json.RawMessage) []byte {
	if len(bytes.TrimSpace(raw)) == 0 {
		return []byte("{}")
	}
	return raw
}

// Unmarshal decodes m's content into v.
func (m *Message) Unmarshal(v any) error {
	return json.Unmarshal(orEmpty(m.Content), v)
}

// parentJSON returns m's header as the parent_header of a message that
// answers it: as received, when m was decoded.
func (m *Message) parentJSON() json.RawMessage {
	if m.rawHeader != nil {
		return m.rawHeader
	}
	b, _ := json.Marshal(m.Header)
	return b
}

// NewMessage returns a message of type msgType in session, answering parent
// (nil for none) with content marshalled to JSON. A reply goes back to the
// parent's identities.
func NewMessage(session, msgType string, parent *Message, content any) (*Message, error) {
	body, err := json.Marshal(content)
	if err != nil {
		return nil, err
	}
	m := &Message{
		Header: Header{
			MsgID:    newID(),
			Session:  session,
			Username: "tiny",
			Date:     time.Now().UTC().Format(time.RFC3339Nano),
			MsgType:  msgType,
			Version:  ProtocolVersion,
		},
		ParentHeader: json.RawMessage("{}"),
		Metadata:     json.RawMessage("{}"),
		Content:      body,
	}
	if parent != nil {
		m.ParentHeader = parent.parentJSON()
		m.Identities = parent.Identities
	}
	return m, nil
}

// newID returns a random UUID (version 4) in its usual text form.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
