package modelid

import "testing"

func TestNormalize(t *testing.T) {
	for id, want := range map[string]string{
		"claude-opus-5-5":                            "claude-opus-5-5",
		"Claude-Sonnet-4-20250514":                   "claude-sonnet-4",
		"claude-opus-4-5-20251101":                   "claude-opus-4-5",
		"us.anthropic.claude-opus-4-5-20251101-v1:0": "claude-opus-4-5",
		"anthropic.claude-3-7-sonnet-20250219-v1:0":  "claude-3-7-sonnet",
		"claude-haiku-4-5@20251001":                  "claude-haiku-4-5",
		"anthropic/claude-sonnet-4-5":                "claude-sonnet-4-5",
		"claude-sonnet-4-5[1m]":                      "claude-sonnet-4-5",
		"claude-3-5-sonnet-latest":                   "claude-3-5-sonnet",
		"openai/gpt-4o-2024-08-06":                   "gpt-4o",
		"gpt-5.5":                                    "gpt-5.5",
		"  GPT-4o  ":                                 "gpt-4o",
		"":                                           "",
		"claude-opus-4-5-2025":                       "claude-opus-4-5-2025",
	} {
		if got := Normalize(id); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", id, got, want)
		}
	}
}
