package intent

import (
	"strconv"
	"strings"
)

// Limits of frame extraction.
const (
	maxFrames    = 50   // frames Detect returns, after ordering and deduplication
	maxRawFrames = 1000 // frames collected before ordering; past the prose, the scan stops there
	maxTraceLine = 4096 // longer lines are not searched for frames: no trace line is that long
)

// A format is a stack-trace dialect. Each has its own line parser in a
// trace_*.go file.
type format uint8

const (
	noFormat format = iota
	pythonTrace
	pytestTrace
	jsTrace
	jvmTrace
	dotnetTrace
	goTrace
	goTestTrace
	rustTrace
	pytestSummary
)

// A block is a run of frames of one format between boundaries (a new
// "Traceback", "Caused by:", "goroutine N"), in the order they were
// written.
type block struct {
	format format
	// outermostFirst is set for formats that print the innermost frame
	// last (Python, pytest); those blocks are reversed when flattened.
	outermostFirst bool
	// chain numbers the JVM exception chain the block belongs to (its
	// first block's index), or is -1. The blocks of a chain are flattened
	// last first, so that the deepest "Caused by:" comes first.
	chain  int
	frames []Frame
}

// A trace is what parseTrace found.
type trace struct {
	frames []Frame
	// seen reports a stack trace: a frame or a header such as
	// "Traceback (most recent call last):" or "goroutine 1 [running]:".
	seen bool
	// lines holds the byte offsets of the lines that belong to a trace and
	// lie below cueScanBytes, in increasing order: the cue scorer skips
	// them, since they are not prose.
	lines []int
}

// A traceParser reads a text line by line, handing each line to the parser
// of every format it could belong to.
type traceParser struct {
	blocks []block
	cur    int   // index of the block frames go to; -1 when none is open
	chain  int   // the JVM exception chain being read, or -1
	raw    int   // frames collected, up to maxRawFrames
	seen   bool  // a frame or a trace header was seen
	lines  []int // see trace.lines

	prevOff      int    // start of the previous non-blank line, -1 at the start
	prevText     string // the previous non-blank line, trimmed
	prevConsumed bool   // the previous non-blank line was part of a trace
	rustFn       string // function of the last numbered Rust backtrace line
	goTest       string // the Go test whose output is being read
	pyDef        string // the function of the last "def" line, for pytest's long format
	pySource     bool   // the line just read was a Python frame, so the next is its source
}

// parseTrace extracts the stack frames of text, ordered for relevance:
// the root cause's innermost frame first, project frames before library
// frames, without duplicates, at most maxFrames.
func parseTrace(text string) trace {
	p := traceParser{cur: -1, chain: -1, prevOff: -1}
	for off := 0; off < len(text) && (p.raw < maxRawFrames || off < cueScanBytes); {
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += off
		}
		p.line(off, text[off:end])
		off = end + 1
	}
	return p.result()
}

func (p *traceParser) line(off int, raw string) {
	if len(raw) > maxTraceLine {
		p.endBlock()
		p.prevOff, p.prevText, p.prevConsumed, p.pySource = -1, "", false, false
		return
	}
	t := trimLine(raw)
	if t == "" {
		p.pySource = false
		return
	}
	afterFrame := p.pySource
	p.pySource = false
	consumed := p.dispatch(raw, t)
	if !consumed && (afterFrame || p.prevConsumed && isCaretLine(t)) {
		consumed = true // the source line under a Python frame, or its ^^^ marks
	}
	if consumed {
		p.mark(off)
	}
	p.prevOff, p.prevText, p.prevConsumed = off, t, consumed
}

// trimLine strips the indentation (and the "|" of Python's exception
// groups) and trailing spaces and carriage return of a line.
func trimLine(s string) string {
	i, j := 0, len(s)
	for i < j && (s[i] == ' ' || s[i] == '\t' || s[i] == '|') {
		i++
	}
	for j > i && (s[j-1] == ' ' || s[j-1] == '\t' || s[j-1] == '\r') {
		j--
	}
	return s[i:j]
}

// mark records that the line at off is part of a trace.
func (p *traceParser) mark(off int) {
	if off < cueScanBytes && (len(p.lines) == 0 || p.lines[len(p.lines)-1] < off) {
		p.lines = append(p.lines, off)
	}
}

// markPrev records that the previous line was part of a trace after all
// (the function line of a Go frame).
func (p *traceParser) markPrev() {
	if p.prevOff >= 0 && !p.prevConsumed {
		p.mark(p.prevOff)
	}
}

// isCaretLine reports whether t is a line of Python 3.11's ^ and ~ marks.
func isCaretLine(t string) bool {
	return strings.Trim(t, "^~") == ""
}

// dispatch tries the line parsers that could accept t (raw is the line
// untrimmed) and reports whether one did.
func (p *traceParser) dispatch(raw, t string) bool {
	switch {
	case strings.HasPrefix(t, "at "):
		return p.atLine(t[len("at "):])
	case strings.HasPrefix(t, `File "`):
		return p.pythonFrame(t)
	}
	if strings.IndexByte(headerStarts, t[0]) >= 0 && p.header(t) {
		return true
	}
	py, goFile, url := colonHints(t)
	if py && p.pytestFrame(raw, t) {
		return true
	}
	if goFile && (p.goFrame(t) || p.goTestLine(raw, t)) {
		return true
	}
	if url && p.firefoxFrame(t) {
		return true
	}
	if isDigit(t[0]) {
		return p.rustNumbered(t)
	}
	if t[0] == 'd' || t[0] == 'a' {
		p.pytestSource(t)
	}
	return false
}

// colonHints reports, in one pass over the colons of t, whether t contains
// ".py:", ".go:" and "://".
func colonHints(t string) (py, goFile, url bool) {
	for i := strings.IndexByte(t, ':'); i >= 0; {
		if i >= 3 {
			switch t[i-3 : i] {
			case ".py":
				py = true
			case ".go":
				goFile = true
			}
		}
		url = url || strings.HasPrefix(t[i+1:], "//")
		j := strings.IndexByte(t[i+1:], ':')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return py, goFile, url
}

// headerStarts holds the first bytes of the lines header recognises.
const headerStarts = "TDCSE.gpf[ts-=_F"

// header recognises the lines that open or separate traces.
func (p *traceParser) header(t string) bool {
	switch {
	case t == "Traceback (most recent call last):":
		p.startBlock(pythonTrace, true)
	case strings.HasPrefix(t, "During handling of the above exception"),
		strings.HasPrefix(t, "The above exception was the direct cause"):
		p.endBlock()
	case strings.HasPrefix(t, "Caused by: "):
		p.causedBy()
	case strings.HasPrefix(t, "Suppressed: "):
		p.endBlock()
		p.chain = -1
	case strings.HasPrefix(t, "Exception in thread "):
		p.endBlock()
		p.chain = -1
	case strings.HasPrefix(t, "... ") && strings.HasSuffix(t, " more"):
		// Java's "... 12 more": frames shared with the enclosing trace.
		return true
	case strings.HasPrefix(t, "goroutine ") && strings.HasSuffix(t, "]:"):
		p.startBlock(goTrace, false)
	case strings.HasPrefix(t, "panic: "), strings.HasPrefix(t, "fatal error: "),
		strings.HasPrefix(t, "[signal "):
		p.endBlock()
	case strings.HasPrefix(t, "thread '") && strings.Contains(t, "' panicked at "):
		p.rustPanic(t)
	case t == "stack backtrace:":
		p.startBlock(rustTrace, false)
	case strings.HasPrefix(t, "--- FAIL: "), strings.HasPrefix(t, "=== RUN "):
		p.goTestHeader(t)
		return true
	case strings.HasPrefix(t, "____"), strings.HasPrefix(t, "===="):
		p.endBlock() // pytest section rules
		p.pyDef = ""
		return false
	case strings.HasPrefix(t, "FAILED "), strings.HasPrefix(t, "ERROR "):
		return p.pytestSummaryLine(t)
	default:
		return false
	}
	p.seen = true
	return true
}

// startBlock opens a new block of format f at the end.
func (p *traceParser) startBlock(f format, outermostFirst bool) {
	p.blocks = append(p.blocks, block{format: f, outermostFirst: outermostFirst, chain: -1})
	p.cur = len(p.blocks) - 1
}

// endBlock closes the open block; the next frame opens a new one.
func (p *traceParser) endBlock() { p.cur = -1 }

// add appends fr to the open block if it has format f, else to a new
// block of format f.
func (p *traceParser) add(f format, outermostFirst bool, fr Frame) {
	p.seen = true
	if p.raw >= maxRawFrames {
		return
	}
	p.raw++
	if p.cur < 0 || p.blocks[p.cur].format != f {
		p.startBlock(f, outermostFirst)
	}
	p.blocks[p.cur].frames = append(p.blocks[p.cur].frames, fr)
}

// result flattens the blocks: each block innermost frame first, then
// duplicates dropped, then project frames before library frames, then the
// cap. Two frames are the same when their paths clean to the same path
// (see PathSuffixes) and their lines are equal: recursion repeats frames,
// and a Rust panic line repeats the location of a backtrace frame below
// it. A frame without a line is the same as any other frame of its path
// and function. The first, most relevant, occurrence stays, and takes
// the function of a later one if it had none.
func (p *traceParser) result() trace {
	tr := trace{seen: p.seen, lines: p.lines}
	if p.raw == 0 {
		return tr
	}
	type key struct {
		path, fn string
		line     int
	}
	at := make(map[key]int) // index in all, by path and line
	inFn := make(map[key]bool)
	var all []Frame
	for _, b := range p.chainOrder() {
		for i := range b.frames {
			fr := b.frames[i]
			if b.outermostFirst {
				fr = b.frames[len(b.frames)-1-i]
			}
			path := cleanPath(fr.File)
			if path == "" {
				path = fr.File
			}
			fk := key{path: path, fn: fr.Function}
			if fr.Line == 0 {
				if inFn[fk] {
					continue
				}
				inFn[fk] = true
				all = append(all, fr)
				continue
			}
			k := key{path: path, line: fr.Line}
			if j, ok := at[k]; ok {
				if all[j].Function == "" {
					all[j].Function, all[j].Symbol = fr.Function, fr.Symbol
				}
				continue
			}
			at[k] = len(all)
			inFn[fk] = true
			all = append(all, fr)
		}
	}
	tr.frames = make([]Frame, 0, min(len(all), maxFrames))
	for _, lib := range []bool{false, true} {
		for _, fr := range all {
			if fr.Library == lib && len(tr.frames) < maxFrames {
				tr.frames = append(tr.frames, fr)
			}
		}
	}
	if len(tr.frames) == 0 {
		tr.frames = nil
	}
	return tr
}

// chainOrder returns the blocks in the order of relevance: as written,
// except that each run of blocks of one JVM exception chain is reversed.
func (p *traceParser) chainOrder() []*block {
	out := make([]*block, 0, len(p.blocks))
	for i := 0; i < len(p.blocks); {
		j := i + 1
		for c := p.blocks[i].chain; c >= 0 && j < len(p.blocks) && p.blocks[j].chain == c; {
			j++
		}
		for k := j - 1; k >= i; k-- {
			out = append(out, &p.blocks[k])
		}
		i = j
	}
	return out
}

// splitLoc splits "path:line" or "path:line:col" and reports whether s
// had that form with a non-empty path.
func splitLoc(s string) (path string, line, col int, ok bool) {
	path, n1, ok := cutNumber(s)
	if !ok {
		return "", 0, 0, false
	}
	if p2, n2, ok2 := cutNumber(path); ok2 {
		path, line, col = p2, n2, n1
	} else {
		line = n1
	}
	return path, line, col, path != ""
}

// cutNumber splits "prefix:123" into "prefix" and 123.
func cutNumber(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return "", 0, false
	}
	n, ok := atoi(s[i+1:])
	return s[:i], n, ok
}

// atoi parses a line or column number: 1 to 9 ASCII digits.
func atoi(s string) (int, bool) {
	if len(s) == 0 || len(s) > 9 {
		return 0, false
	}
	for i := range len(s) {
		if !isDigit(s[i]) {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// leadingNumber splits s into the digits it starts with and the rest.
func leadingNumber(s string) (int, string, bool) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	n, ok := atoi(s[:i])
	return n, s[i:], ok
}

// hasAnyPrefix reports whether s starts with one of prefixes.
func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, pre := range prefixes {
		if strings.HasPrefix(s, pre) {
			return true
		}
	}
	return false
}

// containsAny reports whether s contains one of subs.
func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
