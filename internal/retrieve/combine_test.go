package retrieve

import (
	"math"
	"testing"
)

// TestRescoreIsCombine ranks every eval query, where combine sums the
// sparse features apart and the stages after the first bring the scores
// up to date with rescore, and then sums every feature of every
// definition in feature order: the two must agree to the last bit, on
// every definition.
func TestRescoreIsCombine(t *testing.T) {
	e, _ := e2eEngine(t)
	c, err := e.corpus(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var lifted [NumFeatures]int // definitions each later stage scored, over all queries
	for _, q := range loadE2EQueries(t) {
		buf := e.rankBufs.get(len(c.defs), len(c.files))
		r := &ranker{c: c, q: parseQuery(q.text), par: &e.par}
		r.feat, r.file, r.score, r.buf = buf.feat, buf.file, buf.score, buf
		r.run(t.Context(), e)
		got := append([]float64(nil), r.score...)
		all := r.weighted()
		for d := range r.score {
			want := 0.0
			if c.defs[d].file >= 0 {
				want = r.final(d, all.sum(d))
			}
			if math.Float64bits(got[d]) != math.Float64bits(want) {
				t.Errorf("query %s: %s: rescored %v, combined %v", q.id, c.defs[d].Qual, got[d], want)
			}
		}
		for _, f := range []Feature{FeatTestVote, FeatGraph, FeatDelegate} {
			for _, v := range r.feat[f] {
				if v != 0 {
					lifted[f]++
				}
			}
		}
		e.rankBufs.put(buf)
	}
	for _, f := range []Feature{FeatTestVote, FeatGraph, FeatDelegate} {
		if lifted[f] == 0 {
			t.Errorf("no query scored any definition by %s: the eval does not exercise its rescore", f)
		}
	}
}
