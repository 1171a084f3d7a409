package compact

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/winnowhq/winnow/internal/chat"
)

// trimPass is the last resort: when a request is estimated above
// Options.HardLimit even with its stale outputs cleared, the batch that
// finds it drops whole old tool calls with their results, oldest first,
// until it fits. The first Options.Sink messages (the attention sink: the
// system prompt and the task) and everything after the horizon stay; a
// person's message is never dropped, nor a call without its results;
// and the assistant message after each dropped run starts with a
// one-line note of what was dropped. The replay decides which calls go
// (Batch.Drop), so the same ones go in every later request.
type trimPass struct{}

func (trimPass) Name() string { return passTrim }

func (trimPass) Apply(st *State) Report {
	var r Report
	var spans [][2]int
	for _, b := range st.batches {
		spans = append(spans, b.Drop...)
	}
	if len(spans) == 0 {
		return r
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	drop := make([]bool, len(st.conv.Messages))
	for k, sp := range spans {
		for i := sp[0]; i < sp[1]; i++ {
			drop[i] = true
			r.Changed++
			r.TokensBefore += st.msgs[i].tokens
		}
		if k == len(spans)-1 || spans[k+1][0] != sp[1] {
			// The end of a run of adjacent spans: note what it dropped.
			start := k
			for start > 0 && spans[start-1][1] == spans[start][0] {
				start--
			}
			st.noteDropped(spans[start : k+1])
			r.TokensAfter += placeholderTokens
		}
	}
	kept := st.conv.Messages[:0:0]
	for i, m := range st.conv.Messages {
		if !drop[i] {
			kept = append(kept, m)
		}
	}
	r.note("%d messages dropped in %d calls", r.Changed, len(spans))
	st.conv.Messages = kept
	return r
}

// noteDropped starts the assistant message after run, a run of adjacent
// dropped spans, with a note of what was dropped.
func (st *State) noteDropped(run [][2]int) {
	tools := map[string]int{}
	msgs := 0
	for _, sp := range run {
		msgs += sp[1] - sp[0]
		for k := range st.orig.Messages[sp[0]].Parts {
			if p := &st.orig.Messages[sp[0]].Parts[k]; p.Type == chat.ToolCall {
				tools[p.Name]++
			}
		}
	}
	names := slices.SortedFunc(maps.Keys(tools), func(a, b string) int {
		return cmp.Or(tools[b]-tools[a], strings.Compare(a, b))
	})
	var list []string
	calls := 0
	for _, n := range names {
		list = append(list, fmt.Sprintf("%s ×%d", n, tools[n]))
		calls += tools[n]
	}
	note := fmt.Sprintf("[winnow: %d earlier messages dropped here to stay under the context limit: %d tool calls (%s) and their results; make a call again if you need its output]",
		msgs, calls, strings.Join(list, ", "))
	m := &st.conv.Messages[run[len(run)-1][1]]
	m.Parts = append([]chat.Part{chat.NewText(note)}, m.Parts...)
}
