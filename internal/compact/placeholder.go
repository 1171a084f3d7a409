package compact

import (
	"fmt"
	"strings"
)

// HandlePattern matches the placeholders that say how to get a rewritten
// tool output back: each names the call that produced it ("[winnow:
// output of bash {"command":"ls"} cleared (40 lines); call it again if
// needed]"), so the model can repeat the call. The recall probe of `winnow
// bench compact` counts an output behind such a placeholder as
// recoverable.
const HandlePattern = `\[winnow: [^\n]*?\boutput of [^\n]+\]`

// The placeholders are one line each, start with "[winnow: " and, where
// something can be had again, name the call that produced it.

// clearedText replaces a cleared output.
func clearedText(o *output) string {
	return fmt.Sprintf("[winnow: output of %s cleared (%s); %s]", callName(o), size(o), again(o))
}

// dedupText replaces a later copy of an earlier output.
func dedupText(o, first *output) string {
	where := "above"
	if first.id != "" {
		where = "above, call " + first.id
	}
	return fmt.Sprintf("[winnow: output of %s is the same as that of the earlier %s (%s); see that result]", callName(o), callName(first), where)
}

// snipText stands for the middle of a snipped output.
func snipText(o *output, lines, bytes int) string {
	what := thousands(lines) + " lines (" + thousands(bytes) + " bytes)"
	if lines == 0 {
		what = thousands(bytes) + " bytes of long lines"
	}
	return fmt.Sprintf("[winnow: %s of the output of %s elided here; %s to see them]",
		what, callName(o), strings.TrimSuffix(again(o), " if needed"))
}

// callName names an output's call for the model, as it was made. Only
// outputs whose call is known are rewritten.
func callName(o *output) string {
	if o.textForm {
		return "`" + o.call + "`"
	}
	return o.call
}

func again(o *output) string {
	if o.textForm {
		return "run it again if needed"
	}
	return "call it again if needed"
}

// size says how big an output's text was: its lines, or its bytes when it
// is one line.
func size(o *output) string {
	n := o.lines
	if n == 0 {
		n = lineCount(o.text)
	}
	if n > 1 {
		return thousands(n) + " lines"
	}
	return thousands(len(o.text)) + " bytes"
}

// thousands formats n with comma separators.
func thousands(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
