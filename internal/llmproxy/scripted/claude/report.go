package claude

import (
	"net/http"

	"github.com/winnowhq/winnow/internal/compact/costsim"
)

// Kinds of requests.
const (
	KindMain        = "main"         // POST /v1/messages of the main loop: its tools include Read or Bash
	KindSide        = "side"         // any other POST /v1/messages (titles, summaries, a small model)
	KindCountTokens = "count_tokens" // POST /v1/messages/count_tokens
	KindOther       = "other"        // HEAD /api/hello, GET /v1/models, anything else
)

// An Exchange is one request and what the API made of it.
type Exchange struct {
	Seq    int    `json:"seq"`
	Method string `json:"method"`
	Path   string `json:"path"`
	Kind   string `json:"kind"`
	Model  string `json:"model,omitempty"`
	Status int    `json:"status"`
	Step   int    `json:"step"` // main loop: the scripted step answered (0-based); -1 otherwise
	// OriginalInputTokens counts the input before context-management edits; Billed is the
	// input after them, priced by the prompt-cache simulation (Billed.Input is the billed
	// input tokens).
	OriginalInputTokens int              `json:"original_input_tokens"`
	Billed              costsim.Usage    `json:"billed"`
	OutputTokens        int              `json:"output_tokens"`
	AppliedEdits        []map[string]any `json:"applied_edits,omitempty"`
	Violations          []Violation      `json:"violations,omitempty"`
	Header              http.Header      `json:"-"` // with Options.Record; credentials removed
	Body                []byte           `json:"-"` // with Options.Record
}

// A Report is what one API saw and billed.
type Report struct {
	Main Tally `json:"main"` // the main loop
	Side Tally `json:"side"` // everything else
	// Steps is the number of tool steps answered; Finished is set once the final answer
	// (end_turn) was sent.
	Steps      int         `json:"steps"`
	Finished   bool        `json:"finished"`
	Violations []Violation `json:"violations"`
}

// A Tally sums exchanges of one kind.
type Tally struct {
	Requests             int           `json:"requests"`
	Invalid              int           `json:"invalid"` // answered 400 for breaking the API's rules
	OriginalInputTokens  int           `json:"original_input_tokens"`
	Billed               costsim.Usage `json:"billed"` // input tokens billed and their cached cost, in uncached-token units
	OutputTokens         int           `json:"output_tokens"`
	EditsApplied         int           `json:"edits_applied"` // applied_edits entries reported
	ClearedToolUses      int           `json:"cleared_tool_uses"`
	ClearedThinkingTurns int           `json:"cleared_thinking_turns"`
	ClearedInputTokens   int           `json:"cleared_input_tokens"`
}

func (t *Tally) add(x *Exchange) {
	t.Requests++
	if len(x.Violations) > 0 {
		t.Invalid++
	}
	t.OriginalInputTokens += x.OriginalInputTokens
	t.Billed.Add(x.Billed)
	t.OutputTokens += x.OutputTokens
	for _, e := range x.AppliedEdits {
		t.EditsApplied++
		t.ClearedToolUses += intField(e, "cleared_tool_uses")
		t.ClearedThinkingTurns += intField(e, "cleared_thinking_turns")
		t.ClearedInputTokens += intField(e, "cleared_input_tokens")
	}
}

func intField(m map[string]any, k string) int {
	n, _ := m[k].(int)
	return n
}
