package compact

import (
	"hash/maphash"
	"runtime"
	"strings"
	"sync"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/tokens"
)

// msgFacts are what a Run reads off one message as received, on its own:
// its estimated tokens and, per part, the part's tokens and text. They
// depend on nothing but the message's bytes, so a Cache keeps them for
// every later request of the conversation, whose messages it shares.
type msgFacts struct {
	tokens int // messageTokens
	parts  []partFacts
}

type partFacts struct {
	tokens int    // partTokens
	text   string // a tool call as describeCall writes it; a tool result's PlainText
	// lines and sum are a tool result's text's lines, which a placeholder
	// reports, and its hash (textSeed), by which dedup finds copies.
	lines int
	sum   uint64
	// args are a tool call's arguments as members reads them, if they are
	// a JSON object (argsOK). Shared by every request: copy before
	// changing.
	args   []member
	argsOK bool
}

// newFacts reads the facts of m.
func newFacts(est tokens.Estimator, m *chat.Message) msgFacts {
	f := msgFacts{tokens: messageTokens, parts: make([]partFacts, len(m.Parts))}
	for k := range m.Parts {
		p := &m.Parts[k]
		pf := partFacts{tokens: estimatePart(est, nil, p)}
		switch p.Type {
		case chat.ToolCall:
			pf.text = describeCall(p.Name, p.Input)
			pf.args, pf.argsOK = members(p.Input)
		case chat.ToolResult:
			pf.text = p.PlainText()
			pf.lines, pf.sum = lineCount(pf.text), maphash.String(textSeed, pf.text)
		}
		f.tokens += pf.tokens
		f.parts[k] = pf
	}
	return f
}

// textSeed hashes the texts of tool outputs (partFacts.sum). It is one
// for the process, so that the facts a Cache keeps agree with those read
// off any later request.
var textSeed = maphash.MakeSeed()

// lineCount returns the number of lines of text, as a placeholder
// reports them.
func lineCount(text string) int { return strings.Count(text, "\n") + 1 }

// parallelFacts is how much text a request's new messages must hold for
// their facts to be read on more than one CPU. Below it the goroutines
// cost more than they save; above it, a cold request of a long
// conversation (a megabyte of history) is waited on for half as long on
// two CPUs, most of its time being token estimation.
const parallelFacts = 128 << 10

// readFacts sets facts[i] to the facts of msgs[i], splitting the messages
// into runs of about equal text for up to GOMAXPROCS goroutines.
func readFacts(est tokens.Estimator, msgs []chat.Message, facts []msgFacts) {
	read := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			facts[i] = newFacts(est, &msgs[i])
		}
	}
	total := 0
	for i := range msgs {
		total += msgs[i].TextLen()
	}
	workers := min(runtime.GOMAXPROCS(0), total/(parallelFacts/2))
	var wg sync.WaitGroup
	lo, done := 0, 0
	for w := 1; w < workers; w++ {
		hi := lo
		for hi < len(msgs) && done < total*w/workers {
			done += msgs[hi].TextLen()
			hi++
		}
		l := lo
		wg.Go(func() { read(l, hi) })
		lo = hi
	}
	read(lo, len(msgs))
	wg.Wait()
}

// estimatePart estimates the tokens of p, looking texts up in memo (nil
// for none).
func estimatePart(est tokens.Estimator, memo *textMemo, p *chat.Part) int {
	switch p.Type {
	case chat.Text, chat.Thinking:
		return memo.count(est, p.Text)
	case chat.RedactedThinking:
		return len(p.Data) / 4
	case chat.ToolCall:
		return memo.count(est, p.Name) + memo.count(est, string(p.Input))
	case chat.ToolResult:
		n := 0
		for k := range p.Content {
			n += estimatePart(est, memo, &p.Content[k])
		}
		return n
	case chat.Image, chat.Document:
		return opaqueTokens
	}
	src, _ := p.Source()
	return len(src) / 4
}

// Bounds of a textMemo: texts longer than memoTextMax are estimated every
// time, and a memo holding memoBytesMax bytes of texts takes no more.
const (
	memoTextMax  = 64 << 10
	memoBytesMax = 16 << 20
)

// A textMemo remembers the estimated tokens of the texts the passes write
// and count (placeholders, snipped outputs, tidied text), which are the
// same on every request of a conversation. An estimate is a pure function
// of the text, so a memo can be shared by any requests, concurrently;
// the Cache hands one conversation's memo from request to request. A nil
// memo remembers nothing.
type textMemo struct {
	mu    sync.Mutex
	n     map[string]int
	bytes int64
}

func newTextMemo() *textMemo { return &textMemo{n: map[string]int{}} }

// count returns est.Count(s), remembered.
func (m *textMemo) count(est tokens.Estimator, s string) int {
	if m == nil || len(s) > memoTextMax || len(s) < 16 {
		return est.Count(s)
	}
	m.mu.Lock()
	n, ok := m.n[s]
	m.mu.Unlock()
	if ok {
		return n
	}
	n = est.Count(s)
	m.mu.Lock()
	if m.bytes+int64(len(s)) <= memoBytesMax {
		if _, had := m.n[s]; !had {
			m.n[s] = n
			m.bytes += int64(len(s))
		}
	}
	m.mu.Unlock()
	return n
}

// size returns the bytes of text m holds.
func (m *textMemo) size() int64 {
	if m == nil {
		return 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bytes
}
