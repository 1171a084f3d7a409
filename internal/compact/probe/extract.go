package probe

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/winnowhq/winnow/internal/compact/traj"
)

// Kinds of facts.
const (
	KindPath  = "path"
	KindError = "error"
)

// Bounds on an error line worth probing: shorter lines are too generic
// ("Error"), longer ones are data, not a message.
const (
	minErrorLine = 8
	maxErrorLine = 300
	minErrorTail = 16 // the message part of an error line, when the agent quotes only that
)

// A Fact is a string the agent learned from a tool output and used
// later.
type Fact struct {
	Kind    string // KindPath or KindError
	Text    string // the string, as it appears in the output and in every use
	Message int    // index of the message holding the output
	ID      string // the tool call the output answers; empty in the text form
	Uses    []int  // indices of the assistant messages that use it, ascending
}

// patterns finds facts in text. Its regexps are compiled once per Extract.
type patterns struct {
	path  *regexp.Regexp
	error *regexp.Regexp
}

func newPatterns() patterns {
	return patterns{
		// A path has at least one slash and a file extension starting
		// with a letter; it may be absolute or relative. The character
		// before it must not continue a word, a path or a URL
		// ("https://host/x.py" does not yield "host/x.py").
		path: regexp.MustCompile("(?:^|[\\s'\"`(\\[<>=,;|{])((?:~/|\\.{1,2}/|/)?(?:[\\w.@+-]+/)+[\\w.@+-]*\\w\\.[A-Za-z][A-Za-z0-9]{0,9})"),
		// An error line starts like an error report ("ValueError: …",
		// "E   pkg.FooError", "Traceback (most recent call last):",
		// "FAILED …", "panic: …") or carries a compiler's ": error:".
		// Code that merely names an error ("raise ValueError(") does not.
		error: regexp.MustCompile(`^(?:E\s+)?(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)(?::|$)|^Traceback \(most recent call last\)|^(?:FAILED|FAIL|ERROR)\b|^(?:panic|fatal|error):|: (?:fatal )?error:`),
	}
}

// pathEnd reports whether c may follow a path: the path must not run on
// into more word characters.
func pathEnd(c byte) bool {
	return !(c == '_' || c == '-' || c == '/' || c == '@' || c == '+' ||
		'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9')
}

// paths returns the distinct paths in text, in order of appearance.
func (p patterns) paths(text string) []string {
	var out []string
	seen := make(map[string]bool)
	for _, m := range p.path.FindAllStringSubmatchIndex(text, -1) {
		s, e := m[2], m[3]
		if e < len(text) && !pathEnd(text[e]) {
			continue
		}
		if path := text[s:e]; !seen[path] {
			seen[path] = true
			out = append(out, path)
		}
	}
	return out
}

// errors returns the distinct error lines in text, trimmed, in order.
func (p patterns) errors(text string) []string {
	var out []string
	seen := make(map[string]bool)
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if len(line) < minErrorLine || len(line) > maxErrorLine || seen[line] || !p.error.MatchString(line) {
			continue
		}
		seen[line] = true
		out = append(out, line)
	}
	return out
}

// errorForms returns the strings by which an agent may use an error
// line: the line, and the message after "Type: " when it is long enough
// to be specific.
func errorForms(line string) []string {
	forms := []string{line}
	if i := strings.Index(line, ": "); i >= 0 {
		if tail := strings.TrimSpace(line[i+2:]); len(tail) >= minErrorTail {
			forms = append(forms, tail)
		}
	}
	return forms
}

// Extract returns the facts of t: the file paths and error lines of its
// tool outputs (see traj.Observations) that the agent used in a later
// assistant message (its text, or a tool call's name and arguments) and
// that no message before the output held. A string that first appears in
// the agent's own command ("open src/x.py") or in the task is not learned
// from a tool output, so it is no fact. Each fact belongs to the first
// output that shows it.
func Extract(t traj.Trajectory) ([]Fact, error) {
	obs, err := t.Observations()
	if err != nil {
		return nil, fmt.Errorf("probe %s: %w", t.Name, err)
	}
	texts, uses, err := messageTexts(t)
	if err != nil {
		return nil, fmt.Errorf("probe %s: %w", t.Name, err)
	}
	pat := newPatterns()
	seen := make(map[string]bool)
	var facts []Fact
	for _, o := range obs {
		for _, cand := range candidates(pat, o.Text) {
			for _, form := range cand.forms {
				if seen[form] {
					break
				}
				used := usesAfter(uses, o.Message, form)
				if len(used) == 0 || strings.Contains(t.System, form) || heldBefore(texts, o.Message, form) {
					continue
				}
				seen[form] = true
				facts = append(facts, Fact{Kind: cand.kind, Text: form, Message: o.Message, ID: o.ID, Uses: used})
				break
			}
		}
	}
	return facts, nil
}

type candidate struct {
	kind  string
	forms []string // the strings it may be used by, most specific first
}

func candidates(pat patterns, text string) []candidate {
	var out []candidate
	for _, p := range pat.paths(text) {
		out = append(out, candidate{KindPath, []string{p}})
	}
	for _, e := range pat.errors(text) {
		out = append(out, candidate{KindError, errorForms(e)})
	}
	return out
}

// messageTexts returns the text of every message of t (for "held
// before") and, for assistant messages, the text an agent uses facts in:
// its text and its tool calls' names and arguments, arguments decoded
// from JSON so that quoted strings read as written.
func messageTexts(t traj.Trajectory) (texts, uses []string, err error) {
	texts = make([]string, len(t.Messages))
	uses = make([]string, len(t.Messages))
	for i, raw := range t.Messages {
		m, err := traj.ParseMessage(t.Dialect, raw)
		if err != nil {
			return nil, nil, fmt.Errorf("message %d: %w", i, err)
		}
		parts := []string{m.Text}
		for _, c := range m.Calls {
			parts = append(parts, c.Name, argumentsText(c.Input))
		}
		for _, r := range m.Results {
			parts = append(parts, r.Text)
		}
		texts[i] = strings.Join(parts, "\n")
		if m.Role == "assistant" {
			uses[i] = texts[i]
		}
	}
	return texts, uses, nil
}

func argumentsText(input string) string {
	if json.Valid([]byte(input)) {
		if s, err := traj.Render([]byte(input)); err == nil {
			return s
		}
	}
	return input
}

// usesAfter returns the assistant messages after message k whose use text
// holds s.
func usesAfter(uses []string, k int, s string) []int {
	var out []int
	for i := k + 1; i < len(uses); i++ {
		if uses[i] != "" && strings.Contains(uses[i], s) {
			out = append(out, i)
		}
	}
	return out
}

// heldBefore reports whether a message before k holds s.
func heldBefore(texts []string, k int, s string) bool {
	for i := range k {
		if strings.Contains(texts[i], s) {
			return true
		}
	}
	return false
}
