package intent

import (
	"fmt"
	"strings"
)

// Cue weights. A cue adds its weight, times the weight of where it stands
// (see titleBoost and bodyDecayBytes), to the score of its kind, once per
// text however often it recurs.
const (
	cueStrong = 4.0           // names the task: "who calls", "write tests for", "stack trace", "rename"
	cueMedium = cueStrong / 2 // typical of the kind but said in other tasks too: "error", "fix", "explain", "move"
	cueWeak   = cueMedium / 2 // leans one way: "add", "new", "test", "why"
	neutral   = 0.0           // names no kind: swallows the words of weaker cues ("memory usage", "error message")
)

// maxGap is how many words a "..." in a cue may stand for.
const maxGap = 5

// noKind is the kind of neutral cues.
const noKind = NumKinds

// cueGroups are the cue phrases, by kind and weight. A phrase is
// lower-case words separated by spaces; "..." stands for up to maxGap
// words, and a word ending in "*" matches any word it begins ("fail*":
// fails, failed, failing, failure). Where phrases overlap, the one with
// more literal words wins, so "add a test" is TestWriting and not the
// Implement cue "add", and "regression test" is not the BugFix cue
// "regression".
var cueGroups = []struct {
	kind    Kind
	weight  float64
	phrases []string
}{
	{Definition, cueStrong, []string{
		"where is ... defined", "where's ... defined", "where are ... defined", "where ... defined",
		"where is ... declared", "where are ... declared", "where is ... implemented", "where's ... implemented",
		"where are ... implemented", "definition of", "definitions of", "go to definition",
		"jump to definition", "find the definition", "show me the definition", "show me the implementation",
		"show me the code", "show the definition", "what does ... do", "what do ... do", "what is ... for",
		"what is the purpose of", "purpose of", "how does ... work", "how do ... work", "how is ... implemented",
		"how are ... implemented", "signature of", "what does ... return", "what type", "where can i find",
		"walk me through", "help me understand", "what happens",
	}},
	{Definition, cueMedium, []string{
		"explain*", "show me", "what is", "what's", "what are", "what does", "how does", "where is",
		"where's", "where are", "look up", "locate", "understand", "docstring", "which file", "which module",
		"which class", "declared", "declaration", "defined", "documented", "describe how",
	}},
	{Definition, cueWeak, []string{"how do i", "how can i", "how to", "where", "lookup"}},

	{Usage, cueStrong, []string{
		"who calls", "who's calling", "what calls", "which functions call", "which ... calls", "which ... call",
		"callers of", "callers", "call sites", "call site", "callsites", "callsite", "usages", "all uses",
		"uses of", "where is ... used", "where are ... used", "where's ... used", "where ... used",
		"where is ... called", "where are ... called", "where ... called", "where is ... referenced",
		"where ... referenced", "where ... invoked", "find all references", "find references",
		"references to", "all references", "who uses", "what uses", "which ... use", "who depends on",
		"what depends on", "call graph", "call hierarchy", "call chain", "callees", "how is ... used",
		"how are ... used", "how ... is called", "how ... are called", "impact of changing", "what would break", "what breaks if", "blast radius",
	}},
	{Usage, cueMedium, []string{
		"usage of", "is used", "are used", "used by", "referenced", "references", "invoked",
		"invocations", "depends on", "dependents", "how to use", "example usage", "examples of",
		"every place", "all places",
	}},
	{Usage, cueWeak, []string{"usage", "calls", "called", "everywhere"}},

	{Implement, cueStrong, []string{
		"add support for", "add support", "implement", "implementing", "feature request", "new feature",
		"would be nice", "would be great", "would be helpful", "would be useful", "would love", "nice to have",
		"please add", "add a new", "add new", "add an option", "add option", "add a flag", "add a way",
		"add the ability", "add an endpoint", "add a command", "add a method", "add a function",
		"add ... support", "provide a way", "allow users to", "make it possible", "ability to",
		"enhancement", "proposal", "create a new", "build a new", "we should support", "should support",
		"not supported", "isn't supported", "is not supported", "doesn't support", "does not support",
		"no support for", "missing support", "lack of support", "not implemented", "not yet implemented",
		"scaffold", "wire up", "integrate with", "integration with", "new endpoint", "new command",
		"new option", "new flag", "new api",
	}},
	{Implement, cueMedium, []string{
		"support for", "feature", "features", "implemented", "propose", "introduce", "extend", "integrate",
		"configurable", "expose", "allow ... to", "opt in", "port ... to",
	}},
	{Implement, cueWeak, []string{
		"add", "adds", "adding", "create", "new", "support", "allow*", "enable", "option", "customiz*",
		"request", "implementation", "improve",
	}},

	{BugFix, cueStrong, []string{
		"traceback", "stack trace", "stacktrace", "backtrace", "crash*", "segfault*", "segmentation fault",
		"core dump*", "regression", "regressed", "bug", "bugs", "buggy", "fail*", "broken", "breaks",
		"doesn't work", "does not work", "doesnt work", "don't work", "not working", "isn't working",
		"no longer", "stopped working", "incorrect*", "wrong", "wrongly", "unexpected*", "panic*",
		"deadlock*", "race condition", "data race", "memory leak", "infinite loop", "hangs", "hanging",
		"freezes", "null pointer", "nil pointer", "off by one", "throws", "throwing", "raises", "raised",
		"steps to reproduce", "to reproduce", "expected behavior", "expected behaviour", "actual behavior",
		"actual behaviour", "expected ... but got", "expected ... got", "returns none", "returns null",
		"returns nil", "returns undefined", "returns nan", "has no effect", "does nothing", "is ignored",
		"are ignored", "not respected", "not honored", "not honoured", "silently", "corrupt*",
	}},
	{BugFix, cueMedium, []string{
		"error", "errors", "erroring", "errored", "exception", "exceptions", "fix", "fixes", "fixed",
		"fixing", "reproduc*", "workaround", "after upgrading", "after updating", "since upgrading",
		"since version", "flaky", "flake", "leak*", "times out", "timed out", "timeout", "mismatch",
		"invalid", "ignored", "ignores", "misbehav*", "glitch", "expected ... but",
	}},
	{BugFix, cueWeak, []string{
		"problem", "why does", "why is", "why do", "why", "should not", "shouldn't", "instead", "typo",
		"warning", "warnings", "issue", "slow", "slower", "slowdown",
	}},

	{Refactor, cueStrong, []string{
		"refactor*", "rename*", "clean up", "cleanup", "deprecat*", "simplif*", "reorganiz*", "reorganis*",
		"restructur*", "decouple", "consolidate", "tech debt", "technical debt", "dead code", "unused code",
		"get rid of", "split ... into", "move ... into", "extract ... into", "extract ... out", "pull out",
		"pull ... out", "break up", "break ... into", "modernize", "modernise", "code smell",
		"duplicate code", "duplicated code", "code duplication", "reduce duplication",
		"without changing behavior", "without changing behaviour", "no functional change*",
		"no behavior change", "preserve behavior", "remove unused", "extract method", "extract function",
		"extract interface",
	}},
	{Refactor, cueMedium, []string{
		"extract", "move ... to", "replace ... with", "migrate", "readability", "readable", "maintainab*",
		"rewrite", "unify", "generaliz*", "dedupe", "deduplicate", "unused", "move", "split", "reuse",
		"abstraction", "change the signature", "use ... instead of",
	}},
	{Refactor, cueWeak, []string{"remove", "inline", "convert ... to", "tidy", "upgrade", "bump"}},

	{TestWriting, cueStrong, []string{
		"write tests", "write test", "write a test", "write a unit test", "write unit tests",
		"write ... test*", "writing tests", "add a test", "add tests", "add test", "add a unit test",
		"add unit tests", "add more tests", "add ... test*", "test coverage", "code coverage",
		"improve coverage", "increase coverage", "unit test*", "test case for", "test cases for",
		"tests for", "test for", "regression test*", "integration test*", "e2e test*", "end to end test*",
		"property based test*", "property test*", "fuzz test*", "table test*", "table driven",
		"snapshot test*", "untested", "not tested", "no tests", "missing tests", "lacks tests",
		"without tests", "cover ... with test*", "covered by test*", "test suite",
	}},
	{TestWriting, cueMedium, []string{
		"coverage", "test case", "test cases", "testing", "pytest", "jest", "junit", "mocha", "vitest",
		"rspec", "mock*", "stub*", "fixture*", "test that",
	}},
	{TestWriting, cueWeak, []string{"test*", "assert*", "testable"}},

	{noKind, neutral, []string{
		"memory usage", "cpu usage", "disk usage", "gpu usage", "resource usage", "error message",
		"error messages", "error handling", "exception handling", "implementation of", "test data",
		"is your feature request related to a problem",
	}},
}

// A cue is one compiled phrase.
type cue struct {
	phrase string
	kind   Kind // noKind for neutral cues
	weight float64
	words  []cueWord
	// literals is the number of words that are not gaps: the longer of two
	// overlapping cues wins.
	literals int
}

type cueWord struct {
	text   string
	prefix bool // text is a prefix ("fail*")
	gap    bool // "...": up to maxGap words
}

func (w cueWord) matches(word string) bool {
	if w.prefix {
		return strings.HasPrefix(word, w.text)
	}
	return word == w.text
}

// minPrefix is the shortest prefix word: prefix cues are found by the
// first minPrefix bytes of a word.
const minPrefix = 3

// A matcher finds cues in a token stream, leftmost-longest.
type matcher struct {
	cues     []cue
	byWord   map[string][]int // cues whose first word is exactly the key
	byPrefix map[string][]int // cues whose first word is a prefix, by its first minPrefix bytes
}

// cues is the compiled cueGroups.
var cues = compileCues()

func compileCues() *matcher {
	m := &matcher{byWord: map[string][]int{}, byPrefix: map[string][]int{}}
	seen := map[string]bool{}
	for _, g := range cueGroups {
		for _, phrase := range g.phrases {
			c, err := compileCue(phrase, g.kind, g.weight)
			if err != nil {
				panic(err) // the table is a constant; TestCueTable checks it
			}
			if seen[phrase] {
				panic(fmt.Sprintf("intent: cue %q listed twice", phrase))
			}
			seen[phrase] = true
			i := len(m.cues)
			m.cues = append(m.cues, c)
			if first := c.words[0]; first.prefix {
				m.byPrefix[first.text[:minPrefix]] = append(m.byPrefix[first.text[:minPrefix]], i)
			} else {
				m.byWord[first.text] = append(m.byWord[first.text], i)
			}
		}
	}
	return m
}

func compileCue(phrase string, kind Kind, weight float64) (cue, error) {
	c := cue{phrase: phrase, kind: kind, weight: weight}
	for i, w := range strings.Fields(phrase) {
		switch {
		case w == "...":
			if i == 0 || c.words[i-1].gap {
				return c, fmt.Errorf("intent: cue %q: a gap must follow a word", phrase)
			}
			c.words = append(c.words, cueWord{gap: true})
		case strings.HasSuffix(w, "*"):
			w = strings.TrimSuffix(w, "*")
			if len(w) < minPrefix {
				return c, fmt.Errorf("intent: cue %q: prefix %q is shorter than %d bytes", phrase, w, minPrefix)
			}
			c.words = append(c.words, cueWord{text: w, prefix: true})
			c.literals++
		default:
			c.words = append(c.words, cueWord{text: w})
			c.literals++
		}
		if w != "..." && w != strings.ToLower(w) {
			return c, fmt.Errorf("intent: cue %q is not lower-case", phrase)
		}
	}
	if len(c.words) == 0 || c.words[len(c.words)-1].gap {
		return c, fmt.Errorf("intent: cue %q: empty, or ends in a gap", phrase)
	}
	return c, nil
}

// match returns the cue that matches the longest at toks[i] (most literal
// words; on a tie, the heaviest; then the first listed) and the index of
// the token after it, or -1.
func (m *matcher) match(pr *prose, i int) (ci, end int) {
	ci, end = -1, -1
	if pr.toks[i].ident {
		return -1, -1
	}
	word := pr.word(i)
	try := func(cands []int) {
		for _, k := range cands {
			c := &m.cues[k]
			e := matchWords(c.words, pr, i, true)
			if e < 0 {
				continue
			}
			if ci < 0 || c.literals > m.cues[ci].literals ||
				c.literals == m.cues[ci].literals && c.weight > m.cues[ci].weight {
				ci, end = k, e
			}
		}
	}
	try(m.byWord[word])
	if len(word) >= minPrefix {
		try(m.byPrefix[word[:minPrefix]])
	}
	return ci, end
}

// matchWords matches ws against toks from i and returns the index of the
// token after the match, or -1. Words after the first must not be
// separated from the one before by a sentence break, and no word may look
// like code; the words a gap skips may.
func matchWords(ws []cueWord, pr *prose, i int, first bool) int {
	toks := pr.toks
	if len(ws) == 0 {
		return i
	}
	w := ws[0]
	if w.gap {
		for g := 0; g <= maxGap; g++ {
			if g > 0 && (i+g-1 >= len(toks) || toks[i+g-1].brk) {
				break
			}
			if e := matchWords(ws[1:], pr, i+g, false); e >= 0 {
				return e
			}
		}
		return -1
	}
	if i >= len(toks) {
		return -1
	}
	t := &toks[i]
	if t.ident || !first && t.brk || !w.matches(pr.word(i)) {
		return -1
	}
	return matchWords(ws[1:], pr, i+1, false)
}
