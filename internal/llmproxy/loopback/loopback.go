// Package loopback serves an http.Handler on a free port of 127.0.0.1 until it is
// closed: the listening half of the proxy's fake and scripted upstreams (fakeapi,
// scripted/claude, scripted/codex). It does not route, record or answer anything itself;
// unlike httptest.Server it is meant for benchmarks as well as tests, returns its listen
// error instead of panicking, and Close cuts off requests in flight rather than waiting
// for them.
package loopback

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// A Server is an HTTP server running on a loopback port.
type Server struct {
	// URL is the base URL, such as http://127.0.0.1:41234.
	URL string

	srv  *http.Server
	done chan error
}

// Start serves h on 127.0.0.1 on a free port.
func Start(h http.Handler) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	s := &Server{
		URL:  "http://" + ln.Addr().String(),
		srv:  &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second},
		done: make(chan error, 1),
	}
	go func() { s.done <- s.srv.Serve(ln) }()
	return s, nil
}

// Close stops the server, cutting off requests in flight, and returns once it has
// stopped serving.
func (s *Server) Close() error {
	err := s.srv.Close()
	if serr := <-s.done; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	return err
}
