package llmproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
)

// statusClientClosed is logged for a request whose client went away before the upstream
// answered (nginx's 499); it is never sent.
const statusClientClosed = 499

// upstreamError handles a request the upstream did not answer: the client's body could not
// be read whole (400, or 408 for a timeout; see answerBodyError), the client went away (nothing
// is written, and the connection is closed), the upstream timed out (504) or could not be
// reached (502). The error body is in the dialect's error shape, so SDKs show its message.
func (p *Proxy) upstreamError(w http.ResponseWriter, r *http.Request, ex *exchange, err error) {
	gone := r.Context().Err() != nil
	if be := ex.body.failure(gone); be != nil {
		answerBodyError(w, ex, be)
		return
	}
	if gone {
		ex.err = fmt.Errorf("client closed the request: %w", context.Cause(r.Context()))
		ex.hangUp = true
		return
	}
	ex.err = fmt.Errorf("upstream %s: %w", ex.upstream.shown, err)
	status := http.StatusBadGateway
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		status = http.StatusGatewayTimeout
	}
	if ex.rewrite {
		ex.setHeaders(w.Header())
	}
	writeError(w, ex.dialect, status, "api_error", "winnow proxy: "+ex.err.Error())
}

// answerBodyError answers a request whose body the client did not send whole (err, normally a
// *bodyError from the clientBody): 408 when it was too slow, 400 when it ended early or the
// read failed otherwise. It answers even when the request's context has ended, as it does
// when the client half-closes its connection after part of the body: such a client is
// still reading, and net/http would otherwise answer 200 with an empty body. net/http
// closes the connection after the answer, since the body was not read to its end.
func answerBodyError(w http.ResponseWriter, ex *exchange, err error) {
	status := http.StatusBadRequest
	var be *bodyError
	if errors.As(err, &be) {
		status = be.status
		ex.inBytes = be.got
	}
	ex.err = err
	writeError(w, ex.dialect, status, "invalid_request_error", "winnow proxy: "+err.Error())
}

// writeError writes an error response in the shape of dialect's API errors.
func writeError(w http.ResponseWriter, dialect string, status int, kind, msg string) {
	var body any
	if dialect == DialectAnthropic {
		body = map[string]any{"type": "error", "error": map[string]string{"type": kind, "message": msg}}
	} else {
		body = map[string]any{"error": map[string]any{"message": msg, "type": kind, "param": nil, "code": nil}}
	}
	data, _ := json.Marshal(body) // maps of strings always marshal
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(data)
}
