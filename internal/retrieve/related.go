package retrieve

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/winnowhq/winnow/internal/intent"
)

const (
	snippetContext = 3  // lines around a stack frame's line
	maxSnippets    = 12 // frames shown as snippets
	importFiles    = 3  // files whose imports are shown: those of the best definitions
	relatedOf      = 5  // definitions whose tests and callers are looked for
	maxRelated     = 20 // cards per tests and callers section
)

// snippetCards are the source lines around the task's stack frames, in
// frame order (innermost first).
func (p *packer) snippetCards() []Card {
	type window struct{ from, to int }
	byFile := make(map[string][]window)
	var files []string
	notes := make(map[string]string)
	for _, fr := range p.r.Intent.Frames {
		if fr.Line <= 0 {
			continue
		}
		fi := p.c.frameFile(fr)
		if fi < 0 {
			continue
		}
		path := p.c.files[fi].path
		if byFile[path] == nil {
			files = append(files, path)
			notes[path] = fr.Function
		}
		byFile[path] = append(byFile[path], window{max(1, fr.Line-snippetContext), fr.Line + snippetContext})
		if len(files) == maxSnippets {
			break
		}
	}
	var cards []Card
	for _, path := range files {
		src, err := p.source(path)
		if err != nil {
			continue
		}
		lines := strings.Split(string(src), "\n")
		ws := byFile[path]
		slices.SortFunc(ws, func(a, b window) int { return cmp.Compare(a.from, b.from) })
		merged := ws[:1]
		for _, w := range ws[1:] {
			last := &merged[len(merged)-1]
			if w.from <= last.to+1 {
				last.to = max(last.to, w.to)
			} else {
				merged = append(merged, w)
			}
		}
		for _, w := range merged {
			to := min(w.to, len(lines))
			if w.from > to {
				continue
			}
			c := Card{
				Section: intent.Snippets, Kind: "snippet", Path: path, StartLine: w.from, EndLine: to,
				Text: strings.Join(lines[w.from-1:to], "\n"), lang: p.langOf(path),
			}
			if fn := notes[path]; fn != "" {
				c.Note = "frame in " + fn
			}
			cards = append(cards, c)
		}
	}
	return cards
}

// importCards are the import lines of the files of the best definitions.
func (p *packer) importCards(ctx context.Context, defs []Card) []Card {
	var cards []Card
	seen := make(map[string]bool)
	for _, d := range defs {
		if len(seen) == importFiles {
			break
		}
		if seen[d.Path] {
			continue
		}
		seen[d.Path] = true
		imps, err := p.e.ix.FileImports(ctx, d.Path)
		if err != nil || len(imps) == 0 {
			continue
		}
		src, err := p.source(d.Path)
		if err != nil {
			continue
		}
		lines := lineFinder{src: src}
		var text []string
		first, last, prev := 0, 0, 0
		for _, imp := range imps {
			if imp.Line == prev || imp.Line < 1 {
				continue
			}
			line, ok := lines.line(imp.Line)
			if !ok {
				continue
			}
			prev = imp.Line
			if first == 0 {
				first = imp.Line
			}
			last = imp.Line
			text = append(text, strings.TrimRight(line, " \t\r"))
		}
		if len(text) == 0 {
			continue
		}
		cards = append(cards, Card{
			Section: intent.Imports, Kind: "imports", Path: d.Path, StartLine: first, EndLine: last,
			Text: strings.Join(text, "\n"), lang: p.langOf(d.Path),
		})
	}
	return cards
}

// A lineFinder finds lines of a source by number, from 1, reading it
// only as far as the furthest line asked for: a file's imports are
// mostly at its top, and splitting a long file into lines to show them
// cost more than the rest of its card.
type lineFinder struct {
	src    []byte
	starts []int // the offsets of the lines found so far
}

// line is line n of the source as strings.Split(src, "\n") has it, and
// whether the source has that many lines.
func (f *lineFinder) line(n int) (string, bool) {
	if f.starts == nil {
		f.starts = []int{0}
	}
	for len(f.starts) < n {
		last := f.starts[len(f.starts)-1]
		i := bytes.IndexByte(f.src[last:], '\n')
		if i < 0 {
			return "", false
		}
		f.starts = append(f.starts, last+i+1)
	}
	start := f.starts[n-1]
	end := len(f.src)
	if i := bytes.IndexByte(f.src[start:], '\n'); i >= 0 {
		end = start + i
	}
	return string(f.src[start:end]), true
}

// relatedCards are the tests and the callers of the best definitions:
// definitions that use their names, split by whether they live in tests.
func (p *packer) relatedCards(ctx context.Context, defs []Card) (tests, callers []Card) {
	type target struct {
		name string
		rank int
		id   int64
	}
	var targets []target
	var names []string
	for _, d := range defs {
		if len(targets) == relatedOf {
			break
		}
		s, ok := p.syms[d.id]
		if !ok || !callableOrType(s.Kind) {
			continue
		}
		targets = append(targets, target{s.Name, d.Rank, d.id})
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		return nil, nil
	}
	edges, err := p.e.refs(p.c).RefsTo(ctx, names)
	if err != nil {
		return nil, nil
	}
	inPack := make(map[int64]bool)
	for _, d := range defs {
		inPack[d.id] = true
	}
	type use struct {
		scope  int64
		target target
		line   int
		count  int
	}
	best := make(map[int64]use)
	for _, e := range edges {
		if e.Scope == 0 || inPack[e.Scope] {
			continue
		}
		for _, t := range targets {
			if t.name != e.Name || e.Scope == t.id {
				continue
			}
			u, ok := best[e.Scope]
			if !ok || t.rank < u.target.rank {
				best[e.Scope] = use{e.Scope, t, e.Line, e.Count}
			}
		}
	}
	uses := make([]use, 0, len(best))
	for _, u := range best {
		uses = append(uses, u)
	}
	byRank := func(a, b use) int {
		return cmp.Or(cmp.Compare(a.target.rank, b.target.rank), cmp.Compare(b.count, a.count), cmp.Compare(a.scope, b.scope))
	}
	// Only the first maxRelated uses of each section are shown: decide
	// the sections from the corpus and read only those definitions.
	type shownUse struct {
		use
		section intent.Section
	}
	var shown []shownUse
	var ids []int64
	nTests, nCallers := 0, 0
	for u := range ascending(uses, byRank) {
		if nTests == maxRelated && nCallers == maxRelated {
			break
		}
		switch test := p.inTest(u.scope); {
		case test && nTests < maxRelated:
			nTests++
			shown = append(shown, shownUse{u, intent.Tests})
		case !test && nCallers < maxRelated:
			nCallers++
			shown = append(shown, shownUse{u, intent.Callers})
		default:
			continue
		}
		ids = append(ids, u.scope)
	}
	syms, err := p.e.ix.SymbolsByID(ctx, ids)
	if err != nil {
		return nil, nil
	}
	for _, u := range shown {
		s, ok := syms[u.scope]
		if !ok {
			continue // gone since the corpus was read
		}
		c := p.symbolCard(s, u.scope, u.section)
		c.Note = fmt.Sprintf("uses %s at line %d", u.target.name, u.line)
		if u.section == intent.Tests {
			tests = append(tests, c)
		} else {
			callers = append(callers, c)
		}
	}
	return tests, callers
}

// inTest reports whether the definition with the id lives in a test file.
func (p *packer) inTest(id int64) bool {
	di, ok := p.c.defByID[id]
	if !ok {
		return false
	}
	fi := p.c.defs[di].file
	return fi >= 0 && p.c.files[fi].test
}
