package retrieve

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/winnowhq/winnow/internal/intent"
	"github.com/winnowhq/winnow/internal/terms"
)

// maxQueryBytes bounds how much of a task description is read: issues
// with megabytes of logs say what they are about in their first pages.
const maxQueryBytes = 64 << 10

// Query-term weights: where a word appears in the task says how much it
// is about the task.
const (
	weightTitleTerm = 2.0 // a word of the first line, usually the issue title
	weightCodeTerm  = 1.5 // a word inside backticks or a code block
	weightTextTerm  = 1.0
	maxTermRepeats  = 3 // a word said ten times is not ten times the signal

	weightTitleMention = 1.5 // an identifier the title names is what the issue is about
)

// parsed is a task description taken apart into the signals ranking
// uses.
type parsed struct {
	title  string
	prose  string // the task without its code
	intent intent.Result
	terms  map[string]float64 // term → weight
	idents []mention          // identifiers named in the task
	paths  []string           // file paths and dotted module paths
	// titleTerms are the terms of the title, each once, sorted (title.go).
	titleTerms []string
	// blocks counts the task's fenced code blocks (title.go).
	blocks int
	// classWords are the words that may name a class, by lower case,
	// for methods that dispatch on a class name (structural.go).
	classWords map[string]classWord
	// uses are the names the task's code uses (issuecode.go).
	uses []codeUse
	// links are the task's links to lines of files (links.go).
	links []codeLink
	// modUses are the dotted names written in lists or imports (modlist.go).
	modUses map[string]modUse
}

// A classWord is a word of the task as written and how likely it names
// a class: capitalised in code most, a lower-case word of prose least.
type classWord struct {
	text   string
	weight float64
}

// Weights of classWord.
const (
	weightClassInCode  = 1.0 // `Sum`, Mod(x, y)
	weightClassInProse = 0.7 // "printing of Sum"
	weightClassLower   = 0.4 // "1-element tuple": perhaps Tuple
)

// addClassWords collects the words of s that may name a class.
func (q *parsed) addClassWords(s string, inCode bool) {
	for _, word := range identRE.FindAllString(s, -1) {
		for part := range strings.SplitSeq(word, ".") {
			if len(part) < 2 || terms.IsStopword(strings.ToLower(part)) || pythonNoise[part] {
				continue
			}
			w := weightClassLower
			if r := rune(part[0]); unicode.IsUpper(r) {
				w = weightClassInProse
				if inCode {
					w = weightClassInCode
				}
			}
			if q.title != "" && containsWord(q.title, part) {
				w *= weightTitleMention
			}
			key := strings.ToLower(part)
			if old, ok := q.classWords[key]; !ok || w > old.weight {
				q.classWords[key] = classWord{text: part, weight: w}
			}
		}
	}
}

// A mention is an identifier the task names: "parse_header",
// "Request.prepare", "sympy.core.basic.Basic".
type mention struct {
	text   string  // as written, dots kept
	inCode bool    // inside backticks, a code block or a traceback
	weight float64 // how strongly it was named
}

var (
	fencedCode = regexp.MustCompile("(?s)```.*?```|~~~.*?~~~")
	inlineCode = regexp.MustCompile("`[^`\n]+`")
	// identifier-like words, dotted chains included: a.b.c, foo_bar, FooBar
	identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*`)
	// file paths with an extension winnow can read (and a few others)
	pathRE = regexp.MustCompile(`(?:[A-Za-z0-9_.\-]+/)*[A-Za-z0-9_\-]+\.(?:py|pyi|go|js|jsx|mjs|ts|tsx|java|kt|scala|rs|c|h|cc|cpp|hpp|rb|cs|php|sh|lua|zig|hs|ml|mli)\b`)
)

func parseQuery(text string) *parsed {
	if len(text) > maxQueryBytes {
		text = text[:maxQueryBytes]
	}
	q := &parsed{intent: intent.Detect(text), terms: make(map[string]float64), classWords: make(map[string]classWord)}
	text = stripBoilerplate(text)
	q.links = parseLinks(text)
	q.modUses = moduleUses(text)
	seen := make(map[string]int)
	addTerms := func(s string, w float64) {
		terms.Scan(s, func(t string) {
			if templateWords[t] {
				return
			}
			if seen[t] < maxTermRepeats {
				seen[t]++
				q.terms[t] += w
			}
		})
	}
	title, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	addTerms(title, weightTitleTerm-weightTextTerm) // and once more below
	q.title = title
	q.titleTerms = slices.Sorted(maps.Keys(seen)) // what the title added, so far the only terms

	// Code first: backticked and fenced spans are identifiers by
	// intent, and are blanked out of the prose that follows.
	prose := text
	for _, re := range []*regexp.Regexp{fencedCode, inlineCode} {
		for _, span := range re.FindAllString(prose, -1) {
			if re == fencedCode {
				q.blocks++
			}
			addTerms(span, weightCodeTerm)
			q.addIdents(span, true)
			q.addClassWords(span, true)
			q.addPaths(span)
		}
		prose = re.ReplaceAllString(prose, " ")
	}
	q.addReceiverCalls(text)
	q.uses = parseCodeUses(codeOf(text))
	for i, u := range q.uses {
		if containsWord(title, u.name) {
			q.uses[i].weight *= weightTitleMention // the call the issue is about
		}
	}
	q.prose = prose
	addTerms(prose, weightTextTerm)
	q.addIdents(prose, false)
	q.addClassWords(prose, false)
	q.addPaths(prose)
	for _, f := range q.intent.Frames {
		if f.Symbol != "" && !f.Library {
			q.idents = append(q.idents, mention{text: f.Symbol, inCode: true, weight: 1})
		}
	}
	q.dedupIdents()
	return q
}

// addIdents collects the identifiers of s. Inside code every identifier
// counts; in prose only words that look like code do: with an
// underscore, an inner capital, a dot between names, or a call.
func (q *parsed) addIdents(s string, inCode bool) {
	for _, loc := range identRE.FindAllStringIndex(s, -1) {
		word := s[loc[0]:loc[1]]
		if len(word) < 3 || terms.IsStopword(strings.ToLower(word)) || pythonNoise[word] {
			continue
		}
		called := loc[1] < len(s) && s[loc[1]] == '('
		w := 1.0
		switch {
		case inCode:
		case strings.Contains(word, "_") || strings.Contains(word, ".") || innerCapital(word) || called:
			w = 0.8
		case isCapitalized(word):
			w = 0.3 // perhaps a class name, perhaps the start of a sentence
		default:
			continue
		}
		word = strings.Trim(word, ".")
		if q.title != "" && containsWord(q.title, word) {
			w *= weightTitleMention // the subject of the issue
		}
		q.idents = append(q.idents, mention{text: word, inCode: inCode, weight: w})
	}
}

func (q *parsed) addPaths(s string) {
	q.paths = append(q.paths, pathRE.FindAllString(s, -1)...)
}

// dedupIdents keeps the strongest mention of each identifier.
func (q *parsed) dedupIdents() {
	best := make(map[string]int)
	var out []mention
	for _, m := range q.idents {
		if i, ok := best[m.text]; ok {
			if m.weight > out[i].weight {
				out[i] = m
			}
			continue
		}
		best[m.text] = len(out)
		out = append(out, m)
	}
	q.idents = out
	slices.Sort(q.paths)
	q.paths = slices.Compact(q.paths)
}

func innerCapital(w string) bool {
	for i, r := range w {
		if i > 0 && unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

func isCapitalized(w string) bool {
	r := []rune(w)
	return len(r) > 1 && unicode.IsUpper(r[0]) && !unicode.IsUpper(r[1])
}

// pythonNoise are names every Python snippet uses and no repository
// defines usefully.
var pythonNoise = map[string]bool{
	"print": true, "len": true, "str": true, "int": true, "float": true, "list": true, "dict": true,
	"tuple": true, "set": true, "range": true, "isinstance": true, "type": true, "object": true,
	"Traceback": true, "File": true, "line": true, "module": true, "most": true, "recent": true,
	"call": true, "last": true, "True": true, "False": true, "None": true, "self": true,
}

var (
	htmlComment = regexp.MustCompile(`(?s)<!--.*?-->`)
	detailsRE   = regexp.MustCompile(`(?is)<details>.*?</details>`)
	// "numpy: 1.21.0", "python      : 3.8.10", "OS: Linux 5.4": the
	// environment dumps issue templates ask for.
	versionLine = regexp.MustCompile(`(?m)^[ \t>*-]*[A-Za-z][\w .()/-]{0,40}[:=][ \t]*v?\d+(\.\d+)+\S*.*$`)
)

var (
	tracebackHead = regexp.MustCompile(`Traceback \(most recent call last\):`)
	// File "/path/x.py", line 12, in func → /path/x.py func
	pythonFrameLine = regexp.MustCompile(`File "([^"]*)", line \d+, in (\S+)`)
	pseudoFiles     = regexp.MustCompile(`<(?:stdin|module|string|lambda|listcomp|genexpr|dictcomp|setcomp|frozen [^>]*)>`)
)

// stripBoilerplate removes what issue templates add to every issue
// (hidden instructions, collapsed environment dumps, version lines) and
// the fixed words of Python tracebacks, keeping their paths and names.
func stripBoilerplate(text string) string {
	text = htmlComment.ReplaceAllString(text, " ")
	text = detailsRE.ReplaceAllString(text, " ")
	text = fencedCode.ReplaceAllStringFunc(text, dropEnvironmentDump)
	text = versionLine.ReplaceAllString(text, " ")
	text = tracebackHead.ReplaceAllString(text, " ")
	text = pythonFrameLine.ReplaceAllString(text, "$1 $2")
	return pseudoFiles.ReplaceAllString(text, " ")
}

// dropEnvironmentDump blanks a code block that is an environment dump
// (python -m requests.help's JSON, a list of installed packages): at
// least three of its lines, and a fifth, name a version, and none is
// code (a prompt or a call). Its keys are the names of packages and
// platforms, which the project's own code that makes such dumps matches
// better than any code at fault.
func dropEnvironmentDump(block string) string {
	lines, versions := 0, 0
	for line := range strings.Lines(block) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if strings.Contains(line, ">>>") || strings.Contains(line, "(") {
			return block
		}
		lines++
		if strings.Contains(strings.ToLower(line), "version") {
			versions++
		}
	}
	if versions >= 3 && 5*versions >= lines {
		return " "
	}
	return block
}

// templateWords are the (stemmed) words of issue templates' headings:
// every issue of a project has them, so they say nothing about one.
var templateWords = func() map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(`describe bug reproduce reproduction expected behavior behaviour
		actual result steps screenshot environment additional context version versions
		info information please thank thanks issue problem happen happened hello minimal example
		output instead would like`) {
		m[terms.Stem(w)] = true
	}
	return m
}()

// containsWord reports whether w occurs in s as a whole word.
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		if (start == 0 || !isIdentByte(s[start-1])) && (end == len(s) || !isIdentByte(s[end])) {
			return true
		}
		i = start + 1
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

var (
	// Name(...).method: a method called on a fresh instance.
	ctorCall = regexp.MustCompile(`\b([A-Z][A-Za-z0-9_]*)\((?:[^()]|\([^()]*\))*\)\.([A-Za-z_][A-Za-z0-9_]*)`)
	// var = Name(...): a variable bound to an instance.
	ctorBind = regexp.MustCompile(`\b([a-z_][A-Za-z0-9_]*)\s*=\s*([A-Z][A-Za-z0-9_]*)\(`)
)

// addReceiverCalls infers the class of method calls in code: in
// "Contains(x, S).as_set()" and in "c = Contains(x, S); c.as_set()" the
// method is Contains.as_set, a far more specific mention than as_set.
func (q *parsed) addReceiverCalls(text string) {
	for _, m := range ctorCall.FindAllStringSubmatch(text, -1) {
		q.idents = append(q.idents, mention{text: m[1] + "." + m[2], inCode: true, weight: 1})
	}
	for _, m := range ctorBind.FindAllStringSubmatch(text, -1) {
		variable, class := m[1], m[2]
		use := regexp.MustCompile(`\b` + regexp.QuoteMeta(variable) + `\.([A-Za-z_][A-Za-z0-9_]*)\b`)
		for _, u := range use.FindAllStringSubmatch(text, 20) {
			q.idents = append(q.idents, mention{text: class + "." + u[1], inCode: true, weight: 1})
		}
	}
}
