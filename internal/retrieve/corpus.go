package retrieve

import (
	"cmp"
	"context"
	"math"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/symbol"
)

// A posting is one document's weighted frequency of a term.
type posting struct {
	doc int32
	tf  float32
}

// bm25 is an inverted index with BM25 statistics.
type bm25 struct {
	postings map[string][]posting
	length   []float32
	avg      float32
	k1, b    float64
}

func (b *bm25) idf(term string) float64 {
	n := float64(len(b.length))
	df := float64(len(b.postings[term]))
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// score adds the BM25 contribution of term, weighted by qw, to scores.
func (b *bm25) score(term string, qw float64, scores []float64) {
	idf := b.idf(term)
	for _, p := range b.postings[term] {
		tf := float64(p.tf)
		norm := b.k1 * (1 - b.b + b.b*float64(b.length[p.doc])/float64(b.avg))
		scores[p.doc] += qw * idf * tf * (b.k1 + 1) / (tf + norm)
	}
}

// fileEntry is one indexed file.
type fileEntry struct {
	id   int64
	path string
	lang string
	test bool // holds tests, by path
	aux  bool // documentation, examples, benchmarks: rarely where a fix goes
	defs []int32
}

// defEntry is one definition.
type defEntry struct {
	index.Brief
	file int32
}

// corpus is the in-memory view of an index that ranking needs: every
// definition, every file, and lexical indexes over both. It is built
// once per index generation.
type corpus struct {
	gen   string
	par   Params // the field weights and BM25 parameters it was built with
	files []fileEntry
	defs  []defEntry

	fileByID map[int64]int32
	defByID  map[int64]int32
	byName   map[string][]int32 // lower-case name → definitions
	byPath   map[string]int32   // path → file
	byModule map[string][]int32 // dotted module path and its suffixes → files ("core.basic" → sympy/core/basic.py)
	byNorm   map[string][]int32 // normName of a name → definitions
	norms    [256][]string      // the distinct normNames, by first byte, for near matches

	defText  bm25 // one document per definition
	fileText bm25 // one document per file
}

// loadCorpus reads the index as one snapshot, so that an update landing
// meanwhile cannot mix two states.
func loadCorpus(ctx context.Context, ix *index.Index, par Params) (*corpus, error) {
	snap, err := ix.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	gen, err := snap.Generation(ctx)
	if err != nil {
		return nil, err
	}
	c := &corpus{
		gen:      gen,
		par:      par,
		fileByID: make(map[int64]int32),
		defByID:  make(map[int64]int32),
		byName:   make(map[string][]int32),
		byPath:   make(map[string]int32),
		byModule: make(map[string][]int32),
		byNorm:   make(map[string][]int32),
		defText:  bm25{postings: make(map[string][]posting), k1: par.K1, b: par.B},
		fileText: bm25{postings: make(map[string][]posting), k1: par.K1, b: par.B},
	}
	err = snap.ForEachBrief(ctx, func(b *index.Brief) error {
		c.defByID[b.ID] = int32(len(c.defs))
		c.defs = append(c.defs, defEntry{Brief: *b, file: -1})
		return nil
	})
	if err != nil {
		return nil, err
	}
	c.defText.length = make([]float32, len(c.defs))
	err = snap.ForEachFileDocs(ctx, func(fd *index.FileDocs) error {
		fi := int32(len(c.files))
		f := fileEntry{id: fd.FileID, path: fd.Path, lang: fd.Language, test: isTestPath(fd.Path), aux: isAuxPath(fd.Path)}
		fileTF := make(map[string]float32)
		var fileLen float32
		addFile := func(ps []index.Posting) {
			for _, p := range ps {
				w := float32(c.par.FileFields[p.Field]) * float32(p.Count)
				fileTF[p.Term] += w
				fileLen += w
			}
		}
		addFile(fd.File)
		for i, id := range fd.Symbols {
			di, ok := c.defByID[id]
			if !ok {
				continue // cannot happen within one snapshot; a damaged index loses the symbol, not the query
			}
			c.defs[di].file = fi
			f.defs = append(f.defs, di)
			c.addDef(di, fd.Docs[i])
			addFile(fd.Docs[i])
		}
		for term, tf := range fileTF {
			c.fileText.postings[term] = append(c.fileText.postings[term], posting{doc: fi, tf: tf})
		}
		c.fileText.length = append(c.fileText.length, fileLen)
		c.fileByID[fd.FileID] = fi
		c.byPath[fd.Path] = fi
		for _, mod := range moduleSuffixes(fd.Path) {
			c.byModule[mod] = append(c.byModule[mod], fi)
		}
		c.files = append(c.files, f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i, d := range c.defs {
		if d.file >= 0 {
			name := strings.ToLower(d.Name)
			c.byName[name] = append(c.byName[name], int32(i))
			norm := normName(d.Name)
			if len(c.byNorm[norm]) == 0 && norm != "" {
				c.norms[norm[0]] = append(c.norms[norm[0]], norm)
			}
			c.byNorm[norm] = append(c.byNorm[norm], int32(i))
		}
	}
	c.defText.avg = mean(c.defText.length)
	c.fileText.avg = mean(c.fileText.length)
	return c, nil
}

func (c *corpus) addDef(di int32, ps []index.Posting) {
	var length float32
	tf := make(map[string]float32, len(ps))
	for _, p := range ps {
		w := float32(c.par.Fields[p.Field]) * float32(p.Count)
		tf[p.Term] += w
		length += w
	}
	for term, v := range tf {
		c.defText.postings[term] = append(c.defText.postings[term], posting{doc: di, tf: v})
	}
	c.defText.length[di] = length
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
		versionedFile.MatchString(path.Base(p))
}

// versionedFile matches file names that carry a release number, as
// copied-in libraries do: underscore-1.13.1.js.
var versionedFile = regexp.MustCompile(`[-_.]v?\d+\.\d+(\.\d+)?(\.min)?\.[a-z]+$`)

func hasDir(p string, names ...string) bool {
	dir := path.Dir(p)
	for dir != "." && dir != "/" && dir != "" {
		base := path.Base(dir)
		for _, n := range names {
			if base == n {
				return true
			}
		}
		dir = path.Dir(dir)
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
	parts := strings.Split(stem, "/")
	out := make([]string, 0, len(parts))
	for i := range parts {
		out = append(out, strings.Join(parts[i:], "."))
	}
	return out
}

// A nearName is a name close to a candidate, with their similarity.
type nearName struct {
	name  string
	ratio float64
}

// nearNames returns the normalised names most similar to cand: same
// first letter, similar length, ratio at least ratioThreshold.
func (c *corpus) nearNames(cand string) []nearName {
	var out []nearName
	lo, hi := len(cand)*3/4, len(cand)*4/3+1
	for _, n := range c.norms[cand[0]] {
		if len(n) < lo || len(n) > hi {
			continue
		}
		if r := ratio(cand, n); r >= ratioThreshold {
			out = append(out, nearName{n, r})
		}
	}
	slices.SortFunc(out, func(a, b nearName) int { return cmp.Or(cmp.Compare(b.ratio, a.ratio), strings.Compare(a.name, b.name)) })
	return out[:min(len(out), ratioMaxNames)]
}
