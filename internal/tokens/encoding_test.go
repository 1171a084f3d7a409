package tokens

import (
	"strings"
	"testing"
)

func TestParseEncoding(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Encoding
	}{
		{"o200k full", "o200k_base", O200k},
		{"o200k short", "o200k", O200k},
		{"cl100k full", "cl100k_base", CL100k},
		{"cl100k short", "cl100k", CL100k},
		{"case and spaces", "  CL100K_Base ", CL100k},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseEncoding(tt.in)
			if err != nil {
				t.Fatalf("ParseEncoding(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("ParseEncoding(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseEncodingError(t *testing.T) {
	for _, in := range []string{"", "p50k_base", "gpt-4o", "o200k_base2"} {
		_, err := ParseEncoding(in)
		if err == nil {
			t.Errorf("ParseEncoding(%q): no error", in)
			continue
		}
		for _, allowed := range []string{"o200k_base", "o200k", "cl100k_base", "cl100k"} {
			if !strings.Contains(err.Error(), allowed) {
				t.Errorf("ParseEncoding(%q) error %q does not list %q", in, err, allowed)
			}
		}
	}
}

func TestForModel(t *testing.T) {
	tests := []struct {
		name, model string
		want        Encoding
	}{
		{"gpt-4o", "gpt-4o", O200k},
		{"gpt-4o dated", "gpt-4o-2024-08-06", O200k},
		{"gpt-4o-mini", "gpt-4o-mini", O200k},
		{"chatgpt-4o", "chatgpt-4o-latest", O200k},
		{"gpt-4.1", "gpt-4.1", O200k},
		{"gpt-4.1-nano", "gpt-4.1-nano", O200k},
		{"gpt-4.5", "gpt-4.5-preview", O200k},
		{"gpt-5", "gpt-5", O200k},
		{"gpt-5-mini", "gpt-5-mini", O200k},
		{"gpt-5.1-codex", "gpt-5.1-codex", O200k},
		{"gpt-oss", "gpt-oss-120b", O200k},
		{"o1", "o1", O200k},
		{"o1-mini", "o1-mini", O200k},
		{"o3", "o3", O200k},
		{"o3-mini", "o3-mini", O200k},
		{"o4-mini", "o4-mini", O200k},
		{"gpt-4", "gpt-4", CL100k},
		{"gpt-4 dated", "gpt-4-0613", CL100k},
		{"gpt-4-turbo", "gpt-4-turbo", CL100k},
		{"gpt-4-32k", "gpt-4-32k", CL100k},
		{"gpt-3.5-turbo", "gpt-3.5-turbo", CL100k},
		{"gpt-3.5-turbo-16k", "gpt-3.5-turbo-16k", CL100k},
		{"azure gpt-35-turbo", "gpt-35-turbo", CL100k},
		{"text-embedding-3-small", "text-embedding-3-small", CL100k},
		{"text-embedding-3-large", "text-embedding-3-large", CL100k},
		{"text-embedding-ada-002", "text-embedding-ada-002", CL100k},
		{"claude sonnet (proxy)", "claude-sonnet-4-5", O200k},
		{"claude opus (proxy)", "claude-opus-4-1-20250805", O200k},
		{"claude 3.5 haiku (proxy)", "claude-3-5-haiku-latest", O200k},
		{"provider prefix openai", "openai/gpt-4-turbo", CL100k},
		{"provider prefix anthropic", "anthropic/claude-sonnet-4", O200k},
		{"fine-tuned gpt-4o", "ft:gpt-4o-mini-2024-07-18:acme::abc123", O200k},
		{"fine-tuned gpt-3.5", "ft:gpt-3.5-turbo-0125:acme::abc123", CL100k},
		{"upper case", "GPT-4-Turbo", CL100k},
		{"unknown", "llama-3.1-70b", O200k},
		{"empty", "", O200k},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ForModel(tt.model); got != tt.want {
				t.Errorf("ForModel(%q) = %q, want %q", tt.model, got, tt.want)
			}
		})
	}
}
