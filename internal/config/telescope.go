package config

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"text/template"
	"time"
)

// Kinds of a [[strategy]] entry: "llm" sends each unit to a cheap model; the others name the
// deterministic strategy the entry is a variant of.
const (
	StrategyKindLLM = "llm"
)

// Providers of the [llm] table.
const (
	ProviderAnthropic = "anthropic"
	ProviderOpenAI    = "openai" // OpenAI itself or any server speaking its chat completions API
)

// Defaults of the [llm] table, applied by the accessors when a field is zero, so that an
// empty table stays empty in `winnow config show`.
const (
	DefaultLLMConcurrency = 4
	DefaultLLMMaxRetries  = 3
	DefaultLLMTimeout     = 2 * time.Minute
)

// Bounds of the [[strategy]] and [llm] tables.
const (
	maxStrategyVersion = 1 << 20
	maxTargetTokens    = 100_000
	maxLLMConcurrency  = 64
	maxLLMRate         = 100_000 // requests per minute
	maxLLMRetries      = 10
	maxLLMTimeout      = time.Hour
)

var strategyNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// DeterministicStrategies returns the names of telescope's built-in strategies that need no
// model, which are also the deterministic kinds a [[strategy]] entry may have. Package
// telescope implements them; a test there keeps the two lists equal.
func DeterministicStrategies() []string {
	return []string{"code_signature", "code_security", "narrative_summary", "audit_findings"}
}

// Strategy is one [[strategy]] entry: a named, versioned way of turning a unit of a corpus
// (a file, a document section, a run of data rows) into a telescope abstract.
//
//	[[strategy]]
//	name = "security_brief"
//	version = 2
//	kind = "llm"
//	model = "claude-haiku-4-5"
//	target_tokens = 300
//	fallback = "code_security"
//	prompt = "List the security-relevant behaviour of {{.Path}} ...\n\n{{.Content}}"
//
// Bump Version when the output should change for the same input; the telescope also keys
// its cache on every other field, so editing the prompt never serves stale abstracts.
type Strategy struct {
	// Name is how --strategy and the telescope tool refer to it: [a-z0-9][a-z0-9_-]*, not
	// the name of a built-in strategy.
	Name string `toml:"name" json:"name"`
	// Version is part of the cache key; at least 1.
	Version int `toml:"version" json:"version"`
	// Kind is "llm", or the name of the deterministic strategy this entry configures
	// (see [DeterministicStrategies]).
	Kind string `toml:"kind" json:"kind"`
	// Prompt is the text/template sent for each unit by an "llm" strategy. It sees .Path,
	// .Lang, .Kind (code, doc, data), .Content, .Purpose and .TargetTokens.
	Prompt string `toml:"prompt,omitempty" json:"prompt,omitempty"`
	// Model overrides llm.model for this strategy.
	Model string `toml:"model,omitempty" json:"model,omitempty"`
	// TargetTokens is the length of abstract asked for; 0 means the strategy's default.
	TargetTokens int `toml:"target_tokens,omitempty" json:"target_tokens,omitempty"`
	// Fallback names the deterministic strategy used when the model fails or answers
	// implausibly short; "" picks one by the kind of unit.
	Fallback string `toml:"fallback,omitempty" json:"fallback,omitempty"`
}

// LLM configures the cheap model that "llm" strategies call. It is a user-only setting
// ([UserOnly]), never read from a repository's .winnow.toml: a cloned repository must not
// be able to send the user's API key to a server of its choosing.
type LLM struct {
	// Provider is "anthropic" or "openai" (any OpenAI-compatible chat completions server);
	// "" means no model is configured and "llm" strategies cannot run.
	Provider string `toml:"provider" json:"provider"`
	// BaseURL overrides the provider's API address, e.g. "http://127.0.0.1:11434/v1" for a
	// local OpenAI-compatible server; "" means the provider's public API.
	BaseURL string `toml:"base_url" json:"base_url"`
	// APIKeyEnv names the environment variable holding the API key; "" means
	// ANTHROPIC_API_KEY or OPENAI_API_KEY by provider. The value is a secret and never
	// appears in logs or errors; see [LLM.APIKey].
	APIKeyEnv string `toml:"api_key_env" json:"api_key_env"`
	// Model is the default model of "llm" strategies.
	Model string `toml:"model" json:"model"`
	// Concurrency caps the calls in flight; 0 means DefaultLLMConcurrency.
	Concurrency int `toml:"concurrency" json:"concurrency"`
	// Rate caps the calls started per minute; 0 means no cap.
	Rate float64 `toml:"rate" json:"rate"`
	// MaxRetries is how often a failed call (network error, 429, 5xx) is retried with
	// exponential backoff; 0 means DefaultLLMMaxRetries, a negative value none.
	MaxRetries int `toml:"max_retries" json:"max_retries"`
	// Timeout bounds each call; 0 means DefaultLLMTimeout. Written as "90s", "2m".
	Timeout time.Duration `toml:"timeout" json:"timeout"`
}

// Configured reports whether a provider is set.
func (l LLM) Configured() bool { return l.Provider != "" }

// KeyEnv returns the name of the environment variable holding the API key.
func (l LLM) KeyEnv() string {
	switch {
	case l.APIKeyEnv != "":
		return l.APIKeyEnv
	case l.Provider == ProviderOpenAI:
		return "OPENAI_API_KEY"
	default:
		return "ANTHROPIC_API_KEY"
	}
}

// APIKey reads the API key from the environment variable named by [LLM.KeyEnv]. An unset
// variable is an error naming the variable (never a value). An OpenAI-compatible server
// with a base_url may run without a key; then the key is "" and no error.
func (l LLM) APIKey() (string, error) {
	key := os.Getenv(l.KeyEnv())
	if key == "" && !(l.Provider == ProviderOpenAI && l.BaseURL != "" && l.APIKeyEnv == "") {
		return "", fmt.Errorf("llm: environment variable %s is not set or empty (set it, or name another with llm.api_key_env)", l.KeyEnv())
	}
	return key, nil
}

// Workers returns Concurrency, or its default.
func (l LLM) Workers() int {
	if l.Concurrency > 0 {
		return l.Concurrency
	}
	return DefaultLLMConcurrency
}

// Retries returns MaxRetries, or its default; never negative.
func (l LLM) Retries() int {
	switch {
	case l.MaxRetries < 0:
		return 0
	case l.MaxRetries == 0:
		return DefaultLLMMaxRetries
	}
	return l.MaxRetries
}

// CallTimeout returns Timeout, or its default.
func (l LLM) CallTimeout() time.Duration {
	if l.Timeout > 0 {
		return l.Timeout
	}
	return DefaultLLMTimeout
}

// validate reports every invalid value of the [llm] table, in the format of [Config.Validate].
func (l LLM) validate() []error {
	var errs []error
	bad := func(key string, val any, msg string, args ...any) {
		errs = append(errs, fmt.Errorf("llm.%s = %s: %s", key, tomlValue(val), fmt.Sprintf(msg, args...)))
	}
	if l.Provider != "" && l.Provider != ProviderAnthropic && l.Provider != ProviderOpenAI {
		bad("provider", l.Provider, "must be %q, %q or \"\" (none)", ProviderAnthropic, ProviderOpenAI)
	}
	if l.BaseURL != "" {
		if msg := checkBaseURL(l.BaseURL); msg != "" {
			bad("base_url", l.BaseURL, "%s", msg)
		}
	}
	if l.APIKeyEnv != "" && !upstreamEnvRE.MatchString(l.APIKeyEnv) {
		// The value is not echoed: it may be a key pasted in the wrong place.
		errs = append(errs, errors.New(`llm.api_key_env: must be an environment variable name, such as "ANTHROPIC_API_KEY" (the name, not the key; the value is not shown)`))
	}
	if l.Concurrency < 0 || l.Concurrency > maxLLMConcurrency {
		bad("concurrency", l.Concurrency, "must be between 0 (default %d) and %d", DefaultLLMConcurrency, maxLLMConcurrency)
	}
	if l.Rate < 0 || l.Rate > maxLLMRate || l.Rate != l.Rate {
		bad("rate", l.Rate, "must be between 0 (no cap) and %d calls per minute", maxLLMRate)
	}
	if l.MaxRetries > maxLLMRetries {
		bad("max_retries", l.MaxRetries, "must be at most %d", maxLLMRetries)
	}
	if l.Timeout < 0 || l.Timeout > maxLLMTimeout {
		bad("timeout", l.Timeout, "must be between 0 (default %s) and %s", DefaultLLMTimeout, maxLLMTimeout)
	}
	return errs
}

// checkBaseURL returns "" if raw is an absolute http or https URL with a host and no query
// or fragment, else what is allowed.
func checkBaseURL(raw string) string {
	msg := CheckUpstream(raw)
	if strings.HasPrefix(msg, "must not end in /v1") {
		return "" // an OpenAI-compatible base URL conventionally ends in /v1
	}
	return msg
}

// validateStrategies reports every invalid [[strategy]] entry, in the format of
// [Config.Validate].
func validateStrategies(ss []Strategy) []error {
	var errs []error
	seen := make(map[string]bool, len(ss))
	builtin := DeterministicStrategies()
	for i, s := range ss {
		bad := func(key string, val any, msg string, args ...any) {
			errs = append(errs, fmt.Errorf("strategy[%d].%s = %s: %s", i, key, tomlValue(val), fmt.Sprintf(msg, args...)))
		}
		switch {
		case !strategyNameRE.MatchString(s.Name):
			bad("name", s.Name, "must match [a-z0-9][a-z0-9_-]*, at most 64 characters")
		case isOneOf(s.Name, builtin):
			bad("name", s.Name, "is a built-in strategy; give the variant its own name")
		case seen[s.Name]:
			bad("name", s.Name, "is defined twice")
		}
		seen[s.Name] = true
		if s.Version < 1 || s.Version > maxStrategyVersion {
			bad("version", s.Version, "must be between 1 and %d", maxStrategyVersion)
		}
		if s.Kind != StrategyKindLLM && !isOneOf(s.Kind, builtin) {
			bad("kind", s.Kind, "must be %s", quotedList(append([]string{StrategyKindLLM}, builtin...)))
		}
		if s.Kind == StrategyKindLLM && strings.TrimSpace(s.Prompt) == "" {
			bad("prompt", s.Prompt, "an llm strategy needs a prompt template")
		}
		if s.Prompt != "" {
			if _, err := template.New(s.Name).Option("missingkey=error").Parse(s.Prompt); err != nil {
				bad("prompt", "…", "not a valid template: %v", err)
			}
		}
		if s.TargetTokens < 0 || s.TargetTokens > maxTargetTokens {
			bad("target_tokens", s.TargetTokens, "must be between 0 (default) and %d", maxTargetTokens)
		}
		if s.Fallback != "" && !isOneOf(s.Fallback, builtin) {
			bad("fallback", s.Fallback, "must be %s", quotedList(builtin))
		}
	}
	return errs
}

func cloneStrategies(ss []Strategy) []Strategy {
	if ss == nil {
		return nil
	}
	return append([]Strategy{}, ss...)
}
