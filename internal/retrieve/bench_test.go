package retrieve

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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
// corpus loaded, each of the tasks asked in turn; with the references
// read from the index, and kept in memory (KeepReferences). It reports
// the CPU time of the process per call too.
func BenchmarkContext(b *testing.B) {
	ix, tasks := benchTasks(b)
	for _, keep := range []bool{false, true} {
		e := New(ix, nil)
		if err := e.Warm(b.Context()); err != nil {
			b.Fatal(err)
		}
		name := "index"
		if keep {
			name = "kept"
			if err := e.KeepReferences(b.Context()); err != nil {
				b.Fatal(err)
			}
		}
		for _, task := range tasks { // the first pack of each task warms the counter's cache
			if _, err := e.Context(b.Context(), Request{Task: task}); err != nil {
				b.Fatal(err)
			}
		}
		b.Run("refs="+name, func(b *testing.B) {
			defer reportCPU(b, cpuTime())
			i := 0
			for b.Loop() {
				if _, err := e.Context(b.Context(), Request{Task: tasks[i%len(tasks)]}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkReferenceTable measures what keeping the references in memory
// costs (refs.go): reading them all into a table, and patching the table
// for one changed file (the largest, sympy/core/expr.py on sympy), with
// the table's size.
func BenchmarkReferenceTable(b *testing.B) {
	ix, _ := benchTasks(b)
	e := New(ix, nil)
	c, err := e.corpus(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	snap, err := ix.Snapshot(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	defer snap.Close()
	whole, err := makeRefTable(b.Context(), snap, c, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("read", func(b *testing.B) {
		defer reportCPU(b, cpuTime())
		for b.Loop() {
			if _, err := makeRefTable(b.Context(), snap, c, nil, nil); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(whole.bytes())/(1<<20), "MB")
		b.ReportMetric(float64(len(whole.file)), "refs")
	})
	// The table before the largest file changed: the same, but for that
	// file's key.
	big := 0
	for i := range c.files {
		if len(c.files[i].defs) > len(c.files[big].defs) {
			big = i
		}
	}
	oc := *c
	oc.files = slices.Clone(c.files)
	oc.files[big].hash += "~"
	before := *whole
	before.c = &oc
	b.Run("patch", func(b *testing.B) {
		defer reportCPU(b, cpuTime())
		for b.Loop() {
			t, err := makeRefTable(b.Context(), snap, c, &before, nil)
			if err != nil || !t.patched {
				b.Fatal("not patched", err)
			}
		}
	})
}

// reportCPU reports the CPU time of the process per iteration since
// start, which a busy machine inflates less than the wall time.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// bytes is about the memory a table takes.
func (t *refTable) bytes() int {
	n := len(t.row) * (8 + 8 + 8 + 4 + 1 + 4 + 4) // the columns
	n += 4 * (len(t.byName) + len(t.nameAt) + len(t.byScope) + len(t.scopeAt))
	for _, s := range t.names {
		n += 16 + len(s) + 16 + 4 // in names, and a map entry
	}
	return n
}
