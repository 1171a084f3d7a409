package retrieve

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Links to code: an issue that links lines of a file in the project's
// web view (github.com/pydata/xarray/blob/1be777f/xarray/core/nanops.py#L35)
// points at the code its author read, as a stack frame points at the
// code that ran, and the function around those lines is usually the one
// to fix (on the dev set, 13 of the 20 links to lines of a Python file
// fall in a function the fix edited). The path mention already lifts
// the file (FeatPath); a link also pins the definition, which a path
// cannot.
//
// The link names a commit or a branch, usually not the tree's, so its
// lines are read as they are: the lines may have moved a little since,
// rarely out of their function. The innermost callable around the
// linked lines scores 1; a callable around it (the method of a nested
// helper, the function of a closure) linkOuter, since a fix often spans
// it.

const (
	linkOuter = 0.5 // a callable around the innermost one a link points into
	maxLinks  = 16  // links read from one task
)

// A codeLink is a link to lines of a file: the path after blob/, which
// begins with the commit or branch (whose length is unknown: a branch
// may hold slashes), and the lines.
type codeLink struct {
	path       string
	start, end int
}

// linkRE matches links to lines on GitHub (blob/<ref>/<path>#L10-L20)
// and GitLab (-/blob/<ref>/<path>#L10-20).
var linkRE = regexp.MustCompile(`(?:github\.com|gitlab\.com)/[\w.-]+/[\w.-]+/(?:-/)?blob/([\w./+-]+)#L(\d+)(?:-L?(\d+))?`)

// parseLinks reads the links to lines of text.
func parseLinks(text string) []codeLink {
	var out []codeLink
	for _, m := range linkRE.FindAllStringSubmatch(text, maxLinks) {
		start, err := strconv.Atoi(m[2])
		if err != nil || start <= 0 {
			continue
		}
		end := start
		if m[3] != "" {
			if e, err := strconv.Atoi(m[3]); err == nil && e >= start {
				end = e
			}
		}
		l := codeLink{path: strings.TrimRight(m[1], "."), start: start, end: end}
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// linkFile finds the indexed file a link's path names: the longest
// suffix after the ref that is an indexed path.
func (c *corpus) linkFile(p string) int32 {
	parts := strings.Split(p, "/")
	for k := 1; k < len(parts); k++ {
		if fi, ok := c.byPath[strings.Join(parts[k:], "/")]; ok {
			return fi
		}
	}
	return -1
}

// links scores the callables the task's links to lines point into: the
// innermost callable around the lines 1, those around it linkOuter.
func (r *ranker) links() {
	if r.par.Weights[FeatLink] == 0 {
		return
	}
	feat := r.feat[FeatLink]
	for _, l := range r.q.links {
		fi := r.c.linkFile(l.path)
		if fi < 0 {
			continue
		}
		var around []int32
		for _, d := range r.c.files[fi].defs {
			def := &r.c.defs[d]
			if def.Kind.IsCallable() && def.Span.StartLine <= l.end && l.start <= def.Span.EndLine {
				around = append(around, d)
			}
		}
		// Innermost first: the callable of fewest lines.
		slices.SortFunc(around, func(a, b int32) int { return r.c.defs[a].Span.Lines() - r.c.defs[b].Span.Lines() })
		for i, d := range around {
			s := linkOuter
			if i == 0 {
				s = 1
			}
			feat[d] = max(feat[d], s)
		}
	}
}
