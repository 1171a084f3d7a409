package llmproxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// readHeaderTimeout bounds how long a client may take to send its request headers.
const readHeaderTimeout = 30 * time.Second

// ErrShutdownTimeout is returned by Serve when requests were still running at the end of
// the shutdown timeout and were cut off.
var ErrShutdownTimeout = errors.New("requests still running at the shutdown timeout were cut off")

// Serve answers requests on ln until ctx is done, then shuts down gracefully: it stops
// accepting connections, closes idle ones, and waits up to the shutdown timeout for
// in-flight requests, streams included, to finish; the ones still running then are cut off
// and Serve returns ErrShutdownTimeout. Requests do not inherit ctx, so cancelling it never
// cuts a stream short by itself. Serve closes ln.
func (p *Proxy) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           p,
		ReadHeaderTimeout: readHeaderTimeout,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          p.errorLog,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	p.log.Info("shutting down", "in_flight", p.inFlight.Load(), "timeout", p.shutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.shutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	<-served // returns http.ErrServerClosed as soon as Shutdown starts
	if err != nil {
		n := p.inFlight.Load()
		srv.Close()
		return fmt.Errorf("shutdown after %s: %d %w", p.shutdownTimeout, n, ErrShutdownTimeout)
	}
	p.log.Info("stopped")
	return nil
}
