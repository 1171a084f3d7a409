package compact

// dedupPass replaces a stale output that repeats an earlier output word
// for word with a reference to the earlier one. The earlier copy stays:
// it is further back in the cached prefix, and the later one is what a
// batch may rewrite. Agents re-read files and re-run status commands
// often; the copy tells the model nothing new.
type dedupPass struct{}

func (dedupPass) Name() string { return passDedup }

func (dedupPass) Apply(st *State) Report {
	var r Report
	first := map[string]int{} // output text → index of its first output
	for i := range st.outputs {
		o := &st.outputs[i]
		if o.msg >= st.horizon {
			break
		}
		if o.opaque || o.text == "" {
			continue
		}
		j, seen := first[o.text]
		if !seen {
			first[o.text] = i
			continue
		}
		if !o.rewritable(&st.opts) || o.tokens < st.opts.DedupMin {
			continue
		}
		text := dedupText(o, &st.outputs[j])
		st.setOutput(o, text, deduplicated)
		r.Changed++
		r.TokensBefore += o.tokens
		r.TokensAfter += st.textTokens(text)
		r.note("messages[%d]: output of %s repeats messages[%d]", o.msg, callName(o), st.outputs[j].msg)
	}
	return r
}
