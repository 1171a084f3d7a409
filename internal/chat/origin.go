package chat

import "bytes"

// An origin records where a decoded element came from: its exact bytes
// and a snapshot of its modelled fields as decoded. Origins are never
// changed after decoding, so copies and clones of an element share one.
// An element is unchanged while its fields still equal the snapshot; the
// codecs then emit the recorded bytes.

type partOrigin struct {
	raw       []byte
	wire      string
	typ       PartType
	text      string
	signature string
	data      string
	id        string
	name      string
	input     []byte // a private copy: Input is exported and mutable
	isError   bool
	content   []*partOrigin
	layout    any // what the codec found in raw; opaque here
}

type msgOrigin struct {
	raw    []byte
	role   Role
	parts  []*partOrigin
	layout any // what the codec found in raw; opaque here
}

type convOrigin struct {
	raw      []byte
	dialect  Dialect
	system   []*partOrigin
	messages []*msgOrigin
	fields   []Field // private copies of the values
	layout   any     // what the codec found in raw; opaque here
}

// MarkDecoded records p's current fields, and the origins of its Content,
// as decoded from raw, a block whose wire type is wire. Codecs call it
// once p is filled in and its Content parts are marked; passes never do.
func (p *Part) MarkDecoded(raw []byte, wire string) {
	p.MarkDecodedLayout(raw, wire, nil)
}

// MarkDecodedLayout is MarkDecoded that also records layout, what the
// codec found out about raw while decoding it (where its members lie), so
// that it can re-encode p once p has changed without scanning raw again.
// The value is the codec's own; this package only keeps it.
func (p *Part) MarkDecodedLayout(raw []byte, wire string, layout any) {
	p.orig = &partOrigin{
		layout:    layout,
		raw:       raw,
		wire:      wire,
		typ:       p.Type,
		text:      p.Text,
		signature: p.Signature,
		data:      p.Data,
		id:        p.ID,
		name:      p.Name,
		input:     cloneBytes(p.Input),
		isError:   p.IsError,
		content:   partOrigins(p.Content),
	}
}

// Unchanged reports whether p was decoded and none of its fields, nor any
// part of its Content, has changed since.
func (p *Part) Unchanged() bool {
	o := p.orig
	if o == nil || p.Type != o.typ || p.Text != o.text || p.Signature != o.signature ||
		p.Data != o.data || p.ID != o.id || p.Name != o.name || p.IsError != o.isError ||
		!bytes.Equal(p.Input, o.input) {
		return false
	}
	return sameParts(p.Content, o.content)
}

// Original returns the bytes p was decoded from if p is unchanged, and nil
// otherwise. Its result must not be modified.
func (p *Part) Original() []byte {
	if !p.Unchanged() {
		return nil
	}
	return p.orig.raw
}

// Source returns the bytes p was decoded from, changed or not, so that a
// codec can re-encode a changed part from its original object and keep
// every member it does not model. It reports false for a new part and for
// a part whose Type changed: that is a different block, encoded afresh.
func (p *Part) Source() ([]byte, bool) {
	if p.orig == nil || p.Type != p.orig.typ {
		return nil, false
	}
	return p.orig.raw, true
}

// Layout returns what the codec recorded with MarkDecodedLayout about the
// bytes Source returns, or nil when there are no such bytes or nothing
// was recorded.
func (p *Part) Layout() any {
	if p.orig == nil || p.Type != p.orig.typ {
		return nil
	}
	return p.orig.layout
}

// WireType returns the block type p was decoded from ("tool_use",
// "server_tool_use", "image_url", "refusal", ...), or "" for a new part.
func (p *Part) WireType() string {
	if p.orig == nil {
		return ""
	}
	return p.orig.wire
}

// Identical reports whether p and q are both unchanged and were decoded
// from the same bytes, which holds across two decodes of related requests.
func (p *Part) Identical(q *Part) bool {
	return p.Unchanged() && q.Unchanged() && bytes.Equal(p.orig.raw, q.orig.raw)
}

// SameOrigin reports whether p and q are copies of one decoded part,
// changed or not: a part of a Clone and its counterpart in the
// conversation cloned, or a part two decodes share.
func (p *Part) SameOrigin(q *Part) bool {
	return p.orig != nil && p.orig == q.orig
}

// MarkDecoded records m's role and the origins of its parts as decoded
// from raw. Codecs call it once the parts are marked.
func (m *Message) MarkDecoded(raw []byte) {
	m.MarkDecodedLayout(raw, nil)
}

// MarkDecodedLayout is MarkDecoded that also records layout, what the
// codec found out about raw while decoding it, as Part.MarkDecodedLayout
// does.
func (m *Message) MarkDecodedLayout(raw []byte, layout any) {
	m.orig = &msgOrigin{raw: raw, role: m.Role, parts: partOrigins(m.Parts), layout: layout}
}

// Layout returns what the codec recorded with MarkDecodedLayout about the
// bytes Source returns, or nil for a new message or when nothing was
// recorded.
func (m *Message) Layout() any {
	if m.orig == nil {
		return nil
	}
	return m.orig.layout
}

// Unchanged reports whether m was decoded and neither its role nor its
// parts (their number, order or content) have changed since.
func (m *Message) Unchanged() bool {
	return m.orig != nil && m.Role == m.orig.role && sameParts(m.Parts, m.orig.parts)
}

// Original returns the bytes m was decoded from if m is unchanged, and nil
// otherwise. Its result must not be modified.
func (m *Message) Original() []byte {
	if !m.Unchanged() {
		return nil
	}
	return m.orig.raw
}

// Source returns the bytes m was decoded from, changed or not, and false
// for a new message.
func (m *Message) Source() ([]byte, bool) {
	if m.orig == nil {
		return nil, false
	}
	return m.orig.raw, true
}

// Identical reports whether m and o are both unchanged and were decoded
// from the same bytes.
func (m *Message) Identical(o *Message) bool {
	return m.Unchanged() && o.Unchanged() && bytes.Equal(m.orig.raw, o.orig.raw)
}

// SameOrigin reports whether m and o are copies of one decoded message,
// changed or not: a message of a Clone and its counterpart in the
// conversation cloned.
func (m *Message) SameOrigin(o *Message) bool {
	return m.orig != nil && m.orig == o.orig
}

// MarkDecoded records c's dialect, system prompt, messages and fields as
// decoded from raw. Codecs call it once the messages are marked.
func (c *Conversation) MarkDecoded(raw []byte) {
	c.MarkDecodedLayout(raw, nil)
}

// MarkDecodedLayout is MarkDecoded that also records layout, what the
// codec found out about raw while decoding it (where its members and
// messages lie), so that it can encode c, or decode a later body that
// extends raw, without scanning raw again. The value is the codec's own;
// this package only keeps it.
func (c *Conversation) MarkDecodedLayout(raw []byte, layout any) {
	o := &convOrigin{raw: raw, dialect: c.Dialect, system: partOrigins(c.System), layout: layout}
	o.messages = make([]*msgOrigin, len(c.Messages))
	for i := range c.Messages {
		o.messages[i] = c.Messages[i].orig
	}
	o.fields = make([]Field, len(c.Fields))
	for i, f := range c.Fields {
		o.fields[i] = Field{Name: f.Name, Value: cloneBytes(f.Value)}
	}
	c.orig = o
}

// Unchanged reports whether c was decoded and nothing in it has changed
// since: dialect, system prompt, messages and fields.
func (c *Conversation) Unchanged() bool {
	o := c.orig
	if o == nil || c.Dialect != o.dialect || !sameParts(c.System, o.system) ||
		len(c.Messages) != len(o.messages) || len(c.Fields) != len(o.fields) {
		return false
	}
	for i := range c.Messages {
		if c.Messages[i].orig != o.messages[i] || !c.Messages[i].Unchanged() {
			return false
		}
	}
	for i, f := range c.Fields {
		if f.Name != o.fields[i].Name || !bytes.Equal(f.Value, o.fields[i].Value) {
			return false
		}
	}
	return true
}

// Original returns the request body c was decoded from if c is unchanged,
// and nil otherwise. Its result must not be modified.
func (c *Conversation) Original() []byte {
	if !c.Unchanged() {
		return nil
	}
	return c.orig.raw
}

// Source returns the body c was decoded from, changed or not, and false
// for a new conversation or one whose Dialect changed.
func (c *Conversation) Source() ([]byte, bool) {
	if c.orig == nil || c.Dialect != c.orig.dialect {
		return nil, false
	}
	return c.orig.raw, true
}

// Layout returns what the codec recorded with MarkDecodedLayout about the
// body Source returns, or nil when there is no such body or nothing was
// recorded.
func (c *Conversation) Layout() any {
	if c.orig == nil || c.Dialect != c.orig.dialect {
		return nil
	}
	return c.orig.layout
}

func partOrigins(ps []Part) []*partOrigin {
	if len(ps) == 0 {
		return nil
	}
	out := make([]*partOrigin, len(ps))
	for i := range ps {
		out[i] = ps[i].orig
	}
	return out
}

func sameParts(ps []Part, origins []*partOrigin) bool {
	if len(ps) != len(origins) {
		return false
	}
	for i := range ps {
		if ps[i].orig != origins[i] || !ps[i].Unchanged() {
			return false
		}
	}
	return true
}
