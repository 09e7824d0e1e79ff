package jupyter

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strconv"
)

// Connection is the content of a connection file: where the kernel's five
// sockets listen and the key that signs messages.
type Connection struct {
	Transport       string `json:"transport"` // "tcp" or "ipc"
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	StdinPort       int    `json:"stdin_port"`
	IOPubPort       int    `json:"iopub_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
	KernelName      string `json:"kernel_name,omitempty"`
}

// ReadConnection reads and checks the connection file at path.
func ReadConnection(path string) (Connection, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Connection{}, err
	}
	return ParseConnection(data)
}

// ParseConnection parses and checks the text of a connection file. A
// missing transport is "tcp" and a missing signature scheme "hmac-sha256";
// other schemes are refused.
func ParseConnection(data []byte) (Connection, error) {
	var c Connection
	if err := json.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("connection file: %w", err)
	}
	if c.Transport == "" {
		c.Transport = "tcp"
	}
	if c.SignatureScheme == "" {
		c.SignatureScheme = "hmac-sha256"
	}
	switch {
	case c.Transport != "tcp" && c.Transport != "ipc":
		return c, fmt.Errorf("connection file: transport %q, want tcp or ipc", c.Transport)
	case c.SignatureScheme != "hmac-sha256":
		return c, fmt.Errorf("connection file: signature_scheme %q, want hmac-sha256", c.SignatureScheme)
	case c.IP == "":
		return c, fmt.Errorf("connection file: no ip")
	}
	for _, p := range []int{c.ShellPort, c.ControlPort, c.StdinPort, c.IOPubPort, c.HBPort} {
		if p <= 0 || p > 65535 && c.Transport == "tcp" {
			return c, fmt.Errorf("connection file: port %d out of range", p)
		}
	}
	return c, nil
}

// Addr returns the ZeroMQ endpoint of port: "tcp://IP:PORT" ("[IP]:PORT"
// for IPv6, and "*" is every address), or for the ipc transport
// "ipc://IP-PORT" as jupyter_client names its socket files.
func (c Connection) Addr(port int) string {
	if c.Transport == "ipc" {
		return fmt.Sprintf("ipc://%s-%d", c.IP, port)
	}
	ip := c.IP
	if ip == "*" {
		ip = "0.0.0.0"
	}
	return "tcp://" + net.JoinHostPort(ip, strconv.Itoa(port))
}
