package gateway

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/config"
	"github.com/winnowhq/winnow/internal/gateway/pipeline"
	"github.com/winnowhq/winnow/internal/telemetry"
	"github.com/winnowhq/winnow/internal/tokens"
)

// callLog is a telemetry recorder that keeps the calls.
type callLog struct {
	mu    sync.Mutex
	calls []telemetry.Call
}

func (l *callLog) Record(c telemetry.Call) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, c)
}

func (l *callLog) last() telemetry.Call {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.calls[len(l.calls)-1]
}

// modelReads is what Claude Code and Codex give the model of a result: its
// structuredContent as JSON when it has one, else its text.
func modelReads(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if res.StructuredContent == nil {
		return text(res)
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

var moreHint = regexp.MustCompile(`winnow__more (\{[^}]*\})\]$`)

// TestE2EShapedStructuredContent runs the real server-filesystem behind the
// gateway with the response pipeline, through a real MCP client: a
// repeated read and a large directory_tree listing carry their savings in
// structuredContent, content says the same, the re-exported output schema
// still validates (the client checks it), winnow__more returns the rest,
// and telemetry counts what the model reads.
func TestE2EShapedStructuredContent(t *testing.T) {
	filesystem := npmServer(t, "server-filesystem")
	dir := t.TempDir()
	var src strings.Builder
	for i := 0; src.Len() < 8<<10; i++ {
		fmt.Fprintf(&src, "func handler%03d(w http.ResponseWriter, r *http.Request) { serve(w, r, %d) }\n", i, i)
	}
	file := filepath.Join(dir, "server.go")
	if err := os.WriteFile(file, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tree := filepath.Join(dir, "tree")
	for d := range 90 {
		sub := filepath.Join(tree, fmt.Sprintf("pkg%02d", d))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range 14 {
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("file-m%04d.go", d*14+f)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	rec := &callLog{}
	pipe := pipeline.Default(pipeline.Options{Telemetry: rec})
	ups := []config.Upstream{{Name: "fs", Command: "node", Args: []string{filesystem, dir}, Timeout: 30 * time.Second}}
	h := startGateway(t, ups, &Options{Shaper: pipe, StartupTimeout: 90 * time.Second})
	h.srv.AddTool(pipe.MoreTool())
	down := h.connect(t, clientOptions{protocol: legacyProtocol})
	tools := down.waitTools(t, func(m map[string]*mcp.Tool) bool { return m["fs__directory_tree"] != nil })
	if tools["fs__read_text_file"].OutputSchema == nil {
		t.Error("the text-carrier output schema of read_text_file was not re-exported")
	}
	if tools["fs__read_media_file"] != nil && tools["fs__read_media_file"].OutputSchema != nil {
		t.Error("read_media_file's output schema (an array of media) was re-exported; shaped results would not validate")
	}

	args := map[string]any{"path": file}
	first := down.call(t, "fs__read_text_file", args)
	if body := regexp.MustCompile(`^#r\d+\n`).ReplaceAllString(text(first), ""); body != src.String() {
		t.Fatalf("first read changed: %.200q", text(first))
	}
	again := down.call(t, "fs__read_text_file", args)
	got := modelReads(t, again)
	t.Logf("repeated %d-byte read: the model reads %d bytes: %s", src.Len(), len(got), got)
	if len(got) > 300 || !strings.Contains(got, "[same result as ") {
		t.Errorf("repeated read: the model reads %d bytes %q; want a reference of at most 300", len(got), got)
	}
	if sc, _ := again.StructuredContent.(map[string]any); sc["content"] != text(again) {
		t.Errorf("content %q and structuredContent %v differ", text(again), again.StructuredContent)
	}
	checkStats(t, rec.last(), got)

	listing := down.call(t, "fs__directory_tree", map[string]any{"path": tree})
	got = modelReads(t, listing)
	direct := len(rec.last().Upstream[0]) // the structured content as the upstream sent it
	t.Logf("directory_tree: the model reads %d bytes of %d direct (%.1f%%)", len(got), direct, 100*float64(len(got))/float64(direct))
	if len(got)*4 > direct {
		t.Errorf("the listing takes %d bytes, over 25%% of %d", len(got), direct)
	}
	checkStats(t, rec.last(), got)
	shaped, _ := listing.StructuredContent.(map[string]any)["content"].(string)
	if shaped != text(listing) {
		t.Error("the listing's content and structuredContent differ")
	}
	m := moreHint.FindStringSubmatch(strings.TrimSpace(shaped))
	if m == nil {
		t.Fatalf("no winnow__more hint at the end of the listing: %.300q", shaped[max(0, len(shaped)-300):])
	}
	all := shaped
	for pages := 0; m != nil; pages++ {
		if pages > 40 {
			t.Fatal("more than 40 pages")
		}
		var a map[string]any
		json.Unmarshal([]byte(m[1]), &a)
		page := down.call(t, pipeline.MoreToolName, a)
		if page.IsError {
			t.Fatalf("winnow__more %s: %s", m[1], text(page))
		}
		if n := tokens.Count(tokens.O200k, text(page)); n > pipeline.DefaultCallBudget*105/100 {
			t.Errorf("a page counts %d tokens, over the budget of %d", n, pipeline.DefaultCallBudget)
		}
		all += text(page)
		m = moreHint.FindStringSubmatch(strings.TrimSpace(text(page)))
	}
	for i := range 90 * 14 {
		if n := strings.Count(all, fmt.Sprintf("file-m%04d.go", i)); n != 1 {
			t.Errorf("file-m%04d.go arrived %d times, want once", i, n)
		}
	}
}

// checkStats requires telemetry's delivered tokens to be within 5% of what
// the model read.
func checkStats(t *testing.T, c telemetry.Call, modelRead string) {
	t.Helper()
	var delivered int
	for _, d := range c.Delivered {
		delivered += tokens.Count(tokens.O200k, d)
	}
	read := tokens.Count(tokens.O200k, modelRead)
	t.Logf("stats: %d tokens delivered, the model read %d", delivered, read)
	if diff := delivered - read; diff*20 > read || -diff*20 > read {
		t.Errorf("telemetry counts %d tokens delivered; the model read %d", delivered, read)
	}
}
