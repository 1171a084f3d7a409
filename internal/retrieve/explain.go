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
		out = append(out, Explanation{Rank: i + 1, Name: d.Qual, Path: d.Path, Line: d.Span.StartLine, Score: d.Score, Prior: d.Prior,
			Shares: shares(d.Features[:], featureNames[:])})
	}
	return out
}

// The terms of a file's score (rankFiles), as FileExplanation names them.
const (
	partBest    = iota // its best definition
	partSecond         // its runner-up
	partLexical        // its own text
	partPath           // the task names it
	partTrace          // a stack frame lies in it
	partDir            // a file in its directory leads (dirlift.go)
	numFileParts
)

// explainedFiles is how many leading files an explanation covers.
const explainedFiles = 10

var filePartNames = [numFileParts]string{"best", "second", "lexical", "path", "trace", "dir"}

// A FileExplanation is why a file ranked where it did: its score and
// each term's share of it.
type FileExplanation struct {
	Rank   int                `json:"rank"`
	Path   string             `json:"path"`
	Score  float64            `json:"score"`
	Prior  float64            `json:"prior"`
	Shares map[string]float64 `json:"shares"` // term → share of the score before the prior, summing to 1
}

// explainFiles describes the top n files of a ranking.
func explainFiles(r *Ranking, n int) []FileExplanation {
	var out []FileExplanation
	for i, f := range r.Files[:min(n, len(r.Files))] {
		out = append(out, FileExplanation{Rank: i + 1, Path: f.Path, Score: f.Score, Prior: f.prior, Shares: shares(f.parts[:], filePartNames[:])})
	}
	return out
}

// WriteFileExplanation writes a table of the file explanations: rank,
// score, prior, each term's share, and the file.
func WriteFileExplanation(w io.Writer, exs []FileExplanation) error {
	rows := make([]shareRow, len(exs))
	for i, ex := range exs {
		rows[i] = shareRow{ex.Rank, ex.Score, ex.Prior, ex.Shares, ex.Path}
	}
	return writeShares(w, filePartNames[:], "file", rows)
}

// WriteExplanation writes a table of the explanations: rank, score,
// prior, each feature's share, and the definition.
func WriteExplanation(w io.Writer, exs []Explanation) error {
	rows := make([]shareRow, len(exs))
	for i, ex := range exs {
		rows[i] = shareRow{ex.Rank, ex.Score, ex.Prior, ex.Shares, fmt.Sprintf("%s %s:%d", ex.Name, ex.Path, ex.Line)}
	}
	return writeShares(w, featureNames[:], "definition", rows)
}

// shares is each named value's share of their sum, for the values above
// zero.
func shares(vals []float64, names []string) map[string]float64 {
	var sum float64
	for _, v := range vals {
		sum += v
	}
	out := make(map[string]float64)
	for i, v := range vals {
		if v > 0 && sum > 0 {
			out[names[i]] = v / sum
		}
	}
	return out
}

// A shareRow is one line of an explanation's table.
type shareRow struct {
	rank         int
	score, prior float64
	shares       map[string]float64
	label        string
}

// writeShares writes rows as a table: rank, score, prior, the share of
// each of cols, and what each row is, under the heading what.
func writeShares(w io.Writer, cols []string, what string, rows []shareRow) error {
	tw := tabwriter.NewWriter(w, 0, 4, 1, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "rank\tscore\tprior\t%s\t %s\n", strings.Join(cols, "\t"), what)
	for _, r := range rows {
		fmt.Fprintf(tw, "%d\t%.3f\t%.2f\t", r.rank, r.score, r.prior)
		for _, c := range cols {
			if s := r.shares[c]; s > 0 {
				fmt.Fprintf(tw, "%.0f%%\t", 100*s)
			} else {
				fmt.Fprint(tw, "\t")
			}
		}
		fmt.Fprintf(tw, " %s\n", r.label)
	}
	return tw.Flush()
}
