package lang

// tree-sitter-python's external scanner, at the end of every line, reads
// ahead past the comment lines that follow to find the indentation of
// the next line of code; so a run of n comment lines costs some n²
// (after a statement, 2,000 lines of "# c" parse in 70 ms, 8,000 in 1.1
// s), and a file with a long enough run, a large block of code commented
// out say, outlasts its parse's timeout and falls out of the index. No
// other grammar of winnow's does this (8,000 comment lines: 1-15 ms).
// Parse hands such a grammar a copy of the file in which the comments of
// the long runs are blanked (blankCommentRuns), and reads the text of
// definitions from the file itself: the copy has the same length and the
// same lines, so every offset and line agrees, and the code between the
// runs parses alike.
const (
	maxCommentRun  = 256 // comment lines a run keeps whole: a millisecond or so of parsing
	keepCommentRun = 32  // of a longer run, its last lines stay: a definition's leading comment
)

// blankCommentRuns returns src, or, if src has a run of more than
// maxCommentRun comment lines (lines whose first non-blank byte is
// marker; blank lines go on a run), a copy in which every comment of
// such a run but its last keepCommentRun is spaces to the end of its
// line. Lines of code, and short runs, are left as they are.
func blankCommentRuns(src []byte, marker byte) []byte {
	out := src
	copied := false
	var run []int // the offset of each comment of the current run
	flush := func() {
		if len(run) > maxCommentRun {
			if !copied {
				out, copied = append([]byte(nil), src...), true
			}
			for _, at := range run[:len(run)-keepCommentRun] {
				for i := at; i < len(out) && out[i] != '\n' && out[i] != '\r'; i++ {
					out[i] = ' '
				}
			}
		}
		run = run[:0]
	}
	for start := 0; start < len(src); {
		i := start
		for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\f') {
			i++
		}
		switch {
		case i == len(src) || src[i] == '\n' || src[i] == '\r':
			// A blank line: the run goes on.
		case src[i] == marker:
			run = append(run, i)
		default:
			flush()
		}
		for i < len(src) && src[i] != '\n' {
			i++
		}
		start = i + 1
	}
	flush()
	return out
}
