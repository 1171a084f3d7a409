package mcpserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/retrieve"
)

// BenchmarkFindSymbol compares a lookup through the MCP tool, over an
// in-memory transport, with the same lookup on the index: the difference
// is the protocol, the rendering and the cap.
func BenchmarkFindSymbol(b *testing.B) {
	s := newServer(b, fixture(b), &Options{RefreshInterval: -1})
	cs := connect(b, s)
	args := map[string]any{"name": "Headers.get"}
	b.Run("index.Lookup", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.ix.Lookup(b.Context(), "Headers.get", index.LookupOptions{Limit: defaultFindLimit}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("mcp", func(b *testing.B) {
		for b.Loop() {
			if _, isErr := call(b, cs, toolFindSymbol, args); isErr {
				b.Fatal("tool error")
			}
		}
	})
}

// BenchmarkRefresh measures what freshness costs a call: an index update
// before every call against none.
func BenchmarkRefresh(b *testing.B) {
	dir := fixture(b)
	for _, c := range []struct {
		name  string
		every time.Duration
	}{{"never", -1}, {"every-call", time.Nanosecond}} {
		cs := connect(b, newServer(b, dir, &Options{RefreshInterval: c.every}))
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, isErr := call(b, cs, toolFindSymbol, map[string]any{"name": "NewStore"}); isErr {
					b.Fatal("tool error")
				}
			}
		})
	}
}

// BenchmarkContext compares the context tool through MCP, over an
// in-memory transport, with the engine's Context on the same server: the
// difference is the protocol, the rendering and the counting. It runs on
// the tree $WINNOW_BENCH_TREE names (indexed) with the tasks of
// $WINNOW_BENCH_DATA (bench/localize's JSONL) for its repository.
func BenchmarkContext(b *testing.B) {
	root, data := os.Getenv("WINNOW_BENCH_TREE"), os.Getenv("WINNOW_BENCH_DATA")
	if root == "" || data == "" {
		b.Skip("set WINNOW_BENCH_TREE to an indexed tree and WINNOW_BENCH_DATA to its tasks' JSONL")
	}
	tasks := benchTasks(b, root, data)
	s := newServer(b, root, &Options{RefreshInterval: -1})
	// As winnow mcp starts: the corpus loaded, then the references kept
	// once the watcher runs.
	if _, err := s.Refresh(b.Context()); err != nil {
		b.Fatal(err)
	}
	if err := s.engine.KeepReferences(b.Context()); err != nil {
		b.Fatal(err)
	}
	cs := connect(b, s)
	for _, task := range tasks { // loads the corpus, and the counter's cache for each task's pack
		if _, isErr := call(b, cs, toolContext, map[string]any{"task": task}); isErr {
			b.Fatal("tool error")
		}
	}
	b.Run("engine.Context", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := s.engine.Context(b.Context(), retrieve.Request{Task: tasks[i%len(tasks)]}); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("mcp", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, isErr := call(b, cs, toolContext, map[string]any{"task": tasks[i%len(tasks)]}); isErr {
				b.Fatal("tool error")
			}
			i++
		}
	})
}

// benchTasks reads the problem statements of data for the repository of
// the tree root, named <owner>__<name>@<commit>: at most 8.
func benchTasks(b *testing.B, root, data string) []string {
	b.Helper()
	owner, rest, _ := strings.Cut(filepath.Base(root), "__")
	repo := owner + "/" + strings.SplitN(rest, "@", 2)[0]
	text, err := os.ReadFile(data)
	if err != nil {
		b.Fatal(err)
	}
	var tasks []string
	for line := range strings.Lines(string(text)) {
		var in struct {
			Repo             string `json:"repo"`
			ProblemStatement string `json:"problem_statement"`
		}
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			b.Fatal(err)
		}
		if in.Repo == repo && len(tasks) < 8 {
			tasks = append(tasks, in.ProblemStatement)
		}
	}
	if len(tasks) == 0 {
		b.Fatalf("no tasks for %s in %s", repo, data)
	}
	return tasks
}
