package compact

import (
	"slices"

	"github.com/winnowhq/winnow/internal/chat"
)

// repairPass runs last and pairs tool calls with their results the way
// each API requires (see the invariants in the package documentation),
// whatever broke them: a client that cut its history, or a bug in a pass.
// It changes what it must and nothing else, and each repair depends only
// on the messages around it, so it is the same in every later request.
//
// Anthropic: a result that answers no call of the assistant turn before
// it, or answers one twice, becomes text after the results; results come
// first in their message; a call left without a result gets an error
// result in the next message of results, or, if there is none, becomes
// text saying so (a person's message is never made a message of results).
//
// OpenAI: a call left without a tool message gets one that says no result
// was recorded; a tool message that answers no call directly before it
// becomes a user message that says where its text came from.
type repairPass struct{}

func (repairPass) Name() string { return passRepair }

// Texts the repairs write.
const (
	noResult     = "[winnow: no result was recorded for this call]"
	orphanResult = "[winnow: output of a tool call that is not in the conversation]\n"
)

func (repairPass) Apply(st *State) Report {
	var r Report
	switch st.dialect {
	case chat.Anthropic:
		repairAnthropic(st, &r)
	case chat.OpenAI:
		repairOpenAI(st, &r)
	case chat.Responses:
		// Nothing to repair: no pass drops or moves an item of the Responses API (trim
		// is off for it), so every call keeps its output where the client put it.
	}
	return r
}

func repairAnthropic(st *State, r *Report) {
	msgs := st.conv.Messages
	for i := range msgs {
		m := &msgs[i]
		if m.Role != chat.RoleUser {
			continue
		}
		asked := askedBefore(msgs, i)
		if fixResults(m, asked) {
			r.Changed++
			r.note("messages[%d]: tool results put first, results without a call made text", i)
		}
	}
	for i := range msgs {
		if msgs[i].Role != chat.RoleAssistant || (i+1 < len(msgs) && msgs[i+1].Role == chat.RoleAssistant) {
			continue // the calls of a turn are answered after its last message
		}
		if i+1 == len(msgs) {
			continue // the final assistant message: its calls are not answered yet
		}
		missing := missingResults(msgs, i)
		if len(missing) == 0 {
			continue
		}
		next := &msgs[i+1]
		if next.Has(chat.ToolResult) {
			var add []chat.Part
			for _, id := range missing {
				add = append(add, chat.Part{Type: chat.ToolResult, ID: id, IsError: true, Content: []chat.Part{chat.NewText(noResult)}})
			}
			next.Parts = append(add, next.Parts...)
		} else {
			unanswered(msgs, i, missing)
		}
		r.Changed += len(missing)
		r.note("messages[%d]: %d tool calls without a result repaired", i, len(missing))
	}
}

// askedBefore returns the ids of the tool calls of the assistant turn
// that ends just before message i.
func askedBefore(msgs []chat.Message, i int) map[string]bool {
	asked := map[string]bool{}
	j := i - 1
	for j >= 0 && msgs[j].Role == chat.RoleUser {
		j--
	}
	for ; j >= 0 && msgs[j].Role == chat.RoleAssistant; j-- {
		for k := range msgs[j].Parts {
			if p := &msgs[j].Parts[k]; p.Type == chat.ToolCall {
				asked[p.ID] = true
			}
		}
	}
	return asked
}

// fixResults puts m's tool results first and turns results that answer
// nothing asked, or answer it again, into text after them. It reports
// whether m changed.
func fixResults(m *chat.Message, asked map[string]bool) bool {
	if !m.Has(chat.ToolResult) {
		return false
	}
	var results, rest []chat.Part
	seen := map[string]bool{}
	changed, other := false, false
	for _, p := range m.Parts {
		switch {
		case p.Type != chat.ToolResult:
			other = true
			rest = append(rest, p)
		case !asked[p.ID] || seen[p.ID]:
			changed = true
			rest = append(rest, chat.NewText(orphanResult+p.PlainText()))
		default:
			changed = changed || other
			seen[p.ID] = true
			results = append(results, p)
		}
	}
	if changed {
		m.Parts = append(results, rest...)
	}
	return changed
}

// missingResults returns the ids of the calls of the assistant turn
// ending at message i that the user message after it does not answer.
func missingResults(msgs []chat.Message, i int) []string {
	answered := map[string]bool{}
	for j := i + 1; j < len(msgs) && msgs[j].Role == chat.RoleUser; j++ {
		for k := range msgs[j].Parts {
			if p := &msgs[j].Parts[k]; p.Type == chat.ToolResult {
				answered[p.ID] = true
			}
		}
	}
	var missing []string
	for j := i; j >= 0 && msgs[j].Role == chat.RoleAssistant; j-- {
		for k := range msgs[j].Parts {
			if p := &msgs[j].Parts[k]; p.Type == chat.ToolCall && !answered[p.ID] {
				missing = append(missing, p.ID)
			}
		}
	}
	slices.Sort(missing)
	return missing
}

// unanswered turns the calls ids of the assistant turn ending at message
// i into text, for a turn followed by a person's message.
func unanswered(msgs []chat.Message, i int, ids []string) {
	for j := i; j >= 0 && msgs[j].Role == chat.RoleAssistant; j-- {
		m := &msgs[j]
		for k := range m.Parts {
			if p := &m.Parts[k]; p.Type == chat.ToolCall && slices.Contains(ids, p.ID) {
				m.Parts[k] = chat.NewText("[winnow: tool call " + describeCall(p.Name, p.Input) + " was made, but its result is not in the conversation]")
			}
		}
	}
}

func repairOpenAI(st *State, r *Report) {
	msgs := st.conv.Messages
	var out []chat.Message
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		if m.Role == chat.RoleTool {
			// A tool message here answers no call directly before it.
			out = append(out, chat.Message{Role: chat.RoleUser, Parts: []chat.Part{chat.NewText(orphanResult + resultText(&m))}})
			r.Changed++
			r.note("messages[%d]: tool message without its call made a user message", i)
			continue
		}
		out = append(out, m)
		if m.Role != chat.RoleAssistant {
			continue
		}
		asked, order := map[string]bool{}, []string{}
		for k := range m.Parts {
			if p := &m.Parts[k]; p.Type == chat.ToolCall && p.WireType() != "function_call" && !asked[p.ID] {
				asked[p.ID] = true
				order = append(order, p.ID)
			}
		}
		var strays []chat.Message // after the tool messages, which must follow the call directly
		j := i + 1
		for ; j < len(msgs) && msgs[j].Role == chat.RoleTool; j++ {
			t := msgs[j]
			id := resultID(&t)
			if !asked[id] {
				strays = append(strays, chat.Message{Role: chat.RoleUser, Parts: []chat.Part{chat.NewText(orphanResult + resultText(&t))}})
				r.Changed++
				r.note("messages[%d]: tool message for a call not made, or answered twice, made a user message", j)
				continue
			}
			delete(asked, id)
			out = append(out, t)
		}
		for _, id := range order {
			if asked[id] {
				out = append(out, chat.Message{Role: chat.RoleTool, Parts: []chat.Part{{Type: chat.ToolResult, ID: id, Content: []chat.Part{chat.NewText(noResult)}}}})
				r.Changed++
				r.note("messages[%d]: tool call %s without a tool message answered", i, id)
			}
		}
		out = append(out, strays...)
		i = j - 1
	}
	if r.Changed > 0 {
		st.conv.Messages = out
	}
}

func resultText(m *chat.Message) string {
	for k := range m.Parts {
		if p := &m.Parts[k]; p.Type == chat.ToolResult {
			return p.PlainText()
		}
	}
	return ""
}
