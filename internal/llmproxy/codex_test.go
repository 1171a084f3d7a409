package llmproxy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/winnowhq/winnow/internal/compact"
	"github.com/winnowhq/winnow/internal/llmproxy"
	"github.com/winnowhq/winnow/internal/llmproxy/scripted/codex"
)

// codexAgentsEnv names the node_modules directory holding @openai/codex (.ci/run installs it
// and sets it).
const codexAgentsEnv = "WINNOW_TEST_AGENTS"

var recordCodex = flag.Bool("codex.record", false, "rewrite testdata/codex with the requests a short Codex session sends")

// codexBinary returns the codex executable under $WINNOW_TEST_AGENTS, or skips the test
// when it is not set (fails on CI, where it must be).
func codexBinary(t *testing.T) string {
	t.Helper()
	dir := os.Getenv(codexAgentsEnv)
	if dir == "" {
		msg := codexAgentsEnv + " is not set; to run: npm install --prefix /tmp/agents @openai/codex@0.169.0 && " +
			codexAgentsEnv + "=/tmp/agents/node_modules go test ./internal/llmproxy/ -run Codex (see .ci/run)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	bin := filepath.Join(dir, ".bin", "codex")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s=%s but codex is not installed there: %v", codexAgentsEnv, dir, err)
	}
	return bin
}

// TestCodexThroughProxy runs the real Codex CLI through the same scripted session twice,
// straight at the scripted Responses API and through the proxy as `winnow proxy` wires
// it, and wants both to complete without a request the API would refuse. It logs what
// each would be billed; targets for the ratio belong to benchmarks, not to this test.
func TestCodexThroughProxy(t *testing.T) {
	bin := codexBinary(t)
	run := func(name string, route func(context.Context, string) (string, error)) codex.Result {
		t.Helper()
		res, err := codex.Run(t.Context(), codex.Options{Codex: bin, Dir: t.TempDir(), Route: route})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s: %s (codex %s)", name, res.Summary(), res.Codex.Duration.Round(1e6))
		for i, v := range res.Report.Invalid {
			if i == 5 {
				t.Errorf("%s: … %d more", name, len(res.Report.Invalid)-i)
				break
			}
			t.Errorf("%s: the API would refuse %s", name, v)
		}
		if !res.Completed() {
			t.Errorf("%s: the session did not complete: %s\nerrors: %v %v\ncodex stderr:\n%s",
				name, res.Summary(), res.Report.Errors, res.Codex.Errors, res.Codex.Stderr)
		}
		return res
	}
	base := run("baseline", nil)
	if base.Report.ToolOutputs != base.Report.Steps {
		t.Errorf("baseline: %d of %d tool outputs carried what their command prints", base.Report.ToolOutputs, base.Report.Steps)
	}
	logs := &codexLogBuffer{}
	viaProxy := run("proxy", startWinnowProxy(t, logs))
	b, p := base.Report.Billed, viaProxy.Report.Billed
	t.Logf("proxy/baseline: input tokens %d/%d = %.3f, cached cost %.0f/%.0f = %.3f, requests %d/%d, tool outputs seen %d/%d",
		p.Input, b.Input, float64(p.Input)/float64(b.Input), p.Cost, b.Cost, p.Cost/b.Cost,
		viaProxy.Report.Requests, base.Report.Requests, viaProxy.Report.ToolOutputs, base.Report.ToolOutputs)
	if warn := logs.lines("level=WARN"); len(warn) > 0 {
		t.Logf("proxy warnings (%d), first: %s", len(warn), warn[0])
	}
}

// startWinnowProxy returns a Route that serves, in process, the proxy `winnow proxy`
// runs by default (compaction on) in front of the scripted API, logging into logs.
func startWinnowProxy(t *testing.T, logs *codexLogBuffer) func(context.Context, string) (string, error) {
	return func(_ context.Context, apiURL string) (string, error) {
		p, err := llmproxy.New(&llmproxy.Options{
			Rewriter:          llmproxy.Compaction(compact.New(compact.Options{})),
			AnthropicUpstream: apiURL,
			OpenAIUpstream:    apiURL,
			Logger:            slog.New(slog.NewTextHandler(logs, nil)),
			Version:           "test",
		})
		if err != nil {
			return "", err
		}
		ln, err := new(net.ListenConfig).Listen(t.Context(), "tcp", "127.0.0.1:0")
		if err != nil {
			return "", err
		}
		ctx, stop := context.WithCancel(context.Background())
		served := make(chan error, 1)
		go func() { served <- p.Serve(ctx, ln) }()
		t.Cleanup(func() {
			stop()
			if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
				t.Errorf("proxy: %v", err)
			}
		})
		return llmproxy.ClientURL(ln.Addr()), nil
	}
}

// TestCodexRecord rewrites testdata/codex with an early and a late request of a short
// Codex session (run with -codex.record).
func TestCodexRecord(t *testing.T) {
	if !*recordCodex {
		t.Skip("run with -codex.record to rewrite testdata/codex")
	}
	bin := codexBinary(t)
	res, err := codex.Run(t.Context(), codex.Options{Codex: bin, Dir: t.TempDir(), Steps: 4, PatchEvery: 3, Record: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Completed() {
		t.Fatalf("the session did not complete: %s", res.Summary())
	}
	var posts []codex.Received
	for _, r := range res.Requests {
		if r.Method == http.MethodPost && r.Path == "/v1/responses" {
			posts = append(posts, r)
		}
	}
	dir := filepath.Join("testdata", "codex")
	for name, r := range map[string]codex.Received{"early": posts[1], "late": posts[len(posts)-1]} {
		h := r.Header.Clone()
		h.Set("Authorization", "Bearer [REDACTED]")
		hdr, _ := json.MarshalIndent(h, "", "  ")
		if err := os.WriteFile(filepath.Join(dir, name+".headers.json"), append(hdr, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".body.json"), r.Body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("wrote requests 2 and %d of %d to %s", len(posts), len(posts), dir)
}

// A codexLogBuffer collects log lines from the proxy's goroutines.
type codexLogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *codexLogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// lines returns the lines that contain s.
func (b *codexLogBuffer) lines(s string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, l := range strings.Split(b.buf.String(), "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return out
}
