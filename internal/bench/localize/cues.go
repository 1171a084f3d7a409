package localize

import (
	"path"
	"regexp"
	"strings"
)

// namesFile reports whether text names one of files: by its path, its
// basename (not for __init__.py, which names no file in particular), or
// its dotted module path of at least two parts.
func namesFile(text string, files []string) bool {
	for _, f := range files {
		base := path.Base(f)
		if containsWord(text, f) || base != "__init__.py" && containsWord(text, base) {
			return true
		}
		if mod := dottedModule(f); strings.Contains(mod, ".") && containsWord(text, mod) {
			return true
		}
	}
	return false
}

// dottedModule is the import path of a Python file: src/_pytest/python.py
// is _pytest.python, sympy/core/__init__.py is sympy.core.
func dottedModule(file string) string {
	p := strings.TrimSuffix(strings.TrimPrefix(file, "src/"), ".py")
	p = strings.TrimSuffix(p, "/__init__")
	return strings.ReplaceAll(p, "/", ".")
}

// namesFunction reports whether text holds the bare name of one of the
// function ids as a whole identifier.
func namesFunction(text string, ids []string) bool {
	for _, id := range ids {
		if containsWord(text, bareName(id)) {
			return true
		}
	}
	return false
}

// tracebackRE matches the lines a Python traceback is made of: CPython's
// header or a frame, or a pytest frame ("x.py:12: in f", "x.py:12: KeyError").
var tracebackRE = regexp.MustCompile(`Traceback \(most recent call last\)` +
	`|File "[^"\n]+", line \d+` +
	`|(?m)^\S*\.py:\d+: (?:in \S+|\w*(?:Error|Exception)\b)`)

func hasTraceback(text string) bool { return tracebackRE.MatchString(text) }

// containsWord reports whether w occurs in text with no identifier
// character on either side.
func containsWord(text, w string) bool {
	if w == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		if (start == 0 || !isIdent(text[start-1])) && (end == len(text) || !isIdent(text[end])) {
			return true
		}
		i = start + 1
	}
}

func isIdent(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
