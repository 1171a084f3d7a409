package proxy

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

// String formats the duration in milliseconds with three decimals.
func (m Millis) String() string {
	return fmt.Sprintf("%.3fms", float64(m)/1e6)
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

// rank is the index of the nearest-rank pth percentile of n sorted values.
func rank(n, p int) int {
	return max(0, (n*p+99)/100-1)
}

// A Comparison is the same measurement taken directly against the upstream and through the
// proxy, interleaved.
type Comparison struct {
	Direct Durations `json:"direct"`
	Proxy  Durations `json:"proxy"`
	// OverheadP50 and OverheadP95 are the proxy's percentile minus the direct one.
	OverheadP50 Millis `json:"overhead_p50_ms"`
	OverheadP95 Millis `json:"overhead_p95_ms"`
	// Ratio is the proxy's p50 over the direct p50.
	Ratio float64 `json:"ratio_p50"`
}

func compare(direct, proxied []time.Duration) Comparison {
	c := Comparison{Direct: summarize(direct), Proxy: summarize(proxied)}
	c.OverheadP50 = c.Proxy.P50 - c.Direct.P50
	c.OverheadP95 = c.Proxy.P95 - c.Direct.P95
	if c.Direct.P50 > 0 {
		c.Ratio = float64(c.Proxy.P50) / float64(c.Direct.P50)
	}
	return c
}
