package telemetry

import "time"

// KindProxy is the Kind of a [ProxyEvent]. Lines without a kind are the
// gateway's [Event]s.
const KindProxy = "proxy"

// A ProxyEvent is one request the LLM proxy could rewrite (POST
// /v1/messages, /v1/chat/completions), written once the response has
// ended: one JSON line in the telemetry file. It holds no text from the
// request or the response: names the proxy chose from fixed sets (client,
// pass, outcome, reason), the model id, counts, and a keyed hash of the
// conversation's opening.
type ProxyEvent struct {
	// Kind is always KindProxy.
	Kind string    `json:"kind"`
	Time time.Time `json:"time"`
	// Dialect is "anthropic" or "openai"; Path the request's path.
	Dialect string `json:"dialect"`
	Path    string `json:"path"`
	// Client names the sending program from its User-Agent:
	// "claude-code", "codex", "anthropic-sdk", "openai-sdk" or "other".
	Client string `json:"client"`
	// Model is the request's "model" member; "" when it had none that
	// looks like a model id.
	Model string `json:"model,omitempty"`
	// Conversation is a keyed hash (16 hex digits) of the conversation's
	// opening messages, so that the requests of one conversation hash alike
	// within one proxy run; "" when the body had no messages.
	Conversation string `json:"conversation,omitempty"`
	// Status is the HTTP status the client got; 499 when it left first.
	Status int `json:"status"`
	// Rewrite is what happened to the body: "changed", "unchanged" or
	// "bypassed"; Reason says why it was bypassed.
	Rewrite string `json:"rewrite"`
	Reason  string `json:"reason,omitempty"`
	// TokensBefore and TokensAfter are the rewriter's counts of the request
	// before and after (o200k; see package tokens), 0 when it counted none.
	TokensBefore int `json:"tokens_before"`
	TokensAfter  int `json:"tokens_after"`
	// Passes holds what each compaction pass that changed something did.
	Passes []PassTokens `json:"passes,omitempty"`
	// EditRequested says the forwarded request asked the API for a
	// server-side context edit.
	EditRequested bool `json:"edit_requested,omitempty"`
	// Usage is what the upstream billed, from its response; nil when the
	// response carried none (an error, a cut-off stream, an encoding the
	// proxy does not read).
	Usage *Usage `json:"usage,omitempty"`
	// ServerEdits are the context edits the API reports it applied
	// (Anthropic's context_management.applied_edits).
	ServerEdits []ServerEdit `json:"server_edits,omitempty"`
}

// PassTokens is what one compaction pass did to a request: the parts it
// changed and the tokens (o200k) of those parts before and after.
type PassTokens struct {
	Pass    string `json:"pass"`
	Changed int    `json:"changed"`
	Before  int    `json:"before"`
	After   int    `json:"after"`
}

// Usage is what the upstream billed for one request, in its own tokens,
// split by price: Input is the input billed at the full input price (for
// OpenAI, prompt or input tokens minus the cached ones), CacheWrite the
// input written to the prompt cache (Anthropic's
// cache_creation_input_tokens), CacheRead the input read from it.
type Usage struct {
	Input      int `json:"input"`
	CacheWrite int `json:"cache_write,omitempty"`
	CacheRead  int `json:"cache_read,omitempty"`
	Output     int `json:"output"`
}

// Prompt is every input token of the request, whatever its price.
func (u Usage) Prompt() int { return u.Input + u.CacheWrite + u.CacheRead }

// A ServerEdit is one context edit the API applied on its side.
type ServerEdit struct {
	Type               string `json:"type"`
	ClearedToolUses    int    `json:"cleared_tool_uses,omitempty"`
	ClearedInputTokens int    `json:"cleared_input_tokens,omitempty"`
}

// An Exchange is what the proxy hands a [Writer] for one request: the
// event to write, and a digest of the conversation's opening (the proxy
// never hands over the text itself), which the Writer keys into the
// event's Conversation.
type Exchange struct {
	ProxyEvent
	ConversationDigest []byte
}

// RecordExchange queues x to be written, like [Writer.Record].
func (w *Writer) RecordExchange(x Exchange) {
	w.enqueue(record{exchange: &x})
}

// ProxyEvent turns x into the event the Writer would write.
func (w *Writer) ProxyEvent(x Exchange) ProxyEvent {
	ev := x.ProxyEvent
	ev.Kind = KindProxy
	ev.Time = ev.Time.UTC()
	ev.Conversation = ""
	if len(x.ConversationDigest) > 0 {
		ev.Conversation = w.hash(x.ConversationDigest)
	}
	return ev
}
