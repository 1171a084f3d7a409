package costsim

// Usage is what requests cost under one Pricing.
type Usage struct {
	Requests   int     `json:"requests"`
	Input      int     `json:"input_tokens"`       // tokens sent
	CacheRead  int     `json:"cache_read_tokens"`  // of Input, served from the cache
	CacheWrite int     `json:"cache_write_tokens"` // of Input, written to the cache at a premium (Breakpoints only)
	Cost       float64 `json:"cost"`               // in uncached-input-token units
}

// HitRatio returns the share of input tokens served from the cache, or 0
// when nothing was sent.
func (u Usage) HitRatio() float64 {
	if u.Input == 0 {
		return 0
	}
	return float64(u.CacheRead) / float64(u.Input)
}

// Add adds v to u.
func (u *Usage) Add(v Usage) {
	u.Requests += v.Requests
	u.Input += v.Input
	u.CacheRead += v.CacheRead
	u.CacheWrite += v.CacheWrite
	u.Cost += v.Cost
}
