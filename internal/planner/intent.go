package planner

import (
	"cmp"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/winnowhq/winnow/internal/toolvalue"
)

// maxKeywords bounds the keywords Keywords returns: the most frequent words of a task
// name what it is about; matching more costs time on every plan.
const maxKeywords = 40

// stopwords are words of four letters or more that say nothing about what a task is
// about.
var stopwords = map[string]bool{
	"about": true, "after": true, "also": true, "been": true, "before": true, "being": true,
	"both": true, "but": true, "call": true, "called": true, "calls": true, "case": true,
	"change": true, "changes": true, "code": true, "could": true, "does": true, "doesn": true,
	"each": true, "error": true, "example": true, "expected": true, "file": true, "files": true,
	"from": true, "have": true, "here": true, "into": true, "issue": true, "just": true,
	"like": true, "line": true, "make": true, "more": true, "most": true, "must": true,
	"need": true, "none": true, "only": true, "other": true, "output": true, "please": true,
	"python": true, "repository": true, "result": true, "same": true, "should": true,
	"some": true, "such": true, "test": true, "tests": true, "than": true, "that": true,
	"their": true, "them": true, "then": true, "there": true, "these": true, "they": true,
	"this": true, "true": true, "false": true, "uploaded": true, "used": true, "using": true,
	"want": true, "were": true, "what": true, "when": true, "where": true, "which": true,
	"while": true, "will": true, "with": true, "without": true, "work": true, "would": true,
	"your": true, "description": true, "directory": true, "implement": true, "requirements": true,
	"following": true, "consider": true, "instead": true, "because": true, "currently": true,
	"return": true, "returns": true, "value": true, "values": true, "import": true, "print": true,
	"self": true, "class": true, "function": true, "method": true, "testbed": true, "workspace": true,
	// the headings and phrases of bug reports
	"reproduce": true, "steps": true, "actual": true, "behavior": true, "behaviour": true,
	"results": true, "describe": true, "version": true, "versions": true, "environment": true,
	"create": true, "created": true, "errors": true, "issues": true, "problem": true,
	"running": true, "works": true, "seems": true, "happens": true, "trying": true,
}

// Keywords returns the words of text that may say what an agent is working on, for
// Plan's intent: identifiers and words of four characters or more, lowercased, without
// stopwords or repeats, the most frequent first (then in order of first appearance), at
// most 40. An identifier also gives its parts ("get_notebooks_to_test": "notebooks";
// "TimeDelta": "time", "delta").
func Keywords(text string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(w string) {
		w = strings.ToLower(w)
		if len(w) < 4 || seen[w] || stopwords[w] || isNumber(w) {
			return
		}
		seen[w] = true
		out = append(out, w)
	}
	words := strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	})
	count := map[string]int{}
	for _, w := range words {
		count[strings.ToLower(w)]++
		for _, part := range identParts(w) {
			count[strings.ToLower(part)]++
		}
	}
	for _, w := range words {
		add(w)
		for _, part := range identParts(w) {
			add(part)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(count[b], count[a]) })
	if len(out) > maxKeywords {
		out = out[:maxKeywords]
	}
	return out
}

// identParts splits an identifier at underscores and lower-to-upper case changes; a
// word without either gives none.
func identParts(w string) []string {
	var parts []string
	start := 0
	rs := []rune(w)
	for i := 1; i <= len(rs); i++ {
		split := i == len(rs) || rs[i] == '_' || unicode.IsUpper(rs[i]) && unicode.IsLower(rs[i-1])
		if !split {
			continue
		}
		if p := strings.Trim(string(rs[start:i]), "_"); p != "" {
			parts = append(parts, p)
		}
		start = i
	}
	if len(parts) < 2 {
		return nil
	}
	return parts
}

func isNumber(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// Intent points of an argument, per keyword; the first leadKeywords keywords, which
// name what the task is most about (Keywords orders them by frequency), count double.
const (
	pointsStem   = 4 // the keyword is a path's file name without its extension ("arrow" and arrow.py)
	pointsBase   = 2 // the file name holds it (formatter.py and "format"), or a value that is not a path does
	pointsDir    = 1 // a directory of the path is named so
	leadKeywords = 5
)

// argsIntent scores how well a call's string arguments match the intent keywords (see
// the points above).
func argsIntent(args map[string]any, intent []string) int {
	if len(intent) == 0 {
		return 0
	}
	points := 0
	for _, v := range args {
		s, ok := v.(string)
		if !ok || s == "" {
			continue
		}
		s = strings.ToLower(s)
		isPath := strings.Contains(s, "/") || path.Ext(s) != "" && !strings.Contains(s, " ")
		base, dir := s, ""
		if isPath {
			base, dir = path.Base(s), path.Dir(s)
		}
		stem := strings.TrimSuffix(base, path.Ext(base))
		for r, k := range intent {
			w := 1
			if r < leadKeywords {
				w = 2
			}
			switch {
			case isPath && stem == k:
				points += pointsStem * w
			case strings.Contains(base, k):
				points += pointsBase * w
			}
			if dir != "" && hasElement(dir, k) {
				points += pointsDir * w
			}
		}
	}
	return points
}

// hasElement reports whether one of the elements of the slash-separated path p is e.
func hasElement(p, e string) bool {
	for el := range strings.SplitSeq(p, "/") {
		if el == e {
			return true
		}
	}
	return false
}

// intentScore is argsIntent plus 2 points for each keyword that names one of the
// model's field groups or one of their fields.
func intentScore(args map[string]any, m *toolvalue.Model, intent []string) int {
	points := argsIntent(args, intent)
	for _, g := range m.FieldGroups {
		for _, k := range intent {
			if strings.EqualFold(g.Name, k) || fieldsName(g.Fields, k) {
				points += 2
			}
		}
	}
	return points
}

func fieldsName(fields []string, k string) bool {
	for _, f := range fields {
		if strings.EqualFold(strings.Trim(f, "*_."), k) {
			return true
		}
	}
	return false
}
