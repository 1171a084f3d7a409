package compact

import "github.com/winnowhq/winnow/internal/chat"

// thinkingPass drops the thinking blocks that a batch made invalid, the
// way Anthropic's rules allow (OpenAI's Chat Completions API has no such
// rule, and the pass leaves OpenAI requests alone):
//
//   - A thinking block is bound to everything before it: "The top-level
//     system prompt, tools, and messages before the block are its prefix.
//     If the prefix differs from what you sent when the block was
//     produced, that block and every later thinking block are invalid",
//     while "a change only invalidates thinking that is already after it"
//     (https://platform.claude.com/docs/en/build-with-claude/preserved-thinking,
//     and …/preserved-thinking/prefix-checks). A batch that rewrites
//     messages from Batch.From on therefore invalidates every thinking
//     block from there to the end of the request it fires in, and the
//     pass drops them; the fix the prefix-check page gives for a client
//     that trims older turns is the same: remove the thinking in the turns
//     it keeps. Blocks before From stay, byte for byte; blocks produced
//     after the batch are bound to the rewritten prefix, which every later
//     request repeats, so they stay too.
//   - During tool use the thinking of the last assistant message must be
//     passed back unmodified, and thinking may be omitted only from
//     earlier turns ("Preserving thinking blocks",
//     https://platform.claude.com/docs/en/build-with-claude/thinking). The
//     replay never fires a batch whose range holds thinking of the active
//     tool loop's turn; it waits for the turn to end (see thinkingAllows).
//   - A block between others must not be left out, nor the sequence of
//     a message's blocks rearranged: the pass drops every thinking block
//     of a message in the range, never some of them.
//
// Dropping changes bytes, so it happens in the batch and sticks: the
// ranges are the batches' own.
type thinkingPass struct{}

func (thinkingPass) Name() string { return passThinking }

// omitted stands in an assistant message left with nothing once its
// thinking is dropped: the API rejects an empty message.
const omitted = "[winnow: reasoning omitted]"

func (thinkingPass) Apply(st *State) Report {
	var r Report
	if st.dialect != chat.Anthropic || st.family != Preserved {
		return r // no prefix check: every thinking block stays, byte for byte
	}
	drop := make([]bool, len(st.conv.Messages))
	for _, b := range st.batches {
		for i := b.From; i < b.At && i < len(drop); i++ {
			drop[i] = true
		}
	}
	for i := range st.conv.Messages {
		m := &st.conv.Messages[i]
		if !drop[i] || m.Role != chat.RoleAssistant || !st.msgs[i].thinking {
			continue
		}
		kept := m.Parts[:0:0]
		n, before := 0, 0
		for k := range m.Parts {
			if p := &m.Parts[k]; isThinking(p) {
				n++
				before += st.partTokens(p)
				continue
			}
			kept = append(kept, m.Parts[k])
		}
		if len(kept) == 0 {
			kept = append(kept, chat.NewText(omitted))
		}
		m.Parts = kept
		r.Changed += n
		r.TokensBefore += before
		r.note("messages[%d]: %d thinking blocks dropped, invalidated by the batch", i, n)
	}
	return r
}
