package compact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/winnowhq/winnow/internal/chat"
)

// argsPass elides large string arguments of stale tool calls whose
// content is in the context anyway: a later call carries the same string
// (the new_str of one edit is the old_str of the next), or a later call
// to the same tool with the same other arguments supersedes it (a file
// created twice). The arguments stay a JSON object with the same keys in
// the same order; only the elided values become a short string. "Later"
// means before the horizon of the batch that made the call stale, so
// the decision never changes afterwards.
type argsPass struct{}

func (argsPass) Name() string { return passArgs }

// A callArgs is one tool call with its arguments read.
type callArgs struct {
	msg, part int
	name      string
	members   []member
	large     []int // indices of members that are large strings
}

type member struct {
	key string
	raw json.RawMessage
	str string // the value, when it is a string
	ok  bool   // the value is a string
}

func (argsPass) Apply(st *State) Report {
	var r Report
	calls := st.readCalls()
	byValue := map[string][]int{} // large string → messages of the calls that carry it
	for _, c := range calls {
		for _, k := range c.large {
			byValue[c.members[k].str] = append(byValue[c.members[k].str], c.msg)
		}
	}
	for ci := range calls {
		c := &calls[ci]
		if c.msg >= st.horizon || len(c.large) == 0 {
			continue
		}
		limit := st.epochLimit(c.msg)
		changed := false
		for _, k := range c.large {
			why := ""
			if slices.ContainsFunc(byValue[c.members[k].str], func(m int) bool { return m > c.msg && m < limit }) {
				why = "repeated by a later " + c.name + " call"
			} else if len(c.large) == 1 && supersededBy(calls, ci, limit) {
				why = "superseded by a later " + c.name + " call with the same other arguments"
			}
			if why == "" {
				continue
			}
			s := fmt.Sprintf("[winnow: %s bytes elided; %s]", thousands(len(c.members[k].str)), why)
			c.members[k].raw = quote(s)
			changed = true
			r.note("messages[%d]: %s argument %q of %s: %s", c.msg, c.name, c.members[k].key, why, thousands(len(c.members[k].str))+" bytes")
		}
		if !changed {
			continue
		}
		p := &st.conv.Messages[c.msg].Parts[c.part]
		before := st.partTokens(p)
		p.Input = encodeMembers(c.members)
		r.Changed++
		r.TokensBefore += before
		r.TokensAfter += st.partTokens(p)
	}
	return r
}

// readCalls returns the tool calls of the stale assistant messages, with
// their arguments read; calls whose arguments are not a JSON object are
// left out.
func (st *State) readCalls() []callArgs {
	var calls []callArgs
	for i := 0; i < st.horizon; i++ {
		m := &st.conv.Messages[i]
		if m.Role != chat.RoleAssistant || !st.msgs[i].calls {
			continue
		}
		for k := range m.Parts {
			p := &m.Parts[k]
			if p.Type != chat.ToolCall {
				continue
			}
			ms, ok := st.callMembers(i, k, p)
			if !ok {
				continue
			}
			c := callArgs{msg: i, part: k, name: p.Name, members: ms}
			for j := range ms {
				if ms[j].ok && len(ms[j].str) >= st.opts.ArgsMin {
					c.large = append(c.large, j)
				}
			}
			calls = append(calls, c)
		}
	}
	return calls
}

// callMembers returns the arguments of p, part k of message i, as members
// reads them: a copy of those its facts hold when p's arguments are still
// those of the input, read afresh otherwise.
func (st *State) callMembers(i, k int, p *chat.Part) ([]member, bool) {
	if i < len(st.orig.Messages) && k < len(st.orig.Messages[i].Parts) {
		o := &st.orig.Messages[i].Parts[k]
		if o.Type == chat.ToolCall && p.SameOrigin(o) && bytes.Equal(p.Input, o.Input) && k < len(st.facts[i].parts) {
			f := &st.facts[i].parts[k]
			return slices.Clone(f.args), f.argsOK
		}
	}
	return members(p.Input)
}

// supersededBy reports whether a call after calls[ci], before message
// limit, has the same tool, the same keys and the same values for every
// argument but the large one.
func supersededBy(calls []callArgs, ci, limit int) bool {
	c := &calls[ci]
	for j := ci + 1; j < len(calls) && calls[j].msg < limit; j++ {
		d := &calls[j]
		if d.msg == c.msg || d.name != c.name || len(d.members) != len(c.members) {
			continue
		}
		same := true
		for k := range c.members {
			switch {
			case d.members[k].key != c.members[k].key:
				same = false
			case k != c.large[0] && !bytes.Equal(d.members[k].raw, c.members[k].raw):
				same = false
			}
		}
		if same {
			return true
		}
	}
	return false
}

// members reads a JSON object's members in order, keeping each value's
// exact bytes; false if input is not one JSON object.
func members(input []byte) ([]member, bool) {
	dec := json.NewDecoder(bytes.NewReader(input))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var ms []member
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok {
			return nil, false
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, false
		}
		m := member{key: key, raw: raw}
		if len(raw) > 0 && raw[0] == '"' {
			m.ok = json.Unmarshal(raw, &m.str) == nil
		}
		ms = append(ms, m)
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, false
	}
	if _, err := dec.Token(); err == nil {
		return nil, false // more after the object
	}
	return ms, true
}

// encodeMembers writes members as a compact JSON object, values as they
// are.
func encodeMembers(ms []member) json.RawMessage {
	b := []byte{'{'}
	for i, m := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, quote(m.key)...)
		b = append(b, ':')
		b = append(b, m.raw...)
	}
	return append(b, '}')
}

// quote returns s as a JSON string, without HTML escaping.
func quote(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
