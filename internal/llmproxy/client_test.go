package llmproxy_test

import (
	"testing"

	"github.com/winnowhq/winnow/internal/llmproxy"
)

func TestClientOf(t *testing.T) {
	for ua, want := range map[string]string{
		"claude-cli/2.1.328 (external, cli)": llmproxy.ClientClaudeCode,
		"claude-code/2.1.328":                llmproxy.ClientClaudeCode,
		"Claude-CLI/1.0":                     llmproxy.ClientClaudeCode,
		"codex_exec/0.169.0 (Debian 12.0.0; x86_64) unknown (codex_exec; 0.169.0)": llmproxy.ClientCodex,
		"codex_cli_rs/0.169.0":                     llmproxy.ClientCodex,
		"codex-tui/0.1":                            llmproxy.ClientCodex,
		"Anthropic/JS 0.54.0":                      llmproxy.ClientAnthropicSDK,
		"Anthropic/Go 1.84.0":                      llmproxy.ClientAnthropicSDK,
		"Anthropic/Python 0.40.0":                  llmproxy.ClientAnthropicSDK,
		"my-agent/2 anthropic-sdk-typescript/0.54": llmproxy.ClientAnthropicSDK,
		"OpenAI/JS 5.0.0":                          llmproxy.ClientOpenAISDK,
		"OpenAI/Python 1.80.0":                     llmproxy.ClientOpenAISDK,
		"curl/8.5.0":                               llmproxy.ClientOther,
		"Go-http-client/1.1":                       llmproxy.ClientOther,
		"":                                         llmproxy.ClientOther,
		"claude/1.0":                               llmproxy.ClientOther,
	} {
		if got := llmproxy.ClientOf(ua); got != want {
			t.Errorf("ClientOf(%q) = %q, want %q", ua, got, want)
		}
	}
}
