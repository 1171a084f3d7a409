package llmproxy

import (
	"net/http"
	"strings"
)

// Paths whose POST bodies the Rewriter sees.
const (
	pathMessages        = "/v1/messages"
	pathChatCompletions = "/v1/chat/completions"
	pathResponses       = "/v1/responses"
)

// A route is where one request goes and whether its body is rewritten.
type route struct {
	dialect  string
	upstream *upstream
	rewrite  bool
}

// route picks the upstream of r, by these rules in order:
//
//  1. /v1/messages, anything under /v1/messages/ (count_tokens, batches) and /v1/complete
//     go to the Anthropic upstream;
//  2. anything under /api/ goes to the Anthropic upstream: it is Claude Code's own API
//     (HEAD /api/hello before it starts, /api/oauth/…, /api/claude_code/…,
//     /api/event_logging/batch), sent without anthropic-version; OpenAI's API has no
//     /api/ paths;
//  3. a request with an anthropic-version header goes to the Anthropic upstream: every
//     Anthropic SDK sends it on its API calls, and it is how GET /v1/models or /v1/files,
//     paths both APIs have, reach the right one;
//  4. so does a request whose User-Agent names an Anthropic client (claude-cli/…,
//     claude-code/…, Anthropic/JS …, anthropic-sdk…; see ClientOf), for the requests such
//     a client sends without anthropic-version;
//  5. everything else, /v1/chat/completions and /v1/responses among it, goes to the OpenAI
//     upstream.
//
// Only POST /v1/messages (Anthropic), POST /v1/chat/completions (OpenAI) and POST
// /v1/responses (OpenAI's Responses API, dialect "responses") are rewritten; everything
// else, GET /v1/responses/{id} among it, passes through as it came.
func (p *Proxy) route(r *http.Request) route {
	path := r.URL.Path
	switch {
	case path == pathMessages:
		return route{DialectAnthropic, p.anthropic, r.Method == http.MethodPost}
	case strings.HasPrefix(path, pathMessages+"/"), path == "/v1/complete",
		strings.HasPrefix(path, "/api/"),
		r.Header.Get("Anthropic-Version") != "",
		anthropicClient(r.Header.Get("User-Agent")):
		return route{DialectAnthropic, p.anthropic, false}
	case path == pathChatCompletions:
		return route{DialectOpenAI, p.openai, r.Method == http.MethodPost}
	case path == pathResponses:
		return route{DialectResponses, p.openai, r.Method == http.MethodPost}
	}
	return route{DialectOpenAI, p.openai, false}
}
