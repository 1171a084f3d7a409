package llmproxy

import (
	"net/http"
	"strconv"
	"time"
)

// Values of the HeaderRewrite response header.
const (
	RewriteChanged   = "changed"   // the Rewriter's body was forwarded
	RewriteUnchanged = "unchanged" // the Rewriter kept the client's body
	RewriteBypassed  = "bypassed"  // the client's body was forwarded without a rewrite; see HeaderReason
)

// Reasons for a bypass, in HeaderReason and the log.
const (
	ReasonTooLarge        = "body_too_large"   // above MaxBodyBytes: streamed through unread
	ReasonContentEncoding = "content_encoding" // a compressed request body
	ReasonContentType     = "content_type"     // not application/json
	ReasonNotUTF8         = "not_utf8"         // the body is not valid UTF-8
	ReasonRewriteFailed   = "rewrite_failed"   // the Rewriter returned an error or panicked
	ReasonInvalidRewrite  = "invalid_rewrite"  // the Rewriter's body is empty, not UTF-8 or not JSON
)

// An exchange is the state of one proxied request, for the response headers and the log.
type exchange struct {
	route
	start time.Time

	result                    string // RewriteChanged, RewriteUnchanged, RewriteBypassed; "" when not rewritable
	reason                    string // why bypassed
	tokensBefore, tokensAfter int
	notes                     []string
	inBytes, fwdBytes         int64       // request body bytes from the client and to the upstream; -1 unknown
	err                       error       // what failed: the Rewriter, the upstream, the client
	upstreamStatus            int         // the upstream's status, 0 if it never answered
	body                      *clientBody // the client's body as the proxy reads it; nil without one
	// hangUp: the client left before the upstream answered, so the connection is closed
	// without an answer rather than net/http's default, an empty 200.
	hangUp bool

	beta         []string      // anthropic-beta values the rewritten body needs
	fallback     *editFallback // sends the client's body if the upstream refuses those
	editsRefused bool          // the upstream refused them: the client's body went instead

	// For telemetry, when it is on.
	model  string       // the request's model
	digest []byte       // SHA-256 of the conversation's opening
	passes []PassTokens // what each pass of the rewrite did
	usage  *usageTap    // reads the usage and the server-side edits from the response (always)
	// leftAfterEnd: the client hung up after the stream's final counts, which is not an abort.
	leftAfterEnd bool
}

// note adds a note for the log.
func (ex *exchange) note(s string) { ex.notes = append(ex.notes, s) }

// bypass records that the client's body goes through as it is, and why.
func (ex *exchange) bypass(reason string, err error) {
	ex.result, ex.reason, ex.err = RewriteBypassed, reason, err
}

// counted reports whether the Rewriter counted tokens.
func (ex *exchange) counted() bool {
	return ex.tokensBefore != 0 || ex.tokensAfter != 0
}

// setHeaders sets the x-winnow-* headers on h, replacing any the upstream sent.
func (ex *exchange) setHeaders(h http.Header) {
	h.Set(HeaderRewrite, ex.result)
	if ex.reason != "" {
		h.Set(HeaderReason, ex.reason)
	} else {
		h.Del(HeaderReason)
	}
	if ex.counted() {
		h.Set(HeaderTokensBefore, strconv.Itoa(ex.tokensBefore))
		h.Set(HeaderTokensAfter, strconv.Itoa(ex.tokensAfter))
		h.Set(HeaderSaved, strconv.Itoa(ex.tokensBefore-ex.tokensAfter))
	} else {
		h.Del(HeaderTokensBefore)
		h.Del(HeaderTokensAfter)
		h.Del(HeaderSaved)
	}
}
