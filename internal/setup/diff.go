package setup

import (
	"fmt"
	"strings"
)

const (
	diffContext   = 3       // unchanged lines around each change, as diff -u
	maxDiffCells  = 4 << 20 // beyond this many LCS cells the changed middle is shown as removed, then added
	noNewlineMark = `\ No newline at end of file`
)

// unifiedDiff returns the unified diff that turns a into b, under the headers "--- from"
// and "+++ to", or "" when a and b are equal. The lines both files share at the start
// and at the end are set aside first, so a small edit of a large file (Claude Code's
// ~/.claude.json keeps its whole project history) costs only its own lines.
func unifiedDiff(from, to string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	x, y := splitLines(string(a)), splitLines(string(b))
	ops := diffOps(x, y)
	var s strings.Builder
	fmt.Fprintf(&s, "--- %s\n+++ %s\n", from, to)
	for _, h := range hunks(ops) {
		writeHunk(&s, ops[h[0]:h[1]])
	}
	return s.String()
}

// A line is one line of a file, without its newline; last marks a final line that
// had none.
type line struct {
	text      string
	noNewline bool
}

func splitLines(s string) []line {
	var out []line
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(out, line{text: s, noNewline: true})
		}
		out = append(out, line{text: s[:i]})
		s = s[i+1:]
	}
	return out
}

// An op is one line of the diff: ' ' kept, '-' removed, '+' added, with the 1-based
// line numbers it has (or would have had) in a and b.
type op struct {
	kind   byte
	line   line
	ai, bi int // lines of a and b before this one
}

// diffOps is a shortest edit script from x to y: the common prefix and suffix kept,
// the middle by longest common subsequence.
func diffOps(x, y []line) []op {
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	var ops []op
	ai, bi := 0, 0
	emit := func(kind byte, l line) {
		ops = append(ops, op{kind: kind, line: l, ai: ai, bi: bi})
		if kind != '+' {
			ai++
		}
		if kind != '-' {
			bi++
		}
	}
	for _, l := range x[:pre] {
		emit(' ', l)
	}
	for _, o := range middleOps(x[pre:len(x)-suf], y[pre:len(y)-suf]) {
		emit(o.kind, o.line)
	}
	for _, l := range x[len(x)-suf:] {
		emit(' ', l)
	}
	return ops
}

// middleOps diffs the lines between the common prefix and suffix by a longest common
// subsequence table, or, when that table would be too large, as all of x removed and
// all of y added (a correct diff, if not the shortest).
func middleOps(x, y []line) []op {
	var ops []op
	if len(x)*len(y) > maxDiffCells {
		for _, l := range x {
			ops = append(ops, op{kind: '-', line: l})
		}
		for _, l := range y {
			ops = append(ops, op{kind: '+', line: l})
		}
		return ops
	}
	// lcs[i][j] is the length of the longest common subsequence of x[i:] and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			ops = append(ops, op{kind: ' ', line: x[i]})
			i, j = i+1, j+1
		case j < len(y) && (i == len(x) || lcs[i][j+1] > lcs[i+1][j]):
			ops = append(ops, op{kind: '+', line: y[j]})
			j++
		default:
			ops = append(ops, op{kind: '-', line: x[i]})
			i++
		}
	}
	return ops
}

// hunks groups the changed ops with diffContext kept lines around them, as [start,
// end) ranges of ops; changes at most 2*diffContext kept lines apart share a hunk.
func hunks(ops []op) [][2]int {
	var out [][2]int
	last := -1 // the last change of the hunk being built
	closeHunk := func() {
		if last >= 0 {
			out[len(out)-1][1] = min(len(ops), last+1+diffContext)
		}
	}
	for i, o := range ops {
		if o.kind == ' ' {
			continue
		}
		if last < 0 || i-last-1 > 2*diffContext {
			closeHunk()
			out = append(out, [2]int{max(0, i-diffContext), 0})
		}
		last = i
	}
	closeHunk()
	return out
}

func writeHunk(s *strings.Builder, ops []op) {
	var an, bn int
	for _, o := range ops {
		if o.kind != '+' {
			an++
		}
		if o.kind != '-' {
			bn++
		}
	}
	fmt.Fprintf(s, "@@ -%s +%s @@\n", hunkRange(ops[0].ai, an), hunkRange(ops[0].bi, bn))
	for _, o := range ops {
		s.WriteByte(o.kind)
		s.WriteString(o.line.text)
		s.WriteByte('\n')
		if o.line.noNewline {
			s.WriteString(noNewlineMark + "\n")
		}
	}
}

// hunkRange is a hunk's range in one file as diff -u writes it: the first line
// (1-based; the line before, for an empty range) and the count unless it is 1.
func hunkRange(before, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", before)
	case 1:
		return fmt.Sprint(before + 1)
	}
	return fmt.Sprintf("%d,%d", before+1, n)
}
