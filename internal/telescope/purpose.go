package telescope

import (
	"math"
	"sort"

	"github.com/winnowhq/winnow/internal/terms"
)

// BM25 parameters: the usual defaults. k1 bounds how much repeating a term adds; b is how
// much a long unit is discounted for its length.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
	// pathWeight counts a term of a unit's path as this many occurrences in its text: a file
	// named for the purpose is more likely about it than one mentioning it once.
	pathWeight = 3
	// relevanceCut keeps the units scoring at least this share of the best score. BM25
	// scores have no absolute scale, so the cut is relative.
	relevanceCut = 0.2
)

// A ranking is the order and the selection --purpose makes.
type ranking struct {
	score map[string]float64 // unit path → BM25 score
	kept  []*Unit            // most relevant first
}

// rank scores every unit against purpose with BM25 over the terms of its path and text (the
// same terms retrieval uses: identifiers split, lower-cased, lightly stemmed) and keeps those
// within relevanceCut of the best. When nothing matches, every unit is kept, in path order:
// a purpose in other words than the corpus's must not empty the telescope.
func rank(units []*Unit, purpose string) ranking {
	query := map[string]bool{}
	for _, t := range terms.Terms(purpose) {
		query[t] = true
	}
	r := ranking{score: make(map[string]float64, len(units))}
	if len(query) == 0 || len(units) == 0 {
		r.kept = units
		return r
	}
	tf := make([]map[string]int, len(units))
	lens := make([]int, len(units))
	df := map[string]int{}
	total := 0
	for i, u := range units {
		counts := map[string]int{}
		n := 0
		terms.Scan(u.Path, func(t string) {
			n += pathWeight
			if query[t] {
				counts[t] += pathWeight
			}
		})
		terms.Scan(string(u.Content), func(t string) {
			n++
			if query[t] {
				counts[t]++
			}
		})
		for t := range counts {
			df[t]++
		}
		tf[i], lens[i] = counts, n
		total += n
	}
	avg := float64(total) / float64(len(units))
	best := 0.0
	for i, u := range units {
		s := 0.0
		for t, f := range tf[i] {
			idf := math.Log(1 + (float64(len(units))-float64(df[t])+0.5)/(float64(df[t])+0.5))
			norm := float64(f) * (bm25K1 + 1) / (float64(f) + bm25K1*(1-bm25B+bm25B*float64(lens[i])/max(avg, 1)))
			s += idf * norm
		}
		r.score[u.Path] = s
		best = max(best, s)
	}
	if best == 0 {
		r.kept = units
		return r
	}
	for _, u := range units {
		if r.score[u.Path] >= relevanceCut*best {
			r.kept = append(r.kept, u)
		}
	}
	sort.SliceStable(r.kept, func(i, j int) bool { return r.score[r.kept[i].Path] > r.score[r.kept[j].Path] })
	return r
}
