package compact

import "strings"

// snipPass keeps the head and the tail of a large stale output and
// replaces the middle with a line that says how much was elided and how
// to see it again. The start of an output (a command's first lines, a
// file's header) and its end (a test summary, a traceback's last frame)
// carry most of what an agent refers back to. When both snip and clear
// run and Options.SnipFirst is set, an output is snipped in the batch that
// makes it stale and cleared SnipFirst batches later, so the model keeps
// the gist of what it saw recently; by default clear takes it at once.
type snipPass struct{}

func (snipPass) Name() string { return passSnip }

func (snipPass) Apply(st *State) Report {
	var r Report
	lo := 0
	if st.on[passClear] {
		lo = st.clearBefore
	}
	o := &st.opts
	st.staleOutputs(lo, st.horizon, func(out *output) {
		if out.opaque || out.tokens < o.SnipMin {
			return
		}
		text, ok := headTail(out, o.SnipHead, o.SnipTail, o.SnipLineBytes)
		if !ok {
			return
		}
		after := st.textTokens(text)
		if after*4 > out.tokens*3 {
			return // saves too little to be worth a rewrite
		}
		st.setOutput(out, text, snipped)
		r.Changed++
		r.TokensBefore += out.tokens
		r.TokensAfter += after
		r.note("messages[%d]: output of %s snipped to %d+%d lines", out.msg, callName(out), o.SnipHead, o.SnipTail)
	})
	return r
}

// headTail returns out's text with head and tail lines kept, each cut to
// lineBytes, and a marker for what is gone; false if nothing would go.
func headTail(out *output, head, tail, lineBytes int) (string, bool) {
	lines := strings.Split(out.text, "\n")
	if len(lines) <= head+tail+1 {
		head, tail = len(lines), 0
	}
	middle := lines[head : len(lines)-tail]
	elided := 0 // bytes gone
	for _, l := range middle {
		elided += len(l) + 1
	}
	var b strings.Builder
	write := func(ls []string) {
		for _, l := range ls {
			c := cut(l, lineBytes)
			if len(c) < len(l) {
				elided += len(l) - (len(c) - len("…"))
			}
			b.WriteString(c)
			b.WriteByte('\n')
		}
	}
	write(lines[:head])
	tailStart := b.Len()
	write(lines[len(lines)-tail:])
	if elided == 0 {
		return "", false
	}
	text := b.String()
	marker := snipText(out, len(middle), elided)
	return strings.TrimSuffix(text[:tailStart]+marker+"\n"+text[tailStart:], "\n"), true
}
