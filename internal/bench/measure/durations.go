package measure

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

// String formats the duration with a unit and a precision that fit its
// size: three significant digits or so, never fewer than a microsecond's.
func (m Millis) String() string {
	d := time.Duration(m)
	switch {
	case d >= 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.1fms", float64(d)/1e6)
	}
	return fmt.Sprintf("%.3fms", float64(d)/1e6)
}

// Durations summarise repeated measurements of one thing.
type Durations struct {
	N   int    `json:"n"`
	Min Millis `json:"min_ms"`
	P50 Millis `json:"p50_ms"`
	P95 Millis `json:"p95_ms"`
	Max Millis `json:"max_ms"`
}

// Summarize returns the count, extremes and nearest-rank percentiles of
// ds; the zero Durations for none.
func Summarize(ds []time.Duration) Durations {
	if len(ds) == 0 {
		return Durations{}
	}
	s := slices.Sorted(slices.Values(ds))
	return Durations{
		N:   len(s),
		Min: Millis(s[0]),
		P50: Millis(s[Rank(len(s), 50)]),
		P95: Millis(s[Rank(len(s), 95)]),
		Max: Millis(s[len(s)-1]),
	}
}

// Rank is the index of the nearest-rank pth percentile of n sorted
// values: the smallest value that at least p% of the values do not
// exceed.
func Rank(n, p int) int {
	return max(0, (n*p+99)/100-1)
}
