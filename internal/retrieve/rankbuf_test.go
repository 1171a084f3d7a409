package retrieve

import "testing"

// TestRankBufsComeBackZeroed ranks every eval query on buffers taken
// from and put back to one pool, as a long-lived engine does, and checks
// that each buffer comes back from get zeroed: get zeroes only what the
// last ranking was noted to have scored (noteNonZero), and whatever it
// missed would leak into the next ranking.
func TestRankBufsComeBackZeroed(t *testing.T) {
	e, _ := e2eEngine(t)
	c, err := e.corpus(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var pool rankBufs
	noted, reused := 0, 0
	var last *rankBuf
	for _, q := range loadE2EQueries(t) {
		buf := pool.get(len(c.defs), len(c.files))
		if buf == last {
			reused++
		}
		last = buf
		for f := range NumFeatures {
			for d, v := range buf.feat[f] {
				if v != 0 {
					t.Fatalf("before query %s: %s of %s is %v, want 0", q.id, Feature(f), c.defs[d].Qual, v)
				}
			}
		}
		r := &ranker{c: c, q: parseQuery(q.text), par: &e.par}
		r.feat, r.file, r.score, r.buf = buf.feat, buf.file, buf.score, buf
		r.run(t.Context(), e)
		for f := range NumFeatures {
			if buf.known[f] {
				noted++
			}
		}
		pool.put(buf)
	}
	if reused == 0 {
		t.Error("the pool never gave a buffer back: every get made a new one, and this test checks nothing")
	}
	if noted == 0 {
		t.Error("no ranking noted where a feature scored: get cleared every column whole, and this test checks nothing")
	}
}
