package claude

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"sync"
)

// A ledger remembers what the fake issued, so that what a client sends back can be checked
// against it: each thinking block's signature with its text and the prefix it was produced
// against, and each tool_use id with the step it belongs to and the thinking blocks of its
// response.
type ledger struct {
	mu       sync.Mutex
	thinking map[string]issuedThinking // by signature
	toolUses map[string]issuedToolUse  // by tool_use id
}

type issuedThinking struct {
	full   string   // the text the model thought (billed when the block is kept)
	sent   string   // the text the client received: "" when display is omitted
	prefix [32]byte // hash of the request prefix the block was produced against
	pred   string   // signature of the thinking block before it in its request, "" for none
}

type issuedToolUse struct {
	step       int
	signatures []string // of the thinking blocks in the same response, in order
}

func newLedger() *ledger {
	return &ledger{thinking: make(map[string]issuedThinking), toolUses: make(map[string]issuedToolUse)}
}

// sign issues the signature of a thinking block. It is derived from the text and the
// prefix, so that two runs of one script that send the same requests get the same
// signatures (and the same bytes to bill).
func (l *ledger) sign(t issuedThinking) string {
	h := sha256.New()
	h.Write([]byte("scripted-claude-signature\x00"))
	h.Write([]byte(t.full))
	h.Write(t.prefix[:])
	sig := base64.StdEncoding.EncodeToString(h.Sum(nil))
	l.mu.Lock()
	defer l.mu.Unlock()
	l.thinking[sig] = t
	return sig
}

func (l *ledger) lookupThinking(sig string) (issuedThinking, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	t, ok := l.thinking[sig]
	return t, ok
}

func (l *ledger) addToolUse(id string, u issuedToolUse) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.toolUses[id] = u
}

func (l *ledger) lookupToolUse(id string) (issuedToolUse, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	u, ok := l.toolUses[id]
	return u, ok
}

// A prefixHasher hashes the prefixes of one request's blocks. The prefix of a block is
// what the preserved-thinking check binds it to: the top-level system prompt, the tools,
// and every message and block before it, thinking and redacted_thinking blocks excluded
// (the API leaves them out of the prefix and checks their order apart). Each part is
// hashed as a canonical JSON re-serialisation (object keys sorted, cache_control removed,
// a string content as its text block), so that a client moving its cache breakpoints or
// re-encoding its JSON does not change a prefix, while any change of what the model reads
// does.
type prefixHasher struct {
	head  [32]byte   // hash of system and tools
	parts [][32]byte // the role of each message, then its blocks but thinking, flattened
	start [][]int    // start[i][j]: how many parts come before block j of message i
}

func newPrefixHasher(req *request) *prefixHasher {
	h := sha256.New()
	sys := canonicalHash(req.System)
	h.Write(sys[:])
	for _, t := range req.Tools {
		th := canonicalHash(t)
		h.Write(th[:])
	}
	p := &prefixHasher{start: make([][]int, len(req.Messages))}
	copy(p.head[:], h.Sum(nil))
	for i, m := range req.Messages {
		p.parts = append(p.parts, sha256.Sum256([]byte("role:"+m.Role)))
		p.start[i] = make([]int, len(m.Blocks))
		for j, b := range m.Blocks {
			p.start[i][j] = len(p.parts)
			if !isThinking(b.Type) {
				p.parts = append(p.parts, blockHash(b))
			}
		}
	}
	return p
}

// at returns the hash of the prefix of block j of message i.
func (p *prefixHasher) at(i, j int) [32]byte { return p.sum(p.start[i][j]) }

// next returns the hash of the prefix of the first block of a response to the request.
func (p *prefixHasher) next() [32]byte {
	return p.sum(len(p.parts) + 1) // + the role of the response's message
}

func (p *prefixHasher) sum(n int) [32]byte {
	h := sha256.New()
	h.Write(p.head[:])
	for _, part := range p.parts[:min(n, len(p.parts))] {
		h.Write(part[:])
	}
	if n > len(p.parts) {
		r := sha256.Sum256([]byte("role:assistant"))
		h.Write(r[:])
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

func isThinking(typ string) bool { return typ == "thinking" || typ == "redacted_thinking" }

func blockHash(b block) [32]byte {
	if len(b.raw) > 0 && b.raw[0] == '"' { // a string content: hash it as its text block
		data, _ := json.Marshal(map[string]string{"type": "text", "text": b.Text})
		return sha256.Sum256(data)
	}
	return canonicalHash(b.raw)
}

// canonicalHash hashes the canonical JSON of raw (see prefixHasher).
func canonicalHash(raw json.RawMessage) [32]byte {
	if len(raw) == 0 {
		return sha256.Sum256(nil)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return sha256.Sum256(raw)
	}
	if s, ok := v.(string); ok { // a system prompt given as a string
		v = []any{map[string]any{"type": "text", "text": s}}
	}
	data, _ := json.Marshal(stripCacheControl(v)) // maps marshal with sorted keys
	return sha256.Sum256(data)
}

// stripCacheControl removes cache_control from v and every object in it.
func stripCacheControl(v any) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "cache_control")
		for k, e := range x {
			x[k] = stripCacheControl(e)
		}
	case []any:
		for i, e := range x {
			x[i] = stripCacheControl(e)
		}
	}
	return v
}
