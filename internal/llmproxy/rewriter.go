package llmproxy

import (
	"context"
	"net/http"
)

// Dialects: the wire format of a request, and which upstream it goes to.
const (
	DialectAnthropic = "anthropic" // the Anthropic Messages API
	DialectOpenAI    = "openai"    // the OpenAI API and servers compatible with it
	DialectResponses = "responses" // the OpenAI Responses API (POST /v1/responses), on the OpenAI upstream
)

// A Rewriter turns a request body into the body to forward. On any error the proxy forwards
// the original bytes.
//
// The proxy calls Rewrite only for a POST to a rewritable path (/v1/messages,
// /v1/chat/completions) whose body is complete (not above the size cap), is not
// content-encoded, and is valid UTF-8. It does not check that the body is JSON: decoding is
// the Rewriter's job, and a body it cannot decode is an error. Rewrite must not modify
// req.Body, and must be safe for concurrent use.
type Rewriter interface {
	Rewrite(ctx context.Context, req *Request) (*Rewrite, error)
}

// RewriterFunc adapts a function to a Rewriter.
type RewriterFunc func(ctx context.Context, req *Request) (*Rewrite, error)

// Rewrite calls f.
func (f RewriterFunc) Rewrite(ctx context.Context, req *Request) (*Rewrite, error) {
	return f(ctx, req)
}

// A Request is what a Rewriter sees of one client request.
type Request struct {
	// Dialect is DialectAnthropic, DialectOpenAI (Chat Completions) or DialectResponses.
	Dialect string
	// Path is the URL path, such as /v1/messages.
	Path string
	// Body is the request body as the client sent it. It must not be modified.
	Body []byte
	// Header holds the request's plain headers, those known to carry no secret (see
	// Credentials in the package documentation): anthropic-version and anthropic-beta
	// among them, since a Rewriter should refuse, with an error, an API version it does
	// not know.
	Header http.Header
	// ServerEdits says the upstream may be asked for server-side context edits (Anthropic's
	// context-management beta): Options.ServerEdits allows it for this upstream, and the
	// upstream has not refused one.
	ServerEdits bool
}

// A Rewrite is the outcome of rewriting one request body.
type Rewrite struct {
	// Body is the body to forward when Changed is set; it must be valid UTF-8 JSON, or the
	// proxy forwards the original bytes.
	Body []byte
	// TokensBefore and TokensAfter count the tokens of the conversation before and after
	// the rewrite, with o200k (a stand-in for Claude's tokenizer, which is not public).
	// They are reported in the x-winnow-tokens-* response headers when either is set.
	TokensBefore, TokensAfter int
	// Changed says Body replaces the client's body.
	Changed bool
	// WellFormed says the Rewriter vouches that Body is valid UTF-8 JSON (it was produced
	// by an encoder whose output is well-formed by construction and fuzzed for it), so the
	// proxy skips its own check, which costs ~5 ms per MB. Otherwise the proxy checks Body.
	WellFormed bool
	// Notes say what changed and why, for the log.
	Notes []string
	// Passes says what each step of the rewrite that changed something did, for telemetry.
	Passes []PassTokens
	// Beta lists anthropic-beta values Body needs (a server-side edit's). The proxy adds
	// them to the client's anthropic-beta header, and if the upstream refuses the request
	// for them, sends the client's body and header as they came instead, once, and asks
	// that upstream for no server-side edit again.
	Beta []string
}

// PassTokens is what one step of a rewrite (a compaction pass) did: the parts it changed
// and the tokens of those parts before and after, counted like Rewrite's.
type PassTokens struct {
	Pass          string
	Changed       int
	Before, After int
}

// Passthrough is the Rewriter that leaves every body as it is and counts nothing. It is the
// default until a compacting Rewriter is configured.
type Passthrough struct{}

// Rewrite returns an unchanged Rewrite.
func (Passthrough) Rewrite(context.Context, *Request) (*Rewrite, error) {
	return &Rewrite{}, nil
}
