package llmproxy

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"time"
)

// A clientBody is a request body as the proxy reads it from the client, for the Rewriter
// or for the transport that streams it upstream. Every read must bring a byte within the
// idle timeout, and the whole body must have arrived by its deadline: before each read it
// sets the connection's read deadline to the earlier of the two, and once the body has
// ended it clears it, so that nothing bounds the response (a stream may run for as long as
// the model writes) nor net/http's watch for the client going away.
//
// It remembers why a read failed, so that the proxy can answer the client (see failure).
type clientBody struct {
	body     io.ReadCloser
	rc       *http.ResponseController // nil: the connection takes no read deadline
	length   int64                    // the announced length; -1 unknown
	idle     time.Duration
	total    time.Duration // the time the whole body may take, up to deadline
	deadline time.Time

	// readMu is held through each read of body, so that failure can wait for a read that
	// is returning its error.
	readMu sync.Mutex
	n      int64      // bytes read so far
	ended  bool       // body returned io.EOF
	err    *bodyError // the first error other than io.EOF
}

// newClientBody wraps r's body, if it has one, in a clientBody that reads with the idle
// timeout idle and must end within total of start; it returns nil when r has no body.
func newClientBody(w http.ResponseWriter, r *http.Request, start time.Time, idle, total time.Duration) *clientBody {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	b := &clientBody{body: r.Body, rc: http.NewResponseController(w), length: r.ContentLength,
		idle: idle, total: total, deadline: start.Add(total)}
	if err := b.rc.SetReadDeadline(time.Time{}); err != nil {
		b.rc = nil // not a connection net/http lets us time: read without a deadline
	}
	r.Body = b
	return b
}

// Read reads from the client's body within the idle timeout and the body's deadline.
func (b *clientBody) Read(p []byte) (int, error) {
	b.readMu.Lock()
	defer b.readMu.Unlock()
	if b.ended {
		return 0, io.EOF
	}
	if b.err != nil {
		return 0, b.err
	}
	if b.rc != nil {
		d := time.Now().Add(b.idle)
		if d.After(b.deadline) {
			d = b.deadline
		}
		b.rc.SetReadDeadline(d)
	}
	n, err := b.body.Read(p)
	b.n += int64(n)
	switch {
	case err == io.EOF:
		b.ended = true
		if b.rc != nil {
			b.rc.SetReadDeadline(time.Time{}) // the body is whole: no deadline on what follows
		}
	case err != nil:
		b.err = b.explain(err)
		err = b.err
	}
	return n, err
}

// Close closes the client's body.
func (b *clientBody) Close() error {
	return b.body.Close()
}

// failure returns why the client's body could not be read whole, or nil. With wait, it
// first waits for a read in progress to return: a read that failed cancels the request's
// context before it returns, so a caller that saw the context end waits for the read's
// error. Without wait it does not block, and a read still in progress has not failed.
func (b *clientBody) failure(wait bool) *bodyError {
	if b == nil {
		return nil
	}
	if wait {
		b.readMu.Lock()
	} else if !b.readMu.TryLock() {
		return nil
	}
	defer b.readMu.Unlock()
	return b.err
}

// A bodyError is a request body the client did not send whole.
type bodyError struct {
	status int   // what the client is answered: 408 for a timeout, else 400
	got    int64 // the bytes that did arrive
	msg    string
	err    error // the read's own error
}

func (e *bodyError) Error() string { return e.msg }
func (e *bodyError) Unwrap() error { return e.err }

// explain turns the error of a failed read into one that says what the client did.
func (b *clientBody) explain(err error) *bodyError {
	got := fmt.Sprintf("%d bytes", b.n)
	if b.length >= 0 {
		got = fmt.Sprintf("%d of the %d bytes announced", b.n, b.length)
	}
	e := &bodyError{status: http.StatusBadRequest, got: b.n, err: err}
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded) && !time.Now().Before(b.deadline):
		e.status = http.StatusRequestTimeout
		e.msg = fmt.Sprintf("request body incomplete after %s, the longest the proxy waits for one: %s arrived", b.total, got)
	case errors.Is(err, os.ErrDeadlineExceeded):
		e.status = http.StatusRequestTimeout
		e.msg = fmt.Sprintf("request body stalled: no byte for %s, after %s", b.idle, got)
	case errors.Is(err, io.ErrUnexpectedEOF):
		e.msg = "request body ended early: the client closed its side of the connection after " + got
	default:
		e.msg = fmt.Sprintf("read request body after %s: %v", got, err)
	}
	return e
}
