package llmproxy

import (
	"fmt"
	"net"
)

// CheckLoopback returns nil if a server listening on addr (host:port) accepts connections
// from this machine only: its host is "localhost" or a loopback IP. An empty host, 0.0.0.0,
// :: or any other address is an error saying what it would expose.
func CheckLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listen address %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	switch {
	case ip != nil && ip.IsLoopback():
		return nil
	case host == "" || ip != nil && ip.IsUnspecified():
		return fmt.Errorf("listen address %q accepts connections on every network interface", addr)
	}
	return fmt.Errorf("listen address %q is not a loopback address", addr)
}

// ClientURL returns the base URL a client on this machine uses to reach a server listening
// on addr: an unspecified host (0.0.0.0, ::) becomes 127.0.0.1.
func ClientURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String()
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}
