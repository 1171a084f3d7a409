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
	// The first outputs of each text, by the texts' hashes: a map keyed
	// by the texts would hash every one of them again on every request.
	first := map[uint64][]int{}
	for i := range st.outputs {
		o := &st.outputs[i]
		if o.msg >= st.horizon {
			break
		}
		if o.opaque || o.text == "" {
			continue
		}
		j := -1
		for _, k := range first[o.sum] {
			if st.outputs[k].text == o.text {
				j = k
				break
			}
		}
		if j < 0 {
			first[o.sum] = append(first[o.sum], i)
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
