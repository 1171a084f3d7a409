package toolvalue

import (
	"encoding/json"
	"fmt"
	"path"
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
//	result.hits.path      the files the result's text points at, one per hit (see
//	                      ListedHits): a search's hits, a traceback's frames, a listing's
//	                      files, hits of one file within one window given once
//	arg.<name>/result.hits.path
//	                      the same, each relative path joined under the argument's value,
//	                      and the argument itself for a hit that prints no path (grep -n
//	                      and search_file on one file print lines only)
//	result.hits.line      the line of each hit that gives one
//	result.hits.offset    for each hit that gives a line, the first line and the length
//	result.hits.limit     of the window a read of it is predicted to ask for (HitWindow:
//	                      121 lines centred on the hit): approximations of the agent's
//	                      own window (see Approximate)
//	result.urls           the http and https URLs of the result's text, in order
//	result.<path>         a member of the result as JSON (its structured content, else its
//	                      text parsed as JSON): dotted names, "[]" for every element of an
//	                      array ("result.items[].number")
//	result[].<path>       the same, when the result is itself an array ("result[].number")
//	const:<json>          a constant ("const:true", "const:\"main\"")
//
// A projection yields a list of values; results with "[]", "paths", "hits" or "urls" may
// yield several, the others one or none. In a follow-up whose arguments project hits,
// each hit makes one call, and an argument the hit has no value for (the line of a hit
// that names a file only) is left out of it: after a grep with line numbers a Read of
// a window at each hit, after one without a Read of each file.
type Projection struct {
	kind  projKind
	steps []string // member names; "[]" fans out over an array; for projPaths and projHits, the argument the paths are under
	value any      // for const
	field hitField // for projHits
}

type projKind int

const (
	projArg projKind = iota
	projPaths
	projResult
	projConst
	projURLs
	projHits
)

// hitField is what a hits projection takes of each hit.
type hitField int

const (
	hitPath hitField = iota
	hitLine
	hitOffset
	hitLimit
)

var hitFields = map[string]hitField{
	"result.hits.path": hitPath, "result.hits.line": hitLine,
	"result.hits.offset": hitOffset, "result.hits.limit": hitLimit,
}

const (
	pathsSuffix = "/result.paths"
	hitsSuffix  = "/result.hits.path"
)

// ParseProjection parses one projection expression.
func ParseProjection(s string) (Projection, error) {
	switch {
	case s == "result.paths":
		return Projection{kind: projPaths}, nil
	case s == "result.urls":
		return Projection{kind: projURLs}, nil
	case isHitField(s):
		return Projection{kind: projHits, field: hitFields[s]}, nil
	case strings.HasPrefix(s, "arg.") && strings.HasSuffix(s, hitsSuffix):
		steps, err := parseSteps(s[len("arg.") : len(s)-len(hitsSuffix)])
		if err != nil {
			return Projection{}, fmt.Errorf("projection %q: %w", s, err)
		}
		return Projection{kind: projHits, steps: steps, field: hitPath}, nil
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
	return Projection{}, fmt.Errorf("projection %q: want arg.<name>, result.paths, arg.<name>/result.paths, result.hits.path, arg.<name>/result.hits.path, result.hits.line, result.hits.offset, result.hits.limit, result.urls, result.<path>, result[].<path> or const:<json>", s)
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
			if dir != "" {
				f = joinUnder(dir, f)
			}
			if !add(f) {
				break
			}
		}
	case projHits:
		for _, h := range hitWindows(src.Text) {
			if v, ok := p.hitValue(h, src); ok && !add(v) {
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

// The window a hit's read is predicted to ask for: the agents of the shared
// trajectories read from a hit up to 60 lines on (OpenHands' view_range [297, 357]
// after "297:", the longest of them) or a window centred on it (SWE-agent's goto and
// open show 100 lines, 49 above the line); hitLinesBefore centres the window on the
// hit and holds either.
const (
	hitLinesAfter  = 60
	hitLinesBefore = hitLinesAfter
)

// HitWindow returns the window of lines, its first line and its length, that a read of
// a file at line is predicted to ask for: hitLinesBefore lines above it (cut at line 1)
// to hitLinesAfter lines below.
func HitWindow(line int) (offset, limit int) {
	offset = max(1, line-hitLinesBefore)
	return offset, line - offset + 1 + hitLinesAfter
}

// hitWindows returns the hits of text (ListedHits), leaving out a hit of a file within
// the window of an earlier hit of it that is kept: the read of the first shows it.
func hitWindows(text string) []Hit {
	hits := ListedHits(text)
	out := hits[:0:0]
	kept := map[string][]int{}
next:
	for _, h := range hits {
		if h.Line > 0 {
			for _, l := range kept[h.Path] {
				if l > 0 && h.Line >= max(1, l-hitLinesBefore) && h.Line <= l+hitLinesAfter {
					continue next
				}
			}
		} else if len(kept[h.Path]) > 0 {
			continue // a file already named, with a line or without
		}
		kept[h.Path] = append(kept[h.Path], h.Line)
		out = append(out, h)
	}
	return out
}

// hitValue returns what p takes of hit h, and false when h has none: a path for a hit
// that prints none outside an "arg.<name>/" form, whose argument names a file; a line
// or a window for a hit that names a file only.
func (p Projection) hitValue(h Hit, src *Source) (any, bool) {
	switch p.field {
	case hitLine:
		return h.Line, h.Line > 0
	case hitOffset:
		offset, _ := HitWindow(h.Line)
		return offset, h.Line > 0
	case hitLimit:
		_, limit := HitWindow(h.Line)
		return limit, h.Line > 0
	}
	if len(p.steps) == 0 {
		return h.Path, h.Path != ""
	}
	var arg string
	walk(src.Args, p.steps, func(v any) bool { arg, _ = v.(string); return false })
	switch {
	case arg == "":
		return h.Path, h.Path != ""
	case h.Path == "":
		// Lines only: the search was of one file, which the argument names.
		return arg, path.Ext(arg) != ""
	case path.Ext(arg) != "" && path.Base(h.Path) == path.Base(arg):
		return arg, true // grep -Hn of one file prints it as it was named
	case path.Ext(arg) != "":
		return joinUnder(path.Dir(arg), h.Path), true
	}
	return joinUnder(arg, h.Path), true
}

// joinUnder joins a path a search or a listing of dir printed under dir: relative
// paths are relative to dir ("./a.py" and "a.py" under /r are /r/a.py) unless they
// start with dir's last element, as a search of "src" run in its parent prints them
// ("src/a.py" under /r/src is /r/src/a.py); absolute paths stay as they are.
func joinUnder(dir, p string) string {
	if path.IsAbs(p) || strings.HasPrefix(p, "~") {
		return p
	}
	rel := path.Clean(p)
	first, _, _ := strings.Cut(rel, "/")
	if first == path.Base(dir) && strings.Contains(rel, "/") {
		return path.Join(path.Dir(dir), rel)
	}
	return path.Join(dir, rel)
}

func isHitField(s string) bool {
	_, ok := hitFields[s]
	return ok
}

// Approximate reports whether p's values approximate an argument rather than take it
// from the call or its result: the window around a hit, which the agent may well ask
// for with other bounds. A cache that answers only identical calls is no place for
// such a call; an inlined result that holds the agent's window is.
func (p Projection) Approximate() bool {
	return p.kind == projHits && (p.field == hitOffset || p.field == hitLimit)
}

// Approximate reports whether args, one of the argument sets Apply made of f, holds an
// argument whose projection is approximate (see Projection.Approximate): after a grep,
// the Read of a window around a hit is, the Read of a file it named alone is not.
func (f *FollowUp) Approximate(args map[string]any) bool {
	for arg, expr := range f.Args {
		if _, ok := args[arg]; !ok {
			continue
		}
		if p, err := ParseProjection(expr); err == nil && p.Approximate() {
			return true
		}
	}
	return false
}

// Apply computes the argument sets of the follow-up f on src: one per value of its
// projections, zipped by position (a projection with one value goes with every set), at
// most limit sets. An argument whose projection yields nothing leaves no set: the edge
// does not apply to this result. When arguments project hits, there is one set per hit
// (see Projection).
func (f *FollowUp) Apply(src *Source, limit int) ([]map[string]any, error) {
	projs := make(map[string]Projection, len(f.Args))
	hits := false
	for arg, expr := range f.Args {
		p, err := ParseProjection(expr)
		if err != nil {
			return nil, err
		}
		projs[arg] = p
		hits = hits || p.kind == projHits
	}
	cols := make(map[string][]any, len(f.Args))
	n := 1
	for arg, p := range projs {
		if p.kind == projHits {
			continue
		}
		vs := p.Values(src, limit)
		if len(vs) == 0 {
			return nil, nil
		}
		cols[arg] = vs
		n = max(n, len(vs))
	}
	if hits {
		return applyHits(projs, cols, src, limit), nil
	}
	if limit > 0 {
		n = min(n, limit)
	}
	out := make([]map[string]any, 0, n)
	for i := range n {
		set := make(map[string]any, len(cols))
		if !fill(set, cols, i) {
			break
		}
		out = append(out, set)
	}
	return out, nil
}

// fill sets the arguments of cols in the i-th set: a column of one value in every set,
// the others by position; false when a column has no i-th value.
func fill(set map[string]any, cols map[string][]any, i int) bool {
	for arg, vs := range cols {
		switch {
		case len(vs) == 1:
			set[arg] = vs[0]
		case i < len(vs):
			set[arg] = vs[i]
		default:
			return false
		}
	}
	return true
}

// applyHits makes one argument set per hit of src's text: the hits projections take
// their values of the hit, an argument the hit has none for left out (a hit without a
// path makes no set), and the columns of the other projections as in Apply.
func applyHits(projs map[string]Projection, cols map[string][]any, src *Source, limit int) []map[string]any {
	var out []map[string]any
next:
	for _, h := range hitWindows(src.Text) {
		if limit > 0 && len(out) >= limit {
			break
		}
		set := make(map[string]any, len(projs))
		for arg, p := range projs {
			if p.kind != projHits {
				continue
			}
			v, ok := p.hitValue(h, src)
			switch {
			case ok:
				set[arg] = v
			case p.field == hitPath:
				continue next
			}
		}
		if !fill(set, cols, len(out)) {
			break
		}
		out = append(out, set)
	}
	return out
}
