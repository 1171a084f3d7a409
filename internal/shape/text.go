package shape

import "strings"

// Line heuristics for text that is neither JSON nor a markdown table. They
// look at up to maxSampleLines non-blank lines.
const (
	maxSampleLines = 200
	logShare       = 0.5 // a log when at least half the lines look like log lines
	codeShare      = 0.4 // code when at least this share of lines look like code
)

// textShape tells log output, source code and prose apart.
func textShape(text string) Shape {
	var lines, logs, code int
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, " \t\r\n")
		if strings.TrimSpace(line) == "" {
			continue
		}
		lines++
		if isLogLine(line) {
			logs++
		}
		if isCodeLine(line) {
			code++
		}
		if lines == maxSampleLines {
			break
		}
	}
	switch {
	case lines >= 2 && float64(logs) >= logShare*float64(lines):
		return Log
	case float64(code) >= codeShare*float64(lines):
		return Code
	}
	return Prose
}

// logLevels are the level words that open log lines, upper-cased.
var logLevels = []string{"TRACE", "DEBUG", "INFO", "NOTICE", "WARN", "WARNING", "ERROR", "ERR", "FATAL", "PANIC", "CRITICAL", "CRIT"}

// isLogLine reports whether line starts like a log line: with a date, a
// time of day, a syslog month and day, or a level word (possibly in
// brackets), or carries a structured level= or "level": field.
func isLogLine(line string) bool {
	s := strings.TrimLeft(line, "[(")
	switch {
	case hasDatePrefix(s), hasTimePrefix(s), hasSyslogPrefix(s):
		return true
	case strings.Contains(line, "level=") || strings.Contains(line, `"level":`):
		return true
	}
	word, _, _ := strings.Cut(s, " ")
	word = strings.ToUpper(strings.TrimRight(word, "]):"))
	for _, l := range logLevels {
		if word == l {
			return true
		}
	}
	return false
}

// hasDatePrefix reports whether s starts with YYYY-MM-DD or YYYY/MM/DD.
func hasDatePrefix(s string) bool {
	return len(s) >= 10 && digitsAt(s, 0, 4) && (s[4] == '-' || s[4] == '/') &&
		digitsAt(s, 5, 2) && s[7] == s[4] && digitsAt(s, 8, 2)
}

// hasTimePrefix reports whether s starts with HH:MM:SS.
func hasTimePrefix(s string) bool {
	return len(s) >= 8 && digitsAt(s, 0, 2) && s[2] == ':' && digitsAt(s, 3, 2) && s[5] == ':' && digitsAt(s, 6, 2)
}

// hasSyslogPrefix reports whether s starts with "Jan _2 15:04:05".
func hasSyslogPrefix(s string) bool {
	if len(s) < 15 || s[3] != ' ' {
		return false
	}
	if m := strings.Index("JanFebMarAprMayJunJulAugSepOctNovDec", s[:3]); m < 0 || m%3 != 0 {
		return false
	}
	day := strings.TrimLeft(s[4:6], " ")
	return day != "" && digitsAt(day, 0, len(day)) && s[6] == ' ' && hasTimePrefix(s[7:])
}

// digitsAt reports whether s[i:i+n] is all ASCII digits.
func digitsAt(s string, i, n int) bool {
	if i+n > len(s) {
		return false
	}
	for _, c := range []byte(s[i : i+n]) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// codeOpeners are words and marks that open lines of code in common
// languages.
var codeOpeners = []string{
	"func ", "def ", "class ", "import ", "package ", "return", "if (", "if ", "for ", "while ",
	"#include", "#define", "const ", "let ", "var ", "public ", "private ", "protected ", "static ",
	"fn ", "pub ", "use ", "from ", "export ", "type ", "struct ", "impl ", "interface ", "async ",
	"//", "/*", "*/", "#!", "@", "else", "switch ", "case ", "try", "catch", "throw ",
}

// codeClosers are marks that end lines of code.
var codeClosers = []string{"{", "}", ";", ")", "(", "[", "]", "},", "];", ":"}

// isCodeLine reports whether line looks like a line of source code: it
// opens with a keyword or comment mark, ends with a bracket or semicolon,
// or holds an assignment or arrow.
func isCodeLine(line string) bool {
	s := strings.TrimSpace(line)
	for _, o := range codeOpeners {
		if strings.HasPrefix(s, o) {
			return true
		}
	}
	for _, c := range codeClosers {
		if strings.HasSuffix(s, c) && (c != ":" || line != s) {
			return true
		}
	}
	return strings.Contains(s, " = ") || strings.Contains(s, ":=") || strings.Contains(s, "=>") || strings.Contains(s, "->")
}
