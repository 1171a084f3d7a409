package llmproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"unicode/utf8"
)

// An outBody is the body to forward in place of the client's.
type outBody struct {
	data   []byte    // the whole body, when it is in memory
	stream io.Reader // else the body as it streams in
	length int64     // the length to announce; -1 unknown
}

// install makes b the body of the outbound request out.
func (b *outBody) install(out *http.Request) {
	out.Header.Del("Content-Length") // the transport writes it from ContentLength
	out.ContentLength = b.length
	switch {
	case b.stream != nil:
		out.Body = io.NopCloser(b.stream)
		out.GetBody = nil
	case len(b.data) == 0:
		out.Body, out.GetBody = http.NoBody, nil
	default:
		data := b.data
		out.Body = io.NopCloser(bytes.NewReader(data))
		out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	}
}

// prepare reads the body of a rewritable request and returns what to forward: the
// Rewriter's body, the client's bytes, or (above the size cap) the client's body as it
// streams in. The outcome is recorded in ex. An error means the client's body could not be
// read whole, so nothing can be forwarded.
func (p *Proxy) prepare(r *http.Request, ex *exchange) (*outBody, error) {
	if reason := bypassUnread(r); reason != "" {
		ex.bypass(reason, nil)
		return nil, nil
	}
	if r.ContentLength > p.maxBody {
		ex.bypass(ReasonTooLarge, nil)
		return nil, nil
	}
	data, complete, err := readAtMost(r.Body, r.ContentLength, p.maxBody)
	if err != nil {
		return nil, err // a *bodyError: r.Body is the clientBody
	}
	if !complete {
		ex.bypass(ReasonTooLarge, nil)
		return &outBody{stream: io.MultiReader(bytes.NewReader(data), r.Body), length: r.ContentLength}, nil
	}
	ex.inBytes, ex.fwdBytes = int64(len(data)), int64(len(data))
	if p.recorder != nil {
		ex.noteRequest(data)
	}
	original := &outBody{data: data, length: int64(len(data))}
	if !utf8.Valid(data) {
		ex.bypass(ReasonNotUTF8, nil)
		return original, nil
	}
	req := &Request{Dialect: ex.dialect, Path: r.URL.Path, Body: data, Header: plainOnly(r.Header),
		ServerEdits: ex.dialect == DialectAnthropic && serverEditsAllowed(p.serverEdits, ex.upstream.url) && !ex.upstream.refusesEdits.Load()}
	rw, err := p.rewrite(r.Context(), req)
	if err != nil {
		ex.bypass(ReasonRewriteFailed, err)
		return original, nil
	}
	ex.tokensBefore, ex.tokensAfter, ex.notes, ex.passes = rw.TokensBefore, rw.TokensAfter, rw.Notes, rw.Passes
	if !rw.Changed {
		ex.result = RewriteUnchanged
		return original, nil
	}
	if len(rw.Body) == 0 || !rw.WellFormed && (!utf8.Valid(rw.Body) || !json.Valid(rw.Body)) {
		ex.bypass(ReasonInvalidRewrite, errors.New("the rewritten body is not valid UTF-8 JSON"))
		return original, nil
	}
	ex.result, ex.fwdBytes = RewriteChanged, int64(len(rw.Body))
	if len(rw.Beta) > 0 {
		ex.beta = rw.Beta
		ex.fallback = &editFallback{up: ex.upstream, original: data, beta: r.Header.Get("Anthropic-Beta"), ex: ex}
	}
	return &outBody{data: rw.Body, length: int64(len(rw.Body))}, nil
}

// bypassUnread returns why r's body goes through without being read, or "".
func bypassUnread(r *http.Request) string {
	if ce := r.Header.Get("Content-Encoding"); ce != "" && ce != "identity" {
		return ReasonContentEncoding
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return ReasonContentType
	}
	return ""
}

// rewrite calls the Rewriter, turning a panic into an error.
func (p *Proxy) rewrite(ctx context.Context, req *Request) (rw *Rewrite, err error) {
	defer func() {
		if v := recover(); v != nil {
			rw, err = nil, fmt.Errorf("rewriter panicked: %v", v)
		}
	}()
	rw, err = p.rewriter.Rewrite(ctx, req)
	if err == nil && rw == nil {
		err = errors.New("rewriter returned neither a rewrite nor an error")
	}
	return rw, err
}

// readAtMost reads body up to its end or to limit bytes, whichever comes first. complete
// reports whether it reached the end; when it did not, it has read limit+1 bytes, and the
// rest is still in body. size is the announced length (-1 unknown), used to size the buffer.
func readAtMost(body io.Reader, size, limit int64) (data []byte, complete bool, err error) {
	var buf bytes.Buffer
	if size >= 0 && size <= limit {
		buf.Grow(int(size) + bytes.MinRead)
	}
	n, err := buf.ReadFrom(io.LimitReader(body, limit+1))
	if err != nil {
		return nil, false, err
	}
	return buf.Bytes(), n <= limit, nil
}
