package llmproxy

import (
	"log/slog"
	"net/http"
	"slices"
	"strings"
)

// Response headers the proxy adds to the answer of a rewritable request.
const (
	// HeaderRewrite says what happened to the request body: RewriteChanged,
	// RewriteUnchanged or RewriteBypassed.
	HeaderRewrite = "X-Winnow-Rewrite"
	// HeaderReason says why the body was bypassed (forwarded as the client sent it without
	// asking the Rewriter, or after the Rewriter failed).
	HeaderReason = "X-Winnow-Reason"
	// HeaderTokensBefore and HeaderTokensAfter carry the Rewriter's token counts (o200k).
	HeaderTokensBefore = "X-Winnow-Tokens-Before"
	HeaderTokensAfter  = "X-Winnow-Tokens-After"
	// HeaderSaved is HeaderTokensBefore minus HeaderTokensAfter.
	HeaderSaved = "X-Winnow-Saved"
)

// redacted replaces the value of a header that is not plain in logs.
const redacted = "[REDACTED]"

// plainHeaders are the headers known to carry no secret, by canonical name: the protocol
// headers of HTTP, of the Anthropic and OpenAI APIs and of their SDKs, and diagnostic
// headers of their answers. Claude Code sends X-App ("cli"), Codex Originator
// ("codex_cli_rs").
var plainHeaders = map[string]bool{
	// HTTP, both ways
	"Accept": true, "Accept-Encoding": true, "Accept-Language": true, "Cache-Control": true,
	"Connection": true, "Content-Encoding": true, "Content-Length": true, "Content-Type": true,
	"Date": true, "Expect": true, "Keep-Alive": true, "Te": true, "Trailer": true,
	"Transfer-Encoding": true, "Upgrade": true, "User-Agent": true, "Vary": true, "Via": true,
	// the APIs' requests
	"Anthropic-Version": true, "Anthropic-Beta": true, "Openai-Beta": true, "X-App": true,
	"Originator": true,
	// the APIs' answers
	"Request-Id": true, "X-Request-Id": true, "Retry-After": true, "Retry-After-Ms": true,
	"Server": true, "Cf-Ray": true, "Cf-Cache-Status": true, "X-Content-Type-Options": true,
	"Strict-Transport-Security": true, "Openai-Processing-Ms": true, "Openai-Version": true,
	"X-Envoy-Upstream-Service-Time": true,
}

// plainPrefixes are the header families known to carry no secret: the Stainless SDKs'
// runtime description (X-Stainless-Lang, -Os, -Arch, -Runtime, -Package-Version,
// -Retry-Count, -Timeout …), rate-limit counts, and the proxy's own headers.
var plainPrefixes = []string{"X-Stainless-", "Anthropic-Ratelimit-", "X-Ratelimit-", "X-Winnow-"}

// isPlain reports whether the header named name is known to carry no secret. Only such
// headers are logged with their values and shown to a Rewriter; every header, plain or
// not, is forwarded as it is. An allowlist, because a credential may travel in a header of
// any name (X-Custom-Credential, a gateway's X-…-Config): a list of secret names only
// hides the ones it foresaw.
func isPlain(name string) bool {
	name = http.CanonicalHeaderKey(name)
	if plainHeaders[name] {
		return true
	}
	for _, p := range plainPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// plainOnly returns a copy of h with its plain headers only.
func plainOnly(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for k, v := range h {
		if isPlain(k) {
			out[k] = slices.Clone(v)
		}
	}
	return out
}

// headerAttr renders h as a log attribute, names in sorted order, the value of every
// header that is not plain replaced by [REDACTED].
func headerAttr(key string, h http.Header) slog.Attr {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	slices.Sort(names)
	attrs := make([]any, 0, len(names))
	for _, k := range names {
		v := redacted
		if isPlain(k) {
			v = strings.Join(h[k], ", ")
		}
		attrs = append(attrs, slog.String(k, v))
	}
	return slog.Group(key, attrs...)
}
