package pipeline

// Clients cut what they forward. A tool result longer than a client's own
// limit does not reach the model whole: Codex cuts out its middle, Claude
// Code spills it to a file and shows a preview. Items the pipeline counted
// as delivered would then be lost, and no winnow__more hint names them, so
// the budget of a result is the smaller of Options.CallBudget and what the
// agent's client passes whole (Turn.budget).

// A Client is the agent's MCP client as it named itself in initialize
// (clientInfo).
type Client struct {
	Name    string
	Version string
}

// A clientCap is the most a client gives its model of one tool result.
type clientCap struct {
	// bytes is the most bytes of the result as the client forwards it
	// (its structured content as JSON when it has some, else its text)
	// that reach the model whole, wrapper included.
	bytes int
	// wrapper is the most bytes the client adds to the result itself, and
	// counts against bytes.
	wrapper int
}

// knownClients are the caps of the clients winnow was measured with, by
// clientInfo.name. Options.ClientCaps overrides them.
//
//   - Codex (clientInfo {"name":"codex-mcp-client","title":"Codex","version":"0.169.0"}):
//     a function_call_output of more than 12,000 bytes has its middle cut
//     to "…N tokens truncated…" (the N undercounts). 12,000 is the 10,000
//     bytes of TruncationPolicyConfig::bytes(10_000), the policy of models
//     Codex has no metadata for, times the 1.2 that
//     with_serialization_allowance adds (codex-rs
//     utils/output-truncation/src/lib.rs; models with metadata may allow
//     more, and Codex's tool_output_token_limit setting changes it). The
//     12,000 bytes include Codex's own "Wall time: 0.0034 seconds\nOutput:\n"
//     before the result. Measured with codex exec 0.169.0: outputs of 11,000
//     bytes arrive whole, of 12,000 and more cut to 12,022 bytes.
//   - Claude Code (clientInfo {"name":"claude-code","version":"2.1.328"}): a
//     result of more than 50,000 characters is saved to a file and the model
//     gets a 2,000-character preview with its path ("<persisted-output>").
//     50,000 is the persistence ceiling (bk) that caps an MCP tool's
//     maxResultSizeChars of 100,000 in the 2.1.328 bundle; before it,
//     MAX_MCP_OUTPUT_TOKENS (default 25,000 tokens, as documented) truncates
//     larger results. Measured with claude -p 2.1.328: 49,990 characters
//     arrive whole, 50,010 as the preview.
var knownClients = map[string]clientCap{
	"codex-mcp-client": {bytes: 12_000, wrapper: 64},
	"claude-code":      {bytes: 50_000},
}

// capMargin is the share of a client's cap the budget aims at: budgets are
// counted in estimated tokens and the bytes of a trimmed view per token
// vary a little from the whole result's.
const capMargin = 0.9

// minCapBudget is the least budget a client's cap brings a result to, so
// that a trimmed view keeps some items besides its hint.
const minCapBudget = 256

// clientCap returns the bytes the client c passes whole, after its own
// wrapper; 0 when it is not known to cut.
func (p *Pipeline) clientCap(c Client) int {
	if n, ok := p.opts.ClientCaps[c.Name]; ok {
		return max(n, 0)
	}
	if k, ok := knownClients[c.Name]; ok {
		return k.bytes - k.wrapper
	}
	return 0
}

// budget returns the token budget of the turn's open texts, which count
// total tokens: Options.CallBudget, or less if the agent's client would
// cut them. The cap, in bytes of what the client forwards, becomes tokens
// at the texts' own ratio of tokens to forwarded bytes, with a margin.
func (t *Turn) budget(open []*Text, total int) int {
	b := t.p.opts.CallBudget
	limit := t.p.clientCap(t.Call.Client)
	if limit <= 0 || total <= 0 {
		return b
	}
	room := capMargin * float64(limit)
	for _, tx := range t.Texts {
		if tx.Final {
			room -= float64(len(tx.rendered()))
		}
	}
	view := 0
	for _, tx := range open {
		view += forwardedBytes(tx)
	}
	if float64(view) <= room {
		return b
	}
	capped := int(max(room, 0) * float64(total) / float64(view))
	return min(b, max(capped, minCapBudget))
}

// forwardedBytes returns the bytes of tx, as it stands, as a client that
// prefers structured content forwards it: a string of the structured
// content is escaped as JSON (serde_json's escapes, as Codex writes it;
// JavaScript's JSON.stringify escapes the same); anything else is as it is.
func forwardedBytes(tx *Text) int {
	if len(tx.fields) == 0 {
		return len(tx.Text)
	}
	return len(tx.fields) * jsonStringBytes(tx.Text)
}

// jsonStringBytes returns the length of s as a JSON string literal,
// quotes included, with no escaping of <, > and & or of non-ASCII (Go's
// encoder also escapes U+2028 and U+2029; clients do not).
func jsonStringBytes(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"', c == '\\', c == '\n', c == '\r', c == '\t', c == '\b', c == '\f':
			n++
		case c < 0x20:
			n += 5
		}
	}
	return n
}
