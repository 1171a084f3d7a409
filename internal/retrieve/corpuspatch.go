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
	return patch(ctx, snap, old, false)
}

// patchOwned is patchCorpus for an old corpus no one else holds: the
// patched definitions may take the place of old's (old is then spoilt),
// when every new definition comes after every old one, as it does after
// files are parsed again (new ids are past the largest), and old's have
// room for them (decodeSectionsSpare). A reader opening a corpus through
// a delta file saves a copy of the 48K definitions of sympy so.
func patchOwned(ctx context.Context, snap patchSource, old *corpus) (*corpus, bool, error) {
	return patch(ctx, snap, old, true)
}

func patch(ctx context.Context, snap patchSource, old *corpus, owned bool) (*corpus, bool, error) {
	gen, err := snap.Stamp(ctx)
	if err != nil {
		return nil, false, err
	}
	if instance(gen) != instance(old.gen) || instance(gen) == "" {
		return nil, false, nil
	}
	// Every filed definition is in its file's list: a definition outside
	// every file's shows as a count short.
	filed := 0
	for i := range old.files {
		filed += len(old.files[i].defs)
	}
	if filed != len(old.defs) {
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
	// In place, an old definition moves to a place at or before its own.
	inPlace := owned && cap(old.defs)-len(old.defs) >= len(fresh) &&
		(len(fresh) == 0 || len(old.defs) == 0 || fresh[0].ID > old.defs[len(old.defs)-1].ID)
	if inPlace {
		c.defs = old.defs[:0]
	} else {
		c.defs = make([]defEntry, 0, len(old.defs)+len(fresh))
	}
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
		c.defs = append(c.defs, defEntry{Brief: d.Brief, file: nf}) // d is read before it is written
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
	defs, files := newTextBuilder(len(c.defs)), newTextBuilder(len(keys))
	var acc fileAccumulator
	byPath := make(map[string]int32, len(changed))
	for i, k := range keys {
		byPath[k.Path] = int32(i)
	}
	read, filed := 0, 0
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
			if c.defs[di].file < 0 {
				filed++
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
	if read != len(changed) || filed != len(fresh) {
		return nil, false, nil // the snapshot's rows disagree with themselves: let the full build decide
	}
	if owned && old.defText.lazy == nil {
		c.defText = patchLazily(&old.defText, defMap, defs, len(c.defs))
	} else {
		c.defText = patchText(&old.defText, defMap, defs, len(c.defs))
	}
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
// sorts them all (a third of a one-file update of sympy), and a key
// without fresh definitions is a tight loop over its list; the keys are
// old's when none came or went.
func patchGroups(old *groups, defMap []int32, fresh map[string][]int32) groups {
	keys := slices.Sorted(maps.Keys(fresh))
	g := groups{
		keys:  make([]string, 0, len(old.keys)+len(keys)),
		start: make([]uint32, 1, len(old.keys)+len(keys)+1),
		items: make([]int32, 0, len(old.items)+len(fresh)),
	}
	same := true // the keys are old's
	add := func(key string, n int) {
		if len(g.items) == n {
			same = false
			return
		}
		g.keys = append(g.keys, key)
		g.start = append(g.start, uint32(len(g.items)))
	}
	// addFresh adds a key old does not have, with its fresh definitions.
	addFresh := func(key string) {
		fs := fresh[key]
		slices.Sort(fs)
		n := len(g.items)
		g.items = append(g.items, fs...)
		add(key, n)
		same = false
	}
	// at[j]: the first of old's keys not below keys[j].
	at := make([]int, len(keys))
	for j, key := range keys {
		at[j], _ = slices.BinarySearch(old.keys, key)
	}
	j := 0
	for i, key := range old.keys {
		for ; j < len(keys) && at[j] == i && keys[j] != key; j++ {
			addFresh(keys[j])
		}
		os := old.items[old.start[i]:old.start[i+1]]
		n := len(g.items)
		if j < len(keys) && at[j] == i {
			fs := fresh[key]
			slices.Sort(fs)
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
			j++
		} else {
			for _, d := range os {
				if d := defMap[d]; d >= 0 {
					g.items = append(g.items, d)
				}
			}
		}
		add(key, n)
	}
	for ; j < len(keys); j++ {
		addFresh(keys[j])
	}
	if same {
		g.keys = old.keys
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
	return sameFile(&c.files[of], k, func(d int32) (int64, int64) { return c.defs[d].ID, c.defs[d].FileID })
}

// sameFile reports whether f, whose definition d has the id and file id
// def(d), holds what k describes.
func sameFile(f *fileEntry, k index.FileKey, def func(d int32) (id, file int64)) bool {
	if f.path != k.Path || f.lang != k.Language || f.hash != k.Hash || len(f.defs) != k.Symbols {
		return false
	}
	for i, d := range f.defs {
		if id, file := def(d); id != k.First+int64(i) || file != k.ID {
			return false
		}
	}
	return true
}

// patchText makes the text index of the new documents: old's postings of
// the documents docMap keeps (renumbered; docMap is increasing where it
// is not -1), merged with fresh's, which were added under their new
// numbers, in the canonical layout of textBuilder.build. A term that
// gains no posting is one tight loop over its postings, a table lookup
// each; a term that lost none keeps its document frequency; the hash
// table of terms is old's when no term came or went. A reader that opens
// a corpus through a delta file pays for this, so it is kept to about a
// copy of the postings.
func patchText(old *bm25, docMap []int32, fresh *textBuilder, docs int) bm25 {
	ft, fs := fresh.byTerm()
	b := mergeText(old, docMap, ft, fs)
	b.fieldLen = patchFieldLen(old, docMap, fresh, docs)
	return b
}

// patchFieldLen is the field lengths of patchText's documents.
func patchFieldLen(old *bm25, docMap []int32, fresh *textBuilder, docs int) []float32 {
	const nf = int(index.NumFields)
	fieldLen := make([]float32, docs*nf)
	for _, r := range runsOf(docMap) {
		copy(fieldLen[int(r.to)*nf:], old.fieldLen[int(r.lo)*nf:int(r.hi)*nf])
	}
	for i, x := range fresh.fieldLen {
		if x != 0 {
			fieldLen[i] = x
		}
	}
	return fieldLen
}

// mergeText is patchText's postings, terms and document frequencies,
// with fresh's postings as fresh.byTerm has them.
func mergeText(old *bm25, docMap []int32, ft []string, fs [][]posting) bm25 {
	if old.lazy != nil {
		flat := old.flat()
		old = &flat
	}
	// at[j]: the first of old's terms not below ft[j]; known[j]: it is ft[j].
	at := make([]int, len(ft))
	known := make([]bool, len(ft))
	for j, term := range ft {
		at[j], known[j] = slices.BinarySearch(old.terms, term)
	}
	nt, np := len(old.terms)+len(ft), len(old.entries)
	for _, ps := range fs {
		np += len(ps)
	}
	b := bm25{terms: make([]string, 0, nt), start: make([]uint32, 1, nt+1), df: make([]uint32, 0, nt)}
	entries := make([]posting, np)
	w := 0
	same := true // the terms are old's
	add := func(term string, n int, df uint32) {
		if w == n {
			same = false // a term left without postings
			return
		}
		b.terms = append(b.terms, term)
		b.start = append(b.start, uint32(w))
		b.df = append(b.df, df)
	}
	j := 0
	for i := 0; i <= len(old.terms); i++ {
		for ; j < len(ft) && at[j] == i && !known[j]; j++ {
			same = false
			w += copy(entries[w:], fs[j])
			add(ft[j], w-len(fs[j]), countDocs(fs[j]))
		}
		if i == len(old.terms) {
			break
		}
		os := old.entries[old.start[i]:old.start[i+1]]
		n := w
		if j < len(ft) && at[j] == i {
			// A fresh document's number is no old document's: the fresh
			// postings go in among the old ones by document.
			oi := 0
			for _, f := range fs[j] {
				for ; oi < len(os); oi++ {
					d := docMap[os[oi].doc]
					if d >= f.doc {
						break
					}
					if d >= 0 {
						entries[w] = posting{doc: d, fc: os[oi].fc}
						w++
					}
				}
				entries[w] = f
				w++
			}
			for _, p := range os[oi:] {
				if d := docMap[p.doc]; d >= 0 {
					entries[w] = posting{doc: d, fc: p.fc}
					w++
				}
			}
			j++
			add(old.terms[i], n, countDocs(entries[n:w]))
			continue
		}
		for _, p := range os {
			if d := docMap[p.doc]; d >= 0 {
				entries[w] = posting{doc: d, fc: p.fc}
				w++
			}
		}
		df := old.df[i]
		if w-n != len(os) {
			df = countDocs(entries[n:w])
		}
		add(old.terms[i], n, df)
	}
	b.entries = entries[:w:w]
	if same {
		b.terms, b.slots = old.terms, old.slots
	} else {
		b.slots = hashTerms(b.terms)
	}
	return b
}

// A lazyText patches a text index where it is read rather than copying
// all of it: the bm25 that holds it keeps an older index's terms and
// postings, whose documents docMap renumbers (dropping those it maps to
// -1), and the postings of the changed documents apart, by term. Ranking
// reads the postings of a few dozen terms a query, so a one-shot process
// that opens a corpus through a delta file renumbers those, not the
// 1.2 million postings of sympy's definitions (9.8 MB). Scores, document
// frequencies and idf are the patched index's, to the bit; flat makes
// it, for whatever reads the whole (the corpus file, the next patch).
type lazyText struct {
	docMap []int32     // document of the older index → document, -1 if gone
	terms  []string    // the terms of the changed documents, sorted
	lists  [][]posting // their postings, by document (new numbers)
}

// patchLazily is patchText with the postings left where they are:
// old's, renumbered as they are read (lazyText). old must not be lazy.
func patchLazily(old *bm25, docMap []int32, fresh *textBuilder, docs int) bm25 {
	ft, fs := fresh.byTerm()
	return bm25{terms: old.terms, slots: old.slots, start: old.start, df: old.df, entries: old.entries,
		fieldLen: patchFieldLen(old, docMap, fresh, docs), lazy: &lazyText{docMap: docMap, terms: ft, lists: fs}}
}

// find returns the postings of term in b, which l patches: the older
// index's (to renumber) and the fresh ones.
func (l *lazyText) find(b *bm25, term string) (old, fresh []posting) {
	if t, ok := b.lookup(term); ok {
		old = b.entries[b.start[t]:b.start[t+1]]
	}
	if i, ok := slices.BinarySearch(l.terms, term); ok {
		fresh = l.lists[i]
	}
	return old, fresh
}

// docFreq is the number of documents of the patched index that hold
// term.
func (l *lazyText) docFreq(b *bm25, term string) uint32 {
	old, fresh := l.find(b, term)
	df := countDocs(fresh)
	last := int32(-1)
	for _, p := range old {
		if p.doc != last {
			last = p.doc
			if l.docMap[p.doc] >= 0 {
				df++
			}
		}
	}
	return df
}

// flat returns b with its patch applied (b itself when it has none):
// the text index patchText makes, weighed as b is.
func (b *bm25) flat() bm25 {
	if b.lazy == nil {
		return *b
	}
	base := *b
	base.lazy = nil
	f := mergeText(&base, b.lazy.docMap, b.lazy.terms, b.lazy.lists)
	f.fieldLen, f.w, f.length, f.avg, f.k1, f.b = b.fieldLen, b.w, b.length, b.avg, b.k1, b.b
	return f
}

// A docRun is a run of old documents, [lo, hi), that keep their order
// and become the new documents [to, to+hi-lo).
type docRun struct{ lo, hi, to int32 }

// runsOf returns the runs of docMap (increasing where it is not -1), in
// order: a one-file update of sympy's definitions has two.
func runsOf(docMap []int32) []docRun {
	var runs []docRun
	for d := 0; d < len(docMap); {
		if docMap[d] < 0 {
			d++
			continue
		}
		lo := d
		for d++; d < len(docMap) && docMap[d] == docMap[d-1]+1; d++ {
		}
		runs = append(runs, docRun{lo: int32(lo), hi: int32(d), to: docMap[lo]})
	}
	return runs
}

// countDocs is the number of documents of a term's postings.
func countDocs(ps []posting) uint32 {
	var df uint32
	last := int32(-1)
	for _, p := range ps {
		if p.doc != last {
			df++
			last = p.doc
		}
	}
	return df
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
	for _, ch := range t.raw.chunks {
		for _, r := range ch {
			next[rank[r.term]+1]++
		}
	}
	for i := range terms {
		next[i+1] += next[i]
	}
	bounds := slices.Clone(next)
	all := make([]posting, t.raw.n)
	for _, ch := range t.raw.chunks {
		for _, r := range ch {
			k := rank[r.term]
			all[next[k]] = r.posting
			next[k]++
		}
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
