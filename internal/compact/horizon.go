package compact

import "github.com/winnowhq/winnow/internal/chat"

// A Batch is one step of the horizon: the first request with At messages
// or more rewrites the messages from From up to Horizon, and every later
// request rewrites them the same way. Batches are found by replaying the
// history (see the package documentation), so every request of one
// conversation agrees on them.
type Batch struct {
	// At is the number of messages of the first request the batch applies
	// to: it fired at that message boundary.
	At int `json:"at"`
	// From is the first message the batch may change: the previous
	// horizon, or the first message it drops if that is earlier.
	From int `json:"from"`
	// Horizon is the new horizon: messages[:Horizon] are stale.
	Horizon int `json:"horizon"`
	// Drop lists the messages trim-middle drops in this batch, as
	// [start, end) spans of message indices: each an assistant message of
	// tool calls and the messages of their results.
	Drop [][2]int `json:"drop,omitempty"`
	// HardLimit says the batch fired because the request was over
	// Options.HardLimit, not because it reached MinBatch.
	HardLimit bool `json:"hard_limit,omitempty"`
}

// A unit is what trim-middle may drop: an assistant message of tool calls
// and the messages that carry all its results and nothing else.
type unit struct {
	start, end int // messages[start:end]
	tokens     int // estimated after clearing
}

// history holds prefix sums over a conversation's messages, so that the
// replay decides each boundary in constant time.
type history struct {
	total     []int // estimated tokens of messages[:i]
	reclaim   []int // tokens clearing the outputs of messages[:i] would save
	thinking  []int // assistant messages with thinking among messages[:i]
	lastHuman []int // the last person's message before i, or -1
	lastUser  []int // the last message of role user before i (a person's or tool results), or -1
	firstGain []int // the first message at or after i with an output worth clearing
	snap      []int // the last boundary at or before i that splits no call from its results
	outMsg    []int // the message of each output, in order
}

func newHistory(st *State) *history {
	n := len(st.msgs)
	h := &history{
		total: make([]int, n+1), reclaim: make([]int, n+1), thinking: make([]int, n+1),
		lastHuman: make([]int, n+1), lastUser: make([]int, n+1), firstGain: make([]int, n+1), snap: make([]int, n),
	}
	h.lastHuman[0], h.lastUser[0] = -1, -1
	for i, info := range st.msgs {
		h.total[i+1] = h.total[i] + info.tokens
		r := 0
		for _, oi := range info.outputs {
			out := &st.outputs[oi]
			h.outMsg = append(h.outMsg, i)
			if out.clearable(&st.opts) {
				r += max(out.tokens-placeholderTokens, 0)
			}
		}
		h.reclaim[i+1] = h.reclaim[i] + r
		h.thinking[i+1] = h.thinking[i]
		if info.thinking {
			h.thinking[i+1]++
		}
		h.lastHuman[i+1] = h.lastHuman[i]
		if info.human {
			h.lastHuman[i+1] = i
		}
		h.lastUser[i+1] = h.lastUser[i]
		if st.orig.Messages[i].Role == chat.RoleUser {
			h.lastUser[i+1] = i
		}
		h.snap[i] = i
		if info.carrier && i > 0 {
			h.snap[i] = h.snap[i-1]
		}
	}
	h.firstGain[n] = n
	for i := n - 1; i >= 0; i-- {
		h.firstGain[i] = h.firstGain[i+1]
		if h.reclaim[i+1] > h.reclaim[i] {
			h.firstGain[i] = i
		}
	}
	return h
}

// replay computes the batches of st's conversation: for every message
// boundary m where a request can end (after a message that is not the
// assistant's), as if the request held messages[:m], it decides whether
// the horizon moves, using only what that request holds. Prefix sums make
// it linear in the number of messages.
func replay(st *State) []Batch {
	o := &st.opts
	hs := newHistory(st)
	units := trimUnits(st)
	clearing := st.on[passClear] || st.on[passSnip]
	var batches []Batch
	h, trimmed, nextUnit := 0, 0, 0
	outsBefore := 0 // outputs in messages[:m]
	for m := 1; m <= len(st.msgs); m++ {
		outsBefore += len(st.msgs[m-1].outputs)
		if outsBefore <= o.Keep || st.orig.Messages[m-1].Role == chat.RoleAssistant {
			continue // a request ends with what answers the assistant, never with the assistant
		}
		b := hs.snap[hs.outMsg[outsBefore-o.Keep]]
		if b <= h {
			continue
		}
		size := hs.total[m] - trimmed
		if clearing {
			size -= hs.reclaim[h]
		}
		hard := o.HardLimit >= 0 && size > o.HardLimit
		gain := hs.reclaim[b] - hs.reclaim[h]
		rewrite := hs.total[m] - hs.total[min(hs.firstGain[h], m)] - gain // what the provider must write again
		if !hard && (size < o.Trigger || gain < o.MinBatch || float64(gain) < o.Payback*float64(rewrite)) {
			continue
		}
		batch := Batch{At: m, From: h, Horizon: b, HardLimit: hard && gain < o.MinBatch}
		if clearing {
			size -= gain
		}
		next, saved := nextUnit, 0
		if st.on[passTrim] && o.HardLimit >= 0 {
			for ; next < len(units) && size-saved > o.HardLimit; next++ {
				u := units[next]
				if u.end > b {
					break
				}
				if u.start < o.Sink || !droppable(st, u) {
					continue
				}
				batch.Drop = append(batch.Drop, [2]int{u.start, u.end})
				batch.From = min(batch.From, u.start)
				saved += u.tokens
			}
		}
		if st.on[passSnip] && st.on[passClear] && o.SnipFirst > 0 {
			// Outputs snipped SnipFirst batches ago are cleared now.
			batch.From = min(batch.From, horizonOf(batches, len(batches)-1-o.SnipFirst))
		}
		if !thinkingAllows(st, m, batch.From, hs) {
			continue // deferred: the active tool loop's thinking is bound to what this batch changes
		}
		h, trimmed, nextUnit = b, trimmed+saved, next
		batches = append(batches, batch)
	}
	return batches
}

// horizonOf returns the horizon after batches[k], 0 before the first.
func horizonOf(batches []Batch, k int) int {
	if k < 0 {
		return 0
	}
	return batches[k].Horizon
}

// thinkingAllows reports whether a batch that changes messages from from
// on may fire in the request of messages[:m]. Anthropic's rules: during
// tool use the thinking of the latest assistant message must come back
// unmodified, and on a Preserved model a change to anything before a
// thinking block makes that block invalid (see thinking.go). A batch
// never reaches the latest assistant message (the outputs it keeps
// answer it), so only Preserved models constrain it: while the request
// ends with tool results, no assistant message of the current turn
// (after the last human message) at or after from may hold thinking; the
// batch waits. A request compacted by a server-side edit changes nothing
// the prefix check sees, so its batches never wait.
//
// The loop is active when the request's last user message holds tool
// results: role "system" messages after it (Claude Code appends one to
// nudge the model) do not end the turn; only a person's message does.
func thinkingAllows(st *State, m, from int, hs *history) bool {
	if st.dialect != chat.Anthropic || st.family != Preserved || st.server {
		return true
	}
	if u := hs.lastUser[m]; u < 0 || !st.msgs[u].results {
		return true
	}
	lo := max(from, hs.lastHuman[m]+1)
	return lo >= m || hs.thinking[m]-hs.thinking[lo] == 0
}

// trimUnits lists the units of the tool form, in order. The Responses API
// has none: its reasoning items must stay with the item they were
// produced with, and the agents that speak it (Codex) compact their own
// history when it nears the window.
func trimUnits(st *State) []unit {
	if st.dialect == chat.Responses {
		return nil
	}
	var units []unit
	msgs := st.orig.Messages
	for a := 0; a < len(msgs); a++ {
		if msgs[a].Role != chat.RoleAssistant || !st.msgs[a].calls {
			continue
		}
		want := map[string]bool{}
		for k := range msgs[a].Parts {
			if p := &msgs[a].Parts[k]; p.Type == chat.ToolCall {
				want[p.ID] = true
			}
		}
		e, ok := a+1, true
		for ; e < len(msgs) && st.msgs[e].results && len(want) > 0; e++ {
			for k := range msgs[e].Parts {
				p := &msgs[e].Parts[k]
				switch {
				case p.Type == chat.ToolResult && want[p.ID]:
					delete(want, p.ID)
				case p.Type == chat.Text && p.Text != "" && msgs[e].Role == chat.RoleUser:
					ok = false // a person wrote here too
				case p.Type != chat.ToolResult && p.Type != chat.Text:
					ok = false
				}
			}
		}
		if !ok || len(want) > 0 || e == a+1 {
			continue
		}
		u := unit{start: a, end: e}
		clearing := st.on[passClear] || st.on[passSnip]
		for i := a; i < e; i++ {
			u.tokens += st.msgs[i].tokens
			for _, oi := range st.msgs[i].outputs {
				if out := &st.outputs[oi]; clearing && out.clearable(&st.opts) {
					u.tokens -= max(out.tokens-placeholderTokens, 0)
				}
			}
		}
		units = append(units, u)
		a = e - 1
	}
	return units
}

// droppable reports whether dropping u keeps the roles in order: the
// message before it is not an assistant's and the one after it is, so
// that no two messages of one role become adjacent and the note of what
// was dropped has an assistant message to go in.
func droppable(st *State, u unit) bool {
	msgs := st.orig.Messages
	return u.start > 0 && u.end < len(msgs) &&
		msgs[u.start-1].Role != chat.RoleAssistant && msgs[u.end].Role == chat.RoleAssistant
}
