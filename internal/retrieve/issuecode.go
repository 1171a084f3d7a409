package retrieve

import (
	"regexp"
	"strings"
	"unicode"
)

// Code in the issue: a reproducer names the public API its author
// called (from sympy import Poly; Poly(x).foo(); xr.DataArray(...).sel();
// requests.get(url)), and the bug is usually in what that call reaches.
// This file reads the uses out of the task's code, the way a reader
// would: import lines bind names and aliases, "p = Poly(x)" binds a
// variable to a class, and every call or attribute chain is a use. The
// ranker resolves the uses through the index (codeuse.go).

// A codeUse is a name the task's code uses, with what the code says of
// where it comes from.
type codeUse struct {
	class  string  // the receiver's class: Poly(x).foo(), p = Poly(x); p.foo(), Poly.foo
	module string  // the module it comes from: "xarray" for xr.where, "sympy" for from sympy import Mod
	name   string  // the name used: foo, where, Mod
	called bool    // used as a call
	weight float64 // how sure the reading is (weightUse*)
}

// How sure a reading of a use is.
const (
	weightUseResolved = 1.0 // the code says the class or module: Poly(x).foo(), xr.where, from sympy import Mod
	weightUseBareCall = 0.7 // a call of a name the code does not import: Mod(x, y)
	weightUseMethod   = 0.4 // a method called on something of unknown class: expr.as_set()
	maxCodeUses       = 64  // uses read from one task
)

var (
	// Prompt lines of interactive sessions, fenced or not: ">>> x", "... x", "In [3]: x".
	promptLine = regexp.MustCompile(`(?m)^[ \t]*(?:>>>|\.\.\.|In \[\d+\]:)[ \t]?(.*)$`)
	importLine = regexp.MustCompile(`^\s*import\s+(.+)$`)
	fromLine   = regexp.MustCompile(`^\s*from\s+([\w.]+)\s+import\s+\(?([^)#]+)\)?`)
	// v = something(…): the variable is bound to what the call returns.
	bindLine = regexp.MustCompile(`^\s*([A-Za-z_]\w*)\s*=\s*([A-Za-z_][\w.]*)\s*\(`)
	// A chain of names, and whether it is called: a.b.c(, Name(
	useRE = regexp.MustCompile(`[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*\s*\(?`)
	// Name(…).method: a method called on a fresh instance, arguments one level deep.
	freshCall = regexp.MustCompile(`\b([A-Z]\w*)\((?:[^()]|\([^()]*\))*\)\.([A-Za-z_]\w*)`)
)

// templateCalls are what issue templates ask every reporter to run:
// they say which versions are installed, not where the bug is.
var templateCalls = map[string]bool{"show_versions": true, "print_versions": true, "version": true, "__version__": true}

// codeOf returns the code of a task: its fenced blocks, its inline code
// and the prompt lines of its prose, prompts stripped. Of a block that
// holds an interactive session, only the prompt lines are code.
func codeOf(text string) []string {
	var out []string
	for _, re := range []*regexp.Regexp{fencedCode, inlineCode} {
		for _, span := range re.FindAllString(text, -1) {
			span = strings.Trim(span, "`~")
			prompts := promptLine.FindAllStringSubmatch(span, -1)
			if len(prompts) == 0 {
				out = append(out, span)
				continue
			}
			// A session: what follows no prompt is output, not code.
			for _, m := range prompts {
				out = append(out, m[1])
			}
		}
		text = re.ReplaceAllString(text, " ")
	}
	for _, m := range promptLine.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	text = promptLine.ReplaceAllString(text, " ")
	// Calls written in prose, unquoted: "when calc Rational('0.5', '100')
	// the value is wrong".
	out = append(out, proseCall.FindAllString(text, maxCodeUses)...)
	return out
}

// proseCall is a call in prose: a name or a chain of names right before
// parentheses, their arguments on the line, one level of nesting.
var proseCall = regexp.MustCompile(`\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\((?:[^()\n]|\([^()\n]*\))*\)`)

// codeScope is what the code has bound so far: module aliases, imported
// names and variables of a known class.
type codeScope struct {
	alias    map[string]string    // xr → xarray
	imported map[string][2]string // Mod → {sympy, Mod}: module, name
	class    map[string]string    // p → Poly
}

// parseCodeUses reads the uses of the task's code blocks.
func parseCodeUses(blocks []string) []codeUse {
	sc := codeScope{alias: make(map[string]string), imported: make(map[string][2]string), class: make(map[string]string)}
	var uses []codeUse
	seen := make(map[codeUse]bool)
	add := func(u codeUse) {
		if u.name == "" || len(uses) >= maxCodeUses || pythonNoise[u.name] || templateCalls[u.name] || len(u.name) < 2 {
			return
		}
		key := u
		key.weight = 0
		if seen[key] {
			return
		}
		seen[key] = true
		uses = append(uses, u)
	}
	for _, block := range blocks {
		for line := range strings.Lines(block) {
			line = strings.TrimRight(line, "\r\n")
			if code, _, ok := strings.Cut(line, "#"); ok {
				line = code
			}
			if sc.readImport(line) {
				continue
			}
			if m := bindLine.FindStringSubmatch(line); m != nil {
				if cls := sc.classOf(m[2]); cls != "" {
					sc.class[m[1]] = cls
				}
			}
			for _, m := range freshCall.FindAllStringSubmatch(line, -1) {
				add(codeUse{class: m[1], name: m[2], called: true, weight: weightUseResolved})
			}
			for _, loc := range useRE.FindAllStringIndex(line, -1) {
				if loc[0] > 0 && (line[loc[0]-1] == '.' || isIdentByte(line[loc[0]-1])) {
					continue // the tail of a chain that starts after a call: f(x).g
				}
				chain := strings.ReplaceAll(line[loc[0]:loc[1]], " ", "")
				called := strings.HasSuffix(chain, "(")
				parts := strings.Split(strings.TrimSuffix(chain, "("), ".")
				if u, ok := sc.use(parts, called); ok {
					add(u)
				}
			}
		}
	}
	return uses
}

// readImport records an import line's bindings; it reports whether the
// line was one.
func (sc *codeScope) readImport(line string) bool {
	if m := fromLine.FindStringSubmatch(line); m != nil {
		for item := range strings.SplitSeq(m[2], ",") {
			f := strings.Fields(item)
			switch {
			case len(f) == 1 && f[0] != "*":
				sc.imported[f[0]] = [2]string{m[1], f[0]}
			case len(f) == 3 && f[1] == "as":
				sc.imported[f[2]] = [2]string{m[1], f[0]}
			}
		}
		return true
	}
	if m := importLine.FindStringSubmatch(line); m != nil {
		for item := range strings.SplitSeq(m[1], ",") {
			f := strings.Fields(item)
			switch {
			case len(f) == 1:
				top, _, _ := strings.Cut(f[0], ".")
				sc.alias[top] = top
			case len(f) == 3 && f[1] == "as":
				sc.alias[f[2]] = f[0]
			}
		}
		return true
	}
	return false
}

// classOf is the class a call returns, when the call is a constructor:
// Poly(…), xr.Dataset(…), from a.b import C; C(…). A function's result
// (symbols(…), xr.open_dataset(…)) has no class the code says.
func (sc *codeScope) classOf(callee string) string {
	parts := strings.Split(callee, ".")
	last := parts[len(parts)-1]
	if imp, ok := sc.imported[last]; ok && len(parts) == 1 {
		last = imp[1]
	}
	if r := rune(last[0]); !unicode.IsUpper(r) || strings.ToUpper(last) == last {
		return "" // a function, or a CONSTANT
	}
	return last
}

// use reads one chain of names (xr.where, p.as_set, Mod, S.Reals).
func (sc *codeScope) use(parts []string, called bool) (codeUse, bool) {
	head, n := parts[0], len(parts)
	if mod, ok := sc.alias[head]; ok {
		if n == 1 {
			return codeUse{}, false
		}
		module := strings.Join(append([]string{mod}, parts[1:n-1]...), ".")
		return codeUse{module: module, name: parts[n-1], called: called, weight: weightUseResolved}, true
	}
	if imp, ok := sc.imported[head]; ok {
		switch {
		case n == 1:
			return codeUse{module: imp[0], name: imp[1], called: called, weight: weightUseResolved}, true
		case startsUpper(imp[1]):
			return codeUse{class: imp[1], name: parts[1], called: called && n == 2, weight: weightUseResolved}, true
		default: // a module imported by name: from astropy import units as u; u.Quantity
			return codeUse{module: imp[0] + "." + imp[1] + strings.Join(append([]string{""}, parts[1:n-1]...), "."),
				name: parts[n-1], called: called, weight: weightUseResolved}, true
		}
	}
	if cls, ok := sc.class[head]; ok && n >= 2 {
		return codeUse{class: cls, name: parts[1], called: called && n == 2, weight: weightUseResolved}, true
	}
	switch {
	case n == 1 && called:
		return codeUse{name: head, called: true, weight: weightUseBareCall}, true
	case n >= 2 && startsUpper(head) && isCapitalized(head):
		return codeUse{class: head, name: parts[1], called: called && n == 2, weight: weightUseBareCall}, true
	case n >= 2 && called:
		return codeUse{name: parts[n-1], called: true, weight: weightUseMethod}, true
	}
	return codeUse{}, false
}

func startsUpper(s string) bool {
	return s != "" && unicode.IsUpper(rune(s[0]))
}
