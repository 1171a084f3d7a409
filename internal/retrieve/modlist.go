package retrieve

import (
	"math"
	"regexp"
	"strings"
)

// Module lists and imports. A dotted module path in the task names a
// file (pathMentions), and a module named in prose ("the bug is in
// sphinx.ext.napoleon") usually names the file at fault. Two ways of
// writing one name a file far less:
//
//   - in a list of modules: the extensions of a Sphinx project's
//     conf.py (extensions = ["sphinx.ext.autodoc", "sphinx.ext.todo",
//     …]), the "Sphinx extensions" line of its issue template, a list of
//     installed apps. A list of n modules is the setting the reporter
//     runs in, and says of each of them what a name shared by n
//     definitions says of each (mentions): its path score is
//     1/(1+PathListDecay·ln n);
//   - in an import line of the reproducer (from sphinx.application import
//     Sphinx): the module the reporter's code starts from, its public
//     API, more often than the module at fault. Its path score is
//     PathImportShare.
//
// A module also named anywhere else in the task keeps its full score.

var (
	// a dotted name, quoted or not
	listItem = `["']?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+["']?`
	// two or more of them separated by commas alone
	moduleListRE = regexp.MustCompile(listItem + `(?:\s*,\s*` + listItem + `)+`)
	// from a.b import c / import a.b, after an interactive prompt or not
	importLineRE = regexp.MustCompile(`(?m)^[ \t]*(?:>>>[ \t]*|In \[\d+\]:[ \t]*)?(?:from[ \t]+[A-Za-z_][\w.]*[ \t]+import\b|import[ \t]+[A-Za-z_][\w.]*)[^\n]*`)
)

// A modUse is how a dotted name is written in the task: the size of the
// smallest list of modules it is written in (0: none), whether an import
// line names it, and whether the task names it anywhere else.
type modUse struct {
	list     int
	imported bool
	free     bool
}

// moduleUses reads how the task writes each dotted name that it writes
// in a list or an import line; other dotted names are not in the map.
func moduleUses(text string) map[string]modUse {
	uses := make(map[string]modUse)
	masked := []byte(text)
	blank := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if masked[i] != '\n' {
				masked[i] = ' '
			}
		}
	}
	for _, loc := range moduleListRE.FindAllStringIndex(text, -1) {
		items := dottedNames(text[loc[0]:loc[1]])
		for name := range items {
			u := uses[name]
			if u.list == 0 || len(items) < u.list {
				u.list = len(items)
			}
			uses[name] = u
		}
		blank(loc[0], loc[1])
	}
	for _, loc := range importLineRE.FindAllStringIndex(text, -1) {
		for name := range dottedNames(text[loc[0]:loc[1]]) {
			u := uses[name]
			u.imported = true
			uses[name] = u
		}
		blank(loc[0], loc[1])
	}
	if len(uses) == 0 {
		return nil
	}
	for name := range dottedNames(string(masked)) {
		if u, ok := uses[name]; ok {
			u.free = true
			uses[name] = u
		}
	}
	return uses
}

// dottedNames are the distinct dotted identifiers of s.
func dottedNames(s string) map[string]bool {
	out := make(map[string]bool)
	for _, w := range identRE.FindAllString(s, -1) {
		if w = strings.Trim(w, "."); strings.Contains(w, ".") {
			out[w] = true
		}
	}
	return out
}

// pathShare is the share of its path score a module named as ident
// keeps: 1 unless the task writes it only in lists of modules or import
// lines.
func (r *ranker) pathShare(ident string) float64 {
	u, ok := r.q.modUses[ident]
	if !ok || u.free {
		return 1
	}
	share := 0.0
	if u.list > 0 {
		share = 1 / (1 + r.par.PathListDecay*math.Log(float64(u.list)))
	}
	if u.imported {
		share = max(share, r.par.PathImportShare)
	}
	return share
}
