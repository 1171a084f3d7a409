package telescope

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

// Names of the built-in strategies.
const (
	CodeSignature    = "code_signature"    // signatures, docstrings, key comments; no bodies
	CodeSecurity     = "code_security"     // auth, crypto, validation, IO, SQL, deserialisation sites
	NarrativeSummary = "narrative_summary" // headings and lead sentences
	AuditFindings    = "audit_findings"    // finding-shaped records from reports
	LLMSummary       = "llm_summary"       // a cheap model's summary, with the default prompt
)

// KindLLM is the Spec.Kind of strategies that call a model.
const KindLLM = "llm"

// deterministicNames lists the strategies that need no model, in the order help lists them.
var deterministicNames = [...]string{CodeSignature, CodeSecurity, NarrativeSummary, AuditFindings}

// A Spec describes a strategy: what the configuration's [[strategy]] entries and inline
// strategies give.
type Spec struct {
	Name    string `json:"name"`
	Version int    `json:"version"`
	// Kind is "llm", or the name of the deterministic strategy this one is.
	Kind string `json:"kind"`
	// Prompt is the text/template an llm strategy sends for each unit.
	Prompt string `json:"prompt,omitempty"`
	// Model overrides the client's default model.
	Model string `json:"model,omitempty"`
	// TargetTokens is the abstract length asked for; 0 means the strategy's default.
	TargetTokens int `json:"target_tokens,omitempty"`
	// Fallback is the deterministic strategy that stands in when the model fails; "" picks
	// one by the kind of unit.
	Fallback string `json:"fallback,omitempty"`
}

// fingerprint is a hash of everything in s that changes a strategy's output, so that ids
// change when the configuration does, even without a version bump.
func (s Spec) fingerprint() string {
	b, _ := json.Marshal(s) // a struct of strings and ints always marshals
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// ParseInline reads a strategy given inline as a JSON object, e.g.
// {"kind":"llm","prompt":"Summarise {{.Path}}:\n{{.Content}}","target_tokens":200}.
// A missing name becomes "inline-" and a hash of the object; a missing version, 1.
func ParseInline(s string) (Spec, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	var sp Spec
	if err := dec.Decode(&sp); err != nil {
		return Spec{}, fmt.Errorf("inline strategy: %w (want a JSON object with kind, and prompt for kind llm)", err)
	}
	if sp.Version == 0 {
		sp.Version = 1
	}
	if sp.Name == "" {
		sp.Name = "inline-" + sp.fingerprint()[:8]
	}
	return sp, nil
}

// A Strategy turns a unit into its L1 abstract. Implementations must be safe for concurrent
// use: a build abstracts several units at once.
type Strategy interface {
	Spec() Spec
	Abstract(ctx context.Context, u *Unit) (Abstract, error)
}

// An Abstract is a strategy's output for one unit.
type Abstract struct {
	Text     string
	Headline string // one line for the unit's entry in its group; "" means Text's first line
	Parts    []Part // the unit's L0 pieces; nil lets the engine find them
	// Strategy names the strategy that wrote Text when it is not the one asked for (a
	// fallback); Fallback says why.
	Strategy string
	Fallback string
	// LLMInputTokens and LLMOutputTokens are what a model call reported.
	LLMInputTokens  int
	LLMOutputTokens int
	// LLMCalls counts the model calls made, retries included.
	LLMCalls int
}
