package bench

import (
	"slices"

	"github.com/winnowhq/winnow/internal/bench/measure"
)

// Millis and Durations are the shared measurement types; see package measure.
type (
	Millis    = measure.Millis
	Durations = measure.Durations
)

// Sizes summarise repeated peak memory readings, in KiB.
type Sizes struct {
	Min int64 `json:"min_kb"`
	P50 int64 `json:"p50_kb"`
	Max int64 `json:"max_kb"`
}

func summarizeSizes(ks []int64) Sizes {
	if len(ks) == 0 {
		return Sizes{}
	}
	s := slices.Sorted(slices.Values(ks))
	return Sizes{Min: s[0], P50: s[measure.Rank(len(s), 50)], Max: s[len(s)-1]}
}

// ratio is a/b, or 0 when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
