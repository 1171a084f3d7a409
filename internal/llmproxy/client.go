package llmproxy

import "strings"

// Clients, as the User-Agent header names them: in telemetry, and for routing requests
// that carry no anthropic-version.
const (
	ClientClaudeCode   = "claude-code"   // claude-cli/2.1.328 (external, cli), claude-code/…
	ClientCodex        = "codex"         // codex_exec/0.169.0 …, codex_cli_rs/…, codex-…
	ClientAnthropicSDK = "anthropic-sdk" // Anthropic/JS 0.54.0, Anthropic/Go 1.84.0, Anthropic/Python …, anthropic-sdk-…
	ClientOpenAISDK    = "openai-sdk"    // OpenAI/JS 5.0.0, OpenAI/Python …, openai-sdk-…
	ClientOther        = "other"
)

// ClientOf names the client that sent a request with the User-Agent ua. The match is on
// the product token that leads the header (case-insensitive), or on an SDK's name anywhere
// in it, since wrappers put their own token first.
func ClientOf(ua string) string {
	ua = strings.ToLower(strings.TrimSpace(ua))
	switch {
	case strings.HasPrefix(ua, "claude-cli/"), strings.HasPrefix(ua, "claude-code/"):
		return ClientClaudeCode
	case strings.HasPrefix(ua, "codex"):
		return ClientCodex
	case strings.HasPrefix(ua, "anthropic/"), strings.Contains(ua, "anthropic-sdk"):
		return ClientAnthropicSDK
	case strings.HasPrefix(ua, "openai/"), strings.Contains(ua, "openai-sdk"):
		return ClientOpenAISDK
	}
	return ClientOther
}

// anthropicClient reports whether a request's User-Agent names a client that speaks only
// to Anthropic's API: Claude Code or an Anthropic SDK.
func anthropicClient(ua string) bool {
	c := ClientOf(ua)
	return c == ClientClaudeCode || c == ClientAnthropicSDK
}
