package compact

// clearPass replaces stale tool outputs with a one-line placeholder that
// names the call, so the model can make it again if it needs the output.
// It is the pass that saves the most: on agent runs most of the context
// is old tool output. It clears only what the batches made stale (outputs
// before the horizon; with snip running, before the horizon of an
// earlier batch), never the last Options.Keep outputs, and never the
// outputs of Options.ExcludeTools or those under Options.ClearMin.
type clearPass struct{}

func (clearPass) Name() string { return passClear }

func (clearPass) Apply(st *State) Report {
	var r Report
	hi := st.horizon
	if st.on[passSnip] {
		hi = st.clearBefore
	}
	// An output snipped by an earlier batch is cleared now; in this Run it
	// is untouched, since every Run starts from the request as received.
	st.staleOutputs(0, hi, func(o *output) {
		if o.tokens < st.opts.ClearMin {
			return
		}
		text := clearedText(o)
		after := st.textTokens(text)
		if after >= o.tokens {
			return
		}
		st.setOutput(o, text, cleared)
		r.Changed++
		r.TokensBefore += o.tokens
		r.TokensAfter += after
		r.note("messages[%d]: output of %s cleared", o.msg, callName(o))
	})
	return r
}
