package config

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseTelescope(t *testing.T) {
	doc := `
[llm]
provider = "openai"
base_url = "http://127.0.0.1:11434/v1"
model = "qwen"
concurrency = 2
rate = 30
timeout = "45s"

[[strategy]]
name = "security_brief"
version = 2
kind = "llm"
model = "small"
target_tokens = 300
fallback = "code_security"
prompt = "Risks of {{.Path}}:\n{{.Content}}"

[[strategy]]
name = "short_sigs"
version = 1
kind = "code_signature"
target_tokens = 200
`
	c := Default()
	warns, err := Parse(strings.NewReader(doc), "t.toml", c)
	if err != nil || len(warns) != 0 {
		t.Fatalf("Parse: %v, warnings %v", err, warns)
	}
	if err := c.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	want := LLM{Provider: "openai", BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen", Concurrency: 2, Rate: 30, Timeout: 45 * time.Second}
	if diff := cmp.Diff(want, c.LLM); diff != "" {
		t.Errorf("llm (-want +got):\n%s", diff)
	}
	if len(c.Strategies) != 2 || c.Strategies[0].Prompt != "Risks of {{.Path}}:\n{{.Content}}" || c.Strategies[1].TargetTokens != 200 {
		t.Errorf("strategies %+v", c.Strategies)
	}
	if c.LLM.Workers() != 2 || c.LLM.Retries() != DefaultLLMMaxRetries || c.LLM.CallTimeout() != 45*time.Second || c.LLM.KeyEnv() != "OPENAI_API_KEY" {
		t.Errorf("accessors: %d %d %v %s", c.LLM.Workers(), c.LLM.Retries(), c.LLM.CallTimeout(), c.LLM.KeyEnv())
	}
}

func TestValidateTelescope(t *testing.T) {
	ok := Strategy{Name: "s", Version: 1, Kind: "llm", Prompt: "{{.Content}}"}
	tests := []struct {
		name string
		edit func(c *Config)
		want string
	}{
		{"bad name", func(c *Config) { s := ok; s.Name = "Bad Name"; c.Strategies = []Strategy{s} }, `strategy[0].name = "Bad Name"`},
		{"builtin name", func(c *Config) { s := ok; s.Name = "code_signature"; c.Strategies = []Strategy{s} }, "is a built-in strategy"},
		{"duplicate", func(c *Config) { c.Strategies = []Strategy{ok, ok} }, "strategy[1].name"},
		{"version", func(c *Config) { s := ok; s.Version = 0; c.Strategies = []Strategy{s} }, "strategy[0].version = 0"},
		{"kind", func(c *Config) { s := ok; s.Kind = "gpt"; c.Strategies = []Strategy{s} }, `"llm", "code_signature", "code_security", "narrative_summary" or "audit_findings"`},
		{"no prompt", func(c *Config) { s := ok; s.Prompt = " "; c.Strategies = []Strategy{s} }, "needs a prompt template"},
		{"bad template", func(c *Config) { s := ok; s.Prompt = "{{.Content"; c.Strategies = []Strategy{s} }, "not a valid template"},
		{"fallback", func(c *Config) { s := ok; s.Fallback = "llm"; c.Strategies = []Strategy{s} }, "strategy[0].fallback"},
		{"target", func(c *Config) { s := ok; s.TargetTokens = -1; c.Strategies = []Strategy{s} }, "target_tokens"},
		{"provider", func(c *Config) { c.LLM.Provider = "gemini" }, `llm.provider = "gemini"`},
		{"base url", func(c *Config) { c.LLM.BaseURL = "localhost:8080" }, "llm.base_url"},
		{"key env", func(c *Config) { c.LLM.APIKeyEnv = "sk-ant-123" }, "the name, not the key; the value is not shown"},
		{"concurrency", func(c *Config) { c.LLM.Concurrency = 1000 }, "llm.concurrency"},
		{"rate", func(c *Config) { c.LLM.Rate = -1 }, "llm.rate"},
		{"retries", func(c *Config) { c.LLM.MaxRetries = 99 }, "llm.max_retries"},
		{"timeout", func(c *Config) { c.LLM.Timeout = -time.Second }, "llm.timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			tt.edit(c)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate() = %v, want an error with %q", err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), "sk-ant-123") {
				t.Errorf("Validate() echoes a key: %v", err)
			}
		})
	}
	c := Default()
	c.LLM = LLM{Provider: "anthropic", BaseURL: "https://example.com"}
	c.Strategies = []Strategy{ok}
	if err := c.Validate(); err != nil {
		t.Errorf("valid config: %v", err)
	}
}

func TestLLMAPIKey(t *testing.T) {
	t.Setenv("WINNOW_TEST_LLM_KEY", "sk-value-xyz")
	l := LLM{Provider: "anthropic", APIKeyEnv: "WINNOW_TEST_LLM_KEY"}
	if k, err := l.APIKey(); err != nil || k != "sk-value-xyz" {
		t.Errorf("APIKey() = %q, %v", k, err)
	}
	t.Setenv("WINNOW_TEST_LLM_KEY", "")
	_, err := l.APIKey()
	if err == nil || !strings.Contains(err.Error(), "WINNOW_TEST_LLM_KEY") {
		t.Errorf("unset key: %v", err)
	}
	// A local OpenAI-compatible server may need no key.
	t.Setenv("OPENAI_API_KEY", "")
	if k, err := (LLM{Provider: "openai", BaseURL: "http://127.0.0.1:8000/v1"}).APIKey(); err != nil || k != "" {
		t.Errorf("local server without key: %q, %v", k, err)
	}
}
