package jupyter

import (
	"strings"
	"testing"
	"time"
)

func TestStreamKeepsCharactersWhole(t *testing.T) {
	var sent []string
	s := &stream{name: "stdout", send: func(_ *Message, name, text string) { sent = append(sent, text) }}
	s.Write([]byte("dropped: no request runs\n"))
	s.setParent(&Message{})
	big := strings.Repeat("a", flushSize-1) + "é" // the é is split by the size flush
	s.Write([]byte(big[:flushSize]))
	s.Write([]byte(big[flushSize:] + "\n"))
	s.Write([]byte("\xc3")) // an incomplete character at the end is sent as it is
	s.setParent(nil)
	if len(sent) != 2 || sent[0] != strings.Repeat("a", flushSize-1) || sent[1] != "é\n\xc3" {
		t.Errorf("sent %d messages: %q...", len(sent), sent[len(sent)-1])
	}
	for _, tc := range []struct {
		b    string
		want int
	}{{"", 0}, {"ab", 2}, {"a\xc3", 1}, {"a\xe2\x82", 1}, {"a€", 4}, {"\x80\x80", 2}} {
		if got := completeUTF8([]byte(tc.b)); got != tc.want {
			t.Errorf("completeUTF8(%q) = %d, want %d", tc.b, got, tc.want)
		}
	}
}

func TestStreamFlushesAfterAWhile(t *testing.T) {
	sent := make(chan string, 1)
	s := &stream{name: "stderr", send: func(_ *Message, name, text string) { sent <- name + " " + text }}
	s.setParent(&Message{})
	s.Write([]byte("slow cell\n"))
	select {
	case got := <-sent:
		if got != "stderr slow cell\n" {
			t.Errorf("sent %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Error("buffered output was not sent while the cell ran")
	}
}
