package retrieve

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/symbol"
)

// The corpus on disk. index.EncodeCorpus holds the sections, checked by
// a CRC-32C and keyed by corpusLayout and the index stamp; these are
// their contents, in order, every one a flat little-endian array that
// decodes in place (strings and numbers alias the file's bytes):
//
//	defs:   ids int64, file ids int64, files int32,
//	        kind, visibility, start/end line, start/end byte: uint32 each,
//	        names, quals, parents: strings
//	files:  ids int64, paths, languages, content hashes: strings,
//	        defs: start uint32 (files+1) and items int32
//	names, norm: groups (keys: strings, start uint32, items int32)
//	defText, fileText: bm25 (terms: strings, slots, start, df uint32,
//	        entries: (doc int32, count<<3|field uint32) pairs,
//	        field lengths float32)
//
// Strings are an offsets array (uint32, n+1) and a blob. Every index and
// offset is checked as it is decoded, so a file that passed the checksum
// but was written wrong is refused, not misread.
//
// corpusLayout names this layout: bump it with any change to the
// sections, to what a field means, or to a function whose results are
// stored (normName, strings.ToLower of names, termHash, index.Field).
const corpusLayout = "retrieve.corpus/2"

// errCorpusLayout is a section that does not hold what the layout says.
var errCorpusLayout = fmt.Errorf("%w: sections do not match the layout", index.ErrCorpusDamaged)

// encodeCorpus lays out c's persisted fields as sections.
func encodeCorpus(c *corpus) ([][]byte, error) {
	var w sectionWriter
	if err := writeDefs(&w, c.defs, true); err != nil {
		return nil, err
	}

	fids, paths, langs, hashes := make([]int64, len(c.files)), make([]string, len(c.files)), make([]string, len(c.files)), make([]string, len(c.files))
	defs := groups{start: []uint32{0}}
	for i, f := range c.files {
		fids[i], paths[i], langs[i], hashes[i] = f.id, f.path, f.lang, f.hash
		defs.items = append(defs.items, f.defs...)
		defs.start = append(defs.start, uint32(len(defs.items)))
	}
	w.int64s(fids)
	w.strings(paths)
	w.strings(langs)
	w.strings(hashes)
	w.uint32s(defs.start)
	w.int32s(defs.items)

	for _, g := range []*groups{&c.names, &c.norm} {
		w.strings(g.keys)
		w.uint32s(g.start)
		w.int32s(g.items)
	}
	for _, b := range []*bm25{&c.defText, &c.fileText} {
		if b.lazy != nil {
			flat := b.flat()
			b = &flat
		}
		w.strings(b.terms)
		w.uint32s(b.slots)
		w.uint32s(b.start)
		w.uint32s(b.df)
		w.postings(b.entries)
		w.float32s(b.fieldLen)
	}
	return w.sections, nil
}

// writeDefs writes the sections of defs: ids, file ids, files (with
// files), attributes, names, quals, parents.
func writeDefs(w *sectionWriter, defs []defEntry, files bool) error {
	n := len(defs)
	ids, fileIDs, fs := make([]int64, n), make([]int64, n), make([]int32, n)
	attrs := make([]uint32, 0, 6*n)
	names, quals, parents := make([]string, n), make([]string, n), make([]string, n)
	for i, d := range defs {
		ids[i], fileIDs[i], fs[i] = d.ID, d.FileID, d.file
		names[i], quals[i], parents[i] = d.Name, d.Qual, d.Parent
		for _, v := range []int{int(d.Kind), int(d.Visibility), d.Span.StartLine, d.Span.EndLine, d.Span.StartByte, d.Span.EndByte} {
			if v < 0 || v > math.MaxUint32 {
				return fmt.Errorf("definition %s: value %d does not fit the corpus file", d.Qual, v)
			}
			attrs = append(attrs, uint32(v))
		}
	}
	w.int64s(ids)
	w.int64s(fileIDs)
	if files {
		w.int32s(fs)
	}
	w.uint32s(attrs)
	w.strings(names)
	w.strings(quals)
	w.strings(parents)
	return nil
}

// readDefs reverses writeDefs, with room for spare more definitions.
// Each definition's file (-1 without files) is left for the caller to
// check. It fills the definitions in one pass, their strings straight
// from the sections, not through a slice of strings per field.
func readDefs(r *sectionReader, files bool, spare int) ([]defEntry, error) {
	ids, fileIDs := r.int64s(), r.int64s()
	var fs []int32
	if files {
		fs = r.int32s()
	}
	attrs := r.uint32s()
	names, quals, parents := r.stringTable(), r.stringTable(), r.stringTable()
	n := len(ids)
	if r.err != nil || len(fileIDs) != n || files && len(fs) != n || len(attrs) != 6*n || names.len() != n || quals.len() != n || parents.len() != n {
		return nil, r.fail()
	}
	defs := make([]defEntry, n, n+spare)
	for i := range defs {
		a := attrs[6*i : 6*i+6]
		file := int32(-1)
		if files {
			file = fs[i]
		}
		name, ok1 := names.at(i)
		qual, ok2 := quals.at(i)
		parent, ok3 := parents.at(i)
		if !ok1 || !ok2 || !ok3 {
			return nil, errCorpusLayout
		}
		// Field by field into the zeroed entry: a whole struct stored
		// while the collector runs (it does, as a one-shot process opens
		// its corpus) is a bulk write barrier over the entry's type.
		d := &defs[i]
		d.ID, d.FileID, d.Name, d.Qual, d.Parent = ids[i], fileIDs[i], name, qual, parent
		d.Kind, d.Visibility = symbol.Kind(a[0]), symbol.Visibility(a[1])
		d.Span = symbol.Span{StartLine: int(a[2]), EndLine: int(a[3]), StartByte: int(a[4]), EndByte: int(a[5])}
		d.file = file
	}
	return defs, nil
}

// decodeCorpus reverses encodeCorpus and checks every index, so that
// nothing a query does later can go out of bounds. The corpus aliases
// the sections.
func decodeCorpus(sections [][]byte, gen string, par Params) (*corpus, error) {
	c, err := decodeSections(sections, gen)
	if err != nil {
		return nil, err
	}
	c.finish(par)
	return c, nil
}

// decodeSections is decodeCorpus without finish: the persisted fields
// only, as patchCorpus needs them.
func decodeSections(sections [][]byte, gen string) (c *corpus, err error) {
	return decodeSectionsSpare(sections, gen, 0)
}

// decodeSectionsSpare is decodeSections with room for spare more
// definitions after the corpus's (see patchOwned).
func decodeSectionsSpare(sections [][]byte, gen string, spare int) (c *corpus, err error) {
	r := sectionReader{sections: sections}
	c = &corpus{gen: gen}
	if c.defs, err = readDefs(&r, true, spare); err != nil {
		return nil, err
	}
	n := len(c.defs)
	fids, paths, langs, hashes := r.int64s(), r.strings(), r.strings(), r.strings()
	fileDefs := groups{start: r.uint32s(), items: r.int32s()}
	nf := len(fids)
	if r.err != nil || len(paths) != nf || len(langs) != nf || len(hashes) != nf || !fileDefs.valid(nf, n) {
		return nil, r.fail()
	}
	for i := range c.defs {
		if f := c.defs[i].file; f < -1 || int(f) >= nf {
			return nil, errCorpusLayout
		}
	}
	c.files = make([]fileEntry, nf)
	for i := range c.files {
		c.files[i] = fileEntry{id: fids[i], path: paths[i], lang: langs[i], hash: hashes[i], defs: fileDefs.items[fileDefs.start[i]:fileDefs.start[i+1]:fileDefs.start[i+1]]}
	}
	for _, g := range []*groups{&c.names, &c.norm} {
		*g = groups{keys: r.strings(), start: r.uint32s(), items: r.int32s()}
		if r.err != nil || !g.valid(len(g.keys), n) {
			return nil, r.fail()
		}
	}
	for i, b := range []*bm25{&c.defText, &c.fileText} {
		docs := []int{n, nf}[i]
		b.terms, b.slots, b.start, b.df = r.strings(), r.uint32s(), r.uint32s(), r.uint32s()
		b.entries = r.postings()
		b.fieldLen = r.float32s()
		if r.err != nil || !b.valid(docs) {
			return nil, r.fail()
		}
	}
	if r.next != len(sections) {
		return nil, errCorpusLayout
	}
	return c, nil
}

// valid reports whether g has keys lists of indexes below n.
func (g *groups) valid(keys, n int) bool {
	if len(g.start) != keys+1 || g.start[0] != 0 || int(g.start[keys]) != len(g.items) {
		return false
	}
	for i := range keys {
		if g.start[i] > g.start[i+1] {
			return false
		}
	}
	for _, x := range g.items {
		if x < 0 || int(x) >= n {
			return false
		}
	}
	return true
}

// valid reports whether b is a well-formed index over docs documents:
// a table that finds every term and has an empty slot, postings in
// bounds, and every term's document frequency right.
func (b *bm25) valid(docs int) bool {
	nt := len(b.terms)
	if len(b.start) != nt+1 || len(b.df) != nt || b.start[0] != 0 || int(b.start[nt]) != len(b.entries) ||
		len(b.fieldLen) != docs*int(index.NumFields) || len(b.slots) < 2 || len(b.slots)&(len(b.slots)-1) != 0 || len(b.slots) < 2*nt {
		return false
	}
	used := 0
	for _, s := range b.slots {
		if s > uint32(nt) {
			return false
		}
		if s != 0 {
			used++
		}
	}
	if used != nt {
		return false
	}
	// The table apart from the postings: a probe is a load from a table
	// too large for the cache, and with nothing else in the loop the
	// processor has several in flight.
	for t, term := range b.terms {
		if t > 0 && b.terms[t-1] >= term || !b.finds(term, t) { // sorted, as build and patchText lay them out
			return false
		}
	}
	for t := range nt {
		if b.start[t] > b.start[t+1] {
			return false
		}
		// By document, as build lays them out: the first in bounds and
		// none before the last are all in bounds. A posting whose document
		// is above the last's adds one to the document frequency.
		es := b.entries[b.start[t]:b.start[t+1]]
		if len(es) > 0 && (es[0].doc < 0 || int(es[len(es)-1].doc) >= docs) {
			return false
		}
		var df uint32
		last := int32(-1)
		for _, p := range es {
			if p.doc < last || p.field() >= index.NumFields {
				return false
			}
			df += uint32(last-p.doc) >> 31
			last = p.doc
		}
		if df != b.df[t] {
			return false
		}
	}
	for _, x := range b.fieldLen {
		if x < 0 || math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}

// finds reports whether lookup(term) is t, for a table whose every slot
// is at most len(b.terms) and whose terms are distinct (valid checks
// both): a probe from term's hash passes only other terms' slots before
// it reaches t's, so it compares slot numbers, not strings.
func (b *bm25) finds(term string, t int) bool {
	mask := uint32(len(b.slots) - 1)
	for i := termHash(term) & mask; ; i = (i + 1) & mask {
		switch b.slots[i] {
		case 0:
			return false
		case uint32(t + 1):
			return true
		}
	}
}

// littleEndian is true where flat arrays can alias the file's bytes.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// A sectionWriter appends sections.
type sectionWriter struct{ sections [][]byte }

// uint32s and int64s alias xs where this machine is little-endian: the
// sections are written out before anything changes them.
func (w *sectionWriter) uint32s(xs []uint32) {
	if littleEndian {
		w.sections = append(w.sections, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(xs))), 4*len(xs)))
		return
	}
	b := make([]byte, 0, 4*len(xs))
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	w.sections = append(w.sections, b)
}

func (w *sectionWriter) int32s(xs []int32) {
	w.uint32s(unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(xs))), len(xs)))
}

func (w *sectionWriter) float32s(xs []float32) {
	w.uint32s(unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(xs))), len(xs)))
}

func (w *sectionWriter) int64s(xs []int64) {
	if littleEndian {
		w.sections = append(w.sections, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(xs))), 8*len(xs)))
		return
	}
	b := make([]byte, 0, 8*len(xs))
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint64(b, uint64(x))
	}
	w.sections = append(w.sections, b)
}

// postings writes ps as (doc, count<<3|field) pairs: on a little-endian
// machine, ps's own memory, which is that layout already (a copy was a
// fifth of a corpus build's peak heap on sympy).
func (w *sectionWriter) postings(ps []posting) {
	if littleEndian && unsafe.Sizeof(posting{}) == 8 && unsafe.Offsetof(posting{}.fc) == 4 {
		w.uint32s(unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(ps))), 2*len(ps)))
		return
	}
	pairs := make([]uint32, 0, 2*len(ps))
	for _, p := range ps {
		pairs = append(pairs, uint32(p.doc), p.fc)
	}
	w.uint32s(pairs)
}

func (w *sectionWriter) strings(ss []string) {
	n := 0
	for _, s := range ss {
		n += len(s)
	}
	offs := make([]uint32, 0, len(ss)+1)
	blob := make([]byte, 0, n)
	offs = append(offs, 0)
	for _, s := range ss {
		blob = append(blob, s...)
		offs = append(offs, uint32(len(blob)))
	}
	w.uint32s(offs)
	w.sections = append(w.sections, blob)
}

// A sectionReader takes sections in order, remembering the first error.
type sectionReader struct {
	sections [][]byte
	next     int
	err      error
}

func (r *sectionReader) fail() error {
	if r.err != nil {
		return r.err
	}
	return errCorpusLayout
}

func (r *sectionReader) take(size int) []byte {
	if r.err != nil {
		return nil
	}
	if r.next >= len(r.sections) || len(r.sections[r.next])%size != 0 {
		r.err = errCorpusLayout
		return nil
	}
	b := r.sections[r.next]
	r.next++
	return b
}

// view returns b as a []T in place when it is aligned and this machine
// is little-endian, else nil.
func view[T any](b []byte) ([]T, bool) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b) == 0 {
		return nil, true
	}
	if !littleEndian || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(unsafe.Alignof(zero)) != 0 {
		return nil, false
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/size), true
}

func (r *sectionReader) uint32s() []uint32 {
	b := r.take(4)
	if xs, ok := view[uint32](b); ok {
		return xs
	}
	xs := make([]uint32, len(b)/4)
	for i := range xs {
		xs[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return xs
}

func (r *sectionReader) int32s() []int32 {
	xs := r.uint32s()
	return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(xs))), len(xs))
}

func (r *sectionReader) float32s() []float32 {
	xs := r.uint32s()
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(xs))), len(xs))
}

func (r *sectionReader) postings() []posting {
	xs := r.uint32s()
	if len(xs)%2 != 0 {
		r.err = errCorpusLayout
		return nil
	}
	return unsafe.Slice((*posting)(unsafe.Pointer(unsafe.SliceData(xs))), len(xs)/2)
}

func (r *sectionReader) int64s() []int64 {
	b := r.take(8)
	if xs, ok := view[int64](b); ok {
		return xs
	}
	xs := make([]int64, len(b)/8)
	for i := range xs {
		xs[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return xs
}

// strings returns strings that alias the section's bytes.
func (r *sectionReader) strings() []string {
	st := r.stringTable()
	if r.err != nil {
		return nil
	}
	ss := make([]string, st.len())
	for i := range ss {
		var ok bool
		if ss[i], ok = st.at(i); !ok {
			r.err = errCorpusLayout
			return nil
		}
	}
	return ss
}

// A stringTable is strings as written: offsets (n+1, the first 0 and
// the last the blob's length, as stringTable checks) into a blob.
type stringTable struct {
	offs []uint32
	blob []byte
}

// stringTable takes the sections of strings without making a string of
// them: at makes each, aliasing the blob, when it is wanted.
func (r *sectionReader) stringTable() stringTable {
	st := stringTable{offs: r.uint32s(), blob: r.take(1)}
	if r.err != nil {
		return stringTable{}
	}
	if len(st.offs) == 0 || st.offs[0] != 0 || int(st.offs[len(st.offs)-1]) != len(st.blob) {
		r.err = errCorpusLayout
		return stringTable{}
	}
	return st
}

func (st stringTable) len() int { return max(len(st.offs)-1, 0) }

// at returns string i, false if its offsets are out of order or out of
// the blob.
func (st stringTable) at(i int) (string, bool) {
	lo, hi := st.offs[i], st.offs[i+1]
	if lo > hi || int(hi) > len(st.blob) {
		return "", false
	}
	if lo == hi {
		return "", true
	}
	return unsafe.String(&st.blob[lo], hi-lo), true
}

// openCorpus reads the index's corpus file for the index at stamp gen,
// or maps it (see index.MapCorpus), and applies the delta file when that
// is what brings it to gen (index.OpenCorpus). A delta that does not
// patch the corpus file is ErrCorpusDamaged.
func openCorpus(ctx context.Context, ix *index.Index, gen string, par Params, mapped bool) (*corpus, error) {
	base, sections, delta, err := ix.OpenCorpus(index.CorpusKey{Layout: corpusLayout, Generation: gen}, mapped)
	if err != nil {
		return nil, err
	}
	if delta == nil {
		return decodeCorpus(sections, gen, par)
	}
	src, err := decodeDelta(delta, gen)
	if err != nil {
		return nil, err
	}
	old, err := decodeSectionsSpare(sections, base.Generation, len(src.briefs))
	if err != nil {
		return nil, err
	}
	c, ok, err := patchOwned(ctx, src, old)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: the delta file does not patch the corpus file", index.ErrCorpusDamaged)
	}
	c.finish(par)
	return c, nil
}

// saveCorpus writes c to the index's corpus file.
func saveCorpus(ix *index.Index, c *corpus) error {
	sections, err := encodeCorpus(c)
	if err != nil {
		return err
	}
	return ix.WriteCorpus(index.CorpusKey{Layout: corpusLayout, Generation: c.gen}, sections)
}
