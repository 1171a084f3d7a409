package lang

import (
	"strings"
	"unicode/utf8"
)

// normalizeName turns the text of a name node into a plain dotted name:
// generic arguments and pointer marks go, "::" and "\" become ".".
func normalizeName(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "*&")
	// Cut generic arguments and parameter lists, but not operator names
	// such as "=<<" or "[]=": only a bracket right after a name starts them.
	if i := strings.IndexAny(s, "<[("); i > 0 && isNameByte(s[i-1]) && !strings.HasPrefix(s, "operator") {
		s = s[:i]
	}
	s = strings.ReplaceAll(s, "::", ".")
	s = strings.ReplaceAll(s, `\`, ".")
	s = strings.TrimPrefix(s, ":") // Ruby symbols name methods and attributes
	s = strings.Trim(s, ". \t")
	if strings.ContainsAny(s, " \t\r\n") {
		s = strings.Join(strings.Fields(s), "")
	}
	return s
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// trimQuotes strips the quotes of a string literal used as a module
// path, and the brackets of a C system include.
func trimQuotes(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 {
		switch first, last := s[0], s[len(s)-1]; {
		case first == last && (first == '"' || first == '\'' || first == '`'),
			first == '<' && last == '>':
			return s[1 : len(s)-1]
		}
	}
	return s
}

// cleanSignature trims trailing space from each line, drops blank lines
// and keeps at most maxLines lines and maxSignatureBytes bytes.
func cleanSignature(s string, maxLines int) string {
	var b strings.Builder
	lines := 0
	cut := false
	for line := range strings.Lines(s) {
		line = strings.TrimRight(line, " \t\r\n")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if lines == maxLines {
			cut = true
			break
		}
		if lines > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line)
		lines++
	}
	out := b.String()
	if len(out) > maxSignatureBytes {
		out, cut = truncate(out, maxSignatureBytes), true
	}
	if cut {
		out += " …"
	}
	return out
}

// dedentContinuation removes from the second and later lines of a
// signature the indentation its first line had in the file, so that a
// method's decorator and its def line up.
func dedentContinuation(s string, indent int) string {
	if indent <= 0 || !strings.Contains(s, "\n") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i := 1; i < len(lines); i++ {
		n := 0
		for n < indent && n < len(lines[i]) && (lines[i][n] == ' ' || lines[i][n] == '\t') {
			n++
		}
		lines[i] = lines[i][n:]
	}
	return strings.Join(lines, "\n")
}

// dropTrailingComments removes comment lines at the end of a signature:
// what lies between a header and its first statement (Python puts a
// function's leading comments before the block).
func dropTrailingComments(s string) string {
	for {
		s = strings.TrimRight(s, " \t\r\n")
		i := strings.LastIndexByte(s, '\n')
		if i < 0 {
			return s
		}
		last := strings.TrimSpace(s[i+1:])
		if !isCommentLine(last) {
			return s
		}
		s = s[:i]
	}
}

func isCommentLine(l string) bool {
	for _, p := range []string{"#", "//", "/*", "*", "--", ";;", "(*"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// cleanComment removes comment markers from a run of comment lines and
// the common indentation of what remains.
func cleanComment(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, line := range lines {
		line = strings.TrimSpace(line)
		line = stripCommentMarker(line)
		out = append(out, strings.TrimRight(line, " \t\r"))
	}
	return strings.TrimSpace(dedent(out))
}

// commentOpeners are the markers that start a comment line, longest
// first so that "///" is not read as "//" followed by "/".
var commentOpeners = []string{"=begin", "///", "//!", "//", "/**", "/*!", "/*", "(**", "(*", "{-|", "{-", "--|", "-- |", "---", "--", "#!", "##", "#", ";;", "*"}

var commentClosers = []string{"*/", "*)", "-}", "=end"}

func stripCommentMarker(line string) string {
	for _, c := range commentClosers {
		if strings.HasSuffix(line, c) {
			line = strings.TrimRight(line[:len(line)-len(c)], "*")
			break
		}
	}
	for _, o := range commentOpeners {
		if rest, ok := strings.CutPrefix(line, o); ok {
			if len(rest) > 0 && rest[0] == ' ' {
				rest = rest[1:]
			}
			return rest
		}
	}
	return line
}

// cleanDocstring strips the quotes and prefix of a string literal used as
// a docstring and removes its common indentation, as Python's
// inspect.cleandoc does.
func cleanDocstring(s string) string {
	s = strings.TrimLeft(s, "rRuUbBfF")
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(s, q) && strings.HasSuffix(s, q) && len(s) >= 2*len(q) {
			s = s[len(q) : len(s)-len(q)]
			break
		}
	}
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	first := strings.TrimSpace(lines[0])
	rest := dedent(lines[1:])
	if first == "" {
		return strings.TrimSpace(rest)
	}
	return strings.TrimSpace(first + "\n" + rest)
}

// dedent removes the indentation common to all non-blank lines.
func dedent(lines []string) string {
	indent := -1
	for _, line := range lines {
		if strings.TrimSpace(line) == "" {
			continue
		}
		n := len(line) - len(strings.TrimLeft(line, " \t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	var b strings.Builder
	for i, line := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		if len(line) >= indent && indent > 0 {
			line = line[indent:]
		}
		b.WriteString(strings.TrimRight(line, " \t\r"))
	}
	return b.String()
}

// truncate cuts s to at most n bytes without splitting a UTF-8 sequence.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
