package index

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"strings"
)

// An ignoreRule is one line of a .gitignore file.
type ignoreRule struct {
	base     string   // directory of the .gitignore, slash-separated, "" for the root
	segments []string // the pattern split on "/"; "**" matches any number of segments
	anchored bool     // contains a slash other than a trailing one: match from base
	dirOnly  bool     // trailing slash: matches directories only
	negate   bool     // leading "!": re-includes
}

// ignoreSet matches paths against gitignore rules. Later rules win, as in
// git. The zero value ignores nothing.
type ignoreSet struct {
	rules []ignoreRule
}

// add parses gitignore-format lines whose patterns are relative to base.
func (s *ignoreSet) add(base string, data []byte) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		if r, ok := parseIgnoreLine(base, sc.Text()); ok {
			s.rules = append(s.rules, r)
		}
	}
}

// addFile reads a .gitignore file; a missing or unreadable one adds nothing.
func (s *ignoreSet) addFile(base, name string) {
	data, err := os.ReadFile(name)
	if err != nil {
		return
	}
	s.add(base, data)
}

func parseIgnoreLine(base, line string) (ignoreRule, bool) {
	line = strings.TrimSuffix(line, "\r")
	if !strings.HasSuffix(line, `\ `) {
		line = strings.TrimRight(line, " ")
	}
	if line == "" || line[0] == '#' {
		return ignoreRule{}, false
	}
	r := ignoreRule{base: base}
	if line[0] == '!' {
		r.negate = true
		line = line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if strings.Contains(line, "/") {
		r.anchored = true
		line = strings.TrimPrefix(line, "/")
	}
	if line == "" {
		return ignoreRule{}, false
	}
	r.segments = strings.Split(line, "/")
	return r, true
}

// match reports whether the slash-separated path rel (relative to the
// root) is ignored. It does not look at the path's parents; callers that
// walk top-down never reach children of an ignored directory, and
// matchPath checks parents for callers that do not walk.
func (s *ignoreSet) match(rel string, isDir bool) bool {
	ignored := false
	for i := range s.rules {
		r := &s.rules[i]
		if r.negate != ignored { // only a rule that would change the outcome matters
			continue
		}
		if r.matches(rel, isDir) {
			ignored = !r.negate
		}
	}
	return ignored
}

// matchPath reports whether rel or any of its parent directories is
// ignored.
func (s *ignoreSet) matchPath(rel string) bool {
	if len(s.rules) == 0 {
		return false
	}
	for i := 0; i < len(rel); i++ {
		if rel[i] == '/' && s.match(rel[:i], true) {
			return true
		}
	}
	return s.match(rel, false)
}

func (r *ignoreRule) matches(rel string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	if r.base != "" {
		rest, ok := strings.CutPrefix(rel, r.base+"/")
		if !ok {
			return false
		}
		rel = rest
	}
	if !r.anchored {
		// A pattern without a slash matches the name at any depth.
		return globMatch(r.segments[0], path.Base(rel))
	}
	return matchSegments(r.segments, strings.Split(rel, "/"))
}

// matchSegments matches pattern segments against path segments, where a
// "**" segment matches zero or more path segments.
func matchSegments(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			if len(pat) == 1 {
				return true
			}
			for i := 0; i <= len(segs); i++ {
				if matchSegments(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 || !globMatch(pat[0], segs[0]) {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

func globMatch(pattern, name string) bool {
	ok, err := path.Match(pattern, name)
	return err == nil && ok
}
