package compact

import "github.com/winnowhq/winnow/internal/chat"

// setOutput replaces what output o says with text: the content of its
// tool result, or the text of its text-form message. The first text part
// is kept and edited, so members the codecs do not model (cache_control)
// survive. The caller counts text's tokens, which it has usually needed
// already to decide on the rewrite.
func (st *State) setOutput(o *output, text string, s outputState) {
	m := &st.conv.Messages[o.msg]
	if o.part >= 0 {
		p := &m.Parts[o.part]
		p.Content = replaceText(p.Content, text)
	} else {
		m.Parts = replaceText(m.Parts, text)
	}
	o.state = s
}

// replaceText returns parts as a single text part holding text, reusing
// the first part if it is a text part.
func replaceText(parts []chat.Part, text string) []chat.Part {
	if len(parts) > 0 && parts[0].Type == chat.Text {
		p := parts[0]
		p.Text = text
		return []chat.Part{p}
	}
	return []chat.Part{chat.NewText(text)}
}

// staleOutputs calls f for each output in messages[lo:hi] that a pass
// may rewrite: not yet rewritten in this Run, not of an excluded tool,
// and answering a call the conversation holds, so that its placeholder
// can say how to get it back.
func (st *State) staleOutputs(lo, hi int, f func(o *output)) {
	for i := range st.outputs {
		o := &st.outputs[i]
		if o.msg >= lo && o.msg < hi && o.rewritable(&st.opts) {
			f(o)
		}
	}
}

// rewritable reports whether a pass may rewrite o: not yet rewritten in
// this Run, not of an excluded tool, and answering a known call.
func (o *output) rewritable(opts *Options) bool {
	return o.state == untouched && o.call != "" && !opts.excluded(o.tool)
}

// clearable reports whether clearing o would reclaim tokens, as the
// replay reckons before any pass runs.
func (o *output) clearable(opts *Options) bool {
	return o.call != "" && !opts.excluded(o.tool) && o.tokens >= opts.ClearMin
}
