package bench

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/winnowhq/winnow/internal/bench/measure"
	"github.com/winnowhq/winnow/internal/index"
)

// Lookup is the latency of looking up symbol names sampled from the
// index, each of which is defined somewhere in it.
type Lookup struct {
	Names int `json:"names"`
	// Exact is a lookup without the prefix and fuzzy fallback.
	Exact Durations `json:"exact"`
	// Default is a lookup as the commands do it: up to 20 matches, with
	// the prefix fallback when fewer are exact.
	Default Durations `json:"default"`
	// Typo is a default lookup of a sampled name with two adjacent
	// letters swapped, so that only the fuzzy search can answer.
	Typo Durations `json:"typo"`
	// First is the first typo lookup of an open index, which loads the
	// list of names the fuzzy search scans; it is part of Typo too.
	First Millis `json:"typo_first_ms"`
	// TypoFound counts typo lookups whose matches include the name that
	// was misspelled.
	TypoFound int `json:"typo_found"`
	// Misses counts exact lookups that found nothing, which should be
	// none.
	Misses int `json:"misses"`
}

// sampleSeed fixes the sample, so that runs look up the same names.
const sampleSeed = 1

// lookup times exact and default lookups of sampled names.
func (b *treeBench) lookup(ctx context.Context, ix *index.Index) (Lookup, error) {
	names, err := sampleNames(ctx, ix, b.opts.LookupNames)
	if err != nil {
		return Lookup{}, err
	}
	l := Lookup{Names: len(names)}
	b.logf("lookup of %d names, exact", len(names))
	exact, err := timeLookups(ctx, ix, names, index.LookupOptions{Exact: true}, &l.Misses)
	if err != nil {
		return l, err
	}
	b.logf("lookup of %d names, default", len(names))
	def, err := timeLookups(ctx, ix, names, index.LookupOptions{Limit: 20}, nil)
	if err != nil {
		return l, err
	}
	b.logf("lookup of %d names with a typo", len(names))
	typos, err := timeTypos(ctx, ix, names, &l.TypoFound)
	if err != nil {
		return l, err
	}
	l.Exact, l.Default, l.Typo = measure.Summarize(exact), measure.Summarize(def), measure.Summarize(typos)
	if len(typos) > 0 {
		l.First = Millis(typos[0])
	}
	return l, nil
}

// timeTypos looks up each name with its first two differing adjacent
// letters (after the first) swapped, counting in found the lookups that
// still find the name.
func timeTypos(ctx context.Context, ix *index.Index, names []string, found *int) ([]time.Duration, error) {
	var ds []time.Duration
	for _, name := range names {
		typo := swapLetters(name)
		if typo == "" {
			continue
		}
		start := time.Now()
		ms, err := ix.Lookup(ctx, typo, index.LookupOptions{Limit: 20})
		ds = append(ds, time.Since(start))
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(ms, func(m index.Match) bool { return m.Name == name }) {
			*found++
		}
	}
	return ds, nil
}

// swapLetters swaps the first pair of differing adjacent bytes after the
// first byte, or returns "" when the name has none.
func swapLetters(name string) string {
	b := []byte(name)
	for i := 1; i+1 < len(b); i++ {
		if b[i] != b[i+1] && b[i] < 0x80 && b[i+1] < 0x80 {
			b[i], b[i+1] = b[i+1], b[i]
			return string(b)
		}
	}
	return ""
}

// timeLookups looks up each name and returns the latencies in order,
// counting lookups that found nothing in misses when it is not nil.
func timeLookups(ctx context.Context, ix *index.Index, names []string, opts index.LookupOptions, misses *int) ([]time.Duration, error) {
	ds := make([]time.Duration, 0, len(names))
	for _, name := range names {
		start := time.Now()
		ms, err := ix.Lookup(ctx, name, opts)
		ds = append(ds, time.Since(start))
		if err != nil {
			return nil, err
		}
		if len(ms) == 0 && misses != nil {
			*misses++
		}
	}
	return ds, nil
}

// sampleNames returns up to n distinct names defined in the index, in a
// random order fixed by sampleSeed.
func sampleNames(ctx context.Context, ix *index.Index, n int) ([]string, error) {
	all, err := ix.Names(ctx)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, name := range all {
		// A dot or a "::" would make the lookup read a qualified name.
		if name != "" && name == strings.TrimSpace(name) && !strings.ContainsAny(name, ".:") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	rng := rand.New(rand.NewPCG(sampleSeed, sampleSeed))
	rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	return names[:min(n, len(names))], nil
}
