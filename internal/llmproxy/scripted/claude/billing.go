package claude

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/winnowhq/winnow/internal/compact/costsim"
)

// A view is a request as the model reads it and the API bills it: after the family's
// thinking rule and the request's context-management edits. It is rendered as text, one
// segment per tool definition, one for the system prompt and one per message, the layout
// costsim prices.
type view struct {
	tools  []string
	system string
	msgs   []viewMessage
}

type viewMessage struct {
	role   string
	blocks []viewBlock
}

type viewBlock struct {
	typ   string // the content block type
	text  string // what the model reads of it
	name  string // tool_use, tool_result: the tool's name
	id    string // tool_use: its id; tool_result: the id it answers
	input string // tool_use: its input as compact JSON
}

// buildView renders req as the model reads it before any edit: thinking blocks as the text
// the model thought (a signature carries it even when the client got an empty field), tool
// calls as their name and input, tool results as their text. Tools loaded lazily
// (defer_loading) are not in the prompt until searched for, and are left out.
func buildView(req *request, l *ledger) *view {
	v := &view{system: systemText(req.System)}
	for _, raw := range req.Tools {
		var t struct {
			DeferLoading bool `json:"defer_loading"`
		}
		if json.Unmarshal(raw, &t) == nil && t.DeferLoading {
			continue
		}
		var def any
		if json.Unmarshal(raw, &def) != nil {
			v.tools = append(v.tools, string(raw))
			continue
		}
		data, _ := json.Marshal(stripCacheControl(def))
		v.tools = append(v.tools, string(data))
	}
	names := make(map[string]string) // tool_use id → tool name
	for _, m := range req.Messages {
		vm := viewMessage{role: m.Role}
		for _, b := range m.Blocks {
			vb := viewBlock{typ: b.Type}
			switch b.Type {
			case "text":
				vb.text = b.Text
			case "thinking":
				vb.text = b.Thinking
				if t, ok := l.lookupThinking(b.Signature); ok {
					vb.text = t.full
				}
			case "redacted_thinking":
				vb.text = b.Data
			case "tool_use":
				names[b.ID] = b.Name
				vb.name, vb.id, vb.input = b.Name, b.ID, compactJSON(b.Input)
			case "tool_result":
				vb.name, vb.id, vb.text = names[b.ToolUseID], b.ToolUseID, contentText(b.Content)
			default:
				vb.text = string(b.raw)
			}
			vm.blocks = append(vm.blocks, vb)
		}
		v.msgs = append(v.msgs, vm)
	}
	return v
}

func systemText(raw json.RawMessage) string {
	blocks, err := decodeContent(raw)
	if err != nil {
		return string(raw)
	}
	var texts []string
	for _, b := range blocks {
		texts = append(texts, b.Text)
	}
	return strings.Join(texts, "\n")
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// render returns the text of one message: its role, then each block on its own lines.
func (m viewMessage) render() string {
	var b strings.Builder
	b.WriteString(m.role)
	for _, bl := range m.blocks {
		b.WriteByte('\n')
		switch bl.typ {
		case "tool_use":
			b.WriteString(bl.name)
			b.WriteByte(' ')
			b.WriteString(bl.input)
		default:
			b.WriteString(bl.text)
		}
	}
	return b.String()
}

// stripThinking removes the thinking blocks of the messages before index end.
func (v *view) stripThinking(end int) {
	for i := range v.msgs[:end] {
		v.msgs[i].blocks = slices.DeleteFunc(v.msgs[i].blocks, func(b viewBlock) bool { return isThinking(b.typ) })
	}
}

// currentTurnStart returns the index of the last user message with content other than
// tool results: the start of the current turn (a tool loop is one turn), or 0.
func currentTurnStart(req *request) int {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if m := req.Messages[i]; m.Role == "user" && !onlyToolResults(m) {
			return i
		}
	}
	return 0
}

// A meter turns texts into o200k token ids, remembering each text's ids: a message recurs
// in every later request of its conversation. Claude's tokenizer is not public; o200k
// stands in for it, as everywhere in winnow, so counts approximate what the API bills.
type meter struct {
	enc  *costsim.Encoder
	mu   sync.Mutex
	memo map[string][]uint32
}

func newMeter() (*meter, error) {
	enc, err := costsim.NewEncoder()
	if err != nil {
		return nil, err
	}
	return &meter{enc: enc, memo: make(map[string][]uint32)}, nil
}

func (mt *meter) ids(text string) []uint32 {
	mt.mu.Lock()
	ids, ok := mt.memo[text]
	mt.mu.Unlock()
	if ok {
		return ids
	}
	ids, err := mt.enc.Encode(text)
	if err != nil { // the encoder fails only on a regexp timeout; count bytes/4 instead
		ids = make([]uint32, len(text)/4)
	}
	mt.mu.Lock()
	mt.memo[text] = ids
	mt.mu.Unlock()
	return ids
}

// segments returns v as costsim sees it: each tool, the system prompt, each message.
func (v *view) segments(mt *meter) [][]uint32 {
	segs := make([][]uint32, 0, len(v.tools)+1+len(v.msgs))
	for _, t := range v.tools {
		segs = append(segs, mt.ids(t))
	}
	if v.system != "" {
		segs = append(segs, mt.ids(v.system))
	}
	for _, m := range v.msgs {
		segs = append(segs, mt.ids(m.render()))
	}
	return segs
}

// tokens returns the input tokens of v.
func (v *view) tokens(mt *meter) int {
	n := 0
	for _, s := range v.segments(mt) {
		n += len(s)
	}
	return n
}

// clone returns a copy of v whose messages and blocks can be edited.
func (v *view) clone() *view {
	c := &view{tools: v.tools, system: v.system, msgs: make([]viewMessage, len(v.msgs))}
	for i, m := range v.msgs {
		c.msgs[i] = viewMessage{role: m.role, blocks: append([]viewBlock(nil), m.blocks...)}
	}
	return c
}
