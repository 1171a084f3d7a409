package compact

import (
	"encoding/json"

	"github.com/winnowhq/winnow/internal/chat"
)

// The rules only the Responses dialect has.
const (
	RuleReasoningFollower Rule = "reasoning-follower" // Responses: a reasoning item lost the item it was produced with
	RuleReordered         Rule = "reordered"          // Responses: an item moved before one that preceded it
)

// --- OpenAI Responses ---
//
// A Responses request (package chat/responses) is a list of input items,
// one message each: calls, their outputs and the model's reasoning are
// items of their own. The API refuses a request, with these errors (as
// clients have reported them: openai/codex#93, continuedev/continue#8933
// and #10092, mastra-ai/mastra#8738, vercel/ai#7099), when
//
//   - a call has no output after it: "No tool output found for function
//     call call_….", or an output has no call before it: "No tool call
//     found for function call output with call_id call_….". A call is a
//     function_call, custom_tool_call, local_shell_call, shell_call,
//     apply_patch_call or computer_call, which the client executes; an
//     output answers by call_id (Codex answers a local_shell_call with a
//     function_call_output). Hosted tools (web_search_call, mcp_call, ...)
//     have no output item.
//   - a reasoning item is not followed by the item the model produced
//     after it: "Item 'rs_…' of type 'reasoning' was provided without its
//     required following item.", or an item comes without the reasoning
//     produced before it: "Item 'fc_…' of type 'function_call' was
//     provided without its required 'reasoning' item: 'rs_…'.". OpenAI's
//     cookbook ("Handling Function Calls with Reasoning Models") asks
//     that reasoning items go back with the calls they led to, and with
//     store false (as Codex sends) only their encrypted_content carries
//     the reasoning, which the API must decrypt as it issued it
//     ("include": ["reasoning.encrypted_content"]).
//
// So validateResponses checks, besides the rules every dialect has (no
// user, developer or system message with content lost; a changed
// function_call's arguments are valid JSON):
//
//   - every call has exactly one output with its call_id after it, and
//     every output its call before it; no two calls share a call_id;
//   - a reasoning item kept is immediately followed by the item that
//     followed it in the original, and one dropped took that item with
//     it; without the original, a reasoning item is followed by an item
//     that is not a user, developer or system message;
//   - reasoning items are byte-identical to ones the original carried;
//   - no item moved relative to the others: out's items, lined up with
//     the original by origin, keep its order.

// responsesCalls are the calls the client executes, which need an output.
var responsesCalls = map[string]bool{
	"function_call": true, "custom_tool_call": true, "local_shell_call": true,
	"shell_call": true, "apply_patch_call": true, "computer_call": true,
}

// responsesOutputs are the items that answer a call.
var responsesOutputs = map[string]bool{
	"function_call_output": true, "custom_tool_call_output": true, "local_shell_call_output": true,
	"shell_call_output": true, "apply_patch_call_output": true, "computer_call_output": true,
}

// A respItem is what the rules need to know of one input item.
type respItem struct {
	typ    string     // the item type: "message", "reasoning", "function_call", ...
	callID string     // a call's or output's call_id
	paired bool       // a call or output with a call_id, which pairs
	part   *chat.Part // a reasoning item's part
}

func (it respItem) call() bool   { return it.paired && responsesCalls[it.typ] }
func (it respItem) output() bool { return it.paired && responsesOutputs[it.typ] }

// id returns a reasoning item's id, for a violation's detail. It is read
// only then: the item's bytes run to kilobytes of encrypted content.
func (it respItem) id() string { return itemID(it.part) }

// respItemOf classifies m, one input item, from its parts: a call, output
// or reasoning item is one part, and an item the codec does not model is
// one Unknown part whose wire type is the item's type.
func respItemOf(m *chat.Message) respItem {
	if len(m.Parts) != 1 {
		return respItem{typ: "message"}
	}
	p := &m.Parts[0]
	w := p.WireType()
	switch p.Type {
	case chat.ToolCall:
		if w == "" {
			w = "function_call" // a new call encodes as one
		}
		return respItem{typ: w, callID: p.ID, paired: true}
	case chat.ToolResult:
		if w == "" {
			w = "function_call_output"
		}
		return respItem{typ: w, callID: p.ID, paired: true}
	case chat.Thinking, chat.RedactedThinking:
		return respItem{typ: "reasoning", part: p}
	case chat.Unknown:
		if responsesCalls[w] || responsesOutputs[w] {
			id := itemCallID(p)
			return respItem{typ: w, callID: id, paired: id != ""}
		}
		if w != "" && m.Role != chat.RoleUser && m.Role != chat.RoleSystem && m.Role != chat.RoleDeveloper {
			return respItem{typ: w}
		}
	}
	return respItem{typ: "message"}
}

// itemID returns the id member of the item p was decoded from.
func itemID(p *chat.Part) string {
	var v struct {
		ID string `json:"id"`
	}
	if src, ok := p.Source(); ok {
		_ = json.Unmarshal(src, &v) // an item without one has none
	}
	return v.ID
}

// itemCallID returns the call_id member of the item p was decoded from,
// or "" (a local_shell_call_output in the shape that names its call by
// id) for an item without one, which pairs with nothing.
func itemCallID(p *chat.Part) string {
	var v struct {
		CallID string `json:"call_id"`
	}
	if src, ok := p.Source(); ok {
		_ = json.Unmarshal(src, &v) // an item without one pairs with nothing
	}
	return v.CallID
}

// validateResponses checks out, a compacted Responses request, against
// the API's rules (see above); orig may be nil.
func validateResponses(orig, out *chat.Conversation) []Violation {
	var r report
	items := make([]respItem, len(out.Messages))
	for i := range out.Messages {
		items[i] = respItemOf(&out.Messages[i])
		if changed(&out.Messages[i]) {
			responsesArguments(&r, i, &out.Messages[i])
		}
	}
	responsesPairs(&r, items)
	origOf, where, shared := lineUp(orig, out)
	if shared {
		reordered(&r, origOf)
		reasoningFollows(&r, orig, out, where)
	} else {
		reasoningFollowed(&r, out, items)
	}
	reasoningIntact(&r, orig, out, shared)
	if shared {
		humansKept(&r, orig, out, where)
	} else {
		usersKept(&r, orig, out, responsesHuman)
	}
	return r.list
}

// responsesArguments reports the calls of changed item i whose arguments
// (a function_call's) or action (a local_shell_call's or shell_call's)
// are not valid JSON. A custom_tool_call's input is free text.
func responsesArguments(r *report, i int, m *chat.Message) {
	for k := range m.Parts {
		p := &m.Parts[k]
		if p.Type != chat.ToolCall || p.WireType() == "custom_tool_call" || len(p.Input) == 0 {
			continue
		}
		if !json.Valid(p.Input) {
			r.add(i, k, RuleToolArguments, "%s %q has arguments that are not valid JSON", respItemOf(m).typ, p.ID)
		}
	}
}

// responsesPairs checks that every call has exactly one output after it
// and every output a call before it.
func responsesPairs(r *report, items []respItem) {
	callAt := map[string]int{}
	answers := map[string]int{}
	for i, it := range items {
		switch {
		case it.call():
			if j, dup := callAt[it.callID]; dup {
				r.add(i, 0, RuleToolIDDuplicate, "call_id %q was already used by input[%d]", it.callID, j)
			}
			callAt[it.callID] = i
		case it.output():
			if _, ok := callAt[it.callID]; !ok {
				r.add(i, 0, RuleToolResultOrphan, "%s answers no call before it; the API says: No tool call found for function call output with call_id %s.", it.typ, it.callID)
				continue
			}
			if answers[it.callID]++; answers[it.callID] == 2 {
				r.add(i, 0, RuleToolResultTwice, "call %q is answered more than once", it.callID)
			}
		}
	}
	for i, it := range items {
		if it.call() && callAt[it.callID] == i && answers[it.callID] == 0 {
			r.add(i, 0, RuleToolResultMissing, "%s has no output after it; the API says: No tool output found for function call %s.", it.typ, it.callID)
		}
	}
}

// lineUp maps each message of out to the index of the original message it
// is a copy of (-1 for a new one) and each message of orig to the index of
// its first copy in out (-1 if dropped), following the origins a Clone
// shares. shared reports whether out shares any origin with orig; with
// orig nil it is false.
func lineUp(orig, out *chat.Conversation) (origOf, where []int, shared bool) {
	if orig == nil {
		return nil, nil, false
	}
	origOf = make([]int, len(out.Messages))
	where = make([]int, len(orig.Messages))
	for oi := range where {
		where[oi] = -1
	}
	next := 0 // compaction keeps the order, so the next copy is usually here
	for i := range out.Messages {
		m := &out.Messages[i]
		origOf[i] = -1
		if _, ok := m.Source(); !ok {
			continue
		}
		n := len(orig.Messages)
		for k := range n {
			oi := (next + k) % n
			if m.SameOrigin(&orig.Messages[oi]) {
				origOf[i], shared = oi, true
				if where[oi] < 0 {
					where[oi] = i
				}
				if oi >= next {
					next = oi + 1
				}
				break
			}
		}
	}
	return origOf, where, shared
}

// reordered reports items that come from an original item at or before
// one an earlier item comes from: moved, or repeated.
func reordered(r *report, origOf []int) {
	last := -1
	for i, oi := range origOf {
		switch {
		case oi < 0:
		case oi <= last:
			r.add(i, -1, RuleReordered, "item is original input[%d] but follows original input[%d]; items keep their original order", oi, last)
		default:
			last = oi
		}
	}
}

// reasoningFollows checks each original reasoning item and the item after
// it: both kept, and adjacent, or both dropped.
func reasoningFollows(r *report, orig, out *chat.Conversation, where []int) {
	for oi := 0; oi+1 < len(orig.Messages); oi++ {
		rs := respItemOf(&orig.Messages[oi])
		if rs.typ != "reasoning" {
			continue
		}
		a, b := where[oi], where[oi+1]
		switch {
		case a >= 0 && (b < 0 || b != a+1):
			r.add(a, 0, RuleReasoningFollower, "reasoning %q is no longer followed by original input[%d], the item produced with it; the API says: Item '%s' of type 'reasoning' was provided without its required following item.", rs.id(), oi+1, rs.id())
		case a < 0 && b >= 0:
			next := respItemOf(&out.Messages[b])
			r.add(b, 0, RuleReasoningFollower, "the %s produced after reasoning %q (original input[%d]) is kept without it; the API says: Item '…' of type '%s' was provided without its required 'reasoning' item: '%s'.", next.typ, rs.id(), oi, next.typ, rs.id())
		}
	}
}

// reasoningFollowed is reasoningFollows without the original: a reasoning
// item is followed by an item the model produced, not by the end of the
// input or by a user, developer or system message.
func reasoningFollowed(r *report, out *chat.Conversation, items []respItem) {
	for i, it := range items {
		if it.typ != "reasoning" {
			continue
		}
		if i+1 == len(items) {
			r.add(i, 0, RuleReasoningFollower, "reasoning %q ends the input; the item produced with it must follow it", it.id())
			continue
		}
		switch out.Messages[i+1].Role {
		case chat.RoleUser, chat.RoleSystem, chat.RoleDeveloper:
			r.add(i, 0, RuleReasoningFollower, "reasoning %q is followed by a %s message, not by the item produced with it", it.id(), out.Messages[i+1].Role)
		}
	}
}

// reasoningIntact reports reasoning items that are not as the API issued
// them: changed or created, or (lined up with orig) not in the original.
func reasoningIntact(r *report, orig, out *chat.Conversation, shared bool) {
	var known map[string]bool
	if orig != nil && !shared {
		known = map[string]bool{}
		forThinking(orig.Messages, func(_, _ int, p *chat.Part) { known[string(p.Original())] = true })
	}
	forThinking(out.Messages, func(i, k int, p *chat.Part) {
		switch {
		case !p.Unchanged():
			r.add(i, k, RuleThinkingChanged, "reasoning item was changed or created; it travels back as the API issued it, encrypted_content included")
		case known != nil && !known[string(p.Original())]:
			r.add(i, k, RuleThinkingChanged, "reasoning item is not in the original request")
		}
	})
}

// humansKept is usersKept for the Responses dialect, on out lined up with
// orig: a moved message is reported as moved, not as lost.
func humansKept(r *report, orig, out *chat.Conversation, where []int) {
	for oi := range orig.Messages {
		if responsesHuman(&orig.Messages[oi]) && (where[oi] < 0 || !responsesHuman(&out.Messages[where[oi]])) {
			r.add(oi, -1, RuleUserMessageLost, "the %s message is missing from the compacted request", orig.Messages[oi].Role)
		}
	}
}

// responsesHuman reports whether m is a user, developer or system message
// with content: a text that is not empty, or any other part.
func responsesHuman(m *chat.Message) bool {
	switch m.Role {
	case chat.RoleUser, chat.RoleDeveloper, chat.RoleSystem:
	default:
		return false
	}
	for k := range m.Parts {
		if p := &m.Parts[k]; p.Type != chat.Text || p.Text != "" {
			return true
		}
	}
	return false
}
