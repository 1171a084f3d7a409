package intent

import "strings"

// pythonFrame parses a traceback frame,
//
//	File "/srv/app/pkg/mod.py", line 123, in func_name
//
// ("in <module>" gives Function ""). Tracebacks print the innermost frame
// last; chained exceptions print the root cause's traceback first.
func (p *traceParser) pythonFrame(t string) bool {
	rest := t[len(`File "`):]
	q := strings.IndexByte(rest, '"')
	if q <= 0 {
		return false
	}
	file, rest := rest[:q], rest[q+1:]
	rest, ok := strings.CutPrefix(rest, ", line ")
	if !ok {
		return false
	}
	line, rest, ok := leadingNumber(rest)
	if !ok {
		return false
	}
	fn := ""
	if f, ok := strings.CutPrefix(rest, ", in "); ok {
		fn = strings.TrimSpace(f)
	} else if rest != "" {
		return false
	}
	if fn == "<module>" {
		fn = ""
	}
	p.add(pythonTrace, true, pyFrame(file, line, fn))
	p.pySource = true
	return true
}

// pytestFrame parses a frame of pytest's long traceback format, written
// outermost first at the start of a line:
//
//	tests/test_parse.py:12: in test_header
//	src/pkg/parse.py:40: ValueError
//
// The last frame of a failure ends in the exception's type instead of a
// function, and the long format (pytest's default) ends every frame's
// location line there, showing the function's source above it instead.
func (p *traceParser) pytestFrame(raw, t string) bool {
	if raw[0] == ' ' || raw[0] == '\t' { // pytest writes these at column 0
		return false
	}
	i := strings.Index(t, ".py:")
	if i <= 0 {
		return false
	}
	file := t[:i+len(".py")]
	line, rest, ok := leadingNumber(t[i+len(".py:"):])
	if !ok || strings.ContainsAny(file, " \t") {
		return false
	}
	rest, ok = strings.CutPrefix(rest, ":")
	if !ok {
		return false
	}
	rest = strings.TrimPrefix(rest, " ")
	fn := ""
	if f, ok := strings.CutPrefix(rest, "in "); ok {
		fn = f
	} else if rest != "" && !isDottedName(rest) {
		return false
	} else {
		fn = p.pyDef // the long format shows the function's source instead
	}
	p.pyDef = ""
	p.add(pytestTrace, true, pyFrame(file, line, fn))
	return true
}

// pytestSource notes the function whose source pytest's long format
// shows above a frame's location line:
//
//	    def total(self):
//	>       return round(subtotal, self.places)
//	E       TypeError: …
//
//	shop/cart.py:61: TypeError
func (p *traceParser) pytestSource(t string) {
	t = strings.TrimPrefix(t, "async ")
	if name, ok := strings.CutPrefix(t, "def "); ok {
		if i := strings.IndexByte(name, '('); i > 0 && isIdent(name[:i]) {
			p.pyDef = name[:i]
		}
	}
}

// pytestSummaryLine parses a line of pytest's short summary,
//
//	FAILED tests/test_parse.py::TestHeader::test_empty[utf8] - AssertionError: …
//
// as a frame without a line in the failing test.
func (p *traceParser) pytestSummaryLine(t string) bool {
	_, rest, _ := strings.Cut(t, " ")
	id, _, _ := strings.Cut(rest, " ")
	file, test, ok := strings.Cut(id, "::")
	if !ok || !strings.HasSuffix(file, ".py") || test == "" {
		return false
	}
	if i := strings.IndexByte(test, '['); i >= 0 {
		test = test[:i] // parametrize ids
	}
	fr := pyFrame(file, 0, strings.ReplaceAll(test, "::", "."))
	p.endBlock()
	p.add(pytestSummary, false, fr)
	p.endBlock()
	return true
}

func pyFrame(file string, line int, fn string) Frame {
	return Frame{
		File:     file,
		Line:     line,
		Function: fn,
		Symbol:   pySymbol(fn),
		Lang:     "python",
		Library:  pyLibrary(file),
	}
}

// pySymbol drops "<locals>" from nested functions ("outer.<locals>.inner"
// → "outer.inner") and has no symbol for "<lambda>", "<listcomp>" and
// the like.
func pySymbol(fn string) string {
	fn = strings.ReplaceAll(fn, ".<locals>", "")
	if strings.ContainsAny(fn, "<> ") {
		return ""
	}
	return fn
}

// pyLibrary: installed packages, the standard library and pseudo-files
// ("<frozen importlib._bootstrap>", "<string>").
func pyLibrary(file string) bool {
	if strings.HasPrefix(file, "<") {
		return true
	}
	f := strings.ToLower(strings.ReplaceAll(file, `\`, "/"))
	return containsAny(f, "site-packages/", "dist-packages/", "/lib/python2", "/lib/python3", "/lib/pypy") ||
		strings.Contains(f, "/python3") && strings.Contains(f, "/lib/") // Windows: …\Python311\Lib\json\decoder.py
}

// isDottedName reports whether s is a dotted identifier such as
// "AssertionError" or "pkg.errors.ParseError".
func isDottedName(s string) bool {
	if s == "" {
		return false
	}
	for part := range strings.SplitSeq(s, ".") {
		if !isIdent(part) {
			return false
		}
	}
	return true
}

// isIdent reports whether s is an ASCII identifier.
func isIdent(s string) bool {
	if s == "" || isDigit(s[0]) {
		return false
	}
	for i := range len(s) {
		if c := s[i]; !isLetter(c) && !isDigit(c) && c != '_' {
			return false
		}
	}
	return true
}
