package retrieve

import (
	"cmp"
	"context"
	"math"
	"path"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/symbol"
)

// A posting is one document's count of a term in one field. A
// document's postings of a term are adjacent, fields ascending.
type posting struct {
	doc int32
	fc  uint32 // count<<3 | field
}

func (p posting) field() index.Field { return index.Field(p.fc & 7) }
func (p posting) count() uint32      { return p.fc >> 3 }

func makePosting(doc int32, f index.Field, count uint32) posting {
	return posting{doc: doc, fc: min(count, 1<<29-1)<<3 | uint32(f)}
}

// bm25 is an inverted index with BM25F statistics. It stores raw field
// counts, so that it does not depend on Params: the field weights are
// applied as postings are scored, and the weighted document lengths are
// computed once, when the corpus is opened (weigh).
type bm25 struct {
	terms    []string  // term i
	slots    []uint32  // open-addressing table of term index + 1 (0: empty); a power of 2 long
	start    []uint32  // the postings of term i are entries[start[i]:start[i+1]]
	df       []uint32  // documents holding term i
	entries  []posting // by term, then by document
	fieldLen []float32 // per document, index.NumFields raw field lengths

	// lazy, when set, patches the fields above as they are read: they
	// are an older index's, fieldLen excepted (lazyText, corpuspatch.go).
	lazy *lazyText

	// From Params, set by weigh.
	w      [index.NumFields]float32
	length []float32
	avg    float32
	k1, b  float64
}

// lookup returns the index of term.
func (b *bm25) lookup(term string) (int, bool) {
	if len(b.slots) == 0 {
		return 0, false
	}
	mask := uint32(len(b.slots) - 1)
	for i := termHash(term) & mask; ; i = (i + 1) & mask {
		s := b.slots[i]
		if s == 0 {
			return 0, false
		}
		if b.terms[s-1] == term {
			return int(s - 1), true
		}
	}
}

// has reports whether any document holds term.
func (b *bm25) has(term string) bool {
	if b.lazy != nil {
		return b.lazy.docFreq(b, term) > 0
	}
	_, ok := b.lookup(term)
	return ok
}

// termHash is FNV-1a: stable across processes, as the table on disk needs.
func termHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// weigh applies the field weights and BM25 parameters of par.
func (b *bm25) weigh(fields [index.NumFields]float64, k1, bb float64) {
	for f, w := range fields {
		b.w[f] = float32(w)
	}
	b.k1, b.b = k1, bb
	n := len(b.fieldLen) / int(index.NumFields)
	b.length = make([]float32, n)
	for d := range b.length {
		var l float32
		for f, x := range b.fieldLen[d*int(index.NumFields) : (d+1)*int(index.NumFields)] {
			l += b.w[f] * x
		}
		b.length[d] = l
	}
	b.avg = mean(b.length)
}

func (b *bm25) idf(term string) float64 {
	n := float64(len(b.length))
	df := 0.0
	if b.lazy != nil {
		df = float64(b.lazy.docFreq(b, term))
	} else if t, ok := b.lookup(term); ok {
		df = float64(b.df[t])
	}
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// score adds the BM25 contribution of term, weighted by qw, to scores.
func (b *bm25) score(term string, qw float64, scores []float64) {
	if b.lazy != nil {
		old, fresh := b.lazy.find(b, term)
		if len(old) == 0 && len(fresh) == 0 {
			return
		}
		idf := b.idf(term)
		b.scorePostings(old, b.lazy.docMap, qw, idf, scores)
		b.scorePostings(fresh, nil, qw, idf, scores)
		return
	}
	t, ok := b.lookup(term)
	if !ok {
		return
	}
	b.scorePostings(b.entries[b.start[t]:b.start[t+1]], nil, qw, b.idf(term), scores)
}

// scorePostings adds the BM25 contribution of the postings es of a term
// to scores, each document once; with docMap, a posting's document is
// docMap's of it, and those it drops (-1) are skipped.
func (b *bm25) scorePostings(es []posting, docMap []int32, qw, idf float64, scores []float64) {
	for i := 0; i < len(es); {
		doc := es[i].doc
		var w float32
		for ; i < len(es) && es[i].doc == doc; i++ {
			w += b.w[es[i].field()] * float32(es[i].count())
		}
		if docMap != nil {
			if doc = docMap[doc]; doc < 0 {
				continue
			}
		}
		tf := float64(w)
		norm := b.k1 * (1 - b.b + b.b*float64(b.length[doc])/float64(b.avg))
		scores[doc] += qw * idf * tf * (b.k1 + 1) / (tf + norm)
	}
}

// fileEntry is one indexed file.
type fileEntry struct {
	id   int64
	path string
	lang string
	hash string // content hash: with id, path and definitions, what says the file is unchanged (patchCorpus)
	test bool   // holds tests, by path
	aux  bool   // documentation, examples, benchmarks: rarely where a fix goes
	defs []int32
}

// defEntry is one definition.
type defEntry struct {
	index.Brief
	file int32
}

// A groups maps keys to lists of indexes, flat: the list of keys[i] is
// items[start[i]:start[i+1]].
type groups struct {
	keys  []string
	start []uint32
	items []int32
}

// corpus is the in-memory view of an index that ranking needs: every
// definition, every file, and lexical indexes over both. It is built
// once per index generation, from the corpus file when there is a valid
// one (corpusfile.go), else by patching the corpus of an earlier
// generation with the files that changed (corpuspatch.go), else from the
// index, and then saved to the file.
//
// Adding a field: if it is derived from the index, build it in
// loadCorpus and persist it in encodeCorpus and decodeCorpus (same
// position in both) and bump corpusLayout; if it is cheap to derive
// from the persisted fields (a map over defs, say), derive it in
// finish, which runs whichever way the corpus was made. A field that
// depends on Params is derived in finish, never persisted: the file is
// shared by every Params.
type corpus struct {
	gen   string     // the index stamp it was built at (index.Stamp)
	tier  index.Tier // the index's tier at that stamp: set by whoever loads it, not persisted
	par   Params     // the field weights and BM25 parameters it is weighed with
	files []fileEntry
	defs  []defEntry

	names groups // lower-case name → definitions
	norm  groups // normName of a name → definitions

	defText  bm25 // one document per definition
	fileText bm25 // one document per file

	// Derived in finish.
	fileByID map[int64]int32
	defByID  map[int64]int32
	byPath   map[string]int32   // path → file
	byModule map[string][]int32 // dotted module path and its suffixes → files ("core.basic" → sympy/core/basic.py)
	norms    [256][]string      // the distinct normNames, by first byte and then length, for near matches

	// Vendored files, dispatch names, file breadth: deriveStructure
	// (structure.go), called by finish.
	structure
}

// loadCorpus builds the corpus from the index, as one snapshot, so
// that an update landing meanwhile cannot mix two states.
func loadCorpus(ctx context.Context, ix *index.Index, par Params) (*corpus, error) {
	snap, err := ix.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	return buildCorpus(ctx, snap, par)
}

// buildCorpus builds the corpus of the snapshot.
func buildCorpus(ctx context.Context, snap *index.Snapshot, par Params) (*corpus, error) {
	defer tightenGC()()
	gen, err := snap.Stamp(ctx)
	if err != nil {
		return nil, err
	}
	tier, err := snap.Tier(ctx)
	if err != nil {
		return nil, err
	}
	c := &corpus{gen: gen, tier: tier}
	defByID := make(map[int64]int32)
	err = snap.ForEachBrief(ctx, func(b *index.Brief) error {
		defByID[b.ID] = int32(len(c.defs))
		c.defs = append(c.defs, defEntry{Brief: *b, file: -1})
		return nil
	})
	if err != nil {
		return nil, err
	}
	defs := newTextBuilder(len(c.defs))
	files := newTextBuilder(0)
	var acc fileAccumulator
	err = snap.ForEachFileDocs(ctx, func(fd *index.FileDocs) error {
		fi := int32(len(c.files))
		f := fileEntry{id: fd.FileID, path: fd.Path, lang: fd.Language, hash: fd.Hash}
		acc.add(files, fd.File)
		for i, id := range fd.Symbols {
			di, ok := defByID[id]
			if !ok {
				continue // cannot happen within one snapshot; a damaged index loses the symbol, not the query
			}
			c.defs[di].file = fi
			f.defs = append(f.defs, di)
			defs.addDoc(di, fd.Docs[i])
			acc.add(files, fd.Docs[i])
		}
		acc.flush(files, fi)
		c.files = append(c.files, f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	c.defText = defs.build()
	c.fileText = files.build()
	c.groupNames()
	c.finish(par)
	return c, nil
}

// A corpus build allocates some five times what it keeps (every file's
// documents, decoded one file at a time, and the postings of the whole
// tree, sorted) while what it keeps grows to the corpus, and at the
// default pace the collector lets the heap grow to twice what was live
// at its last collection: a cold winnow index of sympy peaked there, at
// some 85 MB of Go heap around a corpus of 40. tightenGC has the heap
// collected at buildGOGC percent of growth instead while a corpus is
// built (the build's CPU grows by a sixth: 0.07 s on sympy), and returns
// what restores the pace; concurrent builds share one setting. A GOGC
// already lower, or off, is kept; one set meanwhile by someone else is
// overwritten when the last build ends.
const buildGOGC = 50

var buildGC struct {
	sync.Mutex
	builds int // in flight
	old    int // the percent to restore
}

func tightenGC() (restore func()) {
	buildGC.Lock()
	defer buildGC.Unlock()
	if buildGC.builds == 0 {
		buildGC.old = debug.SetGCPercent(buildGOGC)
		if buildGC.old < buildGOGC { // lower already, or off (-1)
			debug.SetGCPercent(buildGC.old)
		}
	}
	buildGC.builds++
	return func() {
		buildGC.Lock()
		defer buildGC.Unlock()
		if buildGC.builds--; buildGC.builds == 0 {
			debug.SetGCPercent(buildGC.old)
		}
	}
}

// groupNames makes c.names and c.norm from c.defs.
func (c *corpus) groupNames() {
	names := make([]keyedDef, 0, len(c.defs))
	norms := make([]keyedDef, 0, len(c.defs))
	for i, d := range c.defs {
		if d.file >= 0 {
			names = append(names, keyedDef{strings.ToLower(d.Name), int32(i)})
			norms = append(norms, keyedDef{normName(d.Name), int32(i)})
		}
	}
	c.names, c.norm = flatGroups(names), flatGroups(norms)
}

// A keyedDef is a definition under one key of a groups.
type keyedDef struct {
	key string
	def int32
}

// finish derives what is not persisted: Params-weighted lengths, the
// maps by id, path and module, and the test and aux marks.
func (c *corpus) finish(par Params) {
	c.par = par
	c.defText.weigh(par.Fields, par.K1, par.B)
	c.fileText.weigh(par.FileFields, par.K1, par.B)
	c.fileByID = make(map[int64]int32, len(c.files))
	c.byPath = make(map[string]int32, len(c.files))
	c.byModule = make(map[string][]int32, 4*len(c.files))
	for i := range c.files {
		f := &c.files[i]
		f.test, f.aux = isTestPath(f.path), isAuxPath(f.path)
		c.fileByID[f.id] = int32(i)
		c.byPath[f.path] = int32(i)
		for _, mod := range moduleSuffixes(f.path) {
			c.byModule[mod] = append(c.byModule[mod], int32(i))
		}
	}
	c.defByID = make(map[int64]int32, len(c.defs))
	for i := range c.defs {
		c.defByID[c.defs[i].ID] = int32(i)
	}
	c.norms = normsByFirstByte(c.norm.keys)
	c.deriveStructure()
}

// get returns the items of key, nil if it has none. The keys are sorted,
// so a lookup is a binary search: a one-shot process looks up a few
// hundred keys, far fewer than building a map of all of them would cost.
func (g *groups) get(key string) []int32 {
	i, ok := slices.BinarySearch(g.keys, key)
	if !ok {
		return nil
	}
	return g.items[g.start[i]:g.start[i+1]:g.start[i+1]]
}

// flatGroups lays ks out flat, keys sorted and a key's definitions
// ascending. It sorts ks: sorting these pairs rather than filling a map
// of lists, one per key, took the build of sympy's corpus (SaveCorpus on
// an indexed copy) from 201.9 to 189.6 MB allocated (one run, cf0a6a2).
func flatGroups(ks []keyedDef) groups {
	slices.SortFunc(ks, func(a, b keyedDef) int { return cmp.Or(strings.Compare(a.key, b.key), cmp.Compare(a.def, b.def)) })
	g := groups{start: []uint32{0}}
	if len(ks) > 0 {
		g.items = make([]int32, len(ks))
	}
	for i, k := range ks {
		if i > 0 && k.key != ks[i-1].key {
			g.keys = append(g.keys, ks[i-1].key)
			g.start = append(g.start, uint32(i))
		}
		g.items[i] = k.def
	}
	if len(ks) > 0 {
		g.keys = append(g.keys, ks[len(ks)-1].key)
		g.start = append(g.start, uint32(len(ks)))
	}
	return g
}

// A textBuilder collects the postings of a bm25, document by document.
type textBuilder struct {
	ids      map[string]uint32
	terms    []string
	raw      postingChunks
	fieldLen []float32
}

// postingChunks is a builder's postings in the order added, in chunks
// that are never copied as they grow: a builder's postings are most of
// a corpus build's heap (some 20 MB on sympy), and a slice grown by
// append held its old and new arrays both while it copied.
type postingChunks struct {
	chunks [][]rawPosting
	n      int
}

// Chunks start small, for the few postings of a patch, and double up
// to maxChunk postings.
const (
	minChunk = 1 << 10
	maxChunk = 1 << 16
)

func (c *postingChunks) add(r rawPosting) {
	last := len(c.chunks) - 1
	if last < 0 || len(c.chunks[last]) == cap(c.chunks[last]) {
		size := minChunk
		if last >= 0 {
			size = min(2*cap(c.chunks[last]), maxChunk)
		}
		c.chunks = append(c.chunks, make([]rawPosting, 0, size))
		last++
	}
	c.chunks[last] = append(c.chunks[last], r)
	c.n++
}

type rawPosting struct {
	term uint32
	posting
}

func newTextBuilder(docs int) *textBuilder {
	return &textBuilder{ids: make(map[string]uint32), fieldLen: make([]float32, docs*int(index.NumFields))}
}

func (t *textBuilder) id(term string) uint32 {
	id, ok := t.ids[term]
	if !ok {
		id = uint32(len(t.terms))
		t.ids[term] = id
		t.terms = append(t.terms, term)
	}
	return id
}

// addDoc adds the postings of document doc, sorted by term and field
// as index.FileDocs holds them.
func (t *textBuilder) addDoc(doc int32, ps []index.Posting) {
	for _, p := range ps {
		t.add(t.id(p.Term), doc, p.Field, uint32(p.Count))
	}
}

func (t *textBuilder) add(term uint32, doc int32, f index.Field, count uint32) {
	for len(t.fieldLen) < (int(doc)+1)*int(index.NumFields) {
		t.fieldLen = append(t.fieldLen, 0)
	}
	t.fieldLen[int(doc)*int(index.NumFields)+int(f)] += float32(count)
	t.raw.add(rawPosting{term, makePosting(doc, f, count)})
}

// build lays the postings out in the canonical order: terms sorted,
// and a term's postings by document, then field. The order is a
// function of the documents alone, not of the order they were added
// in, so a corpus brought up to date by patchCorpus is the corpus built
// from scratch, to the byte.
func (t *textBuilder) build() bm25 {
	rank := make([]uint32, len(t.terms)) // builder's term id → sorted position
	order := make([]uint32, len(t.terms))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(t.terms[a], t.terms[b]) })
	terms := make([]string, len(t.terms))
	for r, id := range order {
		rank[id] = uint32(r)
		terms[r] = t.terms[id]
	}
	// Two stable counting sorts, by document, then by term; a document's
	// postings of a term were added adjacent, fields ascending. Postings
	// added in document order already (a file's, always) skip the first,
	// in place: a builder's postings are most of a corpus build's heap,
	// and a sorted copy beside them was its peak.
	raw := t.raw
	t.raw, t.ids = postingChunks{}, nil // let the collector have them once laid out
	if !raw.byDocument() {
		raw = raw.sortByDocument(len(t.fieldLen) / int(index.NumFields))
	}
	for _, ch := range raw.chunks {
		for i := range ch {
			ch[i].term = rank[ch[i].term]
		}
	}
	return layOut(terms, &raw, t.fieldLen)
}

// byDocument reports whether the postings are in document order.
func (c *postingChunks) byDocument() bool {
	last := int32(-1)
	for _, ch := range c.chunks {
		for _, r := range ch {
			if r.doc < last {
				return false
			}
			last = r.doc
		}
	}
	return true
}

// sortByDocument returns the postings in document order, stably: a
// counting sort over docs documents.
func (c *postingChunks) sortByDocument(docs int) postingChunks {
	byDoc := make([]rawPosting, c.n)
	next := make([]uint32, docs+1)
	for _, ch := range c.chunks {
		for _, r := range ch {
			next[r.doc+1]++
		}
	}
	for d := range docs {
		next[d+1] += next[d]
	}
	for _, ch := range c.chunks {
		for _, r := range ch {
			byDoc[next[r.doc]] = r
			next[r.doc]++
		}
	}
	return postingChunks{chunks: [][]rawPosting{byDoc}, n: len(byDoc)}
}

// layOut makes a bm25 of terms (sorted) from postings in document order
// whose term is an index into terms.
func layOut(terms []string, raw *postingChunks, fieldLen []float32) bm25 {
	b := bm25{terms: terms, start: make([]uint32, len(terms)+1), df: make([]uint32, len(terms)), fieldLen: fieldLen}
	for _, ch := range raw.chunks {
		for _, r := range ch {
			b.start[r.term+1]++
		}
	}
	for i := range terms {
		b.start[i+1] += b.start[i]
	}
	next := slices.Clone(b.start[:len(terms)])
	b.entries = make([]posting, raw.n)
	for _, ch := range raw.chunks {
		for _, r := range ch {
			b.entries[next[r.term]] = r.posting
			next[r.term]++
		}
	}
	b.countDocs()
	b.slots = hashTerms(b.terms)
	return b
}

// countDocs sets the document frequency of every term.
func (b *bm25) countDocs() {
	for i := range b.terms {
		last := int32(-1)
		for _, p := range b.entries[b.start[i]:b.start[i+1]] {
			if p.doc != last {
				b.df[i]++
				last = p.doc
			}
		}
	}
}

// hashTerms makes the open-addressing table of terms, at most half full.
func hashTerms(terms []string) []uint32 {
	n := 2
	for n < 2*len(terms) {
		n *= 2
	}
	slots := make([]uint32, n)
	mask := uint32(n - 1)
	for ti, term := range terms {
		i := termHash(term) & mask
		for slots[i] != 0 {
			i = (i + 1) & mask
		}
		slots[i] = uint32(ti + 1)
	}
	return slots
}

// fileAccumulator sums a file's postings (its own code and all its
// definitions) by term and field, for the file's document.
type fileAccumulator struct {
	counts  map[uint32]*[index.NumFields]uint32
	touched []uint32
}

func (a *fileAccumulator) add(t *textBuilder, ps []index.Posting) {
	if a.counts == nil {
		a.counts = make(map[uint32]*[index.NumFields]uint32)
	}
	for _, p := range ps {
		id := t.id(p.Term)
		c := a.counts[id]
		if c == nil {
			c = new([index.NumFields]uint32)
			a.counts[id] = c
			a.touched = append(a.touched, id)
		}
		c[p.Field] += uint32(p.Count)
	}
}

func (a *fileAccumulator) flush(t *textBuilder, file int32) {
	t.fieldLen = append(t.fieldLen, make([]float32, index.NumFields)...)
	a.flushTo(t, file)
}

// flushTo is flush for a file that is not the next one in t.
func (a *fileAccumulator) flushTo(t *textBuilder, file int32) {
	slices.Sort(a.touched)
	for _, id := range a.touched {
		for f, n := range a.counts[id] {
			if n > 0 {
				t.add(id, file, index.Field(f), n)
			}
		}
	}
	clear(a.counts)
	a.touched = a.touched[:0]
}

func mean(xs []float32) float32 {
	if len(xs) == 0 {
		return 1
	}
	var sum float32
	for _, x := range xs {
		sum += x
	}
	return max(sum/float32(len(xs)), 1)
}

// isTestPath reports paths that hold tests by the common conventions.
func isTestPath(p string) bool {
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	return strings.HasPrefix(base, "test_") || strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, "_tests") ||
		strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") || base == "conftest.py" ||
		strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests") ||
		hasDir(p, "tests", "test", "testing", "__tests__", "spec", "testdata")
}

// isAuxPath reports documentation, examples, benchmarks, tooling and
// static assets (a "jquery-3.5.1.js" under static/ is nobody's code).
func isAuxPath(p string) bool {
	return hasDir(p, "doc", "docs", "examples", "example", "benchmarks", "bench", "scripts", "tools", "ci", ".github", "static") ||
		mayBeVersioned(path.Base(p)) && versionedFile.MatchString(path.Base(p))
}

// versionedFile matches file names that carry a release number, as
// copied-in libraries do: underscore-1.13.1.js.
var versionedFile = regexp.MustCompile(`[-_.]v?\d+\.\d+(\.\d+)?(\.min)?\.[a-z]+$`)

// mayBeVersioned is what a name versionedFile matches must have, and
// most names lack: a digit and two dots (in the number, before the
// extension). A corpus opens with the test of every file's path.
func mayBeVersioned(name string) bool {
	return strings.ContainsAny(name, "0123456789") && strings.Count(name, ".") >= 2
}

// hasDir reports whether a directory of p, at any depth, is one of
// names: p's directory (path.Dir, cleaned) taken apart at its slashes.
func hasDir(p string, names ...string) bool {
	dir := path.Dir(p)
	if dir == "." || dir == "/" {
		return false
	}
	for dir != "" {
		seg := dir
		if i := strings.IndexByte(dir, '/'); i >= 0 {
			seg, dir = dir[:i], dir[i+1:]
		} else {
			dir = ""
		}
		if seg != "" && slices.Contains(names, seg) {
			return true
		}
	}
	return false
}

// callableOrType reports the kinds that can be the answer to a task:
// code that runs or declares types. Fields, variables and constants are
// context.
func callableOrType(k symbol.Kind) bool {
	return k.IsCallable() || k.IsType()
}

// moduleSuffixes are the dotted module paths that name a file, as
// moduleMatches reads them: sympy/core/basic.py is "sympy.core.basic",
// "core.basic" and "basic"; a package's __init__ is the package.
func moduleSuffixes(file string) []string {
	stem := strings.TrimSuffix(file, path.Ext(file))
	stem = strings.TrimSuffix(stem, "/__init__")
	// Every suffix is a tail of the whole, dotted: one string for all.
	dotted := strings.ReplaceAll(stem, "/", ".")
	out := make([]string, 1, strings.Count(stem, "/")+1)
	out[0] = dotted
	for i := 0; i < len(stem); i++ {
		if stem[i] == '/' {
			out = append(out, dotted[i+1:])
		}
	}
	return out
}

// A nearName is a name close to a candidate, with their similarity.
type nearName struct {
	name  string
	ratio float64
}

// normsByFirstByte lays out the distinct normNames keys (but "") for
// nearNames: by first byte, then by length, stably; two counting sorts
// into two arrays, not 256 appended lists each sorted into one of its
// own (with the rest of ef89160, finish on sympy's corpus went from
// 9.7-11.1 to 7.8-8.9 ms and 5.3 to 3.8 MB allocated).
func normsByFirstByte(keys []string) (norms [256][]string) {
	var at [257]int
	for _, n := range keys {
		if n != "" {
			at[int(n[0])+1]++
		}
	}
	for b := range 256 {
		at[b+1] += at[b]
	}
	byByte := make([]string, at[256])
	next := at
	for _, n := range keys {
		if n != "" {
			byByte[next[n[0]]] = n
			next[n[0]]++
		}
	}
	out := make([]string, len(byByte))
	for b := range 256 {
		if lo, hi := at[b], at[b+1]; lo < hi {
			norms[b] = byLength(out[lo:hi:hi], byByte[lo:hi])
		}
	}
	return norms
}

// byLength orders names by length into out (as long), stably: a
// counting sort.
func byLength(out, names []string) []string {
	var at []int
	for _, n := range names {
		for len(at) <= len(n)+1 {
			at = append(at, 0)
		}
		at[len(n)+1]++
	}
	for l := 1; l < len(at); l++ {
		at[l] += at[l-1]
	}
	for _, n := range names {
		out[at[len(n)]] = n
		at[len(n)]++
	}
	return out
}

// nearNames returns the normalised names most similar to cand: same
// first letter, similar length (norms are by length), ratio at least
// ratioThreshold.
func (c *corpus) nearNames(cand string) []nearName {
	var out []nearName
	lo, hi := len(cand)*3/4, len(cand)*4/3+1
	var pat *lcsPattern // cand, prepared once for its many comparisons
	if len(cand) <= 64 {
		pat = new(lcsPattern)
		pat.set(cand)
	}
	names := c.norms[cand[0]]
	first, _ := slices.BinarySearchFunc(names, lo, func(n string, l int) int { return cmp.Compare(len(n), l) })
	for _, n := range names[first:] {
		if len(n) > hi {
			break
		}
		var r float64
		if pat != nil {
			r = 2 * float64(pat.lcs(n)) / float64(len(cand)+len(n))
		} else {
			r = ratio(cand, n)
		}
		if r >= ratioThreshold {
			out = append(out, nearName{n, r})
		}
	}
	slices.SortFunc(out, func(a, b nearName) int { return cmp.Or(cmp.Compare(b.ratio, a.ratio), strings.Compare(a.name, b.name)) })
	return out[:min(len(out), ratioMaxNames)]
}
