package intent

import "strings"

// Scan limits. Both cut at a line break, so no line is scanned in part.
const (
	cueScanBytes   = 16 << 10  // prose past this is not scored: the task is stated at the top
	frameScanBytes = 256 << 10 // text past this is not searched for frames: a longer log repeats itself
)

// A token is one word of prose: 16 bytes, since a text has thousands.
type token struct {
	pos     int32 // byte offset in the text; texts are scanned up to cueScanBytes
	lo, hi  int32 // the word, lower-cased, is prose.low[lo:hi]
	brk     bool  // a sentence break or skipped text separates it from the previous token
	ident   bool  // looks like code (snake_case, camelCase, part of a path, a dotted name, a call, a flag): never a cue word
	title   bool  // in the title, the first line of prose
	errType bool  // an exception type: ValueError, NullPointerException
}

// prose is the natural-language part of a text, as tokens.
type prose struct {
	toks      []token
	low       string // the words, lower-cased and with typographic apostrophes made plain, back to back
	text      string // the text scanned
	bodyStart int    // offset of the line after the title
	question  bool   // the title ends in a question mark
}

// word returns the lower-cased word of toks[i].
func (pr *prose) word(i int) string { return pr.low[pr.toks[i].lo:pr.toks[i].hi] }

// raw returns toks[i] as written, for ASCII words.
func (pr *prose) raw(i int) string {
	t := &pr.toks[i]
	return pr.text[t.pos : t.pos+t.hi-t.lo]
}

// A proseScanner splits the prose of a text into tokens, skipping fenced
// and indented code blocks, inline code spans, HTML comments (the
// instructions of issue templates) and the lines of stack traces.
type proseScanner struct {
	prose
	buf       []byte // the lower-cased words; becomes prose.low
	brk       bool   // the next token follows a break
	fence     string // the opening fence of the code block being skipped
	inComment bool
	titleDone bool
	prevBlank bool
	prevCode  bool
}

// scanProse tokenizes text, skipping the lines that start at the offsets
// in skip (increasing).
func scanProse(text string, skip []int) prose {
	s := proseScanner{prevBlank: true}
	s.bodyStart = len(text)
	s.buf = make([]byte, 0, len(text))
	s.toks = make([]token, 0, len(text)/8+1) // prose averages 5–7 bytes a word
	for off := 0; off < len(text); {
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += off
		}
		for len(skip) > 0 && skip[0] < off {
			skip = skip[1:]
		}
		if len(skip) > 0 && skip[0] == off {
			s.brk = true
		} else {
			s.line(off, strings.TrimRight(text[off:end], "\r"))
		}
		off = end + 1
	}
	s.prose.low = string(s.buf)
	s.prose.text = text
	return s.prose
}

func (s *proseScanner) line(off int, line string) {
	trimmed := strings.TrimLeft(line, " ")
	indent := len(line) - len(trimmed)
	if s.fence != "" {
		if indent < 4 && strings.HasPrefix(trimmed, s.fence) && strings.Trim(trimmed, s.fence[:1]+" \t") == "" {
			s.fence = ""
		}
		s.brk = true
		return
	}
	if indent < 4 && !s.inComment && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")) {
		n := 0
		for n < len(trimmed) && trimmed[n] == trimmed[0] {
			n++
		}
		s.fence = trimmed[:n]
		s.brk = true
		s.prevBlank = false
		return
	}
	if strings.TrimSpace(line) == "" {
		s.brk, s.prevBlank, s.prevCode = true, true, false
		return
	}
	if s.titleDone && !s.inComment && (line[0] == '\t' || indent >= 4) && (s.prevBlank || s.prevCode) {
		// An indented code block: it cannot interrupt a paragraph.
		s.brk, s.prevBlank, s.prevCode = true, false, true
		return
	}
	s.prevBlank, s.prevCode = false, false
	n := len(s.toks)
	s.words(off, line)
	if !s.titleDone && len(s.toks) > n {
		s.titleDone = true
		for i := n; i < len(s.toks); i++ {
			s.toks[i].title = true
		}
		s.bodyStart = off + len(line) + 1
		s.question = strings.HasSuffix(strings.TrimSpace(line), "?")
		s.brk = true
	}
}

// words tokenizes one line of prose at offset off.
func (s *proseScanner) words(off int, line string) {
	var spans [][2]int // inline code spans, found at the first backtick
	for i := 0; i < len(line); {
		if s.inComment {
			k := strings.Index(line[i:], "-->")
			if k < 0 {
				return
			}
			i += k + len("-->")
			s.inComment, s.brk = false, true
			continue
		}
		c := line[i]
		switch {
		case c == '<' && strings.HasPrefix(line[i:], "<!--"):
			s.inComment = true
			i += len("<!--")
		case c == '`':
			if spans == nil {
				spans = codeSpans(line)
			}
			for len(spans) > 0 && spans[0][0] < i {
				spans = spans[1:]
			}
			if len(spans) > 0 && spans[0][0] == i {
				i = spans[0][1]
			} else {
				for i < len(line) && line[i] == '`' { // a run that opens nothing
					i++
				}
			}
		case wordByteAt(line, i):
			i = s.word(off, line, i)
		case c >= 0x80:
			i += 3 // general punctuation, U+2000–U+206F: dashes, quotes, ellipsis
		default:
			// A sentence break; "." and ":" only where they end a
			// sentence or a label, not inside "errors.Join" or "a:b".
			if strings.IndexByte(",;!?()[]{}|", c) >= 0 ||
				(c == '.' || c == ':') && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t') {
				s.brk = true
			}
			i++
		}
	}
}

// codeSpans returns the inline code spans of line, [start, end) in order:
// a run of backticks up to the next run of the same length, as in
// CommonMark. One pass from the right finds each run's partner, so a line
// costs linear time however its backticks fall.
func codeSpans(line string) [][2]int {
	type run struct{ start, n, partner int }
	var runs []run
	for i := 0; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(line) && line[j] == '`' {
			j++
		}
		runs = append(runs, run{start: i, n: j - i, partner: -1})
		i = j
	}
	next := map[int]int{} // run length → index of the nearest such run to the right
	for k := len(runs) - 1; k >= 0; k-- {
		if p, ok := next[runs[k].n]; ok {
			runs[k].partner = p
		}
		next[runs[k].n] = k
	}
	spans := [][2]int{}
	for k := 0; k < len(runs); k++ {
		if p := runs[k].partner; p >= 0 {
			spans = append(spans, [2]int{runs[k].start, runs[p].start + runs[p].n})
			k = p
		}
	}
	return spans
}

// wordByteAt reports whether a word starts at line[i]: an ASCII letter,
// digit or underscore, or a non-ASCII character other than general
// punctuation (U+2000–U+206F, which UTF-8 writes as E2 80–81 xx).
func wordByteAt(line string, i int) bool {
	c := line[i]
	switch {
	case c < 0x80:
		return isLetter(c) || isDigit(c) || c == '_'
	case c == 0xE2:
		return i+1 >= len(line) || line[i+1] != 0x80 && line[i+1] != 0x81
	}
	return true
}

// word reads the word at line[i], appends its token and returns the index
// after it.
func (s *proseScanner) word(off int, line string, i int) int {
	start, lo := i, len(s.buf)
	camel, under, prevLower, upperRun := false, false, false, 0
scan:
	for i < len(line) {
		c := line[i]
		switch {
		case c >= 'a' && c <= 'z':
			camel = camel || upperRun >= 2 // HTTPServer
			s.buf = append(s.buf, c)
			prevLower, upperRun = true, 0
		case c >= 'A' && c <= 'Z':
			camel = camel || prevLower // parseHeader
			s.buf = append(s.buf, c+'a'-'A')
			prevLower = false
			upperRun++
		case isDigit(c) || c == '_':
			under = under || c == '_'
			s.buf = append(s.buf, c)
			prevLower, upperRun = false, 0
		case c == '\'' && i+1 < len(line) && isLetter(line[i+1]):
			s.buf = append(s.buf, c)
		case strings.HasPrefix(line[i:], "\u2019") && i+3 < len(line) && isLetter(line[i+3]):
			s.buf = append(s.buf, '\'')
			i += 3
			continue
		case c >= 0x80 && wordByteAt(line, i):
			s.buf = append(s.buf, c)
			prevLower, upperRun = false, 0
		default:
			break scan
		}
		i++
	}
	end := i
	t := token{
		pos:   int32(off + start),
		lo:    int32(lo),
		hi:    int32(len(s.buf)),
		brk:   s.brk,
		ident: camel || under || codeContext(line, start, end),
	}
	t.errType = isErrorType(line[start:end])
	s.toks = append(s.toks, t)
	s.brk = false
	return end
}

// codeContext reports whether the characters around line[start:end] make
// the word code: part of a path, URL or dotted name, a call ("parse(" —
// except as the first word of a line, where "fix(parser):" is a
// conventional-commit type), a Rust or C++ path, an assignment, a mention,
// a flag.
func codeContext(line string, start, end int) bool {
	at := func(i int) byte {
		if i < 0 || i >= len(line) {
			return ' '
		}
		return line[i]
	}
	switch prev := at(start - 1); prev {
	case '.', '/', '\\', '#', '$', '@', '%', '=':
		return true
	case ':':
		if at(start-2) == ':' {
			return true
		}
	case '-':
		if p2 := at(start - 2); p2 == '-' || p2 == ' ' {
			return true
		}
	}
	switch next := at(end); next {
	case '(':
		return strings.TrimSpace(line[:start]) != ""
	case '.', '/', '\\':
		return end+1 < len(line) && wordByteAt(line, end+1)
	case ':':
		return at(end+1) == ':'
	case '=':
		return true
	}
	return false
}

// isErrorType reports whether w names an exception or error type:
// ValueError, NullPointerException, io.EOF is not.
func isErrorType(w string) bool {
	if len(w) == 0 || w[0] < 'A' || w[0] > 'Z' {
		return false
	}
	return len(w) > len("Error") && strings.HasSuffix(w, "Error") ||
		len(w) > len("Exception") && strings.HasSuffix(w, "Exception")
}
