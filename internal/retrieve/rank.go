package retrieve

import (
	"cmp"
	"context"
	"math"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/winnowhq/winnow/internal/intent"
	"github.com/winnowhq/winnow/internal/symbol"
)

// A Feature is one signal ranking combines. Each is scaled to [0, 1]
// before it is weighted, so that weights compare across queries.
type Feature int

const (
	FeatLexical  Feature = iota // BM25F of the task's words over the definition's document
	FeatMention                 // the task names the definition (name, qualified name, module path)
	FeatPath                    // the task names the definition's file or module
	FeatTrace                   // a stack frame of the task lies in the definition
	FeatFile                    // the definition's file as a whole matches the task's words
	FeatGraph                   // references tie it to the strongest candidates
	FeatPhrase                  // a phrase of the task's prose is (nearly) its name
	FeatHistory                 // commits whose messages match the task changed its file (history.go)
	FeatDispatch                // its name dispatches on a class the task names (_print_Sum for Sum)
	FeatTestVote                // tests that match the task use it
	FeatCode                    // the task's code calls it, or what it calls calls it (issuecode.go, codeuse.go)
	FeatDelegate                // the leading file's best definitions call it (second stage, rerank.go)
	FeatLink                    // a link of the task to lines of a file points into it (links.go)
	FeatEnclose                 // a callable inside it leads (second stage, rerank.go)
	FeatVariant                 // its name is a compound name of the task with words added, in a leading file (variant.go)
	FeatMember                  // a method of a class the task names, by the words it shares with the task (member.go)
	FeatTitle                   // BM25F of the title's words alone over the definition's document (title.go)
	NumFeatures
)

var featureNames = [NumFeatures]string{"lexical", "mention", "path", "trace", "file", "graph", "phrase", "history", "dispatch", "testvote", "code", "delegate", "link", "enclose", "variant", "member", "title"}

func (f Feature) String() string { return featureNames[f] }

// Weights weigh the features of a definition's score.
type Weights [NumFeatures]float64

const (
	maxQueryTerms = 48  // the query terms scored, strongest first
	graphSeeds    = 12  // candidates whose references the graph follows
	rankDepth     = 200 // definitions and files a Ranking keeps
)

// A RankedDef is a definition with its score and the weighted share of
// each feature in it (before priors).
type RankedDef struct {
	ID       int64                `json:"id"`
	Path     string               `json:"path"`
	Name     string               `json:"name"`
	Qual     string               `json:"qualified_name"`
	Kind     symbol.Kind          `json:"kind"`
	Span     symbol.Span          `json:"span"`
	Score    float64              `json:"score"`
	Features [NumFeatures]float64 `json:"-"`
	Prior    float64              `json:"prior"`
	def      int32
}

// A RankedFile is a file with its score.
type RankedFile struct {
	Path  string  `json:"path"`
	Score float64 `json:"score"`
	file  int32
	prior float64               // the factor for tests, docs and vendored copies
	parts [numFileParts]float64 // the weighted terms of the score, before the prior (explain.go)
}

// A Ranking is what a task ranks: definitions and files, best first.
type Ranking struct {
	Intent intent.Result `json:"intent"`
	Defs   []RankedDef   `json:"definitions"`
	Files  []RankedFile  `json:"files"`
	Terms  []string      `json:"terms"` // the query terms scored, strongest first

	c *corpus // the view it was ranked on, which its definitions index
}

// Rank scores every definition and file of the index for a task.
func (e *Engine) Rank(ctx context.Context, task string) (*Ranking, error) {
	c, err := e.corpus(ctx)
	if err != nil {
		return nil, err
	}
	q := parseQuery(task)
	r := &ranker{c: c, q: q, par: &e.par}
	buf := e.rankBufs.get(len(c.defs), len(c.files))
	defer e.rankBufs.put(buf)
	r.feat, r.file, r.score, r.buf = buf.feat, buf.file, buf.score, buf
	r.run(ctx, e)
	return r.result(), nil
}

// rankBuf holds a ranking's dense arrays: NumFeatures per definition and
// per file, and the scores. They are most of what a ranking allocates
// (several megabytes on sympy), and a long-lived engine reuses them
// rather than having the collector sweep them after every call. The
// Ranking a ranker returns copies what it keeps of them.
type rankBuf struct {
	feat  [NumFeatures][]float64
	file  [NumFeatures][]float64
	score []float64
	// places holds the per-file factors of the priors (ranker.priors).
	places []place
	// files is rankFiles' scratch: every file that scores, before the
	// best are picked out of them.
	files []RankedFile
	// nz[f], where known[f], is every definition feature f scores in the
	// ranking that used the buffer last: combine and rescore read most
	// features through, and note what they find (noteNonZero), and get
	// zeroes those definitions alone rather than the whole column. After
	// its combine or its rescore nothing writes a feature, which
	// TestRescoreIsCombine holds: a write after them would leave the
	// ranking's scores stale.
	nz    [NumFeatures][]int32
	known [NumFeatures]bool
}

// rankBufs is a pool of rankBufs.
type rankBufs struct{ pool sync.Pool }

// get returns zeroed arrays for nd definitions and nf files.
func (p *rankBufs) get(nd, nf int) *rankBuf {
	b, _ := p.pool.Get().(*rankBuf)
	if b == nil || len(b.score) != nd || len(b.file[0]) != nf {
		b = &rankBuf{score: make([]float64, nd)}
		for f := range NumFeatures {
			b.feat[f] = make([]float64, nd)
			b.file[f] = make([]float64, nf)
		}
		return b
	}
	clear(b.score)
	for f := range NumFeatures {
		if col := b.feat[f]; b.known[f] {
			for _, d := range b.nz[f] {
				col[d] = 0
			}
			b.known[f] = false
		} else {
			clear(col)
		}
		clear(b.file[f])
	}
	return b
}

// noteNonZero notes for the buffer's next get that nz are the
// definitions feature f scores, all of them.
func (r *ranker) noteNonZero(f Feature, nz []int32) {
	if b := r.buf; b != nil {
		b.nz[f], b.known[f] = append(b.nz[f][:0], nz...), true
	}
}

func (p *rankBufs) put(b *rankBuf) { p.pool.Put(b) }

// ranker holds the per-definition and per-file feature arrays of one
// ranking.
type ranker struct {
	c     *corpus
	q     *parsed
	par   *Params
	feat  [NumFeatures][]float64 // per definition, scaled to [0, 1]
	file  [NumFeatures][]float64 // per file
	score []float64
	buf   *rankBuf // the arrays above, and the places of the priors
	terms []string
	cap   *rerankCap // set by the second stage (rerank.go)
	// codeReached: a use of the task's code reached a definition (codeuse.go).
	codeReached bool

	// pri makes the priors, once the first is asked for (priors).
	pri *priors
}

func (r *ranker) run(ctx context.Context, e *Engine) {
	r.lexical()
	r.mentions()
	r.phrases()
	r.pathMentions()
	r.traces()
	r.links()
	r.history(e.history())
	r.dispatch()
	r.code(ctx, e)
	r.usedNames(ctx, e)
	r.titleWords()
	r.combine(laterFeatures...)
	r.testVotes(ctx, e)
	r.rescore(FeatTestVote)
	if seeds := r.graphSeeds(); len(seeds) > 0 {
		r.graph(ctx, e, seeds)
		r.rescore(FeatGraph)
	}
	r.rerank(ctx, e)
}

// laterFeatures are the features run sets after its combine, each
// followed by a rescore: zero when it combines.
var laterFeatures = append([]Feature{FeatTestVote, FeatGraph}, secondStage...)

// graphSeeds are the definitions the graph starts from: the best
// candidates overall, and those the task names or traces, which are
// where a reader of the issue would start following calls.
func (r *ranker) graphSeeds() []int32 {
	seeds := r.top(graphSeeds)
	seen := make(map[int32]bool, len(seeds))
	for _, d := range seeds {
		seen[d] = true
	}
	for _, f := range []Feature{FeatMention, FeatTrace} {
		col := r.feat[f]
		nz, _ := nonZero(col, len(col), nil)
		named := nz[:0]
		for _, d := range nz {
			if col[d] > 0 && !seen[d] && callableOrType(r.c.defs[d].Kind) {
				named = append(named, d)
			}
		}
		slices.SortFunc(named, func(a, b int32) int { return cmp.Compare(r.score[b], r.score[a]) })
		for _, d := range named[:min(len(named), graphSeeds/2)] {
			seeds = append(seeds, d)
			seen[d] = true
		}
	}
	return seeds
}

// lexical scores definitions and files by BM25 over the task's words.
func (r *ranker) lexical() {
	type qt struct {
		term string
		w    float64
	}
	var qts []qt
	for t, w := range r.q.terms {
		if r.c.defText.has(t) || r.c.fileText.has(t) {
			qts = append(qts, qt{t, w * r.c.fileText.idf(t)})
		}
	}
	slices.SortFunc(qts, func(a, b qt) int { return cmp.Or(cmp.Compare(b.w, a.w), strings.Compare(a.term, b.term)) })
	qts = qts[:min(len(qts), maxQueryTerms)]
	for _, t := range qts {
		qw := r.q.terms[t.term]
		r.c.defText.score(t.term, qw, r.feat[FeatLexical])
		r.c.fileText.score(t.term, qw, r.file[FeatLexical])
		r.terms = append(r.terms, t.term)
	}
	scaleMax(r.feat[FeatLexical])
	scaleMax(r.file[FeatLexical])
}

// mentions scores definitions the task names. A name shared by many
// definitions says less about each: the score falls with the number of
// definitions it matches.
func (r *ranker) mentions() {
	for _, m := range r.q.idents {
		parts := strings.Split(m.text, ".")
		name := parts[len(parts)-1]
		cands := r.c.names.get(strings.ToLower(name))
		if len(cands) == 0 {
			continue
		}
		qualifier := strings.Join(parts[:len(parts)-1], ".")
		var exact []int32
		for _, d := range cands {
			if r.c.defs[d].Name == name {
				exact = append(exact, d)
			}
		}
		caseFactor := 1.0
		if len(exact) == 0 {
			exact, caseFactor = cands, 0.6
		}
		specificity := 1 / (1 + math.Log(float64(len(exact))))
		for _, d := range exact {
			def := &r.c.defs[d]
			s := m.weight * caseFactor * specificity
			if qualifier != "" {
				switch {
				case qualMatches(def.Qual, m.text):
					s = m.weight * caseFactor // a qualified name is specific by itself
				case moduleMatches(r.c.files[def.file].path, qualifier):
					s = m.weight * caseFactor
				default:
					s *= 0.5
				}
			}
			r.feat[FeatMention][d] = max(r.feat[FeatMention][d], s)
		}
	}
}

// phrases scores definitions whose name a phrase of the task's prose
// spells out, exactly or nearly (see fuzzy.go).
func (r *ranker) phrases() {
	for _, cand := range phraseCandidates(r.q.prose) {
		if defs := r.c.norm.get(cand); len(defs) > 0 {
			spec := 1 / (1 + math.Log(float64(len(defs))))
			for _, d := range defs {
				r.feat[FeatPhrase][d] = max(r.feat[FeatPhrase][d], spec)
			}
			continue
		}
		for _, near := range r.c.nearNames(cand) {
			defs := r.c.norm.get(near.name)
			spec := near.ratio / (1 + math.Log(float64(len(defs))))
			for _, d := range defs {
				r.feat[FeatPhrase][d] = max(r.feat[FeatPhrase][d], spec)
			}
		}
	}
}

// qualMatches reports whether qual is q or ends with "."+q.
func qualMatches(qual, q string) bool {
	return qual == q || strings.HasSuffix(qual, "."+q)
}

// moduleMatches reports whether a dotted module path names the file:
// "sympy.core.basic" names sympy/core/basic.py and sympy/core/basic/__init__.py.
func moduleMatches(file, module string) bool {
	mod := strings.ReplaceAll(module, ".", "/")
	stem := strings.TrimSuffix(file, path.Ext(file))
	stem = strings.TrimSuffix(stem, "/__init__")
	return stem == mod || strings.HasSuffix(stem, "/"+mod)
}

// pathMentions scores files the task names by path or module, and the
// definitions in them.
func (r *ranker) pathMentions() {
	mark := func(fi int32, s float64) {
		r.file[FeatPath][fi] = max(r.file[FeatPath][fi], s)
	}
	for _, p := range r.q.paths {
		p = strings.TrimPrefix(p, "./")
		for fi, f := range r.c.files {
			switch {
			case f.path == p || strings.HasSuffix(f.path, "/"+p):
				mark(int32(fi), 1)
			case path.Base(f.path) == path.Base(p):
				mark(int32(fi), 0.4)
			}
		}
	}
	for _, m := range r.q.idents {
		if !strings.Contains(m.text, ".") {
			continue
		}
		// The longest prefix of a dotted name that is a module names a file.
		parts := strings.Split(m.text, ".")
		for k := len(parts); k >= 2; k-- {
			files := r.c.byModule[strings.Join(parts[:k], ".")]
			for _, fi := range files {
				mark(fi, m.weight*float64(k)/float64(len(parts))*r.pathShare(m.text))
			}
			if len(files) > 0 {
				break
			}
		}
	}
	for fi, f := range r.c.files {
		if s := r.file[FeatPath][fi]; s > 0 {
			for _, d := range f.defs {
				r.feat[FeatPath][d] = s
			}
		}
	}
}

// traces scores the definitions a stack frame of the task lies in:
// innermost frames most, each frame further out TraceDecay of the last.
func (r *ranker) traces() {
	weight := 1.0
	for _, fr := range r.q.intent.Frames {
		// A library frame counts when it resolves into the tree: the
		// project itself, installed in site-packages, is the usual case.
		fi := r.c.frameFile(fr)
		if fi < 0 {
			continue
		}
		r.file[FeatTrace][fi] = max(r.file[FeatTrace][fi], weight)
		best := int32(-1)
		for _, d := range r.c.files[fi].defs {
			def := &r.c.defs[d]
			if !def.Kind.IsCallable() && !def.Kind.IsType() {
				continue
			}
			inSpan := fr.Line > 0 && def.Span.StartLine <= fr.Line && fr.Line <= def.Span.EndLine
			named := fr.Function != "" && def.Name == lastSegment(fr.Function)
			if inSpan || (fr.Line == 0 && named) {
				// The innermost definition around the line wins.
				if best < 0 || r.c.defs[best].Span.Lines() > def.Span.Lines() {
					best = d
				}
			}
		}
		if best >= 0 {
			r.feat[FeatTrace][best] = max(r.feat[FeatTrace][best], weight)
		}
		weight *= r.par.TraceDecay
	}
}

// frameFile finds the indexed file a frame names: the longest suffix of
// the frame's path that is an indexed path, or else the one indexed path
// that ends with the frame's path (a dev server's /src/a.ts is
// web/src/a.ts in the tree).
func (c *corpus) frameFile(fr intent.Frame) int32 {
	suffixes := fr.PathSuffixes()
	for _, suffix := range suffixes {
		if fi, ok := c.byPath[suffix]; ok {
			return fi
		}
	}
	if len(suffixes) == 0 || !strings.Contains(suffixes[0], "/") {
		return -1 // a bare file name says too little to guess a directory
	}
	found := int32(-1)
	for fi, f := range c.files {
		if strings.HasSuffix(f.path, "/"+suffixes[0]) {
			if found >= 0 {
				return -1 // ambiguous
			}
			found = int32(fi)
		}
	}
	return found
}

func lastSegment(s string) string {
	if i := strings.LastIndexAny(s, ".:"); i >= 0 {
		return s[i+1:]
	}
	return s
}

// combine computes every definition's score from its features, its
// file's and its priors. A definition's features are summed in feature
// order, and adding a zero feature leaves a sum as it was, so the sum
// over the dense features (the lexical and file scores hold most
// definitions) is the whole sum of a definition none of the sparse
// features score; the few they score are summed again over every
// feature. Summing all features for every definition, a chain of
// dependent additions each, took most of a ranking's first combine.
// The features later are left out: they are zero everywhere (set after
// it, and brought in by rescore), and reading them through only to find
// that is most of telling the sparse features from the dense.
func (r *ranker) combine(later ...Feature) {
	score, lex, ff, defFile := r.score, r.file[FeatLexical], r.feat[FeatFile], r.c.defFile
	for d, fi := range defFile {
		if fi >= 0 {
			ff[d] = lex[fi]
		}
	}
	all := r.weighted()
	var dense weightedFeatures
	var scored []int32 // definitions a sparse feature scores, some more than once
	for i, col := range all.cols {
		if slices.Contains(later, all.fs[i]) {
			continue
		}
		if nz, ok := nonZero(col, len(col)/sparseShare, scored); ok {
			r.noteNonZero(all.fs[i], nz[len(scored):])
			scored = nz
		} else {
			dense.cols, dense.ws = append(dense.cols, col), append(dense.ws, all.ws[i])
		}
	}
	// final, spelled out for the loop over every definition: combine runs
	// before the second stage sets its cap (rerank.go), so a score is its
	// sum times its prior.
	pr := r.priors()
	for d, fi := range defFile {
		score[d] = 0 // outside the files, or no feature: final's 0
		if fi < 0 {
			continue
		}
		if s := dense.sum(d); s != 0 {
			score[d] = s * pr.of(d)
		}
	}
	for _, d := range scored {
		if defFile[d] >= 0 {
			score[d] = r.final(int(d), all.sum(int(d)))
		}
	}
}

// sparseShare: a feature is sparse when it scores at most one definition
// in sparseShare.
const sparseShare = 16

// nonZero appends to out the indexes where col is not zero, and reports
// whether there are at most limit of them; past limit it stops and
// returns out as it was.
func nonZero(col []float64, limit int, out []int32) ([]int32, bool) {
	n := len(out)
	for i := 0; i < len(col); i += 4 {
		// Most of a sparse column is zero: four at a time, by their bits
		// with the sign shifted out (both +0 and -0 equal 0), skip a run
		// of zeros without a branch per element.
		if i+4 <= len(col) && zeroBits((*[4]float64)(col[i:])) {
			continue
		}
		for j, v := range col[i:min(i+4, len(col))] {
			if v != 0 {
				if len(out)-n == limit {
					return out[:n], false
				}
				out = append(out, int32(i+j))
			}
		}
	}
	return out, true
}

// zeroBits reports whether all four of xs are zero, +0 or -0.
func zeroBits(xs *[4]float64) bool {
	return (math.Float64bits(xs[0])|math.Float64bits(xs[1])|math.Float64bits(xs[2])|math.Float64bits(xs[3]))<<1 == 0
}

// rescore brings the scores up to date with features fs, set since the
// last combine, which saw them zero everywhere: only the definitions they
// score change, a few hundred of tens of thousands, and each is summed
// again as combine sums it, so the scores are combine's to the last bit.
// The cap of the second stage, set once, holds them all down.
func (r *ranker) rescore(fs ...Feature) {
	// A definition two of the features score is summed twice, to the
	// same score: each sum reads the features only.
	w := r.weighted()
	var scored []int32
	for _, f := range fs {
		if r.par.Weights[f] == 0 {
			continue
		}
		col := r.feat[f]
		scored, _ = nonZero(col, len(col), scored[:0])
		r.noteNonZero(f, scored)
		for _, d := range scored {
			if r.c.defFile[d] >= 0 {
				r.score[d] = r.final(int(d), w.sum(int(d)))
			}
		}
	}
	if r.cap != nil {
		bound := below(r.cap.defScore)
		for d, s := range r.score {
			if s > bound && int32(d) != r.cap.def {
				r.score[d] = bound
			}
		}
	}
}

// weightedFeatures are the features of non-zero weight, in feature order.
type weightedFeatures struct {
	cols [][]float64
	ws   []float64
	fs   []Feature
}

func (r *ranker) weighted() weightedFeatures {
	var w weightedFeatures
	for f := range NumFeatures {
		if r.par.Weights[f] != 0 {
			w.cols = append(w.cols, r.feat[f])
			w.ws = append(w.ws, r.par.Weights[f])
			w.fs = append(w.fs, f)
		}
	}
	return w
}

// sum is definition d's weighted sum of features, in feature order. A
// zero feature adds nothing: adding w·0 leaves any sum as it was.
func (w weightedFeatures) sum(d int) float64 {
	s := 0.0
	for i, col := range w.cols {
		s += w.ws[i] * col[d]
	}
	return s
}

// final is the score of definition d, in a file, for its weighted sum s:
// s times its prior, held below the leader once the second stage ran.
func (r *ranker) final(d int, s float64) float64 {
	if s == 0 {
		return 0 // most definitions: the prior cannot change that
	}
	s *= r.prior(d)
	if r.cap != nil && int32(d) != r.cap.def {
		s = min(s, below(r.cap.defScore))
	}
	return s
}

// prior is the factor for where a definition lives and what it is: its
// file's factor for tests and docs, PriorNonCode unless it is code, and
// its file's structure prior, as the task names it or not. It depends on
// what the task names (mentions, paths, traces), which is settled before
// the first combine.
func (r *ranker) prior(d int) float64 { return r.priors().of(d) }

// priors holds what the priors of one ranking are made of. A file's
// factors are the same for each of its definitions, and are computed
// once per ranking (places), as is the factor of each kind; a prior
// multiplies them in the order of the product they stand for: the
// file's factor, times PriorNonCode unless the definition is code (times
// 1, which is exact, if it is), times the structure prior.
type priors struct {
	places  []place
	kind    [256]float64 // by symbol.Kind
	file    []int32      // corpus.defFile
	kinds   []symbol.Kind
	mention []float64 // FeatMention
}

// of is definition d's prior.
func (p *priors) of(d int) float64 {
	pl := &p.places[p.file[d]]
	f := pl.kind * p.kind[p.kinds[d]]
	if p.mention[d] > 0 {
		return f * pl.named
	}
	return f * pl.unnamed
}

// A place is what a file contributes to the priors of its definitions:
// the factor for tests and docs, and structurePrior for a definition the
// task names and for one it does not.
type place struct{ kind, named, unnamed float64 }

// priors returns the priors of the ranking, computing them the first
// time: they depend on what the task names and traces, which is settled
// before the first prior is asked for.
func (r *ranker) priors() *priors {
	if r.pri != nil {
		return r.pri
	}
	pr := &priors{file: r.c.defFile, kinds: r.c.defKind, mention: r.feat[FeatMention]}
	for k := range pr.kind {
		pr.kind[k] = 1
		if !callableOrType(symbol.Kind(k)) {
			pr.kind[k] = r.par.PriorNonCode
		}
	}
	var pls []place
	switch {
	case r.buf == nil:
		pls = make([]place, len(r.c.files))
	case len(r.buf.places) != len(r.c.files):
		r.buf.places = make([]place, len(r.c.files))
		fallthrough
	default:
		pls = r.buf.places
	}
	for fi := range r.c.files {
		f := &r.c.files[fi]
		p := 1.0
		switch {
		case f.test && r.writesTests():
			p *= r.par.PriorTestWrite
		case f.test:
			p *= r.par.PriorTest
		case f.aux:
			p *= r.par.PriorAux
		}
		pls[fi] = place{kind: p, named: r.structurePrior(int32(fi), true), unnamed: r.structurePrior(int32(fi), false)}
	}
	pr.places = pls
	r.pri = pr
	return pr
}

// top returns the n best definitions with a positive score. It selects
// them with a bounded heap before sorting, since a repository has tens
// of thousands of definitions and a ranking needs a few hundred.
func (r *ranker) top(n int) []int32 { return r.topWhere(n, nil) }

// topWhere is top among the definitions keep accepts (all if nil).
func (r *ranker) topWhere(n int, keep func(d int32) bool) []int32 {
	if n <= 0 {
		return nil
	}
	h := &minHeap{score: r.score}
	// floor is the score to beat: 0 until the heap is full, then its
	// least. Most definitions fall at it, before keep is asked.
	floor := 0.0
	for d, s := range r.score {
		if s <= floor {
			continue
		}
		full := len(h.idx) == n
		switch {
		case full && !(s > floor): // NaN
		case keep != nil && !keep(int32(d)):
		case !full:
			if h.push(int32(d)); len(h.idx) == n {
				floor = r.score[h.idx[0]]
			}
		default:
			h.idx[0] = int32(d)
			h.down(0)
			floor = r.score[h.idx[0]]
		}
	}
	idx := h.idx
	// Ties go to the earlier path and line, so that a ranking does not
	// depend on the order the index assigned ids in.
	slices.SortFunc(idx, func(a, b int32) int {
		if c := cmp.Compare(r.score[b], r.score[a]); c != 0 {
			return c // most pairs: cmp.Or would compare their paths all the same
		}
		da, db := &r.c.defs[a], &r.c.defs[b]
		return cmp.Or(strings.Compare(r.c.files[da.file].path, r.c.files[db.file].path),
			cmp.Compare(da.Span.StartByte, db.Span.StartByte))
	})
	return idx
}

// minHeap holds definition indexes with the lowest score on top.
type minHeap struct {
	idx   []int32
	score []float64
}

func (h *minHeap) less(i, j int) bool { return h.score[h.idx[i]] < h.score[h.idx[j]] }

func (h *minHeap) push(d int32) {
	h.idx = append(h.idx, d)
	for i := len(h.idx) - 1; i > 0; {
		parent := (i - 1) / 2
		if !h.less(i, parent) {
			break
		}
		h.idx[i], h.idx[parent] = h.idx[parent], h.idx[i]
		i = parent
	}
}

func (h *minHeap) down(i int) {
	for {
		l, small := 2*i+1, i
		if l < len(h.idx) && h.less(l, small) {
			small = l
		}
		if l+1 < len(h.idx) && h.less(l+1, small) {
			small = l + 1
		}
		if small == i {
			return
		}
		h.idx[i], h.idx[small] = h.idx[small], h.idx[i]
		i = small
	}
}

func (r *ranker) result() *Ranking {
	out := &Ranking{Intent: r.q.intent, Terms: r.terms, c: r.c}
	for _, d := range r.top(rankDepth) {
		def := &r.c.defs[d]
		rd := RankedDef{
			ID: def.ID, Path: r.c.files[def.file].path, Name: def.Name, Qual: def.Qual, Kind: def.Kind,
			Span: def.Span, Score: r.score[d], Prior: r.prior(int(d)), def: d,
		}
		for f := range NumFeatures {
			rd.Features[f] = r.par.Weights[f] * r.feat[f][d]
		}
		out.Defs = append(out.Defs, rd)
	}
	out.Files = r.rankFiles()
	return out
}

// rankFiles ranks files natively: a file is as good as its best
// definitions, its own text, and what the task says of it.
func (r *ranker) rankFiles() []RankedFile {
	best := make([][2]float64, len(r.c.files))
	defFile := r.c.defFile[:len(r.score)]
	for d, s := range r.score {
		fi := defFile[d]
		if fi < 0 || s <= 0 {
			continue
		}
		b := &best[fi]
		switch {
		case s > b[0]:
			b[0], b[1] = s, b[0]
		case s > b[1]:
			b[1] = s
		}
	}
	var out []RankedFile
	if r.buf != nil {
		out = r.buf.files[:0]
		defer func() { r.buf.files = out[:0] }()
	}
	for fi, f := range r.c.files {
		par := r.par
		parts := [numFileParts]float64{partBest: par.FileBestDef * best[fi][0], partSecond: par.FileSecondDef * best[fi][1],
			partLexical: par.FileLexical * r.file[FeatLexical][fi], partPath: par.FilePath * r.file[FeatPath][fi],
			partTrace: par.FileTrace * r.file[FeatTrace][fi]}
		s := parts[partBest] + parts[partSecond] + parts[partLexical] + parts[partPath] + parts[partTrace]
		prior := 1.0
		switch {
		case f.test && r.writesTests():
		case f.test:
			prior = par.PriorTest
		case f.aux:
			prior = par.PriorAux
		}
		prior *= r.structurePrior(int32(fi), false)
		if s *= prior; s > 0 {
			out = append(out, RankedFile{Path: f.path, Score: s, file: int32(fi), prior: prior, parts: parts})
		}
	}
	r.siblingLift(out)
	for i := range out {
		if r.cap != nil && out[i].file != r.cap.file {
			out[i].Score = min(out[i].Score, below(r.cap.fileScore))
		}
	}
	// Sort keys, not the files themselves (a RankedFile, with its parts,
	// is some 90 bytes, and most files of a large tree score).
	type key struct {
		score float64
		i     int32
	}
	keys := make([]key, len(out))
	for i := range out {
		keys[i] = key{out[i].Score, int32(i)}
	}
	keys = leastSorted(keys, rankDepth, func(a, b key) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(out[a.i].Path, out[b.i].Path)
	})
	ranked := make([]RankedFile, len(keys))
	for j := range ranked {
		ranked[j] = out[keys[j].i]
	}
	return ranked
}

// scaleMax divides xs by its maximum, so the best is 1. The maximum is
// taken four elements abreast, which is the same maximum without a chain
// of dependent comparisons.
func scaleMax(xs []float64) {
	var m0, m1, m2, m3 float64
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		m0, m1, m2, m3 = max(m0, xs[i]), max(m1, xs[i+1]), max(m2, xs[i+2]), max(m3, xs[i+3])
	}
	for ; i < len(xs); i++ {
		m0 = max(m0, xs[i])
	}
	m := max(max(m0, m1), max(m2, m3))
	if m <= 0 || m == 1 { // x/1 is x
		return
	}
	if math.IsNaN(m) {
		for i := range xs {
			xs[i] /= m
		}
		return
	}
	// Zero divided by a number is zero: four zeros at a time are
	// skipped, most of a sparse feature.
	for i := 0; i < len(xs); i += 4 {
		if i+4 <= len(xs) && zeroBits((*[4]float64)(xs[i:])) {
			continue
		}
		chunk := xs[i:min(i+4, len(xs))]
		for j := range chunk {
			chunk[j] /= m
		}
	}
}
