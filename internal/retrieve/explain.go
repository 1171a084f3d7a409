package retrieve

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// An Explanation is why a definition ranked where it did: its score and
// each feature's share of it.
type Explanation struct {
	Rank   int                `json:"rank"`
	Name   string             `json:"qualified_name"`
	Path   string             `json:"path"`
	Line   int                `json:"line"`
	Score  float64            `json:"score"`
	Prior  float64            `json:"prior"`  // factor for where it lives (tests, docs) and its kind
	Shares map[string]float64 `json:"shares"` // feature → share of the score before the prior, summing to 1
}

// explain describes the top n definitions of a ranking.
func explain(r *Ranking, n int) []Explanation {
	var out []Explanation
	for i, d := range r.Defs {
		if i == n {
			break
		}
		ex := Explanation{Rank: i + 1, Name: d.Qual, Path: d.Path, Line: d.Span.StartLine, Score: d.Score, Prior: d.Prior,
			Shares: make(map[string]float64)}
		var sum float64
		for _, v := range d.Features {
			sum += v
		}
		for f, v := range d.Features {
			if v > 0 && sum > 0 {
				ex.Shares[Feature(f).String()] = v / sum
			}
		}
		out = append(out, ex)
	}
	return out
}

// WriteExplanation writes a table of the explanations: rank, score,
// prior, each feature's share, and the definition.
func WriteExplanation(w io.Writer, exs []Explanation) error {
	tw := tabwriter.NewWriter(w, 0, 4, 1, ' ', tabwriter.AlignRight)
	var head strings.Builder
	head.WriteString("rank\tscore\tprior\t")
	for f := range NumFeatures {
		head.WriteString(Feature(f).String() + "\t")
	}
	fmt.Fprintln(tw, head.String()+" definition")
	for _, ex := range exs {
		fmt.Fprintf(tw, "%d\t%.3f\t%.2f\t", ex.Rank, ex.Score, ex.Prior)
		for f := range NumFeatures {
			if s := ex.Shares[Feature(f).String()]; s > 0 {
				fmt.Fprintf(tw, "%.0f%%\t", 100*s)
			} else {
				fmt.Fprint(tw, "\t")
			}
		}
		fmt.Fprintf(tw, " %s %s:%d\n", ex.Name, ex.Path, ex.Line)
	}
	return tw.Flush()
}
