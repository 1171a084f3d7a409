package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPPath is where ListenAndServe serves MCP.
const HTTPPath = "/mcp"

const (
	// sessionIdle closes HTTP sessions a client left without saying so.
	sessionIdle = 30 * time.Minute
	// shutdownGrace is how long in-flight calls may take to finish once
	// the server is asked to stop.
	shutdownGrace = 5 * time.Second
)

// Handler returns an http.Handler that serves the server over the
// streamable HTTP transport, one MCP session per client. Sessions idle for
// half an hour are closed. Requests arriving on a loopback address with a
// Host header naming another host, and requests whose Origin is neither
// loopback nor in Options.AllowedOrigins, are refused with 403 (DNS
// rebinding); a request without a session that is not an initialize gets
// a JSON-RPC error saying to initialize first (see guardHTTP).
func (s *Server) Handler() http.Handler {
	return guardHTTP(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp },
		&mcp.StreamableHTTPOptions{SessionTimeout: sessionIdle, Logger: s.log}), s.origins)
}

// CheckAddr checks a listening address, host:port, before anything is
// started. A host that is not a loopback address (an empty host, 0.0.0.0,
// [::], a LAN address or a name other than localhost) exposes the
// repository's code to the network: it is refused unless allowRemote.
func CheckAddr(addr string, allowRemote bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: want host:port, e.g. 127.0.0.1:8765: %w", addr, err)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return fmt.Errorf("address %q: bad port %q", addr, port)
	}
	if allowRemote || isLoopback(host) {
		return nil
	}
	what := fmt.Sprintf("host %q is not a loopback address", host)
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		what = "it listens on every network interface"
	}
	return fmt.Errorf("address %q: %s, so anyone who can reach this machine could read the repository through winnow; listen on 127.0.0.1:%s, or pass --allow-remote if that is what you want", addr, what, port)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ListenAndServe serves the server over streamable HTTP at HTTPPath on
// addr (checked with CheckAddr) until ctx is done, then shuts down:
// in-flight calls get shutdownGrace to finish, and open event streams are
// closed at once. ready, if not nil, is called with the endpoint URL once
// the server accepts connections. It returns nil after a shutdown that
// ctx asked for.
func (s *Server) ListenAndServe(ctx context.Context, addr string, allowRemote bool, ready func(url string)) error {
	if err := CheckAddr(addr, allowRemote); err != nil {
		return err
	}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	stopping, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, closeStreamsOn(stopping, s.Handler()))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if ready != nil {
		ready("http://" + ln.Addr().String() + HTTPPath)
	}
	select {
	case err := <-served:
		return fmt.Errorf("serve MCP over HTTP: %w", err)
	case <-ctx.Done():
	}
	stop()
	grace, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(grace); err != nil {
		srv.Close()
		s.log.Warn("MCP HTTP server: calls still running at shutdown were cut off", "err", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve MCP over HTTP: %w", err)
	}
	return nil
}

// closeStreamsOn ends the long-lived event streams clients open with GET
// when stopping is done, so that shutdown need not wait for clients to
// hang up; tool calls (POST) run to completion.
func closeStreamsOn(stopping context.Context, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			defer context.AfterFunc(stopping, cancel)()
			r = r.WithContext(ctx)
		}
		h.ServeHTTP(w, r)
	})
}
