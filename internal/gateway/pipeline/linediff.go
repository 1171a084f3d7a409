package pipeline

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Near repeats of text: a result that differs from a remembered one of the
// same tool and arguments by a few lines (a file read again after a
// one-line edit, a listing with one new entry) is sent as a line diff
// against the earlier call:
//
//	[winnow: same as the result of fs__read_text_file {"path":"a.go"} (call 3) except:
//	@@ -12,1 +12,1 @@
//	-	return x
//	+	return x + 1
//	]
//
// The hunks are unified-diff hunks without context lines: "-" lines are
// the earlier text's, "+" lines the new one's, and a line without a final
// newline is followed by "\ No newline at end of file". The diff is used
// only when it takes at most half the text's tokens, and only after it has
// been parsed back from the note and applied to the earlier text, giving
// the new text byte for byte.

const (
	maxDiffEdits = 64 // lines added or removed beyond which no diff is tried
	noNewline    = `\ No newline at end of file`
	diffEnd      = "\n]"
)

// diffRef returns the note that stands for text as a line diff against
// b's text, if it is short enough and applies exactly.
func diffRef(t *Turn, b nearBase, seq int, text string, tokens int) (string, bool) {
	hunks, ok := diffLines(cutLines(b.text), cutLines(text))
	if !ok || len(hunks) == 0 {
		return "", false
	}
	head := fmt.Sprintf("[winnow: same as the result of %s (call %d) except:\n", b.entry.tool+" "+b.entry.args, seq)
	if len(b.entry.args) > maxNamedArgs && b.entry.ref != "" {
		head = fmt.Sprintf("[winnow: same as the result #%s (call %d) except:\n", b.entry.ref, seq)
	}
	body := formatHunks(hunks)
	note := head + body + diffEnd
	if t.count(note)*nearRefShare > tokens {
		return "", false
	}
	if got, err := applyHunks(b.text, strings.TrimPrefix(note, head)); err != nil || got != text {
		return "", false
	}
	return note, true
}

// cutLines cuts s after every newline; the last line may lack one.
func cutLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// A hunk replaces Del lines of the old text, from line Old (0-based), by
// Add.
type hunk struct {
	old      int
	del, add []string
	new      int // where the added lines start in the new text (0-based)
}

// diffLines returns the hunks that turn a into b, or false when more than
// maxDiffEdits lines differ. It trims the common head and tail and runs
// Myers' O(ND) algorithm on the rest.
func diffLines(a, b []string) ([]hunk, bool) {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma)+len(mb) == 0 {
		return nil, true
	}
	ops, ok := myers(ma, mb, maxDiffEdits)
	if !ok {
		return nil, false
	}
	var hunks []hunk
	i, j := 0, 0
	var cur *hunk
	for _, op := range ops {
		switch op {
		case '=':
			cur = nil
			i++
			j++
		case '-', '+':
			if cur == nil {
				hunks = append(hunks, hunk{old: pre + i, new: pre + j})
				cur = &hunks[len(hunks)-1]
			}
			if op == '-' {
				cur.del = append(cur.del, ma[i])
				i++
			} else {
				cur.add = append(cur.add, mb[j])
				j++
			}
		}
	}
	return hunks, true
}

// myers returns the edit script ('=', '-', '+') of a shortest edit from a
// to b, or false if it needs more than maxD edits.
func myers(a, b []string, maxD int) ([]byte, bool) {
	n, m := len(a), len(b)
	off := maxD + 1
	v := make([]int, 2*off+1)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, off, n, m), true
			}
		}
	}
	return nil, false
}

// backtrack walks the frontiers back from (n, m) to (0, 0); trace[d] is
// the frontier before step d.
func backtrack(trace [][]int, off, n, m int) []byte {
	var ops []byte
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		v := trace[d]
		k := x - y
		pk := k - 1 // came right: a deletion
		if k == -d || k != d && v[off+k-1] < v[off+k+1] {
			pk = k + 1 // came down: an insertion
		}
		px := v[off+pk]
		py := px - pk
		for x > px && y > py {
			ops = append(ops, '=')
			x--
			y--
		}
		if d > 0 {
			if x == px {
				ops = append(ops, '+')
			} else {
				ops = append(ops, '-')
			}
		}
		x, y = px, py
	}
	slices.Reverse(ops)
	return ops
}

// formatHunks writes hunks as unified-diff hunks without context.
func formatHunks(hunks []hunk) string {
	var b strings.Builder
	for _, h := range hunks {
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(h.old, len(h.del)), hunkRange(h.new, len(h.add)))
		for _, l := range h.del {
			writeDiffLine(&b, '-', l)
		}
		for _, l := range h.add {
			writeDiffLine(&b, '+', l)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// hunkRange writes a range of n lines from start (0-based) as unified
// diffs do: "12,3" (1-based), "12" for one line, "11,0" for none after
// line 11.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return strconv.Itoa(start) + ",0"
	case 1:
		return strconv.Itoa(start + 1)
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(n)
}

func writeDiffLine(b *strings.Builder, op byte, line string) {
	b.WriteByte(op)
	if strings.HasSuffix(line, "\n") {
		b.WriteString(line)
		return
	}
	b.WriteString(line)
	b.WriteString("\n" + noNewline + "\n")
}

// applyHunks applies the hunks written after a note's head ("@@ ...",
// ending with "\n]") to base.
func applyHunks(base, body string) (string, error) {
	if !strings.HasSuffix(body, diffEnd) {
		return "", fmt.Errorf("no end")
	}
	lines := cutLines(strings.TrimSuffix(body, diffEnd) + "\n")
	old := cutLines(base)
	var out strings.Builder
	pos := 0 // next line of old to copy
	for i := 0; i < len(lines); {
		var o, on, nn int
		header, ok := strings.CutPrefix(lines[i], "@@ -")
		header, ok2 := strings.CutSuffix(header, " @@\n")
		oStart, nStart, ok3 := strings.Cut(header, " +")
		if !ok || !ok2 || !ok3 {
			return "", fmt.Errorf("line %d: not a hunk header: %q", i+1, lines[i])
		}
		var err error
		if o, on, err = parseRange(oStart); err != nil {
			return "", err
		}
		if _, nn, err = parseRange(nStart); err != nil {
			return "", err
		}
		if o < pos || o > len(old) {
			return "", fmt.Errorf("hunk at line %d out of order", o+1)
		}
		for ; pos < o; pos++ {
			out.WriteString(old[pos])
		}
		i++
		for ; on > 0; on-- {
			l, n, err := readDiffLine(lines, i, '-')
			if err != nil || pos >= len(old) || old[pos] != l {
				return "", fmt.Errorf("removed line %d does not match", pos+1)
			}
			pos++
			i += n
		}
		for ; nn > 0; nn-- {
			l, n, err := readDiffLine(lines, i, '+')
			if err != nil {
				return "", err
			}
			out.WriteString(l)
			i += n
		}
	}
	for ; pos < len(old); pos++ {
		out.WriteString(old[pos])
	}
	return out.String(), nil
}

// parseRange reads what hunkRange wrote: the 0-based start and the count.
func parseRange(s string) (start, n int, err error) {
	a, c, found := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil {
		return 0, 0, err
	}
	if !found {
		return start - 1, 1, nil
	}
	if n, err = strconv.Atoi(c); err != nil {
		return 0, 0, err
	}
	if n == 0 {
		return start, 0, nil
	}
	return start - 1, n, nil
}

// readDiffLine reads the line with op at lines[i], and the marker of a
// missing newline after it; it returns the line as it was and how many
// lines it took.
func readDiffLine(lines []string, i int, op byte) (string, int, error) {
	if i >= len(lines) || lines[i] == "" || lines[i][0] != op {
		return "", 0, fmt.Errorf("line %d: want %c", i+1, op)
	}
	l := lines[i][1:]
	if i+1 < len(lines) && lines[i+1] == noNewline+"\n" {
		return strings.TrimSuffix(l, "\n"), 2, nil
	}
	return l, 1, nil
}
