package bench

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/winnowhq/winnow/internal/index"
)

// Lookup is the latency of looking up symbol names sampled from the
// index, each of which is defined somewhere in it.
type Lookup struct {
	Names int `json:"names"`
	// Exact is a lookup without the prefix and fuzzy fallback.
	Exact Durations `json:"exact"`
	// Default is a lookup as the commands do it: up to 20 matches, with
	// the prefix and fuzzy fallback when fewer are exact.
	Default Durations `json:"default"`
	// First is the first default lookup of an open index, which loads
	// the list of names the fallback searches; it is part of Default too.
	First Millis `json:"default_first_ms"`
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
	l.Exact, l.Default = summarize(exact), summarize(def)
	if len(def) > 0 {
		l.First = Millis(def[0])
	}
	return l, nil
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
// random order fixed by sampleSeed. The index offers no list of names,
// so they come from every file's symbols.
func sampleNames(ctx context.Context, ix *index.Index, n int) ([]string, error) {
	files, err := ix.Files(ctx, "")
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool)
	for _, f := range files {
		if f.Skip != "" {
			continue
		}
		syms, err := ix.FileSymbols(ctx, f.Path)
		if err != nil {
			return nil, err
		}
		for _, s := range syms {
			// A dot or a "::" would make the lookup read a qualified name.
			if s.Name != "" && s.Name == strings.TrimSpace(s.Name) && !strings.ContainsAny(s.Name, ".:") {
				seen[s.Name] = true
			}
		}
	}
	names := make([]string, 0, len(seen))
	for name := range seen {
		names = append(names, name)
	}
	slices.Sort(names)
	rng := rand.New(rand.NewPCG(sampleSeed, sampleSeed))
	rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	return names[:min(n, len(names))], nil
}
