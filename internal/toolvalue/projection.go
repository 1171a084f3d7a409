package toolvalue

import (
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"
)

// A Projection computes one argument of a follow-up call from the current call. Its forms:
//
//	arg.<name>            an argument of the current call (dotted for nested members)
//	result.paths          the file paths the result's text lists, one per line (a listing,
//	                      a search's "path:line:text" hits, find output), in order
//	arg.<name>/result.paths
//	                      the same paths, each relative one joined under the argument's
//	                      value: a listing of the directory arg.path names its entries
//	                      relative to it ("[FILE] main.go" under "src" is "src/main.go")
//	result.urls           the http and https URLs of the result's text, in order
//	result.<path>         a member of the result as JSON (its structured content, else its
//	                      text parsed as JSON): dotted names, "[]" for every element of an
//	                      array ("result.items[].number")
//	result[].<path>       the same, when the result is itself an array ("result[].number")
//	const:<json>          a constant ("const:true", "const:\"main\"")
//
// A projection yields a list of values; results with "[]", "paths" or "urls" may yield
// several, the others one or none.
type Projection struct {
	kind  projKind
	steps []string // member names; "[]" fans out over an array; for projPaths, the argument the paths are under
	value any      // for const
}

type projKind int

const (
	projArg projKind = iota
	projPaths
	projResult
	projConst
	projURLs
)

const pathsSuffix = "/result.paths"

// ParseProjection parses one projection expression.
func ParseProjection(s string) (Projection, error) {
	switch {
	case s == "result.paths":
		return Projection{kind: projPaths}, nil
	case s == "result.urls":
		return Projection{kind: projURLs}, nil
	case strings.HasPrefix(s, "arg.") && strings.HasSuffix(s, pathsSuffix):
		steps, err := parseSteps(s[len("arg.") : len(s)-len(pathsSuffix)])
		if err != nil {
			return Projection{}, fmt.Errorf("projection %q: %w", s, err)
		}
		return Projection{kind: projPaths, steps: steps}, nil
	case s == "result[]":
		return Projection{kind: projResult, steps: []string{"[]"}}, nil
	case strings.HasPrefix(s, "result[]."):
		steps, err := parseSteps(s[len("result[]."):])
		if err != nil {
			return Projection{}, fmt.Errorf("projection %q: %w", s, err)
		}
		return Projection{kind: projResult, steps: append([]string{"[]"}, steps...)}, nil
	case strings.HasPrefix(s, "const:"):
		var v any
		if err := json.Unmarshal([]byte(s[len("const:"):]), &v); err != nil {
			return Projection{}, fmt.Errorf("projection %q: the constant is not JSON: %v", s, err)
		}
		return Projection{kind: projConst, value: v}, nil
	case strings.HasPrefix(s, "arg."):
		steps, err := parseSteps(s[len("arg."):])
		if err != nil {
			return Projection{}, fmt.Errorf("projection %q: %w", s, err)
		}
		return Projection{kind: projArg, steps: steps}, nil
	case strings.HasPrefix(s, "result."):
		steps, err := parseSteps(s[len("result."):])
		if err != nil {
			return Projection{}, fmt.Errorf("projection %q: %w", s, err)
		}
		return Projection{kind: projResult, steps: steps}, nil
	}
	return Projection{}, fmt.Errorf("projection %q: want arg.<name>, result.paths, arg.<name>/result.paths, result.urls, result.<path>, result[].<path> or const:<json>", s)
}

func parseSteps(s string) ([]string, error) {
	var steps []string
	for _, part := range strings.Split(s, ".") {
		name, fan := strings.CutSuffix(part, "[]")
		if name == "" || strings.ContainsAny(name, "[]") {
			return nil, fmt.Errorf("bad member %q", part)
		}
		steps = append(steps, name)
		if fan {
			steps = append(steps, "[]")
		}
	}
	return steps, nil
}

// Source is what projections read: the current call's arguments and its result.
type Source struct {
	Args map[string]any
	// Text is the result's text content, joined; Structured its structured content
	// (nil if none).
	Text       string
	Structured any
}

// Values returns what p yields on src, at most limit values (limit ≤ 0: no limit).
func (p Projection) Values(src *Source, limit int) []any {
	var out []any
	add := func(v any) bool {
		if v == nil {
			return true
		}
		out = append(out, v)
		return limit <= 0 || len(out) < limit
	}
	switch p.kind {
	case projConst:
		add(p.value)
	case projArg:
		walk(src.Args, p.steps, add)
	case projPaths:
		dir, ok := "", len(p.steps) == 0
		if !ok {
			walk(src.Args, p.steps, func(v any) bool { dir, ok = v.(string); return false })
			if !ok || dir == "" {
				return nil
			}
		}
		for _, f := range ListedPaths(src.Text) {
			if dir != "" && !path.IsAbs(f) {
				f = path.Join(dir, f)
			}
			if !add(f) {
				break
			}
		}
	case projURLs:
		for _, u := range listedURLs(src.Text) {
			if !add(u) {
				break
			}
		}
	case projResult:
		doc := src.Structured
		if doc == nil {
			if err := json.Unmarshal([]byte(src.Text), &doc); err != nil {
				return nil
			}
		}
		walk(doc, p.steps, add)
	}
	return out
}

// walk calls add with every value steps reach from v, while add returns true.
func walk(v any, steps []string, add func(any) bool) bool {
	if len(steps) == 0 {
		switch v.(type) {
		case map[string]any, []any:
			return true // only scalars become arguments
		}
		return add(v)
	}
	switch x := v.(type) {
	case map[string]any:
		if steps[0] == "[]" {
			return true
		}
		return walk(x[steps[0]], steps[1:], add)
	case []any:
		if steps[0] != "[]" {
			return true
		}
		for _, e := range x {
			if !walk(e, steps[1:], add) {
				return false
			}
		}
	}
	return true
}

// ListedPaths returns the file paths text lists one per line, in order and without
// repeats: a line that is a path, or that starts with "path:<line>:" (grep -n) or
// "path:" (grep -l style with text after it), or a file entry of server-filesystem's
// list_directory ("[FILE] name") or list_directory_with_sizes ("[FILE] name   1.20 KB").
// Lines that are prose, and "[DIR]" entries, are skipped. A path has an extension or a
// slash and no spaces.
func ListedPaths(text string) []string {
	var out []string
	seen := map[string]bool{}
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if name, ok := strings.CutPrefix(line, "[FILE] "); ok {
			line = trimSize(name)
		}
		cand := line
		if i := strings.IndexByte(line, ':'); i > 0 {
			rest := line[i+1:]
			if j := strings.IndexByte(rest, ':'); j > 0 {
				if _, err := strconv.Atoi(rest[:j]); err == nil {
					cand = line[:i]
				}
			}
			if cand == line && !looksLikePath(line) {
				cand = line[:i]
			}
		}
		if looksLikePath(cand) && !seen[cand] {
			seen[cand] = true
			out = append(out, cand)
		}
	}
	return out
}

func looksLikePath(s string) bool {
	if s == "" || len(s) > 4096 || strings.ContainsAny(s, " \t\"'<>|*?") {
		return false
	}
	return strings.Contains(s, "/") || path.Ext(s) != ""
}

// Apply computes the argument sets of the follow-up f on src: one per value of its
// projections, zipped by position (a projection with one value goes with every set), at
// most limit sets. An argument whose projection yields nothing leaves no set: the edge
// does not apply to this result.
func (f *FollowUp) Apply(src *Source, limit int) ([]map[string]any, error) {
	cols := make(map[string][]any, len(f.Args))
	n := 1
	for arg, expr := range f.Args {
		p, err := ParseProjection(expr)
		if err != nil {
			return nil, err
		}
		vs := p.Values(src, limit)
		if len(vs) == 0 {
			return nil, nil
		}
		cols[arg] = vs
		n = max(n, len(vs))
	}
	if limit > 0 {
		n = min(n, limit)
	}
	out := make([]map[string]any, 0, n)
	for i := range n {
		set := make(map[string]any, len(cols))
		for arg, vs := range cols {
			switch {
			case len(vs) == 1:
				set[arg] = vs[0]
			case i < len(vs):
				set[arg] = vs[i]
			default:
				return out, nil
			}
		}
		out = append(out, set)
	}
	return out, nil
}

// trimSize removes the size list_directory_with_sizes prints after a name ("a.go    1.20 KB",
// formatSize in server-filesystem's lib.js).
func trimSize(entry string) string {
	f := strings.Fields(entry)
	if len(f) < 3 {
		return strings.TrimSpace(entry)
	}
	switch f[len(f)-1] {
	case "B", "KB", "MB", "GB", "TB":
	default:
		return strings.TrimSpace(entry)
	}
	if _, err := strconv.ParseFloat(f[len(f)-2], 64); err != nil {
		return strings.TrimSpace(entry)
	}
	i := strings.LastIndex(entry, f[len(f)-2])
	return strings.TrimSpace(entry[:i])
}

// listedURLs returns the http and https URLs in text, in order and without repeats, with
// the punctuation that ends a sentence or closes a quote left off.
func listedURLs(text string) []string {
	var out []string
	seen := map[string]bool{}
	for rest := text; ; {
		i := strings.Index(rest, "http")
		if i < 0 {
			return out
		}
		rest = rest[i:]
		if !strings.HasPrefix(rest, "http://") && !strings.HasPrefix(rest, "https://") {
			rest = rest[len("http"):]
			continue
		}
		end := strings.IndexFunc(rest, func(r rune) bool {
			return r <= ' ' || strings.ContainsRune(`"'<>()[]{}\`+"`", r)
		})
		if end < 0 {
			end = len(rest)
		}
		u := strings.TrimRight(rest[:end], ".,;:!?")
		rest = rest[end:]
		if len(u) > len("https://") && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
}
