package compact

import (
	"hash/maphash"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/tokens"
)

// State is what the passes of one Run share: the conversation being
// rewritten (a clone of the input), the horizon computed by replaying its
// history, and what is known about each message and tool output. A Pass
// reads and edits it; nothing else does.
type State struct {
	dialect chat.Dialect
	orig    *chat.Conversation // the input; never changed
	conv    *chat.Conversation // the clone the passes rewrite
	opts    Options            // with defaults
	on      map[string]bool    // the passes that run
	est     tokens.Estimator
	facts   []msgFacts // of each message of orig
	memo    *textMemo  // nil: estimate every text afresh

	msgs    []msgInfo
	outputs []output
	calls   map[string]callRef // tool call id → the call

	family Family      // how the model treats thinking blocks sent back
	server bool        // compacted by a server-side edit, not by the passes (serverMode)
	edit   *ServerEdit // the edit a server-mode request asks for, or nil

	batches []Batch
	horizon int // messages[:horizon] are stale
	// clearBefore is the horizon below which stale outputs are cleared;
	// between it and horizon they are only snipped.
	clearBefore int
}

// msgInfo is what the replay and the passes need to know of one message.
type msgInfo struct {
	tokens   int   // estimated tokens of the whole message
	outputs  []int // indices into State.outputs
	carrier  bool  // carries tool outputs: a tool message, a user message of tool results, a text-form observation
	results  bool  // carries tool_result parts (the tool form)
	human    bool  // a person's message: never rewritten or dropped
	thinking bool  // an Anthropic assistant message with thinking blocks
	calls    bool  // an assistant message with tool calls
}

// An output is one tool output: a tool result part, or in the text form a
// whole user message.
type output struct {
	msg, part int    // part is -1 for a text-form message
	id        string // the call it answers; "" in the text form
	tool      string // the tool's name, or the command's first word
	call      string // the call, as the model can repeat it: `bash {"command":"ls"}`
	text      string // its text as received
	lines     int    // lineCount(text), or 0 for not counted
	sum       uint64 // text hashed with textSeed
	tokens    int    // estimated
	opaque    bool   // holds more than text (an image, a document)
	textForm  bool
	state     outputState
}

// outputState is what a pass did to an output in this Run.
type outputState int

const (
	untouched outputState = iota
	deduplicated
	snipped
	cleared
)

// callRef is what an output needs to know of the call it answers.
type callRef struct {
	name string // the tool's
	call string // as describeCall writes it
}

// Dialect returns the wire format of the conversation being compacted.
func (st *State) Dialect() chat.Dialect { return st.dialect }

// Conversation returns the conversation the passes rewrite.
func (st *State) Conversation() *chat.Conversation { return st.conv }

// Horizon returns the number of leading messages that are stale: the
// passes rewrite only those (see the package documentation).
func (st *State) Horizon() int { return st.horizon }

// Batches returns the steps of the horizon, oldest first.
func (st *State) Batches() []Batch { return st.batches }

// epochLimit returns the horizon of the batch that made message i stale:
// a decision about message i may look at messages before it and no
// further, so that it is the same in every later request.
func (st *State) epochLimit(i int) int {
	for _, b := range st.batches {
		if b.Horizon > i {
			return b.Horizon
		}
	}
	return st.horizon
}

// A seed is what is known of a request before its Run: the facts of its
// leading messages (from an earlier request it extends, whose messages it
// shares) and the memo of its conversation. The zero seed knows nothing.
type seed struct {
	facts []msgFacts // of conv.Messages[:len(facts)]
	memo  *textMemo
}

// newSeededState analyses conv, with what sd knows of it, and replays its
// history.
func newSeededState(conv *chat.Conversation, opts Options, on map[string]bool, sd seed) *State {
	st := &State{
		dialect: conv.Dialect,
		orig:    conv,
		conv:    conv.Clone(),
		opts:    opts,
		on:      on,
		calls:   map[string]callRef{},
		memo:    sd.memo,
	}
	n := min(len(sd.facts), len(conv.Messages))
	st.facts = make([]msgFacts, len(conv.Messages))
	copy(st.facts, sd.facts[:n])
	readFacts(st.est, conv.Messages[n:], st.facts[n:])
	st.family = conversationFamily(conv)
	st.analyse()
	st.server = serverMode(st)
	st.batches = replay(st)
	if n := len(st.batches); n > 0 {
		st.horizon = st.batches[n-1].Horizon
		st.clearBefore = st.horizon
		if on[passSnip] && on[passClear] && opts.SnipFirst > 0 {
			st.clearBefore = horizonOf(st.batches, n-1-opts.SnipFirst)
		}
	}
	return st
}

// analyse fills msgs, outputs and calls from the input conversation.
func (st *State) analyse() {
	msgs := st.orig.Messages
	st.msgs = make([]msgInfo, len(msgs))
	toolSeen := false
	for i := range msgs {
		m := &msgs[i]
		info := &st.msgs[i]
		info.tokens = st.facts[i].tokens
		for k := range m.Parts {
			p := &m.Parts[k]
			switch p.Type {
			case chat.ToolCall:
				toolSeen = true
				info.calls = true
				st.calls[p.ID] = callRef{name: p.Name, call: st.facts[i].parts[k].text}
			case chat.ToolResult:
				toolSeen = true
				info.results = true
				info.carrier = true
				info.outputs = append(info.outputs, st.addOutput(i, k, p))
			case chat.Thinking, chat.RedactedThinking:
				info.thinking = info.thinking || (st.dialect == chat.Anthropic && m.Role == chat.RoleAssistant)
			}
		}
		switch {
		case info.carrier:
		case !toolSeen && !st.opts.NoTextForm && m.Role == chat.RoleUser && i > 0 && msgs[i-1].Role == chat.RoleAssistant:
			if cmd, ok := textCommand(&msgs[i-1]); ok {
				info.carrier = true
				info.outputs = append(info.outputs, st.addTextOutput(i, m, cmd))
			}
		}
		info.human = m.Role == chat.RoleUser && !info.carrier
	}
}

func (st *State) addOutput(i, k int, p *chat.Part) int {
	f := &st.facts[i].parts[k]
	o := output{msg: i, part: k, id: p.ID, text: f.text, lines: f.lines, sum: f.sum}
	for c := range p.Content {
		if t := p.Content[c].Type; t != chat.Text {
			o.opaque = true
		}
	}
	o.tokens = f.tokens
	if c, ok := st.calls[p.ID]; ok {
		o.tool, o.call = c.name, c.call
	}
	st.outputs = append(st.outputs, o)
	return len(st.outputs) - 1
}

func (st *State) addTextOutput(i int, m *chat.Message, cmd command) int {
	o := output{msg: i, part: -1, tool: cmd.tool, call: cmd.call, textForm: true}
	for k := range m.Parts {
		p := &m.Parts[k]
		if p.Type != chat.Text {
			o.opaque = true
			continue
		}
		if o.text != "" {
			o.text += "\n"
		}
		o.text += p.Text
	}
	o.lines, o.sum = lineCount(o.text), maphash.String(textSeed, o.text)
	o.tokens = st.msgs[i].tokens
	st.outputs = append(st.outputs, o)
	return len(st.outputs) - 1
}

// Token estimates for what the estimator cannot read.
const (
	opaqueTokens      = 1000 // an image or document: a typical screenshot's cost
	messageTokens     = 4    // the chat template's framing of a message
	placeholderTokens = 40   // a placeholder that replaces an output
)

func (st *State) messageTokens(m *chat.Message) int {
	n := messageTokens
	for k := range m.Parts {
		n += st.partTokens(&m.Parts[k])
	}
	return n
}

func (st *State) partTokens(p *chat.Part) int { return estimatePart(st.est, st.memo, p) }

// textTokens estimates the tokens of s.
func (st *State) textTokens(s string) int { return st.memo.count(st.est, s) }
