package jupyter

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseConnection(t *testing.T) {
	// As jupyter_client writes it.
	text := `{
  "shell_port": 50001, "iopub_port": 50002, "stdin_port": 50003,
  "control_port": 50004, "hb_port": 50005, "ip": "127.0.0.1",
  "key": "a0436f6c-1916-498b-8eb9-e81ab9368e84", "transport": "tcp",
  "signature_scheme": "hmac-sha256", "kernel_name": "tiny"
}`
	path := filepath.Join(t.TempDir(), "kernel-1.json")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := ReadConnection(path)
	if err != nil {
		t.Fatal(err)
	}
	want := Connection{Transport: "tcp", IP: "127.0.0.1", ShellPort: 50001, ControlPort: 50004, StdinPort: 50003,
		IOPubPort: 50002, HBPort: 50005, Key: "a0436f6c-1916-498b-8eb9-e81ab9368e84",
		SignatureScheme: "hmac-sha256", KernelName: "tiny"}
	if c != want {
		t.Errorf("got %+v\nwant %+v", c, want)
	}
	if got := c.Addr(c.ShellPort); got != "tcp://127.0.0.1:50001" {
		t.Errorf("Addr = %s", got)
	}
	for ip, want := range map[string]string{"::1": "tcp://[::1]:50001", "*": "tcp://0.0.0.0:50001"} {
		c.IP = ip
		if got := c.Addr(c.ShellPort); got != want {
			t.Errorf("Addr with ip %s = %s, want %s", ip, got, want)
		}
	}
	c.Transport, c.IP = "ipc", "/tmp/kernel-1"
	if got := c.Addr(c.HBPort); got != "ipc:///tmp/kernel-1-50005" {
		t.Errorf("ipc Addr = %s", got)
	}
	if _, err := ReadConnection(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("a missing file: no error")
	}
}

func TestParseConnectionErrors(t *testing.T) {
	ports := `"shell_port": 1, "iopub_port": 2, "stdin_port": 3, "control_port": 4, "hb_port": 5`
	tests := []struct{ text, err string }{
		{`{` + ports + `, "ip": "127.0.0.1"}`, ""}, // transport and scheme default
		{`{`, "unexpected end"},
		{`{` + ports + `}`, "no ip"},
		{`{` + ports + `, "ip": "127.0.0.1", "transport": "udp"}`, "transport"},
		{`{` + ports + `, "ip": "127.0.0.1", "signature_scheme": "hmac-md5"}`, "signature_scheme"},
		{`{"ip": "127.0.0.1", "shell_port": 1}`, "port 0"},
		{`{"shell_port": 70000, "iopub_port": 2, "stdin_port": 3, "control_port": 4, "hb_port": 5, "ip": "127.0.0.1"}`, "port 70000"},
	}
	for _, tc := range tests {
		_, err := ParseConnection([]byte(tc.text))
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: err %v, want %q", tc.text, err, tc.err)
		}
	}
}
