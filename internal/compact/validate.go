package compact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/winnowhq/winnow/internal/chat"
)

// A Rule names an invariant a request must keep for the API to accept it.
// The package documentation states each rule and its source.
type Rule string

// The rules Validate checks.
const (
	RuleDialect           Rule = "dialect"            // the conversation is not of the dialect validated
	RuleUserMessageLost   Rule = "user-message-lost"  // a user's message was dropped
	RuleFirstMessage      Rule = "first-message-user" // Anthropic: the first message is not the user's
	RuleRolesMerged       Rule = "roles-merged"       // Anthropic: compaction made two same-role messages adjacent
	RuleEmptyContent      Rule = "empty-content"      // a message has no content
	RuleEmptyText         Rule = "empty-text"         // Anthropic: an empty or whitespace-only text
	RuleToolResultMissing Rule = "tool-result-missing"
	RuleToolResultOrphan  Rule = "tool-result-orphan"
	RuleToolResultTwice   Rule = "tool-result-duplicate"
	RuleToolResultFirst   Rule = "tool-result-first" // Anthropic: content before a tool_result in a user turn
	RuleToolIDDuplicate   Rule = "tool-id-duplicate" // two tool calls share an id
	RuleToolArguments     Rule = "tool-arguments"    // tool arguments are not valid JSON
	RuleThinkingChanged   Rule = "thinking-changed"  // Anthropic: a thinking block is not byte-identical to one received
	RuleThinkingDropped   Rule = "thinking-dropped"  // Anthropic: the active tool loop lost its thinking
	RuleThinkingPrefix    Rule = "thinking-prefix"   // Anthropic: something before a kept thinking block changed
)

// A Violation is one broken invariant.
type Violation struct {
	// Message is the index of the offending message in the output, or -1
	// for the request as a whole (system prompt, tools). For
	// RuleUserMessageLost it indexes the original's messages instead.
	Message int
	// Part is the index of the offending part in that message, or -1.
	Part int
	Rule Rule
	// Detail explains the violation to a human.
	Detail string
}

// String formats v as "messages[3].content[1]: rule: detail".
func (v Violation) String() string {
	where := "request"
	switch {
	case v.Message >= 0 && v.Rule == RuleUserMessageLost:
		where = fmt.Sprintf("original messages[%d]", v.Message)
	case v.Message >= 0 && v.Part >= 0:
		where = fmt.Sprintf("messages[%d].content[%d]", v.Message, v.Part)
	case v.Message >= 0:
		where = fmt.Sprintf("messages[%d]", v.Message)
	}
	return fmt.Sprintf("%s: %s: %s", where, v.Rule, v.Detail)
}

// Validate checks out, a compacted conversation, against the invariants of
// dialect's API and returns every violation found, in message order within
// each rule; none means the API will accept out as far as these rules
// know. orig is the conversation out was compacted from, normally the one
// out was cloned from; with orig nil only the structural rules are checked
// (not user-message-lost, roles-merged, thinking-prefix, nor the
// comparison half of the thinking rules).
func Validate(dialect chat.Dialect, orig, out *chat.Conversation) []Violation {
	return ValidateBound(dialect, orig, out, nil)
}

// ValidateBound is Validate for a request whose history was compacted
// stickily, by a proxy that sent the same rewritten messages on every
// earlier turn. A thinking block produced after such a rewrite is bound
// to the rewritten prefix the model saw, not to the client's history, so
// the thinking-prefix rule compares the prefix of the last thinking block
// out keeps with sent: the request that was sent when that block's
// message was produced (for a Compactor, a Run of orig's messages before
// it). Equal means encoding to the same bytes. With sent nil it is
// Validate.
func ValidateBound(dialect chat.Dialect, orig, out, sent *chat.Conversation) []Violation {
	var r report
	switch {
	case out == nil:
		r.add(-1, -1, RuleDialect, "there is no conversation to validate")
	case out.Dialect != dialect:
		r.add(-1, -1, RuleDialect, "the conversation is %q, not %q", out.Dialect, dialect)
	case orig != nil && orig.Dialect != dialect:
		r.add(-1, -1, RuleDialect, "the original conversation is %q, not %q", orig.Dialect, dialect)
	case dialect == chat.Anthropic:
		checkAnthropic(&r, orig, out, sent)
	case dialect == chat.OpenAI:
		checkOpenAI(&r, orig, out)
	case dialect == chat.Responses:
		r.list = append(r.list, validateResponses(orig, out)...)
	default:
		r.add(-1, -1, RuleDialect, "unknown dialect %q", dialect)
	}
	return r.list
}

type report struct{ list []Violation }

func (r *report) add(msg, part int, rule Rule, format string, args ...any) {
	r.list = append(r.list, Violation{Message: msg, Part: part, Rule: rule, Detail: fmt.Sprintf(format, args...)})
}

// changed reports whether a pass changed or added m; the per-message
// content rules apply only to such messages.
func changed(m *chat.Message) bool { return !m.Unchanged() }

// --- Anthropic ---

func checkAnthropic(r *report, orig, out, sent *chat.Conversation) {
	msgs := out.Messages
	switch {
	case len(msgs) == 0:
		r.add(-1, -1, RuleFirstMessage, "the request has no messages")
	case msgs[0].Role != chat.RoleUser:
		r.add(0, -1, RuleFirstMessage, "the first message is from %q; the API requires the user's", msgs[0].Role)
	}
	if orig != nil {
		rolesMerged(r, orig, out)
	}
	for i := range msgs {
		if changed(&msgs[i]) {
			anthropicContent(r, i, &msgs[i], i == len(msgs)-1)
			arguments(r, i, &msgs[i], true)
		}
	}
	systemText(r, out.System)
	anthropicTools(r, msgs)
	thinkingIntact(r, orig, out)
	switch {
	case conversationFamily(out) != Preserved:
		// No prefix check: only the latest message's blocks are verified.
	case orig != nil && sent != nil:
		thinkingPrefixSent(r, orig, out, sent)
	case orig != nil:
		thinkingPrefix(r, orig, out)
	}
	thinkingKept(r, orig, out)
	usersKept(r, orig, out, anthropicHuman)
}

// rolesMerged reports adjacent messages of one role in out that were not
// adjacent in orig: compaction dropped what stood between them, and the
// API will merge them into one turn.
func rolesMerged(r *report, orig, out *chat.Conversation) {
	where, _ := align(orig, out)
	origOf := make(map[int]int, len(where))
	for oi, i := range where {
		if i >= 0 {
			origOf[i] = oi
		}
	}
	for i := 1; i < len(out.Messages); i++ {
		if out.Messages[i].Role != out.Messages[i-1].Role {
			continue
		}
		a, okA := origOf[i-1]
		b, okB := origOf[i]
		if okA && okB && b == a+1 {
			continue // adjacent in the original too
		}
		r.add(i, -1, RuleRolesMerged, "%s message follows another %s message that it did not follow in the original; the API would merge them into one turn",
			out.Messages[i].Role, out.Messages[i].Role)
	}
}

// anthropicContent checks changed message i for empty content, empty text
// blocks and whitespace-only text; last says it ends the conversation.
func anthropicContent(r *report, i int, m *chat.Message, last bool) {
	finalAssistant := last && m.Role == chat.RoleAssistant
	if len(m.Parts) == 0 {
		if !finalAssistant {
			r.add(i, -1, RuleEmptyContent, "%s message has no content; only a final assistant message may be empty", m.Role)
		}
		return
	}
	if finalAssistant && len(m.Parts) == 1 && m.Parts[0].Type == chat.Text && m.Parts[0].Text == "" {
		return // an empty final assistant message
	}
	onlyText, visible, empty := true, false, false
	for k := range m.Parts {
		p := &m.Parts[k]
		if p.Type != chat.Text {
			onlyText = false
			continue
		}
		if p.Text == "" {
			empty = true
			r.add(i, k, RuleEmptyText, "text block is empty; the API rejects empty text blocks")
		}
		if strings.TrimSpace(p.Text) != "" {
			visible = true
		}
	}
	if onlyText && !visible && !empty {
		r.add(i, -1, RuleEmptyText, "%s message's text is whitespace only; the API rejects it", m.Role)
	}
}

// systemText reports changed or new system text blocks with no text.
func systemText(r *report, system []chat.Part) {
	for k := range system {
		p := &system[k]
		if p.Type == chat.Text && !p.Unchanged() && strings.TrimSpace(p.Text) == "" {
			r.add(-1, k, RuleEmptyText, "system text block %d is empty or whitespace only", k)
		}
	}
}

// arguments reports tool calls of message i whose arguments are not
// valid JSON, or, if object is set (Anthropic's input), not an object.
func arguments(r *report, i int, m *chat.Message, object bool) {
	for k := range m.Parts {
		p := &m.Parts[k]
		if p.Type != chat.ToolCall || len(p.Input) == 0 {
			continue
		}
		switch {
		case !json.Valid(p.Input):
			r.add(i, k, RuleToolArguments, "tool call %q has arguments that are not valid JSON", p.ID)
		case object && bytes.TrimSpace(p.Input)[0] != '{':
			r.add(i, k, RuleToolArguments, "tool call %q has input that is not a JSON object", p.ID)
		}
	}
}

// A turn is a run of consecutive messages of one role, which the
// Anthropic API treats as one message.
type turn struct {
	role  chat.Role
	parts []ref
}

type ref struct{ msg, part int }

func turns(msgs []chat.Message) []turn {
	var ts []turn
	for i := range msgs {
		if len(ts) == 0 || ts[len(ts)-1].role != msgs[i].Role {
			ts = append(ts, turn{role: msgs[i].Role})
		}
		t := &ts[len(ts)-1]
		for k := range msgs[i].Parts {
			t.parts = append(t.parts, ref{i, k})
		}
	}
	return ts
}

// anthropicTools checks tool_use/tool_result pairing on merged turns.
// Server tools (server_tool_use and its results) decode as Unknown parts
// and are resolved by the API itself, so they are not paired here.
func anthropicTools(r *report, msgs []chat.Message) {
	part := func(x ref) *chat.Part { return &msgs[x.msg].Parts[x.part] }
	ts := turns(msgs)
	callAt := map[string]ref{}
	for ti, t := range ts {
		var calls []ref
		for _, x := range t.parts {
			if p := part(x); p.Type == chat.ToolCall {
				if prev, dup := callAt[p.ID]; dup {
					r.add(x.msg, x.part, RuleToolIDDuplicate, "tool_use id %q was already used at messages[%d].content[%d]", p.ID, prev.msg, prev.part)
				}
				callAt[p.ID] = x
				calls = append(calls, x)
			}
		}
		if t.role != chat.RoleUser {
			for _, x := range t.parts {
				if p := part(x); p.Type == chat.ToolResult {
					r.add(x.msg, x.part, RuleToolResultOrphan, "tool_result for %q is in a %s message; tool results belong in the user message after the call", p.ID, t.role)
				}
			}
		}
		if t.role == chat.RoleAssistant && len(calls) > 0 && ti+1 < len(ts) {
			answered := map[string]bool{}
			if next := ts[ti+1]; next.role == chat.RoleUser {
				for _, x := range next.parts {
					if p := part(x); p.Type == chat.ToolResult {
						answered[p.ID] = true
					}
				}
			}
			for _, x := range calls {
				if id := part(x).ID; !answered[id] {
					r.add(x.msg, x.part, RuleToolResultMissing, "tool_use %q has no tool_result in the next user message", id)
				}
			}
		}
		if t.role == chat.RoleUser {
			userTurn(r, msgs, ts, ti)
		}
	}
}

// userTurn checks the tool results of user turn ti: each answers a call
// of the assistant turn just before, once, and they come first.
func userTurn(r *report, msgs []chat.Message, ts []turn, ti int) {
	asked := map[string]bool{}
	if ti > 0 && ts[ti-1].role == chat.RoleAssistant {
		for _, x := range ts[ti-1].parts {
			if p := &msgs[x.msg].Parts[x.part]; p.Type == chat.ToolCall {
				asked[p.ID] = true
			}
		}
	}
	seen := map[string]bool{}
	other := false
	for _, x := range ts[ti].parts {
		p := &msgs[x.msg].Parts[x.part]
		if p.Type != chat.ToolResult {
			other = true
			continue
		}
		switch {
		case !asked[p.ID]:
			r.add(x.msg, x.part, RuleToolResultOrphan, "tool_result for %q answers no tool_use in the assistant message just before", p.ID)
		case seen[p.ID]:
			r.add(x.msg, x.part, RuleToolResultTwice, "tool_use %q is answered more than once", p.ID)
		}
		seen[p.ID] = true
		if other {
			r.add(x.msg, x.part, RuleToolResultFirst, "tool_result for %q comes after other content; tool results must come first in the user turn", p.ID)
		}
	}
}

func isThinking(p *chat.Part) bool {
	return p.Type == chat.Thinking || p.Type == chat.RedactedThinking
}

// thinkingIntact reports thinking blocks that are not byte-identical to a
// block the API produced: changed, created, or (given orig) absent from
// the original.
func thinkingIntact(r *report, orig, out *chat.Conversation) {
	var known map[string]bool
	if orig != nil {
		known = map[string]bool{}
		forThinking(orig.Messages, func(_, _ int, p *chat.Part) {
			known[string(p.Original())] = true
		})
	}
	forThinking(out.Messages, func(i, k int, p *chat.Part) {
		switch {
		case !p.Unchanged():
			r.add(i, k, RuleThinkingChanged, "%s block was changed or created; thinking travels back byte-identical, signature included", p.Type)
		case known != nil && !known[string(p.Original())]:
			r.add(i, k, RuleThinkingChanged, "%s block is not in the original request", p.Type)
		}
	})
}

func forThinking(msgs []chat.Message, f func(i, k int, p *chat.Part)) {
	for i := range msgs {
		for k := range msgs[i].Parts {
			if p := &msgs[i].Parts[k]; isThinking(p) {
				f(i, k, p)
			}
		}
	}
}

// thinkingPrefix checks the prefix rule: with a thinking block kept, the
// system prompt, the tools and everything before the last kept block are
// identical to the original.
func thinkingPrefix(r *report, orig, out *chat.Conversation) {
	li, lk := -1, -1
	forThinking(out.Messages, func(i, k int, _ *chat.Part) { li, lk = i, k })
	if li < 0 {
		return
	}
	at := fmt.Sprintf("messages[%d].content[%d]", li, lk)
	if len(out.System) != len(orig.System) || !identicalPrefix(out.System, orig.System, len(orig.System)) {
		r.add(-1, -1, RuleThinkingPrefix, "the system prompt differs from the original, but the thinking block at %s was produced against it", at)
	}
	ot, _ := orig.Field("tools")
	nt, _ := out.Field("tools")
	if !bytes.Equal(ot, nt) {
		r.add(-1, -1, RuleThinkingPrefix, "the tools differ from the original, but the thinking block at %s was produced against them", at)
	}
	for j := 0; j <= li; j++ {
		same := j < len(orig.Messages)
		if same && j < li {
			same = out.Messages[j].Identical(&orig.Messages[j])
		} else if same {
			same = out.Messages[j].Role == orig.Messages[j].Role && identicalPrefix(out.Messages[j].Parts, orig.Messages[j].Parts, lk)
		}
		if !same {
			r.add(j, -1, RuleThinkingPrefix, "message differs from original message %d, but the thinking block at %s was produced against it; keep everything before a kept thinking block unchanged, or drop the thinking", j, at)
			return
		}
	}
}

// thinkingPrefixSent checks the prefix rule against sent, the request
// the last kept thinking block was produced after: the system prompt, the
// tools and the messages before the block's message encode as sent's, and
// the parts before the block in its message are the original's.
func thinkingPrefixSent(r *report, orig, out, sent *chat.Conversation) {
	li, lk := -1, -1
	forThinking(out.Messages, func(i, k int, _ *chat.Part) { li, lk = i, k })
	if li < 0 {
		return
	}
	at := fmt.Sprintf("messages[%d].content[%d]", li, lk)
	block := &out.Messages[li].Parts[lk]
	if !equalParts(out.System, sent.System) {
		r.add(-1, -1, RuleThinkingPrefix, "the system prompt differs from the request the thinking block at %s was produced after", at)
	}
	ot, _ := sent.Field("tools")
	nt, _ := out.Field("tools")
	if !bytes.Equal(ot, nt) {
		r.add(-1, -1, RuleThinkingPrefix, "the tools differ from the request the thinking block at %s was produced after", at)
	}
	if len(sent.Messages) != li {
		r.add(li, -1, RuleThinkingPrefix, "%d messages precede the thinking block at %s, but it was produced after a request of %d", li, at, len(sent.Messages))
		return
	}
	for j := range li {
		if !equalMessage(&out.Messages[j], &sent.Messages[j]) {
			r.add(j, -1, RuleThinkingPrefix, "message differs from the one sent when the thinking block at %s was produced; keep everything before a kept thinking block as it was sent, or drop the thinking", at)
			return
		}
	}
	oi := -1 // the original message holding the block (whose bytes are unique: they are signed)
	for k := range orig.Messages {
		for j := range orig.Messages[k].Parts {
			if block.Identical(&orig.Messages[k].Parts[j]) {
				oi = k
			}
		}
	}
	if oi < 0 || out.Messages[li].Role != orig.Messages[oi].Role || !identicalPrefix(out.Messages[li].Parts, orig.Messages[oi].Parts, lk) {
		r.add(li, -1, RuleThinkingPrefix, "the parts before the thinking block at %s are not the ones it was produced with", at)
	}
}

// equalMessage reports whether a and b encode to the same bytes: the same
// role, source and parts.
func equalMessage(a, b *chat.Message) bool {
	sa, okA := a.Source()
	sb, okB := b.Source()
	return a.Role == b.Role && okA == okB && bytes.Equal(sa, sb) && equalParts(a.Parts, b.Parts)
}

// equalParts reports whether ps and qs are pairwise equal: the same
// modelled fields and the same source bytes, so that they encode alike.
func equalParts(ps, qs []chat.Part) bool {
	if len(ps) != len(qs) {
		return false
	}
	for k := range ps {
		p, q := &ps[k], &qs[k]
		sp, okP := p.Source()
		sq, okQ := q.Source()
		if p.Type != q.Type || p.Text != q.Text || p.Signature != q.Signature || p.Data != q.Data ||
			p.ID != q.ID || p.Name != q.Name || p.IsError != q.IsError || !bytes.Equal(p.Input, q.Input) ||
			okP != okQ || !bytes.Equal(sp, sq) || !equalParts(p.Content, q.Content) {
			return false
		}
	}
	return true
}

// identicalPrefix reports whether a and b both have at least n parts and
// their first n are pairwise Identical.
func identicalPrefix(a, b []chat.Part, n int) bool {
	if n > len(a) || n > len(b) {
		return false
	}
	for k := range n {
		if !a[k].Identical(&b[k]) {
			return false
		}
	}
	return true
}

// thinkingKept checks that, with thinking enabled and a tool-use loop
// active (the request ends with tool results), the current assistant turn
// keeps its thinking blocks. Without orig it checks the API's structural
// form of the rule: the last assistant message starts with thinking.
func thinkingKept(r *report, orig, out *chat.Conversation) {
	mode := thinkingMode(out)
	if mode == "" || mode == "disabled" {
		return
	}
	first, last, ok := currentTurn(out.Messages)
	if !ok {
		return
	}
	if orig == nil {
		if mode != "enabled" {
			return // adaptive thinking may skip thinking; only the original can tell
		}
		for i := last; i >= first; i-- {
			if m := &out.Messages[i]; m.Role == chat.RoleAssistant {
				if len(m.Parts) == 0 || !isThinking(&m.Parts[0]) {
					r.add(i, 0, RuleThinkingDropped, "thinking is enabled and a tool loop is active, so the last assistant message must start with a thinking block")
				}
				return
			}
		}
		return
	}
	of, ol, ok := currentTurn(orig.Messages)
	if !ok {
		return
	}
	where, _ := align(orig, out)
	for oi := of; oi <= ol; oi++ {
		om := &orig.Messages[oi]
		want := countThinking(om.Parts)
		if om.Role != chat.RoleAssistant || want == 0 {
			continue
		}
		i := where[oi]
		if i < 0 {
			r.add(-1, -1, RuleThinkingDropped, "original messages[%d], an assistant message with thinking in the active tool loop, was dropped", oi)
			continue
		}
		// A block that is there but changed is reported as changed.
		if got := countThinking(out.Messages[i].Parts); got < want {
			r.add(i, -1, RuleThinkingDropped, "%d of the %d thinking blocks of this assistant message are gone, but it is part of the active tool loop", want-got, want)
		}
	}
}

func countThinking(parts []chat.Part) int {
	n := 0
	for k := range parts {
		if isThinking(&parts[k]) {
			n++
		}
	}
	return n
}

// thinkingMode returns the type of the request's thinking parameter
// ("enabled", "adaptive", "disabled"), or "" without one.
func thinkingMode(c *chat.Conversation) string {
	v, ok := c.Field("thinking")
	if !ok {
		return ""
	}
	var t struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(v, &t) != nil {
		return ""
	}
	return t.Type
}

// currentTurn returns the span of messages after the last user message of
// human content up to the end, when the request ends with tool results:
// the assistant turn of the active tool-use loop and its results.
func currentTurn(msgs []chat.Message) (first, last int, ok bool) {
	last = len(msgs) - 1
	for last >= 0 && msgs[last].Role == chat.RoleSystem {
		last-- // a system message after the results does not end the turn (Claude Code's nudge)
	}
	if last < 0 || msgs[last].Role != chat.RoleUser || !msgs[last].Has(chat.ToolResult) {
		return 0, 0, false
	}
	first = 0
	for i := last; i >= 0; i-- {
		if msgs[i].Role == chat.RoleUser && !msgs[i].Has(chat.ToolResult) {
			first = i + 1
			break
		}
	}
	return first, last, true
}

// anthropicHuman reports whether m is a user's own message, not a
// message carrying tool results.
func anthropicHuman(m *chat.Message) bool {
	if m.Role != chat.RoleUser || m.Has(chat.ToolResult) {
		return false
	}
	for k := range m.Parts {
		if t := m.Parts[k].Type; t == chat.Text || t == chat.Image || t == chat.Document {
			return true
		}
	}
	return false
}

// --- OpenAI ---

func checkOpenAI(r *report, orig, out *chat.Conversation) {
	msgs := out.Messages
	if len(msgs) == 0 {
		r.add(-1, -1, RuleEmptyContent, "the request has no messages")
	}
	for i := 0; i < len(msgs); {
		m := &msgs[i]
		if changed(m) {
			openaiContent(r, i, m)
			arguments(r, i, m, false)
		}
		switch m.Role {
		case chat.RoleTool:
			r.add(i, 0, RuleToolResultOrphan, "tool message answers %q but does not follow an assistant message with tool_calls", resultID(m))
			i++
		case chat.RoleAssistant:
			i = openaiCalls(r, msgs, i)
		default:
			i++
		}
	}
	usersKept(r, orig, out, func(m *chat.Message) bool { return m.Role == chat.RoleUser })
}

// openaiCalls checks that the tool messages directly after assistant
// message i answer each of its tool_calls exactly once, and returns the
// index of the first message after them.
func openaiCalls(r *report, msgs []chat.Message, i int) int {
	asked := map[string]bool{}
	for k := range msgs[i].Parts {
		p := &msgs[i].Parts[k]
		if p.Type != chat.ToolCall || p.WireType() == "function_call" {
			continue
		}
		if asked[p.ID] {
			r.add(i, k, RuleToolIDDuplicate, "tool call id %q appears twice in tool_calls", p.ID)
		}
		asked[p.ID] = true
	}
	seen := map[string]bool{}
	j := i + 1
	for ; j < len(msgs) && msgs[j].Role == chat.RoleTool; j++ {
		if changed(&msgs[j]) {
			openaiContent(r, j, &msgs[j])
		}
		switch id := resultID(&msgs[j]); {
		case !asked[id]:
			r.add(j, 0, RuleToolResultOrphan, "tool message answers %q, which the assistant message before it did not call", id)
		case seen[id]:
			r.add(j, 0, RuleToolResultTwice, "tool call %q is answered more than once", id)
		default:
			seen[id] = true
		}
	}
	for k := range msgs[i].Parts {
		p := &msgs[i].Parts[k]
		if p.Type == chat.ToolCall && p.WireType() != "function_call" && !seen[p.ID] {
			r.add(i, k, RuleToolResultMissing, "tool call %q has no tool message before the next non-tool message", p.ID)
		}
	}
	return j
}

func resultID(m *chat.Message) string {
	for k := range m.Parts {
		if m.Parts[k].Type == chat.ToolResult {
			return m.Parts[k].ID
		}
	}
	return ""
}

// openaiContent reports a changed message with no content where the API
// requires some: an assistant message without tool calls, or a system,
// developer or user message.
func openaiContent(r *report, i int, m *chat.Message) {
	if m.Role == chat.RoleTool || m.Role == chat.RoleFunction {
		return // a tool's output may be empty
	}
	calls, content := false, false
	for k := range m.Parts {
		switch p := &m.Parts[k]; {
		case p.Type == chat.ToolCall, p.Type == chat.Unknown && (p.WireType() == "tool_call" || p.WireType() == "function_call"):
			calls = true
		case p.Type == chat.Text:
			content = content || p.Text != ""
		case p.Type != chat.Thinking:
			content = true
		}
	}
	if !content && !(calls && m.Role == chat.RoleAssistant) {
		r.add(i, -1, RuleEmptyContent, "%s message has no content; only an assistant message with tool_calls may be empty", m.Role)
	}
}

// --- both ---

// usersKept reports the user messages of orig missing from out.
func usersKept(r *report, orig, out *chat.Conversation, human func(*chat.Message) bool) {
	if orig == nil {
		return
	}
	where, shared := align(orig, out)
	want, have := 0, 0
	for oi := range orig.Messages {
		if !human(&orig.Messages[oi]) {
			continue
		}
		want++
		if shared && (where[oi] < 0 || !human(&out.Messages[where[oi]])) {
			r.add(oi, -1, RuleUserMessageLost, "the user's message is missing from the compacted request")
		}
	}
	for i := range out.Messages {
		if human(&out.Messages[i]) {
			have++
		}
	}
	if !shared && have < want {
		r.add(-1, -1, RuleUserMessageLost, "the original has %d user messages, the compacted request only %d", want, have)
	}
}

// align maps each message of orig to the index of its copy in out (-1 if
// out dropped it), following the origins a Clone shares. Compaction drops
// and rewrites messages but never reorders them, so one forward scan
// suffices. If out shares no origin with orig (it was decoded on its own),
// messages are aligned by position from the end, where compaction leaves
// the conversation intact.
func align(orig, out *chat.Conversation) (where []int, byOrigin bool) {
	where = make([]int, len(orig.Messages))
	next, found := 0, false
	for oi := range orig.Messages {
		where[oi] = -1
		for i := next; i < len(out.Messages); i++ {
			if out.Messages[i].SameOrigin(&orig.Messages[oi]) {
				where[oi], next, found = i, i+1, true
				break
			}
		}
	}
	if found {
		return where, true
	}
	shift := len(orig.Messages) - len(out.Messages)
	for oi := range where {
		if i := oi - shift; i >= 0 && i < len(out.Messages) {
			where[oi] = i
		}
	}
	return where, false
}
