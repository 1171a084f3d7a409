package gateway

import (
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newProtocol is the first MCP protocol version (SEP-2575) in which a server may not send
// requests (roots, sampling, elicitation) to the client outside a multi-round-trip result.
const newProtocol = "2026-07-28"

// downstreams remembers the agent sessions that talked to the server, most recent last, so
// that a request from an upstream that is not part of a call (roots/list after the upstream
// started, say) goes to the most recent client still connected.
type downstreams struct {
	srv *mcp.Server

	mu     sync.Mutex
	recent []*mcp.ServerSession
}

// touch records activity of ss.
func (d *downstreams) touch(ss *mcp.ServerSession) {
	live := d.live()
	d.mu.Lock()
	defer d.mu.Unlock()
	d.recent = slices.DeleteFunc(d.recent, func(s *mcp.ServerSession) bool { return s == ss || !live[s] })
	d.recent = append(d.recent, ss)
}

// latest returns the most recently active session that is still connected, or nil.
func (d *downstreams) latest() *mcp.ServerSession {
	live := d.live()
	d.mu.Lock()
	defer d.mu.Unlock()
	for i := len(d.recent) - 1; i >= 0; i-- {
		if live[d.recent[i]] {
			return d.recent[i]
		}
	}
	return nil
}

func (d *downstreams) live() map[*mcp.ServerSession]bool {
	live := make(map[*mcp.ServerSession]bool)
	for s := range d.srv.Sessions() {
		live[s] = true
	}
	return live
}

// clientCaps returns the capabilities ss declared, never nil.
func clientCaps(ss *mcp.ServerSession) *mcp.ClientCapabilities {
	if ss == nil {
		return &mcp.ClientCapabilities{}
	}
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil {
		return &mcp.ClientCapabilities{}
	}
	return p.Capabilities
}

// acceptsRequests reports whether the server may send requests to ss while serving a call:
// sessions on the stateless protocol take them only as multi-round-trip input requests.
func acceptsRequests(ss *mcp.ServerSession) bool {
	if ss == nil {
		return false
	}
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion < newProtocol
}
