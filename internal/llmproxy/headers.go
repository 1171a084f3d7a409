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

// redacted replaces the value of a credential header in logs.
const redacted = "[REDACTED]"

// isCredential reports whether the header named name may carry a secret. Such headers are
// forwarded to the upstream as they are, but never logged and never shown to a Rewriter.
//
// Credentials are the authentication headers of the APIs and of HTTP (authorization,
// proxy-authorization, x-api-key, api-key, x-goog-api-key, cookie, set-cookie), the OpenAI
// account headers (openai-organization, openai-project), every anthropic-* header except the
// protocol headers anthropic-version and anthropic-beta, and, to be safe, any header whose
// name mentions a key, token, secret, password, auth, session or signature.
func isCredential(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "anthropic-version", "anthropic-beta":
		return false
	case "cookie", "set-cookie", "openai-organization", "openai-project":
		return true
	}
	if strings.HasPrefix(n, "anthropic-") {
		return true
	}
	for _, word := range []string{"key", "token", "secret", "password", "auth", "session", "signature"} {
		if strings.Contains(n, word) {
			return true
		}
	}
	return false
}

// withoutCredentials returns a copy of h without its credential headers.
func withoutCredentials(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for k, v := range h {
		if !isCredential(k) {
			out[k] = slices.Clone(v)
		}
	}
	return out
}

// headerAttr renders h as a log attribute with credential values replaced by [REDACTED]
// and the names in sorted order.
func headerAttr(key string, h http.Header) slog.Attr {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	slices.Sort(names)
	attrs := make([]any, 0, len(names))
	for _, k := range names {
		v := strings.Join(h[k], ", ")
		if isCredential(k) {
			v = redacted
		}
		attrs = append(attrs, slog.String(k, v))
	}
	return slog.Group(key, attrs...)
}
