package history

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/terms"
)

// BenchmarkSearch searches the history of the tree $WINNOW_BENCH_TREE
// names (indexed) with the terms of the tasks of $WINNOW_BENCH_DATA
// (bench/localize's JSONL), each term weighted by its count, as the
// engine weighs a task's words.
func BenchmarkSearch(b *testing.B) {
	root, data := os.Getenv("WINNOW_BENCH_TREE"), os.Getenv("WINNOW_BENCH_DATA")
	if root == "" || data == "" {
		b.Skip("set WINNOW_BENCH_TREE to an indexed tree and WINNOW_BENCH_DATA to its tasks' JSONL")
	}
	h, err := Open(filepath.Join(root, ".winnow", "history"))
	if err != nil || h == nil {
		b.Fatalf("open the history of %s: %v", root, err)
	}
	text, err := os.ReadFile(data)
	if err != nil {
		b.Fatal(err)
	}
	var queries []map[string]float64
	for line := range strings.Lines(string(text)) {
		var in struct {
			ProblemStatement string `json:"problem_statement"`
		}
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			b.Fatal(err)
		}
		q := map[string]float64{}
		terms.Scan(in.ProblemStatement, func(t string) { q[t]++ })
		queries = append(queries, q)
	}
	i := 0
	for b.Loop() {
		h.Search(queries[i%len(queries)], 20)
		i++
	}
}
