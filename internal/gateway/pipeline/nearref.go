package pipeline

import (
	"errors"
	"fmt"
	"strings"
)

// Near references: a JSON text that repeats a remembered one except for a
// few scalar values (an issue whose state and updated_at changed between
// two polls) is sent as the changes only.
//
// Two texts qualify when they have the same scalars in the same places
// and are byte for byte the same between them (same keys, same structure,
// same whitespace); only the scalars themselves may differ. The new text
// is then exactly the old one with those scalars replaced, and the
// changes, written "path: old → new", say how; an old value longer than
// maxOldShown bytes is written "…" (the agent has it in the earlier
// result). Before a near reference is used, its changes are parsed back
// from the line and applied to the old text, and the result must equal
// the new text.

const (
	maxNearRefBytes   = 256 << 10 // texts above this are not compared
	maxNearRefChanges = 16
	nearRefShare      = 2 // the line must take at most 1/nearRefShare of the text's tokens
	maxOldShown       = 16
	arrow             = " → "
	elided            = "…"
)

// A change is one scalar that differs: its path and its JSON literals.
type change struct {
	path     string
	old, new string
}

// nearRef returns the line that stands for text as changes to b's text, if
// it qualifies, is short enough and reconstructs text exactly.
func nearRef(t *Turn, b nearBase, text string) (string, bool) {
	if d := len(text) - len(b.text); d > len(b.text)/4 || -d > len(b.text)/4 {
		return "", false
	}
	cs, ok := diffScalars(b.text, text)
	if !ok {
		return "", false
	}
	head := "[same as " + b.name + ", except: "
	body := formatChanges(cs)
	line := head + body + "]"
	if t.count(line)*nearRefShare > t.count(text) {
		return "", false
	}
	parsed, err := parseChanges(body)
	if err != nil {
		return "", false
	}
	if got, err := applyChanges(b.text, parsed); err != nil || got != text {
		return "", false
	}
	return line, true
}

// span is the byte range [start, end) of a text.
type span struct{ start, end int }

// scalars returns the ranges of the scalar values of a JSON document.
func scalars(s string) ([]span, bool) {
	var out []span
	w := jsonWalk{s: s, scalar: func(start, end int) { out = append(out, span{start, end}) }}
	if w.run() != nil {
		return nil, false
	}
	return out, true
}

// diffScalars returns the scalars in which b differs from a, when a and b
// are JSON documents identical everywhere else, and at most
// maxNearRefChanges differ (at least one).
func diffScalars(a, b string) ([]change, bool) {
	sa, ok := scalars(a)
	if !ok {
		return nil, false
	}
	sb, ok := scalars(b)
	if !ok || len(sa) != len(sb) {
		return nil, false
	}
	var diff []int
	pa, pb := 0, 0
	for i := range sa {
		if a[pa:sa[i].start] != b[pb:sb[i].start] {
			return nil, false
		}
		if a[sa[i].start:sa[i].end] != b[sb[i].start:sb[i].end] {
			if len(diff) == maxNearRefChanges {
				return nil, false
			}
			diff = append(diff, i)
		}
		pa, pb = sa[i].end, sb[i].end
	}
	if a[pa:] != b[pb:] || len(diff) == 0 {
		return nil, false
	}
	paths := scalarPaths(a, diff)
	cs := make([]change, len(diff))
	for j, i := range diff {
		if paths[j] == "" {
			return nil, false // a lone scalar: nothing to refer to
		}
		cs[j] = change{path: paths[j], old: a[sa[i].start:sa[i].end], new: b[sb[i].start:sb[i].end]}
	}
	return cs, true
}

// scalarPaths returns the paths of the scalars of s with the given
// (increasing) ordinals.
func scalarPaths(s string, ordinals []int) []string {
	out := make([]string, 0, len(ordinals))
	n := 0
	var w *jsonWalk
	w = &jsonWalk{s: s, scalar: func(start, end int) {
		if len(out) < len(ordinals) && ordinals[len(out)] == n {
			out = append(out, formatPath(w.path))
		}
		n++
	}}
	w.run()
	return out
}

// formatChanges writes changes as "path: old → new, path: old → new".
func formatChanges(cs []change) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteString(", ")
		}
		old := c.old
		if len(old) > maxOldShown {
			old = elided
		}
		b.WriteString(c.path + ": " + old + arrow + c.new)
	}
	return b.String()
}

// A parsedChange is a change read back from its written form.
type parsedChange struct {
	path []pathPart
	lit  string // the new literal
}

// parseChanges reads what formatChanges wrote.
func parseChanges(s string) ([]parsedChange, error) {
	var out []parsedChange
	for s != "" {
		path, n, ok := parsePath(s)
		if !ok || !strings.HasPrefix(s[n:], ": ") {
			return nil, fmt.Errorf("change %d: no path", len(out)+1)
		}
		s = s[n+2:]
		old := len(elided)
		if !strings.HasPrefix(s, elided) {
			old = scalarLiteral(s)
		}
		if old == 0 || !strings.HasPrefix(s[old:], arrow) {
			return nil, fmt.Errorf("change %d: no old value", len(out)+1)
		}
		s = s[old+len(arrow):]
		lit := scalarLiteral(s)
		if lit == 0 {
			return nil, fmt.Errorf("change %d: no new value", len(out)+1)
		}
		out = append(out, parsedChange{path: path, lit: s[:lit]})
		s = s[lit:]
		if s != "" && !strings.HasPrefix(s, ", ") {
			return nil, fmt.Errorf("change %d: unexpected %q", len(out), s[:min(len(s), 8)])
		}
		s = strings.TrimPrefix(s, ", ")
	}
	return out, nil
}

// applyChanges returns base with the scalar at each change's path replaced
// by its literal. Every path must name exactly one scalar.
func applyChanges(base string, cs []parsedChange) (string, error) {
	type repl struct {
		span
		lit string
	}
	var rs []repl
	hits := make([]int, len(cs))
	var w *jsonWalk
	w = &jsonWalk{s: base, scalar: func(start, end int) {
		for i, c := range cs {
			if matches(w.path, c.path) {
				hits[i]++
				rs = append(rs, repl{span{start, end}, c.lit})
			}
		}
	}}
	if err := w.run(); err != nil {
		return "", err
	}
	for i, n := range hits {
		if n != 1 {
			return "", fmt.Errorf("change %d: its path names %d scalars", i+1, n)
		}
	}
	if len(rs) == 0 {
		return "", errors.New("no changes")
	}
	var b strings.Builder
	prev := 0
	for _, r := range rs {
		b.WriteString(base[prev:r.start])
		b.WriteString(r.lit)
		prev = r.end
	}
	b.WriteString(base[prev:])
	return b.String(), nil
}
