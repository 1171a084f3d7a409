package telescope

import "time"

// Stats describe one build.
type Stats struct {
	Units  int `json:"units"`  // units in the telescope
	Groups int `json:"groups"` // group nodes (L2 and up)
	// InputTokens is the raw source of the units, OutputTokens their L1 abstracts, and
	// SavedPct how much smaller the abstracts are, in percent.
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	SavedPct     float64 `json:"saved_pct"`
	// RootTokens is the size of the root index, what a reader sees first.
	RootTokens int `json:"root_tokens"`
	// Computed counts the nodes built this time, by kind; Reused those found in the store,
	// with everything below them.
	Computed LevelCounts `json:"computed"`
	Reused   LevelCounts `json:"reused"`
	// HitRate is the share of the telescope's nodes this build did not compute.
	HitRate float64 `json:"hit_rate"`
	// Strategies has the metrics of each strategy that wrote an abstract (fallbacks
	// included), by name.
	Strategies map[string]*StrategyStats `json:"strategies"`
	LLM        LLMStats                  `json:"llm"`
	// Skipped counts the files left out, by reason; Filtered the units --purpose left out.
	Skipped     map[string]int `json:"skipped"`
	Filtered    int            `json:"filtered,omitempty"`
	StoreErrors int            `json:"store_errors,omitempty"`
	// QuickUnits counts the code units whose definitions come from the index's quick tier
	// (a fast scan, not a parse): their ids say so, and the root.
	QuickUnits int           `json:"quick_units,omitempty"`
	Duration   time.Duration `json:"duration_ns"`
}

// LevelCounts count nodes by kind.
type LevelCounts struct {
	Units  int `json:"units"`
	Groups int `json:"groups"`
	Root   int `json:"root"`
}

func (c LevelCounts) total() int { return c.Units + c.Groups + c.Root }

// StrategyStats are the metrics of one strategy in one build.
type StrategyStats struct {
	Units        int     `json:"units"`
	Hits         int     `json:"hits"` // units not computed this time
	HitRate      float64 `json:"hit_rate"`
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	TokensSaved  int     `json:"tokens_saved"`
	// MeanCompression is the mean over units of abstract tokens / raw tokens (lower is
	// more compression); units of zero tokens are left out.
	MeanCompression float64 `json:"mean_compression_ratio"`
	ratio           Totals
}

// LLMStats total the model calls of a build's abstracts (computed ones only: a reused node
// cost nothing this time).
type LLMStats struct {
	Calls        int `json:"calls"`
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	Fallbacks    int `json:"fallbacks"`
}

// addTotals folds the units of one strategy into the stats; hit says they were reused.
func (s *Stats) addTotals(name string, t *Totals, hit bool) {
	s.Units += t.Units
	s.InputTokens += t.InputTokens
	s.OutputTokens += t.OutputTokens
	st := s.Strategies[name]
	if st == nil {
		st = &StrategyStats{}
		s.Strategies[name] = st
	}
	st.Units += t.Units
	if hit {
		st.Hits += t.Units
	}
	st.InputTokens += t.InputTokens
	st.OutputTokens += t.OutputTokens
	st.ratio.merge(t)
}

// addAbstract counts a computed abstract's model calls.
func (s *Stats) addAbstract(a *Abstract) {
	s.LLM.Calls += a.LLMCalls
	s.LLM.InputTokens += a.LLMInputTokens
	s.LLM.OutputTokens += a.LLMOutputTokens
	if a.Fallback != "" {
		s.LLM.Fallbacks++
	}
}

// finish computes the ratios.
func (s *Stats) finish() {
	if s.InputTokens > 0 {
		s.SavedPct = 100 * (1 - float64(s.OutputTokens)/float64(s.InputTokens))
	}
	if n := s.Computed.total() + s.Reused.total(); n > 0 {
		s.HitRate = float64(s.Reused.total()) / float64(n)
	}
	for _, st := range s.Strategies {
		st.TokensSaved = st.InputTokens - st.OutputTokens
		if st.Units > 0 {
			st.HitRate = float64(st.Hits) / float64(st.Units)
		}
		if st.ratio.RatioN > 0 {
			st.MeanCompression = st.ratio.RatioSum / float64(st.ratio.RatioN)
		}
	}
}
