package retrieve

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/index"
)

// benchTasks opens the index of the tree named by $WINNOW_BENCH_TREE (a
// tree bench/localize/prepare.sh made, <owner>__<name>@<commit>, indexed)
// and reads its tasks from $WINNOW_BENCH_DATA (bench/localize's JSONL), at
// most 8. Without them the benchmark is skipped: there is no real tree in
// testdata.
func benchTasks(b *testing.B) (*index.Index, []string) {
	b.Helper()
	root, data := os.Getenv("WINNOW_BENCH_TREE"), os.Getenv("WINNOW_BENCH_DATA")
	if root == "" || data == "" {
		b.Skip("set WINNOW_BENCH_TREE to an indexed tree and WINNOW_BENCH_DATA to its tasks' JSONL")
	}
	owner, rest, _ := strings.Cut(filepath.Base(root), "__")
	repo := owner + "/" + strings.SplitN(rest, "@", 2)[0]
	f, err := os.Open(data)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var tasks []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() && len(tasks) < 8 {
		var in struct {
			Repo             string `json:"repo"`
			ProblemStatement string `json:"problem_statement"`
		}
		if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
			b.Fatal(err)
		}
		if in.Repo == repo {
			tasks = append(tasks, in.ProblemStatement)
		}
	}
	if len(tasks) == 0 {
		b.Fatalf("no tasks for %s in %s", repo, data)
	}
	ix, err := index.Open(b.Context(), index.Options{Root: root})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	return ix, tasks
}

// BenchmarkContext measures Context on a long-lived engine, warm: the
// corpus loaded, each of the tasks asked in turn. It reports the CPU time
// of the process per call too, which a busy machine inflates less than
// the wall time.
func BenchmarkContext(b *testing.B) {
	ix, tasks := benchTasks(b)
	e := New(ix, nil)
	if err := e.Warm(b.Context()); err != nil {
		b.Fatal(err)
	}
	for _, task := range tasks { // the first pack of each task warms the counter's cache
		if _, err := e.Context(b.Context(), Request{Task: task}); err != nil {
			b.Fatal(err)
		}
	}
	i := 0
	cpu := cpuTime()
	for b.Loop() {
		if _, err := e.Context(b.Context(), Request{Task: tasks[i%len(tasks)]}); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}
