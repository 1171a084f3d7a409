package retrieve

import (
	"math"
	"os"
	"sync"
	"time"

	"github.com/winnowhq/winnow/internal/history"
)

// historyHits is how many commits whose messages best match the task
// vote for the files they changed. On the localization dev set (weight
// 1.0) 10 scored best by file Acc@5 + function Acc@10 + half file Acc@1:
// 5 lost 6 points, 20 and 50 lost 3 (the extra commits match on common
// words and spread the vote); spreading a commit's score over n rather
// than √n files lost 1.
const historyHits = 10

// history scores files by the commits whose messages resemble the task
// (package history): each of the best historyHits commits gives the
// files it changed its similarity, relative to the best commit's, over
// the square root of how many files it changed (a commit of one file
// says more about that file than a commit of twenty says about each).
// Files changed together by several matching commits add up. A file's
// score, scaled to [0, 1], lifts its definitions, as FeatFile does.
func (r *ranker) history(h *history.History) {
	if h == nil || r.par.Weights[FeatHistory] == 0 {
		return
	}
	// All of the task's words: a commit message may use words the code
	// does not ("leap year" of a date fix).
	hits := h.Search(r.q.terms, historyHits)
	if len(hits) == 0 || hits[0].Score <= 0 {
		return
	}
	scores := r.file[FeatHistory]
	for _, hit := range hits {
		sim := hit.Score / hits[0].Score
		h.Files(hit.Commit, func(p string, n int) {
			if fi, ok := r.c.byPath[p]; ok {
				scores[fi] += sim / math.Sqrt(float64(n))
			}
		})
	}
	scaleMax(scores)
	for fi, s := range scores {
		if s > 0 {
			for _, d := range r.c.files[fi].defs {
				r.feat[FeatHistory][d] = s
			}
		}
	}
}

// historyCache holds an Engine's opened history file, opened again when
// the file changes (an update moved HEAD).
type historyCache struct {
	mu   sync.Mutex
	mod  time.Time
	size int64
	h    *history.History
}

// history returns the index's git history, or nil when there is none or
// it cannot be read: the history is a signal, and ranking goes on
// without it.
func (e *Engine) history() *history.History {
	c := &e.hist
	file := e.ix.HistoryFile()
	fi, err := os.Stat(file)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.h, c.mod, c.size = nil, time.Time{}, 0
		return nil
	}
	if c.h != nil && fi.ModTime().Equal(c.mod) && fi.Size() == c.size {
		return c.h
	}
	h, err := history.Open(file)
	if err != nil {
		e.log.Debug("git history unreadable", "err", err)
		h = nil
	}
	c.h, c.mod, c.size = h, fi.ModTime(), fi.Size()
	return h
}
