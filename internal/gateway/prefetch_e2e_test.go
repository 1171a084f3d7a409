package gateway

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/config"
	"github.com/winnowhq/winnow/internal/gateway/pipeline"
	"github.com/winnowhq/winnow/internal/telemetry"
	"github.com/winnowhq/winnow/internal/toolvalue"
)

var stamp = regexp.MustCompile(`^#r\d+\n`)

// TestE2EPrefetchFilesystem runs the real server-filesystem behind the gateway with the
// planner on, its traffic recorded at its stdio: the reads of a search's hits are
// answered from prefetch (the server sees each read once), a write drops the prefetched
// read of its file (the next read reaches the server and returns the new content), and a
// search repeated with no matches is answered by the gateway after fail_fast_after_n.
func TestE2EPrefetchFilesystem(t *testing.T) {
	filesystem := npmServer(t, "server-filesystem")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src, lib := filepath.Join(dir, "src"), filepath.Join(dir, "lib")
	for _, d := range []string{src, lib} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	a, b, c := filepath.Join(src, "a.go"), filepath.Join(src, "b.go"), filepath.Join(lib, "c.go")
	files := map[string]string{
		a:                               "package src\n\nfunc A() int { return 1 }\n",
		b:                               "package src\n\nfunc B() int { return 2 }\n",
		c:                               "package lib\n\nfunc C() int { return 3 }\n",
		filepath.Join(src, "notes.txt"): "not Go\n",
	}
	for name, body := range files {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	record := filepath.Join(t.TempDir(), "traffic.jsonl")

	// The user's rules: fail fast on repeated unproductive searches; the read after a
	// search is the built-in edge (probability 0.32, which the planner's floor admits for
	// a search with one hit, not shared among two).
	reg := toolvalue.NewRegistry(toolvalue.Builtin())
	failFast := 2
	reg.SetUser(rules{"fs__search_files": {FailFastAfter: &failFast}}.layer())
	log := &callLog{}
	pipe := pipeline.Default(pipeline.Options{Telemetry: log})
	ups := []config.Upstream{{Name: "fs", Command: exe, Args: []string{"node", filesystem, dir},
		Env: map[string]string{envRecord: record}, Timeout: 30 * time.Second}}
	h := startGateway(t, ups, &Options{Shaper: pipe, StartupTimeout: 90 * time.Second,
		Enrich: &Enrich{Mode: config.EnrichPrefetch, Tools: reg}})
	if s := statusOf(h.gw, "fs"); s.State != StateReady {
		t.Fatalf("server-filesystem is not ready: %+v\nlogs:\n%s", s, h.logs.String())
	}
	down := h.connect(t, clientOptions{protocol: legacyProtocol})
	down.waitTools(t, func(m map[string]*mcp.Tool) bool { return m["fs__search_files"] != nil })
	e := h.gw.enrich
	// The planner's keys name the tools as the agent does; the server's record as the
	// server does.
	readKey := func(p string) string { return `fs__read_text_file {"path":"` + p + `"}` }
	serverRead := func(p string) string { return strings.TrimPrefix(readKey(p), "fs__") }
	read := func(p string) string {
		return stamp.ReplaceAllString(text(down.call(t, "fs__read_text_file", map[string]any{"path": p})), "")
	}
	lastServed := func(tool string) string {
		calls := recorded(log, tool)
		return calls[len(calls)-1].Served
	}

	// A write invalidates: a search whose hit is read ahead (the built-in models alone),
	// then a write to the hit; the next read of it reaches the server and returns the
	// new content.
	if got := text(down.call(t, "fs__search_files", map[string]any{"path": lib, "pattern": "*.go"})); got != c {
		t.Fatalf("search_files in lib = %q, want %s", got, c)
	}
	if got := plans(recorded(log, "fs__search_files")[0]); got["fs__read_text_file"] != telemetry.DecisionPrefetch {
		t.Fatalf("plans after a search with one hit: %v, want its read prefetched", got)
	}
	waitFor(t, e, "the read of c landed", func() bool { return e.landed(readKey(c)) })
	const changed = "package lib\n\nfunc C() int { return 4 }\n"
	if res := down.call(t, "fs__write_file", map[string]any{"path": c, "content": changed}); res.IsError {
		t.Fatalf("write_file: %s", text(res))
	}
	if e.landed(readKey(c)) {
		t.Error("the prefetched read of c.go outlived the write")
	}
	if got := read(c); got != changed {
		t.Errorf("read after the write = %q, want the new content %q", got, changed)
	}
	if served := lastServed("fs__read_text_file"); served != "" {
		t.Errorf("the read after the write was served by %q, want the server", served)
	}
	if n := recordedCalls(t, record)[serverRead(c)]; n != 2 {
		t.Errorf("the server saw %d reads of c.go, want 2 (the prefetch, then the agent's after the write)", n)
	}

	// The user says a search's hits are always read (the file changes, the running
	// gateway follows): the reads of both hits are answered from prefetch, exactly as
	// the server would answer them, and the server sees each read once.
	reg.SetUser(rules{"fs__search_files": {FailFastAfter: &failFast,
		FollowUps: []toolvalue.FollowUp{edge("fs__read_text_file", map[string]string{"path": "result.paths"})}}}.layer())
	hits := text(down.call(t, "fs__search_files", map[string]any{"path": src, "pattern": "*.go"}))
	if hits != a+"\n"+b && hits != b+"\n"+a {
		t.Fatalf("search_files in src = %q, want the two Go files", hits)
	}
	if got := recorded(log, "fs__search_files")[1]; len(got.Plans) != 2 || got.Plans[0].Decision != telemetry.DecisionPrefetch ||
		got.Plans[1].Decision != telemetry.DecisionPrefetch {
		t.Fatalf("plans after the search: %+v, want the reads of both hits prefetched", got.Plans)
	}
	// An agent's next call comes after a model turn; a call made before its follow-up
	// was sent goes to the server itself (TestEnrichTakeOver).
	waitFor(t, e, "both reads landed", func() bool { return e.landed(readKey(a)) && e.landed(readKey(b)) })
	for _, p := range []string{a, b} {
		if got := read(p); got != files[p] {
			t.Errorf("read of %s = %q, want %q", p, got, files[p])
		}
		calls := recorded(log, "fs__read_text_file")
		if last := calls[len(calls)-1]; last.Served != telemetry.ServedPrefetch || last.UpstreamLatency <= 0 || last.Key != readKey(p) {
			t.Errorf("read of %s: served %q, upstream latency %v, key %q; want served by prefetch, with its latency",
				filepath.Base(p), last.Served, last.UpstreamLatency, last.Key)
		}
	}
	seen := recordedCalls(t, record)
	for _, p := range []string{a, b} {
		if n := seen[serverRead(p)]; n != 1 {
			t.Errorf("the server saw %d reads of %s, want 1", n, filepath.Base(p))
		}
	}

	// Fail-fast: the same empty search twice, then the gateway answers; repeating the call
	// sends it; a change of the files lets it through again.
	none := map[string]any{"path": dir, "pattern": "**/*.rs"}
	noneKey := `search_files {"path":"` + dir + `","pattern":"**/*.rs"}`
	for i := range 2 {
		if got := text(down.call(t, "fs__search_files", none)); got != "No matches found" {
			t.Fatalf("empty search %d = %q", i, got)
		}
	}
	ff := text(down.call(t, "fs__search_files", none))
	if !strings.Contains(ff, "not sent to the upstream") || !strings.Contains(ff, `"No matches found"`) || !strings.Contains(ff, "Repeat this call unchanged") {
		t.Errorf("third empty search = %q, want the fail-fast answer saying why and how to send it anyway", ff)
	}
	if last := recorded(log, "fs__search_files"); last[len(last)-1].Served != telemetry.ServedFailFast ||
		len(last[len(last)-1].Upstream) != 1 || last[len(last)-1].Upstream[0] != "No matches found" {
		t.Errorf("telemetry of the fail-fast answer: %+v", last[len(last)-1])
	}
	if n := recordedCalls(t, record)[noneKey]; n != 2 {
		t.Errorf("the server saw the empty search %d times, want 2", n)
	}
	if got := text(down.call(t, "fs__search_files", none)); got != "No matches found" {
		t.Errorf("the repeated call = %q, want it sent", got)
	}
	if got := text(down.call(t, "fs__search_files", none)); !strings.Contains(got, "not sent to the upstream") {
		t.Errorf("after the forced call, still nothing: %q, want the fail-fast answer again", got)
	}
	rs := filepath.Join(src, "lib.rs")
	down.call(t, "fs__write_file", map[string]any{"path": rs, "content": "fn main() {}\n"})
	if got := text(down.call(t, "fs__search_files", none)); got != rs {
		t.Errorf("the search after a write = %q, want it sent and finding %s", got, rs)
	}
	if n := recordedCalls(t, record)[noneKey]; n != 4 {
		t.Errorf("the server saw the search %d times, want 4", n)
	}
}
