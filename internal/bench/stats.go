package bench

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
)

// Millis is a duration that reads as float milliseconds in JSON.
type Millis time.Duration

// MarshalJSON writes the duration in milliseconds, to the microsecond.
func (m Millis) MarshalJSON() ([]byte, error) {
	return strconv.AppendFloat(nil, math.Round(float64(m)/1e3)/1e3, 'f', -1, 64), nil
}

// String formats the duration with a unit that fits its size.
func (m Millis) String() string {
	d := time.Duration(m)
	switch {
	case d >= 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.0fms", float64(d)/1e6)
	case d >= time.Millisecond:
		return fmt.Sprintf("%.1fms", float64(d)/1e6)
	}
	return fmt.Sprintf("%.2fms", float64(d)/1e6)
}

// Durations summarise repeated measurements of one thing.
type Durations struct {
	N   int    `json:"n"`
	Min Millis `json:"min_ms"`
	P50 Millis `json:"p50_ms"`
	P95 Millis `json:"p95_ms"`
	Max Millis `json:"max_ms"`
}

func summarize(ds []time.Duration) Durations {
	if len(ds) == 0 {
		return Durations{}
	}
	s := slices.Sorted(slices.Values(ds))
	return Durations{
		N:   len(s),
		Min: Millis(s[0]),
		P50: Millis(s[rank(len(s), 50)]),
		P95: Millis(s[rank(len(s), 95)]),
		Max: Millis(s[len(s)-1]),
	}
}

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
	return Sizes{Min: s[0], P50: s[rank(len(s), 50)], Max: s[len(s)-1]}
}

// rank is the index of the nearest-rank pth percentile of n sorted
// values: the smallest value that at least p% of the values do not
// exceed.
func rank(n, p int) int {
	return max(0, (n*p+99)/100-1)
}

// ratio is a/b, or 0 when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
