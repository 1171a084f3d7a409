package retrieve

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/winnowhq/winnow/internal/index"
)

// patchCorpus brings old, a corpus of an earlier generation of the same
// index, up to snap (a snapshot of the index, or a delta file): it reads the list of files (index.FileKeys)
// and the definitions and documents of only the files whose key changed,
// and keeps the rest of old. The result is the corpus buildCorpus makes
// of the snapshot, field for field (TestPatchedCorpusIsBuilt): documents
// are in the same order (definitions by id, files by path) and the text
// indexes are laid out in the canonical order (textBuilder.build). It
// reports false, and builds nothing, where that cannot be guaranteed or
// would not pay: another index instance, a corpus with definitions
// outside its files, more than patchMaxFiles files changed, or counts
// that do not add up. old is not modified.
func patchCorpus(ctx context.Context, snap patchSource, old *corpus) (*corpus, bool, error) {
	gen, err := snap.Stamp(ctx)
	if err != nil {
		return nil, false, err
	}
	if instance(gen) != instance(old.gen) || instance(gen) == "" {
		return nil, false, nil
	}
	if slices.ContainsFunc(old.defs, func(d defEntry) bool { return d.file < 0 }) {
		return nil, false, nil
	}
	keys, err := snap.FileKeys(ctx)
	if err != nil {
		return nil, false, err
	}
	oldByID := make(map[int64]int32, len(old.files))
	for i := range old.files {
		oldByID[old.files[i].id] = int32(i)
	}
	fileMap := make([]int32, len(old.files)) // old file → new, -1 if it changed or went
	for i := range fileMap {
		fileMap[i] = -1
	}
	var changed []int64
	for i, k := range keys {
		if of, ok := oldByID[k.ID]; ok && old.unchanged(of, k) {
			fileMap[of] = int32(i)
		} else {
			changed = append(changed, k.ID)
		}
	}
	if len(changed) > patchMaxFiles {
		return nil, false, nil
	}

	// Definitions by id: old ones of unchanged files, merged with those of
	// the changed files.
	var fresh []index.Brief
	if err := snap.ForEachBriefOf(ctx, changed, func(b *index.Brief) error { fresh = append(fresh, *b); return nil }); err != nil {
		return nil, false, err
	}
	tier, err := snap.Tier(ctx)
	if err != nil {
		return nil, false, err
	}
	c := &corpus{gen: gen, tier: tier, files: make([]fileEntry, len(keys))}
	defMap := make([]int32, len(old.defs)) // old definition → new, -1 if gone
	defByID := make(map[int64]int32, len(fresh))
	c.defs = make([]defEntry, 0, len(old.defs)+len(fresh))
	j := 0
	for i := range old.defs {
		d := &old.defs[i]
		nf := fileMap[d.file]
		if nf < 0 {
			defMap[i] = -1
			continue
		}
		for ; j < len(fresh) && fresh[j].ID < d.ID; j++ {
			defByID[fresh[j].ID] = int32(len(c.defs))
			c.defs = append(c.defs, defEntry{Brief: fresh[j], file: -1})
		}
		defMap[i] = int32(len(c.defs))
		c.defs = append(c.defs, defEntry{Brief: d.Brief, file: nf})
	}
	for ; j < len(fresh); j++ {
		defByID[fresh[j].ID] = int32(len(c.defs))
		c.defs = append(c.defs, defEntry{Brief: fresh[j], file: -1})
	}
	if n, err := snap.NumSymbols(ctx); err != nil {
		return nil, false, err
	} else if n != len(c.defs) {
		return nil, false, nil // symbols outside the indexed files: buildCorpus keeps them, unfiled
	}

	for of, nf := range fileMap {
		if nf >= 0 {
			f := old.files[of]
			f.defs = make([]int32, len(f.defs))
			for i, d := range old.files[of].defs {
				f.defs[i] = defMap[d]
			}
			c.files[nf] = f
		}
	}
	defs, files := newTextBuilder(0), newTextBuilder(0)
	var acc fileAccumulator
	byPath := make(map[string]int32, len(changed))
	for i, k := range keys {
		byPath[k.Path] = int32(i)
	}
	read := 0
	err = snap.ForEachFileDocsOf(ctx, changed, func(fd *index.FileDocs) error {
		read++
		fi := byPath[fd.Path]
		f := fileEntry{id: fd.FileID, path: fd.Path, lang: fd.Language, hash: fd.Hash}
		acc.add(files, fd.File)
		for i, id := range fd.Symbols {
			di, ok := defByID[id]
			if !ok {
				continue // as buildCorpus
			}
			c.defs[di].file = fi
			f.defs = append(f.defs, di)
			defs.addDoc(di, fd.Docs[i])
			acc.add(files, fd.Docs[i])
		}
		acc.flushTo(files, fi)
		c.files[fi] = f
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	if read != len(changed) || slices.ContainsFunc(c.defs, func(d defEntry) bool { return d.file < 0 }) {
		return nil, false, nil // the snapshot's rows disagree with themselves: let the full build decide
	}
	c.defText = patchText(&old.defText, defMap, defs, len(c.defs))
	c.fileText = patchText(&old.fileText, fileMap, files, len(c.files))
	names, norms := make(map[string][]int32), make(map[string][]int32)
	for _, di := range defByID {
		name := c.defs[di].Name
		names[strings.ToLower(name)] = append(names[strings.ToLower(name)], di)
		norms[normName(name)] = append(norms[normName(name)], di)
	}
	c.names = patchGroups(&old.names, defMap, names)
	c.norm = patchGroups(&old.norm, defMap, norms)
	return c, true, nil
}

// patchGroups makes the groups groupNames would of the new definitions:
// old's lists, renumbered by defMap (increasing where it is not -1),
// merged with the fresh definitions of each key, keys sorted and those
// left empty dropped. It sorts only the fresh keys, where groupNames
// sorts them all (a third of a one-file update of sympy).
func patchGroups(old *groups, defMap []int32, fresh map[string][]int32) groups {
	keys := slices.Sorted(maps.Keys(fresh))
	g := groups{
		keys:  make([]string, 0, len(old.keys)+len(keys)),
		start: make([]uint32, 1, len(old.keys)+len(keys)+1),
		items: make([]int32, 0, len(old.items)+len(fresh)),
	}
	for i, j := 0, 0; i < len(old.keys) || j < len(keys); {
		var key string
		var os, fs []int32
		switch {
		case j == len(keys) || i < len(old.keys) && old.keys[i] < keys[j]:
			key, os = old.keys[i], old.items[old.start[i]:old.start[i+1]]
			i++
		case i == len(old.keys) || keys[j] < old.keys[i]:
			key, fs = keys[j], fresh[keys[j]]
			j++
		default:
			key, os, fs = old.keys[i], old.items[old.start[i]:old.start[i+1]], fresh[keys[j]]
			i, j = i+1, j+1
		}
		slices.Sort(fs)
		n := len(g.items)
		for len(os) > 0 || len(fs) > 0 {
			switch {
			case len(os) > 0 && defMap[os[0]] < 0:
				os = os[1:]
			case len(fs) == 0 || len(os) > 0 && defMap[os[0]] < fs[0]:
				g.items = append(g.items, defMap[os[0]])
				os = os[1:]
			default:
				g.items = append(g.items, fs[0])
				fs = fs[1:]
			}
		}
		if len(g.items) > n {
			g.keys = append(g.keys, key)
			g.start = append(g.start, uint32(len(g.items)))
		}
	}
	return g
}

// patchMaxFiles is the most changed files patchCorpus takes on: past it,
// reading them is most of a full build anyway.
const patchMaxFiles = 500

// instance is the index instance a stamp names (index.Stamp).
func instance(stamp string) string {
	i := strings.LastIndexByte(stamp, '/')
	if i < 0 {
		return ""
	}
	return stamp[:i]
}

// unchanged reports whether file of holds what k describes: same id,
// path, language, content and definition ids.
func (c *corpus) unchanged(of int32, k index.FileKey) bool {
	f := &c.files[of]
	if f.path != k.Path || f.lang != k.Language || f.hash != k.Hash || len(f.defs) != k.Symbols {
		return false
	}
	for i, d := range f.defs {
		if c.defs[d].ID != k.First+int64(i) || c.defs[d].FileID != k.ID {
			return false
		}
	}
	return true
}

// patchText makes the text index of the new documents: old's postings of
// the documents docMap keeps (renumbered; docMap is increasing where it
// is not -1), merged with fresh's, which were added under their new
// numbers, in the canonical layout of textBuilder.build. It is one pass
// over old's postings, which it copies: a term that gains no posting is
// a loop of a table lookup per posting, and the hash table of terms is
// old's when no term came or went.
func patchText(old *bm25, docMap []int32, fresh *textBuilder, docs int) bm25 {
	ft, fs := fresh.byTerm()
	b := bm25{
		terms:   make([]string, 0, len(old.terms)+len(ft)),
		start:   make([]uint32, 1, len(old.terms)+len(ft)+1),
		df:      make([]uint32, 0, len(old.terms)+len(ft)),
		entries: make([]posting, 0, len(old.entries)+len(fresh.raw)),
	}
	same := true // the terms are old's
	for i, j := 0, 0; i < len(old.terms) || j < len(ft); {
		var term string
		var os, ps []posting
		switch {
		case j == len(ft) || i < len(old.terms) && old.terms[i] < ft[j]:
			term, os = old.terms[i], old.entries[old.start[i]:old.start[i+1]]
			i++
		case i == len(old.terms) || ft[j] < old.terms[i]:
			term, ps = ft[j], fs[j]
			j++
			same = false
		default:
			term, os, ps = old.terms[i], old.entries[old.start[i]:old.start[i+1]], fs[j]
			i, j = i+1, j+1
		}
		n := len(b.entries)
		// The fresh postings go in among the old ones by document: a
		// fresh document's number is no old document's.
		oi := 0
		for _, f := range ps {
			for ; oi < len(os); oi++ {
				d := docMap[os[oi].doc]
				if d >= f.doc {
					break
				}
				if d >= 0 {
					b.entries = append(b.entries, posting{doc: d, fc: os[oi].fc})
				}
			}
			b.entries = append(b.entries, f)
		}
		for _, p := range os[oi:] {
			if d := docMap[p.doc]; d >= 0 {
				b.entries = append(b.entries, posting{doc: d, fc: p.fc})
			}
		}
		if len(b.entries) == n {
			same = false // a term left without postings
			continue
		}
		var df uint32
		last := int32(-1)
		for _, p := range b.entries[n:] {
			if p.doc != last {
				df++
				last = p.doc
			}
		}
		b.terms = append(b.terms, term)
		b.start = append(b.start, uint32(len(b.entries)))
		b.df = append(b.df, df)
	}
	if same {
		b.terms, b.slots = old.terms, old.slots
	} else {
		b.slots = hashTerms(b.terms)
	}

	const nf = int(index.NumFields)
	b.fieldLen = make([]float32, docs*nf)
	for od, nd := range docMap {
		if nd >= 0 {
			copy(b.fieldLen[int(nd)*nf:(int(nd)+1)*nf], old.fieldLen[od*nf:(od+1)*nf])
		}
	}
	for i, x := range fresh.fieldLen {
		if x != 0 {
			b.fieldLen[i] = x
		}
	}
	return b
}

// byTerm returns t's terms sorted and, for each, its postings by
// document, then field: a stable counting sort by term of the postings,
// which were added a document at a time.
func (t *textBuilder) byTerm() ([]string, [][]posting) {
	order := make([]uint32, len(t.terms))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(t.terms[a], t.terms[b]) })
	rank := make([]uint32, len(t.terms))
	terms := make([]string, len(t.terms))
	for r, id := range order {
		rank[id] = uint32(r)
		terms[r] = t.terms[id]
	}
	next := make([]uint32, len(terms)+1)
	for _, r := range t.raw {
		next[rank[r.term]+1]++
	}
	for i := range terms {
		next[i+1] += next[i]
	}
	bounds := slices.Clone(next)
	all := make([]posting, len(t.raw))
	for _, r := range t.raw {
		k := rank[r.term]
		all[next[k]] = r.posting
		next[k]++
	}
	lists := make([][]posting, len(terms))
	for i := range lists {
		ps := all[bounds[i]:bounds[i+1]:bounds[i+1]]
		if !slices.IsSortedFunc(ps, func(a, b posting) int { return cmp.Compare(a.doc, b.doc) }) {
			slices.SortStableFunc(ps, func(a, b posting) int { return cmp.Compare(a.doc, b.doc) })
		}
		lists[i] = ps
	}
	return terms, lists
}
