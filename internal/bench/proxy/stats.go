package proxy

import (
	"time"

	"github.com/winnowhq/winnow/internal/bench/measure"
)

// Millis and Durations are the shared measurement types; see package measure.
type (
	Millis    = measure.Millis
	Durations = measure.Durations
)

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
	c := Comparison{Direct: measure.Summarize(direct), Proxy: measure.Summarize(proxied)}
	c.OverheadP50 = c.Proxy.P50 - c.Direct.P50
	c.OverheadP95 = c.Proxy.P95 - c.Direct.P95
	if c.Direct.P50 > 0 {
		c.Ratio = float64(c.Proxy.P50) / float64(c.Direct.P50)
	}
	return c
}
