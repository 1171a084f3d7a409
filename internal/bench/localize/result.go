package localize

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// A Result is what one query returned for one instance; a results file
// holds one JSON object per line.
type Result struct {
	ID string `json:"instance_id"`
	// FoundEntities is the ranked function list, path.py:Qual.name, at
	// least 50 deep when the engine has that many.
	FoundEntities []string `json:"found_entities"`
	// FoundFiles and FoundModules are rankings the engine made natively;
	// empty means "derive them from FoundEntities".
	FoundFiles   []string `json:"found_files,omitempty"`
	FoundModules []string `json:"found_modules,omitempty"`
	// ContextTokens is the size of the context the query assembled.
	ContextTokens int `json:"context_tokens"`
	// LatencyMS is the warm query time, the index already open.
	LatencyMS float64 `json:"latency_ms"`
	// IndexMS is the cold index time of the tree when this run built it,
	// 0 when an index was reused.
	IndexMS float64 `json:"index_ms"`
	// Index is the tier of the index the ranking came from: quick or full.
	Index string `json:"index,omitempty"`
	// BudgetRecall maps a token budget to GoldInContext of the context
	// packed at that budget.
	BudgetRecall map[int]float64 `json:"budget_recall,omitempty"`
	// Error says why the query failed; the instance then counts as a miss.
	Error string `json:"error,omitempty"`
}

// WriteResults writes results as JSON lines, one per result, so that a
// runner can write each as it finishes.
func WriteResults(w io.Writer, rs ...Result) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range rs {
		if err := enc.Encode(&rs[i]); err != nil {
			return fmt.Errorf("write result %s: %w", rs[i].ID, err)
		}
	}
	return nil
}

// ReadResults reads a results file written by WriteResults. Errors name
// the file and line.
func ReadResults(path string) ([]Result, error) {
	var rs []Result
	err := readLines(path, func(_ int, line []byte) error {
		var r Result
		if err := json.Unmarshal(line, &r); err != nil {
			return err
		}
		if r.ID == "" {
			return errors.New("no instance_id")
		}
		rs = append(rs, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rs, nil
}

// A Card is one definition a packed context shows: the engine reports,
// per budget, the cards it packed.
type Card struct {
	Path string // repository-relative, slash separated
	Name string // qualified name: Class.method, func
	// Full reports that the context holds the definition's whole body,
	// not only its signature, a summary or an excerpt.
	Full bool
}

// GoldInContext is the share of in's gold functions whose whole body is
// in a context made of cards: a gold function counts when a card with
// Full has its id, both sides normalised (so a full card of Foo.__init__
// or of the class Foo holds the gold Foo.__init__). It is 0 for an
// instance without gold functions, which the scorer leaves out anyway.
//
// Cards match by id alone, not by line span: the engine knows which
// definitions it packed whole, and matching spans would make the scorer
// parse every tree again.
func GoldInContext(in Instance, cards []Card) float64 {
	gold := goldFunctions(in)
	if len(gold) == 0 {
		return 0
	}
	full := make(map[string]bool, len(cards))
	for _, c := range cards {
		if c.Full {
			full[normalize(c.Path+":"+c.Name)] = true
		}
	}
	n := 0
	for _, g := range gold {
		if full[g] {
			n++
		}
	}
	return float64(n) / float64(len(gold))
}

// goldFunctions are in's gold function ids, normalised and deduplicated.
func goldFunctions(in Instance) []string {
	return dedup(in.EditFunctions, normalize)
}
