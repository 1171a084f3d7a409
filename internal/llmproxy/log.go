package llmproxy

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/winnowhq/winnow/internal/telemetry"
)

// finish logs the exchange when its handler returns or panics. httputil.ReverseProxy
// panics with http.ErrAbortHandler when a response breaks off mid-stream (the client or the
// upstream went away); any panic is logged and then re-raised as http.ErrAbortHandler, which
// makes net/http close the connection quietly, so the client sees a cut-off response rather
// than a well-formed one that lies. So does a request whose client left before the upstream
// answered (ex.hangUp): returning would make net/http answer an empty 200.
func (p *Proxy) finish(rec *recorder, r *http.Request, ex *exchange) {
	v := recover()
	aborted := v != nil
	if aborted {
		switch err, _ := v.(error); {
		case errors.Is(err, http.ErrAbortHandler) && r.Context().Err() != nil && ex.usage.ended():
			ex.leftAfterEnd = true // not an error: the client had every event that matters
		case errors.Is(err, http.ErrAbortHandler) && r.Context().Err() != nil:
			ex.err = errors.New("client closed the connection mid-response")
		case errors.Is(err, http.ErrAbortHandler):
			ex.err = errors.New("the response broke off mid-stream")
		default:
			ex.err = fmt.Errorf("panic: %v", v)
			p.log.Error("proxy handler panicked", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		}
	}
	status := exchangeStatus(r, rec, ex)
	if ex.rewrite && p.recorder != nil {
		p.record(r, status, ex) // before the log line, so that a reader of the log finds it recorded
	}
	p.logExchange(r, status, rec, ex, aborted)
	if aborted || ex.hangUp && rec.status == 0 {
		panic(http.ErrAbortHandler)
	}
}

// exchangeStatus is the status the client got: 499 when it left before the upstream
// answered.
func exchangeStatus(r *http.Request, rec *recorder, ex *exchange) int {
	status := rec.status
	if status == 0 {
		status = ex.upstreamStatus // a protocol upgrade writes no header through rec
	}
	if status == 0 && r.Context().Err() != nil {
		status = statusClientClosed
	}
	return status
}

// logExchange writes the one log line of a request.
func (p *Proxy) logExchange(r *http.Request, status int, rec *recorder, ex *exchange, aborted bool) {
	level := slog.LevelInfo
	if aborted && !ex.leftAfterEnd || ex.err != nil || status >= 500 {
		level = slog.LevelWarn
	}
	attrs := []slog.Attr{
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.String("dialect", ex.dialect),
		slog.Int("status", status),
		slog.Int64("req_bytes", ex.inBytes),
		slog.Int64("fwd_bytes", ex.fwdBytes),
		slog.Int64("resp_bytes", rec.bytes),
		slog.Float64("ms", millis(time.Since(ex.start))),
		slog.Float64("ttfb_ms", millis(rec.firstByte)),
	}
	if ex.result != "" {
		attrs = append(attrs, slog.String("rewrite", ex.result))
	}
	if ex.reason != "" {
		attrs = append(attrs, slog.String("reason", ex.reason))
	}
	if ex.counted() {
		attrs = append(attrs,
			slog.Int("tokens_before", ex.tokensBefore),
			slog.Int("tokens_after", ex.tokensAfter),
			slog.Int("saved", ex.tokensBefore-ex.tokensAfter))
	}
	if len(ex.notes) > 0 {
		attrs = append(attrs, slog.String("notes", strings.Join(ex.notes, "; ")))
	}
	if v := r.Header.Get("Anthropic-Version"); v != "" {
		attrs = append(attrs, slog.String("api_version", v))
	}
	if _, edits := ex.usage.result(); len(edits) > 0 {
		attrs = append(attrs, slog.String("server_edits", serverEditsText(edits)))
	}
	switch {
	case ex.leftAfterEnd:
		attrs = append(attrs, slog.Bool("client_left_after_end", true))
	case aborted:
		attrs = append(attrs, slog.Bool("aborted", true))
	}
	if ex.err != nil {
		attrs = append(attrs, slog.String("error", ex.err.Error()))
	}
	p.log.LogAttrs(r.Context(), level, "proxy", attrs...)
}

// millis is d in milliseconds, to the microsecond.
func millis(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1e3
}

// serverEditsText says what the upstream reported it cleared, for the log:
// "clear_tool_uses_20250919: 8 tool uses, 50000 tokens".
func serverEditsText(edits []telemetry.ServerEdit) string {
	parts := make([]string, len(edits))
	for i, e := range edits {
		parts[i] = fmt.Sprintf("%s: %d tool uses, %d tokens", e.Type, e.ClearedToolUses, e.ClearedInputTokens)
	}
	return strings.Join(parts, "; ")
}
