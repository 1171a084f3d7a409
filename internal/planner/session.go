package planner

import (
	"math"
	"path"
	"strings"

	"github.com/winnowhq/winnow/internal/toolvalue"
)

// session is what one Plan knows of the history: the models of its tools and, computed
// only when a candidate asks, which calls it has seen and what it knows of files.
type session struct {
	history []Call
	models  func(string) toolvalue.Model
	cache   map[string]toolvalue.Model
	files   map[string]fileInfo
	lineTPL float64 // tokens per numbered line over all reads; 0 until computed
	// listed holds the hits of each call's result once parsed (parsed says which).
	listed [][]toolvalue.Hit
	parsed []bool
}

func newSession(history []Call, models func(string) toolvalue.Model) *session {
	return &session{history: history, models: models, cache: map[string]toolvalue.Model{}}
}

func (s *session) model(tool string) toolvalue.Model {
	m, ok := s.cache[tool]
	if !ok {
		m = s.models(tool)
		s.cache[tool] = m
	}
	return m
}

// seen reports whether an earlier call that succeeded, and that no later call
// invalidated, covers the candidate (see Covers): its result is in the agent's context
// and in the session cache.
func (s *session) seen(c *Candidate, key string) bool {
	for j := len(s.history) - 1; j >= 0; j-- {
		h := &s.history[j]
		if h.Tool == c.Tool && !h.Error && covers(h, c, key) {
			return true
		}
		if s.invalidates(h, c.Tool, c.Args) {
			return false
		}
	}
	return false
}

func covers(h *Call, c *Candidate, key string) bool {
	if c.Tool != readTool {
		return Key(h.Tool, h.Args) == key
	}
	return Holds(h, c.Tool, c.Args)
}

// Holds reports whether the result of the call h holds the result of a call of tool with
// args, so that an agent with h's result in its context need not make the call: Covers,
// and when h's text shows only part of what h asked for (an editor's abbreviated view of a
// large file, SWE-agent's window of 100 lines of an open file), every line of args'
// window among the lines it shows, unless the call is h's own (the same key).
func Holds(h *Call, tool string, args map[string]any) bool {
	if !Covers(h.Tool, h.Args, tool, args) {
		return false
	}
	if tool != readTool || !abbreviated(h.Text) || Key(h.Tool, h.Args) == Key(tool, args) {
		return true
	}
	w, _ := readWindow(args)
	return w.to > 0 && shows(h.Text, w.from, w.to)
}

// abbreviated reports whether a Read's result left lines out: an editor that abbreviates
// large files or clips long output, a window that shows part of a file (SWE-agent's
// "(N more lines below)").
func abbreviated(text string) bool {
	return strings.Contains(text, "too large to display") || strings.Contains(text, "abbreviated version") ||
		strings.Contains(text, "<response clipped>") || strings.Contains(text, " more lines below)")
}

// shows reports whether every line from..to is among the numbered lines of text.
func shows(text string, from, to int) bool {
	next := from
	for line := range strings.Lines(text) {
		n, ok := lineNumber(line)
		if ok && n == next {
			next++
			if next > to {
				return true
			}
		}
	}
	return false
}

// invalidates reports whether call h makes a cached result of (tool, args) stale: h's
// model invalidates the tool, and the two calls name the same target (file_path, else
// path), or either names none.
func (s *session) invalidates(h *Call, tool string, args map[string]any) bool {
	m := s.model(h.Tool)
	hit := false
	for _, pat := range m.Invalidates {
		r := toolvalue.Rule{Pattern: pat}
		if r.Matches(tool) {
			hit = true
			break
		}
	}
	if !hit {
		return false
	}
	a, b := target(h.Args), target(args)
	return a == "" || b == "" || a == b
}

// target is the file or directory a call is about: its file_path, else its path.
func target(args map[string]any) string {
	t := strArg(args, "file_path")
	if t == "" {
		t = strArg(args, "path")
	}
	if strings.HasPrefix(t, "/") {
		t = path.Clean(t)
	}
	return t
}

// place predicts where in its file a candidate Read looks: a Read of a whole file that
// a recent result points at a line of (a traceback's frame, a search's hit; see lineRef)
// becomes a Read of the window around that line (toolvalue.HitWindow), an approximate
// call, since agents that know the line read there (SWE-agent's "open F 536", a
// view_range, an offset) and seldom the file from its top; then the window is fitted to
// the file's end (fitWindow).
func (s *session) place(c *Candidate) {
	if c.Tool != readTool {
		return
	}
	if w, ok := readWindow(c.Args); ok && w.from == 1 && w.to == 0 && onlyWindow(c.Args) {
		if line := s.lineRef(w.file); line > 0 {
			offset, limit := toolvalue.HitWindow(line)
			c.Args["offset"], c.Args["limit"] = offset, limit
			c.Approximate = true
		}
	}
	s.fitWindow(c)
}

// lineRef returns the line of file that the latest result pointing into it names, 0 if
// none: the last hit of the file in the text of the latest call that has one (a
// traceback's innermost frame in it), among the calls since the last one that made a
// read of the file stale (an edit of it moves its lines).
func (s *session) lineRef(file string) int {
	args := map[string]any{"file_path": file}
	for j := len(s.history) - 1; j >= 0; j-- {
		h := &s.history[j]
		if !h.Error && h.Tool != readTool {
			line := 0
			for _, hit := range s.hits(j) {
				if hit.Line > 0 && samePath(hit.Path, file) {
					line = hit.Line
				}
			}
			if line > 0 {
				return line
			}
		}
		if s.invalidates(h, readTool, args) {
			return 0
		}
	}
	return 0
}

// hits returns toolvalue.ListedHits of the j-th call's result, parsed once a plan.
func (s *session) hits(j int) []toolvalue.Hit {
	if s.listed == nil {
		s.listed = make([][]toolvalue.Hit, len(s.history))
		s.parsed = make([]bool, len(s.history))
	}
	if !s.parsed[j] {
		if text := s.history[j].Text; mayNameLines(text) {
			s.listed[j] = toolvalue.ListedHits(text)
		}
		s.parsed[j] = true
	}
	return s.listed[j]
}

// mayNameLines reports whether text may name a line of a file it names: a digit right
// after a colon ("a.py:12:") or a traceback's ", line ". A listing of thousands of files
// has neither and is not parsed. (A line that prints no path, "12:", names no file.)
func mayNameLines(text string) bool {
	for i := strings.IndexByte(text, ':'); i >= 0 && i+1 < len(text); {
		if c := text[i+1]; c >= '0' && c <= '9' {
			return true
		}
		j := strings.IndexByte(text[i+1:], ':')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return strings.Contains(text, ", line ")
}

// samePath reports whether a path a result printed is file (absolute): the same path, or
// a relative path that file ends with ("./oqupy/process_tensor.py").
func samePath(printed, file string) bool {
	if printed == "" {
		return false
	}
	if path.IsAbs(printed) {
		return path.Clean(printed) == file
	}
	rel := path.Clean(printed)
	return !strings.HasPrefix(rel, "../") && strings.HasSuffix(file, "/"+rel)
}

// fitWindow moves a Read candidate's window that runs past the end of its file, when a
// read of the session told its length, back to end at the last line, keeping its length:
// an editor that shows a window of fixed size does the same (SWE-agent's goto near the
// end of a file), and lines past the end would show nothing.
func (s *session) fitWindow(c *Candidate) {
	if c.Tool != readTool {
		return
	}
	w, ok := readWindow(c.Args)
	if !ok || w.to == 0 {
		return
	}
	total := s.file(w.file).total
	if total == 0 || w.to <= total {
		return
	}
	n := w.to - w.from + 1
	from := max(1, total-n+1)
	c.Args["offset"] = from
	c.Args["limit"] = total - from + 1
	if from == 1 {
		delete(c.Args, "offset")
	}
}

// Sizes the predictions fall back on.
const (
	// defaultLineTokens is the size of a numbered source line when no read of the
	// session tells: o200k tokens per line of Python and Go with a line-number prefix.
	defaultLineTokens = 12
	// readOverhead is the header and footer a Read result wraps around its lines.
	readOverhead = 30
)

// predict returns the predicted size of a candidate's result: the size of the same call
// earlier in the session; for a Read, the lines it will show (its window, cut to the
// file's length when a read told it) times the tokens per line the file's earlier reads
// (else the session's, else defaultLineTokens) had; else the model's typical size. It is
// capped at the model's max size.
func (s *session) predict(c *Candidate, key string, m *toolvalue.Model) int {
	n := s.predictRaw(c, key, m)
	if m.Cost.MaxTokens > 0 {
		n = min(n, m.Cost.MaxTokens)
	}
	return max(n, 1)
}

func (s *session) predictRaw(c *Candidate, key string, m *toolvalue.Model) int {
	for j := len(s.history) - 1; j >= 0; j-- {
		h := &s.history[j]
		if h.Tool == c.Tool && !h.Error && Key(h.Tool, h.Args) == key {
			return tokensOf(h)
		}
	}
	typical := s.typical(c, m)
	if c.Tool != readTool {
		return typical
	}
	w, ok := readWindow(c.Args)
	if !ok {
		return typical
	}
	f := s.file(w.file)
	lines := 0
	switch {
	case w.to > 0:
		lines = w.to - w.from + 1
		if f.total > 0 {
			lines = min(lines, max(f.total-w.from+1, 0))
		}
	case f.total > 0:
		lines = max(f.total-w.from+1, 0)
	default:
		return typical
	}
	tpl := f.tpl
	if tpl == 0 {
		tpl = s.sessionTPL()
	}
	return int(float64(lines)*tpl) + readOverhead
}

// typical returns the size of a call of a tool whose result nothing in particular
// predicts: the largest result of the session's successful calls of the tool with the
// same argument names (a session reads files of one project through one editor), else
// the model's prior (see prior).
func (s *session) typical(c *Candidate, m *toolvalue.Model) int {
	most := 0
	for j := range s.history {
		h := &s.history[j]
		if h.Tool == c.Tool && !h.Error && sameNames(h.Args, c.Args) {
			most = max(most, tokensOf(h))
		}
	}
	if most > 0 {
		return most
	}
	return prior(m)
}

// prior is the size the planner predicts for a call of a tool it knows nothing more of:
// the geometric mean of the model's typical (median) and max (99th percentile) sizes,
// which is the 88th percentile of the log-normal distribution with that median and 99th
// percentile; a result overruns it by 30% about one time in twelve. Without a max, the
// typical size.
func prior(m *toolvalue.Model) int {
	typical := m.Cost.TypicalTokens
	if typical <= 0 {
		typical = toolvalue.Unknown.Cost.TypicalTokens
	}
	if m.Cost.MaxTokens <= typical {
		return typical
	}
	return int(math.Sqrt(float64(typical) * float64(m.Cost.MaxTokens)))
}

func sameNames(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}

// tokensOf returns the size of a call's result: Tokens, else a quarter of its text's
// bytes.
func tokensOf(c *Call) int {
	if c.Tokens > 0 {
		return c.Tokens
	}
	return (len(c.Text) + 3) / 4
}

// fileInfo is what the session's reads tell of a file.
type fileInfo struct {
	total int     // lines; 0 if unknown
	tpl   float64 // tokens per numbered line; 0 if unknown
}

// file returns what the successful Reads of file in the history tell of it: its length
// from a "(N lines total)" header or a whole-file read, its tokens per line from the
// numbered lines the reads showed.
func (s *session) file(file string) fileInfo {
	if f, ok := s.files[file]; ok {
		return f
	}
	var f fileInfo
	var tokens, lines int
	for j := range s.history {
		h := &s.history[j]
		if h.Tool != readTool || h.Error {
			continue
		}
		w, ok := readWindow(h.Args)
		if !ok || w.file != file {
			continue
		}
		n, last := numberedLines(h.Text)
		if n > 0 {
			tokens += tokensOf(h)
			lines += n
		}
		if t := totalLines(h.Text); t > 0 {
			f.total = t
		} else if w.from == 1 && w.to == 0 && last > 0 && !strings.Contains(h.Text, "abbreviated") {
			f.total = last
		}
	}
	if lines > 0 {
		f.tpl = float64(tokens) / float64(lines)
	}
	if s.files == nil {
		s.files = map[string]fileInfo{}
	}
	s.files[file] = f
	return f
}

// sessionTPL returns the tokens per numbered line over all the session's reads, or
// defaultLineTokens if they showed none.
func (s *session) sessionTPL() float64 {
	if s.lineTPL > 0 {
		return s.lineTPL
	}
	var tokens, lines int
	for j := range s.history {
		h := &s.history[j]
		if h.Tool != readTool || h.Error {
			continue
		}
		if n, _ := numberedLines(h.Text); n > 0 {
			tokens += tokensOf(h)
			lines += n
		}
	}
	s.lineTPL = defaultLineTokens
	if lines > 0 {
		s.lineTPL = float64(tokens) / float64(lines)
	}
	return s.lineTPL
}

// numberedLines counts the lines of text that start with a line number and returns the
// last number.
func numberedLines(text string) (n, last int) {
	for line := range strings.Lines(text) {
		if num, ok := lineNumber(line); ok {
			n++
			last = num
		}
	}
	return n, last
}

// lineNumber reads the number a line of a file listing starts with: "  12\t" as cat -n
// writes it, "    12→" as Claude Code's Read does, "12:" as SWE-agent's window does.
func lineNumber(line string) (int, bool) {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	j := i
	num := 0
	for j < len(line) && line[j] >= '0' && line[j] <= '9' && j-i < 9 {
		num = num*10 + int(line[j]-'0')
		j++
	}
	if j == i || j == len(line) {
		return 0, false
	}
	rest := line[j:]
	return num, rest[0] == '\t' || rest[0] == ':' || strings.HasPrefix(rest, "→")
}

// totalLines reads SWE-agent's "(N lines total)" header.
func totalLines(text string) int {
	i := strings.Index(text, " lines total)")
	if i < 0 {
		return 0
	}
	j := i
	for j > 0 && text[j-1] >= '0' && text[j-1] <= '9' {
		j--
	}
	n := 0
	for _, c := range text[j:i] {
		n = n*10 + int(c-'0')
	}
	return n
}
