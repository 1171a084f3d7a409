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
		ex := FileExplanation{Rank: i + 1, Path: f.Path, Score: f.Score, Prior: f.prior, Shares: make(map[string]float64)}
		var sum float64
		for _, v := range f.parts {
			sum += v
		}
		for p, v := range f.parts {
			if v > 0 && sum > 0 {
				ex.Shares[filePartNames[p]] = v / sum
			}
		}
		out = append(out, ex)
	}
	return out
}

// WriteFileExplanation writes a table of the file explanations: rank,
// score, prior, each term's share, and the file.
func WriteFileExplanation(w io.Writer, exs []FileExplanation) error {
	tw := tabwriter.NewWriter(w, 0, 4, 1, ' ', tabwriter.AlignRight)
	var head strings.Builder
	head.WriteString("rank\tscore\tprior\t")
	for _, name := range filePartNames {
		head.WriteString(name + "\t")
	}
	fmt.Fprintln(tw, head.String()+" file")
	for _, ex := range exs {
		fmt.Fprintf(tw, "%d\t%.3f\t%.2f\t", ex.Rank, ex.Score, ex.Prior)
		for _, name := range filePartNames {
			if s := ex.Shares[name]; s > 0 {
				fmt.Fprintf(tw, "%.0f%%\t", 100*s)
			} else {
				fmt.Fprint(tw, "\t")
			}
		}
		fmt.Fprintf(tw, " %s\n", ex.Path)
	}
	return tw.Flush()
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
