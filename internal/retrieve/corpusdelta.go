package retrieve

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"

	"github.com/winnowhq/winnow/internal/index"
)

// The delta file (index.WriteCorpusDelta) holds what patchCorpus reads
// from the index, as of the index stamp it was written at: the key of
// every file, and the definitions and documents of the files that
// differ from the corpus file's. A reader patches the corpus file with
// it as it would with the index (a deltaSource is a patchSource), so a
// corpus opened through a delta is the corpus built from the index, as
// every patched one; a one-file winnow index writes some kilobytes, not
// the whole corpus. Its sections, after the container's own:
//
//	keys:   ids int64, paths, languages, content hashes: strings,
//	        first symbol ids int64, symbol counts uint32
//	meta:   number of symbols, tier: int64
//	briefs: the changed files' definitions, in id order, as defs in
//	        the corpus file (ids, file ids int64, attributes uint32,
//	        names, quals, parents strings)
//	docs:   the changed files, in path order: ids int64, paths,
//	        languages, hashes: strings; symbols: start uint32 (files+1),
//	        ids int64; documents (each file's own, then one per symbol):
//	        start uint32 (documents+1), postings (term, count<<3|field
//	        uint32 pairs); terms: strings
const deltaSections = 32

// deltaMaxFiles and deltaMaxShare bound a delta: past either, the corpus
// file is written whole instead, so that what a reader patches in stays
// small next to what it opens. A delta of up to deltaMinBytes is always
// small enough.
const (
	deltaMaxFiles = 100
	deltaMaxShare = 8 // a delta is at most 1/deltaMaxShare of the corpus file
	deltaMinBytes = 1 << 20
)

// A patchSource is what patchCorpus reads: an index snapshot, or a delta
// file.
type patchSource interface {
	Stamp(context.Context) (string, error)
	Tier(context.Context) (index.Tier, error)
	FileKeys(context.Context) ([]index.FileKey, error)
	NumSymbols(context.Context) (int, error)
	ForEachBriefOf(ctx context.Context, files []int64, fn func(*index.Brief) error) error
	ForEachFileDocsOf(ctx context.Context, files []int64, fn func(*index.FileDocs) error) error
}

// deltaSource is a decoded delta file.
type deltaSource struct {
	gen     string
	tier    index.Tier
	symbols int
	keys    []index.FileKey
	briefs  []index.Brief
	docs    []index.FileDocs
}

func (d *deltaSource) Stamp(context.Context) (string, error)             { return d.gen, nil }
func (d *deltaSource) Tier(context.Context) (index.Tier, error)          { return d.tier, nil }
func (d *deltaSource) FileKeys(context.Context) ([]index.FileKey, error) { return d.keys, nil }
func (d *deltaSource) NumSymbols(context.Context) (int, error)           { return d.symbols, nil }

// ForEachBriefOf calls fn for the definitions the delta holds of files.
// A file it holds nothing of leaves patchCorpus short, which then
// reports that it cannot patch.
func (d *deltaSource) ForEachBriefOf(_ context.Context, files []int64, fn func(*index.Brief) error) error {
	for i := range d.briefs {
		if slices.Contains(files, d.briefs[i].FileID) {
			if err := fn(&d.briefs[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (d *deltaSource) ForEachFileDocsOf(_ context.Context, files []int64, fn func(*index.FileDocs) error) error {
	for i := range d.docs {
		if slices.Contains(files, d.docs[i].FileID) {
			if err := fn(&d.docs[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// Sections of the corpus file that say what its files hold (encodeCorpus
// lays them out): definition ids and their files' ids, then the files.
const (
	sectionDefIDs     = 0
	sectionDefFileIDs = 1
	sectionFiles      = 10 // ids, paths (2), languages (2), hashes (2), defs start, items
	sectionFilesEnd   = 19
)

// baseFiles reads, from the corpus file, what sameFile needs: its files,
// and the id and file id of each definition. Nothing else of it is read,
// and its checksum is not checked: the reader of the delta checks the
// file whole.
func baseFiles(ix *index.Index) (index.CorpusBase, *fileTable, error) {
	want := []int{sectionDefIDs, sectionDefFileIDs}
	for i := sectionFiles; i < sectionFilesEnd; i++ {
		want = append(want, i)
	}
	base, sections, err := ix.PeekCorpus(corpusLayout, want)
	if err != nil {
		return base, nil, err
	}
	r := sectionReader{sections: sections}
	t := &fileTable{gen: base.Key.Generation, ids: r.int64s(), fileIDs: r.int64s()}
	fids, paths, langs, hashes := r.int64s(), r.strings(), r.strings(), r.strings()
	defs := groups{start: r.uint32s(), items: r.int32s()}
	nf := len(fids)
	if r.err != nil || len(t.fileIDs) != len(t.ids) || len(paths) != nf || len(langs) != nf || len(hashes) != nf || !defs.valid(nf, len(t.ids)) {
		return base, nil, r.fail()
	}
	t.files = make([]fileEntry, nf)
	for i := range t.files {
		t.files[i] = fileEntry{id: fids[i], path: paths[i], lang: langs[i], hash: hashes[i], defs: defs.items[defs.start[i]:defs.start[i+1]]}
	}
	return base, t, nil
}

// A fileTable is a corpus file's files and its definitions' ids and file
// ids, no more: what decides which files a delta holds.
type fileTable struct {
	gen          string
	files        []fileEntry
	ids, fileIDs []int64 // of each definition
}

// saveDelta writes the delta file that brings the corpus file up to the
// snapshot. It reports false, writing nothing, when there is no corpus
// file of this index to bring up, or the delta would be too large (see
// deltaMaxFiles): the corpus file is to be written whole.
func saveDelta(ctx context.Context, ix *index.Index, snap *index.Snapshot) (bool, error) {
	gen, err := snap.Stamp(ctx)
	if err != nil {
		return false, err
	}
	ch, err := changesSinceDelta(ctx, ix, snap, gen)
	if err == nil && ch == nil {
		ch, err = changesSinceCorpus(ctx, ix, snap, gen)
	}
	if err != nil || ch == nil {
		return false, err
	}
	if len(ch.files) > deltaMaxFiles {
		return false, nil
	}
	d := &deltaSource{gen: gen, keys: ch.keys}
	if d.tier, err = snap.Tier(ctx); err != nil {
		return false, err
	}
	if d.symbols, err = snap.NumSymbols(ctx); err != nil {
		return false, err
	}
	if err := snap.ForEachBriefOf(ctx, ch.files, func(b *index.Brief) error { d.briefs = append(d.briefs, *b); return nil }); err != nil {
		return false, err
	}
	if err := snap.ForEachFileDocsOf(ctx, ch.files, func(fd *index.FileDocs) error { d.docs = append(d.docs, *fd); return nil }); err != nil {
		return false, err
	}
	sections, err := encodeDelta(d)
	if err != nil {
		return false, nil // a value that does not fit: the corpus file holds it
	}
	size := 0
	for _, s := range sections {
		size += len(s)
	}
	if size > max(sizeOfCorpus(ix)/deltaMaxShare, deltaMinBytes) {
		return false, nil
	}
	if err := ix.WriteCorpusDelta(index.CorpusKey{Layout: corpusLayout, Generation: gen}, ch.base, sections); err != nil {
		return false, err
	}
	return true, nil
}

// deltaChanges is what a delta file holds against its corpus file: the
// key of every file, and the ids of the files it holds the definitions
// and documents of, those whose key differs from the corpus file's (and
// possibly others, which the reader, deciding for itself, passes over).
type deltaChanges struct {
	base  index.CorpusBase
	keys  []index.FileKey
	files []int64
}

// changesSinceCorpus compares the snapshot's files with the corpus
// file's (baseFiles), as patchCorpus does. It returns nil when there is
// no corpus file of this index to compare with.
func changesSinceCorpus(ctx context.Context, ix *index.Index, snap *index.Snapshot, gen string) (*deltaChanges, error) {
	base, old, err := baseFiles(ix)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, index.ErrCorpusStale) || errors.Is(err, index.ErrCorpusDamaged) {
			return nil, nil
		}
		return nil, err
	}
	if instance(old.gen) != instance(gen) || instance(gen) == "" {
		return nil, nil
	}
	keys, err := snap.FileKeys(ctx)
	if err != nil {
		return nil, err
	}
	return &deltaChanges{base: base, keys: keys, files: changedFiles(old, keys)}, nil
}

// changesSinceDelta brings the delta file there is forward, without
// reading the corpus file's files or every file's key: when the updates
// since it were this process's own (index.Snapshot.ChangedSince), the
// files that differ from the corpus file are those the delta holds and
// those the updates changed. It returns nil when it cannot tell: no
// delta file, one for another corpus file, updates it does not know.
func changesSinceDelta(ctx context.Context, ix *index.Index, snap *index.Snapshot, gen string) (*deltaChanges, error) {
	from, err := ix.CorpusDeltaGeneration(corpusLayout)
	if err != nil || instance(from) != instance(gen) || instance(gen) == "" {
		return nil, nil
	}
	since, ok, err := snap.ChangedSince(ctx, from)
	if err != nil || !ok {
		return nil, err
	}
	key, base, sections, err := ix.ReadCorpusDelta(corpusLayout)
	if err != nil || key.Generation != from {
		return nil, nil
	}
	if cur, _, err := ix.PeekCorpus(corpusLayout, nil); err != nil || cur != base {
		return nil, nil
	}
	prev, err := decodeDelta(sections, key.Generation)
	if err != nil {
		return nil, nil
	}
	keys, err := snap.FileKeysSince(ctx, prev.keys, since)
	if err != nil {
		return nil, err
	}
	files := slices.Clone(since)
	for _, fd := range prev.docs {
		files = append(files, fd.FileID)
	}
	slices.Sort(files)
	files = slices.Compact(files)
	// Only files indexed now have anything to hold.
	indexed := make(map[int64]bool, len(files))
	for _, k := range keys {
		if _, found := slices.BinarySearch(files, k.ID); found {
			indexed[k.ID] = true
		}
	}
	files = slices.DeleteFunc(files, func(id int64) bool { return !indexed[id] })
	return &deltaChanges{base: base, keys: keys, files: files}, nil
}

// sizeOfCorpus is the size of the corpus file, 0 if there is none.
func sizeOfCorpus(ix *index.Index) int {
	fi, err := os.Stat(ix.CorpusPath())
	if err != nil {
		return 0
	}
	return int(fi.Size())
}

// changedFiles returns the ids of the files of keys that old does not
// hold as they are, as patchCorpus decides (sameFile).
func changedFiles(old *fileTable, keys []index.FileKey) []int64 {
	oldByID := make(map[int64]int32, len(old.files))
	for i := range old.files {
		oldByID[old.files[i].id] = int32(i)
	}
	def := func(d int32) (int64, int64) { return old.ids[d], old.fileIDs[d] }
	var changed []int64
	for _, k := range keys {
		if of, ok := oldByID[k.ID]; !ok || !sameFile(&old.files[of], k, def) {
			changed = append(changed, k.ID)
		}
	}
	return changed
}

// encodeDelta lays d out as the delta file's sections.
func encodeDelta(d *deltaSource) ([][]byte, error) {
	var w sectionWriter
	n := len(d.keys)
	ids, paths, langs, hashes := make([]int64, n), make([]string, n), make([]string, n), make([]string, n)
	firsts, counts := make([]int64, n), make([]uint32, n)
	for i, k := range d.keys {
		if k.Symbols < 0 || k.Symbols > math.MaxUint32 {
			return nil, fmt.Errorf("file %s: %d symbols", k.Path, k.Symbols)
		}
		ids[i], paths[i], langs[i], hashes[i], firsts[i], counts[i] = k.ID, k.Path, k.Language, k.Hash, k.First, uint32(k.Symbols)
	}
	w.int64s(ids)
	w.strings(paths)
	w.strings(langs)
	w.strings(hashes)
	w.int64s(firsts)
	w.uint32s(counts)
	w.int64s([]int64{int64(d.symbols), int64(d.tier)})

	defs := make([]defEntry, len(d.briefs))
	for i, b := range d.briefs {
		defs[i].Brief = b
	}
	if err := writeDefs(&w, defs, false); err != nil {
		return nil, err
	}

	nd := len(d.docs)
	fids, dpaths, dlangs, dhashes := make([]int64, nd), make([]string, nd), make([]string, nd), make([]string, nd)
	symStart := []uint32{0}
	var syms []int64
	docStart := []uint32{0}
	var pairs []uint32
	dict := map[string]uint32{}
	var terms []string
	addDoc := func(ps []index.Posting) error {
		for _, p := range ps {
			if p.Count < 0 || p.Count >= 1<<29 || p.Field >= index.NumFields {
				return fmt.Errorf("posting %q: count %d, field %d", p.Term, p.Count, p.Field)
			}
			t, ok := dict[p.Term]
			if !ok {
				t = uint32(len(terms))
				dict[p.Term] = t
				terms = append(terms, p.Term)
			}
			pairs = append(pairs, t, uint32(p.Count)<<3|uint32(p.Field))
		}
		docStart = append(docStart, uint32(len(pairs)/2))
		return nil
	}
	for i, fd := range d.docs {
		if len(fd.Docs) != len(fd.Symbols) {
			return nil, fmt.Errorf("file %s: %d documents for %d symbols", fd.Path, len(fd.Docs), len(fd.Symbols))
		}
		fids[i], dpaths[i], dlangs[i], dhashes[i] = fd.FileID, fd.Path, fd.Language, fd.Hash
		syms = append(syms, fd.Symbols...)
		symStart = append(symStart, uint32(len(syms)))
		if err := addDoc(fd.File); err != nil {
			return nil, err
		}
		for _, doc := range fd.Docs {
			if err := addDoc(doc); err != nil {
				return nil, err
			}
		}
	}
	w.int64s(fids)
	w.strings(dpaths)
	w.strings(dlangs)
	w.strings(dhashes)
	w.uint32s(symStart)
	w.int64s(syms)
	w.uint32s(docStart)
	w.uint32s(pairs)
	w.strings(terms)
	if len(w.sections) != deltaSections {
		return nil, fmt.Errorf("encodeDelta wrote %d sections, the layout has %d", len(w.sections), deltaSections)
	}
	return w.sections, nil
}

// decodeDelta reverses encodeDelta, checking every length and index.
// The source aliases the sections.
func decodeDelta(sections [][]byte, gen string) (*deltaSource, error) {
	if len(sections) != deltaSections {
		return nil, errCorpusLayout
	}
	r := sectionReader{sections: sections}
	d := &deltaSource{gen: gen}
	ids, paths, langs, hashes := r.int64s(), r.strings(), r.strings(), r.strings()
	firsts, counts := r.int64s(), r.uint32s()
	meta := r.int64s()
	n := len(ids)
	if r.err != nil || len(paths) != n || len(langs) != n || len(hashes) != n || len(firsts) != n || len(counts) != n || len(meta) != 2 ||
		meta[0] < 0 || meta[0] > math.MaxInt32 || meta[1] < int64(index.TierNone) || meta[1] > int64(index.TierFull) {
		return nil, r.fail()
	}
	d.symbols, d.tier = int(meta[0]), index.Tier(meta[1])
	d.keys = make([]index.FileKey, n)
	for i := range d.keys {
		d.keys[i] = index.FileKey{ID: ids[i], Path: paths[i], Language: langs[i], Hash: hashes[i], First: firsts[i], Symbols: int(counts[i])}
	}

	defs, err := readDefs(&r, false, 0)
	if err != nil {
		return nil, err
	}
	d.briefs = make([]index.Brief, len(defs))
	for i := range defs {
		d.briefs[i] = defs[i].Brief
		if i > 0 && d.briefs[i].ID <= d.briefs[i-1].ID {
			return nil, errCorpusLayout
		}
	}

	fids, dpaths, dlangs, dhashes := r.int64s(), r.strings(), r.strings(), r.strings()
	symStart, syms := r.uint32s(), r.int64s()
	docStart, pairs := r.uint32s(), r.uint32s()
	terms := r.strings()
	nd := len(fids)
	if r.err != nil || len(dpaths) != nd || len(dlangs) != nd || len(dhashes) != nd ||
		!monotone(symStart, nd+1, len(syms)) || !monotone(docStart, nd+len(syms)+1, len(pairs)/2) || len(pairs)%2 != 0 {
		return nil, r.fail()
	}
	postings := func(doc int) ([]index.Posting, error) {
		ps := make([]index.Posting, 0, docStart[doc+1]-docStart[doc])
		for k := docStart[doc]; k < docStart[doc+1]; k++ {
			t, fc := pairs[2*k], pairs[2*k+1]
			if int(t) >= len(terms) || index.Field(fc&7) >= index.NumFields {
				return nil, errCorpusLayout
			}
			ps = append(ps, index.Posting{Term: terms[t], Field: index.Field(fc & 7), Count: int(fc >> 3)})
		}
		return ps, nil
	}
	d.docs = make([]index.FileDocs, nd)
	for i := range d.docs {
		s0, s1 := int(symStart[i]), int(symStart[i+1])
		doc := i + s0 // the file's own document; its symbols' follow
		fd := index.FileDocs{FileID: fids[i], Path: dpaths[i], Language: dlangs[i], Hash: dhashes[i], Symbols: syms[s0:s1:s1]}
		if fd.File, err = postings(doc); err != nil {
			return nil, err
		}
		fd.Docs = make([][]index.Posting, s1-s0)
		for j := range fd.Docs {
			if fd.Docs[j], err = postings(doc + 1 + j); err != nil {
				return nil, err
			}
		}
		d.docs[i] = fd
	}
	if r.next != len(sections) {
		return nil, errCorpusLayout
	}
	return d, nil
}

// monotone reports whether start is n offsets, from 0 up to end, never
// decreasing.
func monotone(start []uint32, n, end int) bool {
	if len(start) != n || start[0] != 0 || int(start[n-1]) != end {
		return false
	}
	for i := 1; i < n; i++ {
		if start[i] < start[i-1] {
			return false
		}
	}
	return true
}
