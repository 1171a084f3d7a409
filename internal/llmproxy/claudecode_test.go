package llmproxy_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/compact"
	"github.com/winnowhq/winnow/internal/llmproxy"
	"github.com/winnowhq/winnow/internal/llmproxy/scripted/claude"
)

// envAgents names the node_modules directory holding the real agent CLIs (.bin/claude,
// .bin/codex); .ci/run installs them and sets it.
const envAgents = "WINNOW_TEST_AGENTS"

var recordClaudeCode = flag.Bool("record-claude-code", false, "rewrite testdata/claude-code from the passthrough run of TestClaudeCode")

// claudeRunLimit bounds one claude -p session; a scripted session of 20 steps takes
// seconds, a loaded CI machine a minute or two.
const claudeRunLimit = 5 * time.Minute

// TestClaudeCode runs the real Claude Code CLI through a scripted session of tool steps
// three times: straight at the scripted Anthropic API (the passthrough baseline), through
// the proxy wired as `winnow proxy` wires it for api.anthropic.com (compaction on, server
// edits on), and as it is wired for an upstream that takes no server-side edits (a gateway:
// client-side compaction only, which on Claude Code's model may touch nothing inside its
// one long tool loop). The scripted API checks every
// request against the API's rules (tool pairing, thinking signatures, the preserved
// thinking prefix check …) and answers a violation with a 400, as the API would. Both runs
// must complete with no invalid request; the billed input tokens and cached costs are
// logged, not asserted (they are what `winnow bench agents` measures).
func TestClaudeCode(t *testing.T) {
	bin := claudeCodeBin(t)
	dir := t.TempDir()
	files, err := claude.WriteWorkspace(filepath.Join(dir, "ws"), 0)
	if err != nil {
		t.Fatal(err)
	}
	script := claude.Script{Steps: claude.DefaultSteps, Files: files}

	base := runClaudeCode(t, bin, dir, script, "")
	if *recordClaudeCode {
		writeClaudeCodeFixtures(t, base.exchanges)
	}
	gateway := runClaudeCode(t, bin, dir, script, llmproxy.ServerEditsOff)
	winnow := runClaudeCode(t, bin, dir, script, llmproxy.ServerEditsOn)

	for _, r := range []claudeCodeRun{base, gateway, winnow} {
		rep := r.report
		t.Logf("%-11s main requests %d, side %d; billed input %d tokens (%d before server-side edits), cache read %d, write %d, cost %.0f; edits applied %d; %s",
			r.name, rep.Main.Requests, rep.Side.Requests, rep.Main.Billed.Input, rep.Main.OriginalInputTokens,
			rep.Main.Billed.CacheRead, rep.Main.Billed.CacheWrite, rep.Main.Billed.Cost, rep.Main.EditsApplied, r.elapsed.Round(time.Millisecond))
	}
	for _, r := range []claudeCodeRun{gateway, winnow} {
		t.Logf("%s: proxy rewrites: %s", r.name, r.rewrites)
		t.Logf("%s/passthrough: billed input tokens %.3f, cached cost %.3f", r.name,
			ratio(r.report.Main.Billed.Input, base.report.Main.Billed.Input),
			r.report.Main.Billed.Cost/base.report.Main.Billed.Cost)
	}
	if winnow.report.Main.EditsApplied == 0 {
		t.Errorf("through the proxy with server edits on, the API applied no edit in %d steps", winnow.report.Steps)
	}
	if want := fmt.Sprintf("server edits logged %d", winnow.report.Main.EditsApplied); !strings.Contains(winnow.rewrites, want) {
		t.Errorf("the proxy's log says %q; want %q, one line per response that reported applied edits", winnow.rewrites, want)
	}
	if winnow.report.Steps < base.report.Steps || !winnow.report.Finished {
		n := winnow.report.Steps
		bt, bc := stepTotals(base.exchanges, n)
		wt, wc := stepTotals(winnow.exchanges, n)
		t.Logf("the run through the proxy broke off: over the %d steps both answered, billed input tokens %d vs %d (%.3f), cached cost %.0f vs %.0f (%.3f)",
			n, bt, wt, ratio(wt, bt), bc, wc, wc/bc)
	}
}

// stepTotals sums the billed input tokens and cached cost of the main-loop requests that
// answered the first n steps.
func stepTotals(xs []claude.Exchange, n int) (tokens int, cost float64) {
	for _, x := range xs {
		if x.Kind == claude.KindMain && x.Step >= 0 && x.Step < n && len(x.Violations) == 0 {
			tokens += x.Billed.Input
			cost += x.Billed.Cost
		}
	}
	return tokens, cost
}

// claudeCodeBin returns the claude CLI under $WINNOW_TEST_AGENTS, skipping the test when
// the variable is unset, except on CI, which must never skip it silently.
func claudeCodeBin(t *testing.T) string {
	t.Helper()
	modules := os.Getenv(envAgents)
	if modules == "" {
		msg := fmt.Sprintf("%s is not set; to run: npm install --prefix /tmp/agents --no-save @anthropic-ai/claude-code@2.1.328 @openai/codex@0.169.0 && %s=/tmp/agents/node_modules go test -run TestClaudeCode ./internal/llmproxy/ (see .ci/run)", envAgents, envAgents)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	bin := filepath.Join(modules, ".bin", "claude")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s=%s but Claude Code is not installed there: %v (run .ci/run, or npm install --prefix it)", envAgents, modules, err)
	}
	return bin
}

// A claudeCodeRun is one session and what the scripted API made of it.
type claudeCodeRun struct {
	name      string
	report    claude.Report
	exchanges []claude.Exchange
	rewrites  string // the proxy's rewrite outcomes, counted
	elapsed   time.Duration
}

// runClaudeCode runs one scripted session, straight at the scripted API when serverEdits is
// "", else through a proxy with that ServerEdits mode, and fails the test unless it
// completed with every request valid.
func runClaudeCode(t *testing.T, bin, dir string, script claude.Script, serverEdits string) claudeCodeRun {
	t.Helper()
	viaProxy := serverEdits != ""
	run := claudeCodeRun{name: "passthrough"}
	api, err := claude.Start(&claude.Options{Script: script, Record: !viaProxy && *recordClaudeCode})
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	baseURL := api.URL
	var logs *logSink
	if viaProxy {
		run.name = "winnow"
		if serverEdits == llmproxy.ServerEditsOff {
			run.name = "client-side"
		}
		logs = newLogSink()
		baseURL = startCompactingProxy(t, api.URL, serverEdits, logs)
	}
	// The same HOME path for both runs, emptied in between, so that both send the same
	// system prompt.
	home := filepath.Join(dir, "home")
	if err := os.RemoveAll(home); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), claudeRunLimit)
	defer cancel()
	res, err := claude.Run(ctx, claude.Session{Bin: bin, BaseURL: baseURL, Workspace: filepath.Join(dir, "ws"), Home: home})
	run.report, run.exchanges = api.Report(), api.Exchanges()
	if logs != nil {
		run.rewrites = countRewrites(logs)
	}
	if err != nil {
		t.Fatalf("%s: %v", run.name, err)
	}
	run.elapsed = res.Duration
	for _, v := range run.report.Violations {
		t.Errorf("%s: invalid request: %s", run.name, v)
	}
	if !res.Success() {
		t.Errorf("%s: claude -p did not succeed: subtype %q, is_error %v, result %q\nstderr: %s", run.name, res.Subtype, res.IsError, res.Result, res.Stderr)
	}
	if !run.report.Finished || run.report.Steps != script.Steps {
		t.Errorf("%s: the script ran %d of %d steps, finished %v", run.name, run.report.Steps, script.Steps, run.report.Finished)
	}
	return run
}

// startCompactingProxy serves the proxy as `winnow proxy` wires it by default (compaction
// on, default options; see internal/cli/proxy.go) in front of upstream, with serverEdits
// (the default, auto, is on for api.anthropic.com, which upstream stands for, and off for
// a loopback address), and returns its base URL. It stops when the test ends.
func startCompactingProxy(t *testing.T, upstream, serverEdits string, logs *logSink) string {
	t.Helper()
	p, err := llmproxy.New(&llmproxy.Options{
		ServerEdits:       serverEdits,
		Rewriter:          llmproxy.Compaction(compact.New(compact.Options{})),
		AnthropicUpstream: upstream,
		OpenAIUpstream:    upstream,
		Logger:            logs.logger(),
		Version:           "test",
	})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := new(net.ListenConfig).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("proxy: %v", err)
		}
	})
	return llmproxy.ClientURL(ln.Addr())
}

// countRewrites summarises the proxy's log lines: how many requests it changed, left
// unchanged or bypassed, and why.
func countRewrites(logs *logSink) string {
	counts := make(map[string]int)
	for {
		select {
		case rec := <-logs.lines:
			if rec["dialect"] != "anthropic" {
				continue
			}
			if _, ok := rec["server_edits"].(string); ok {
				counts["server edits logged"]++ // what the API reported it cleared
			}
			key, ok := rec["rewrite"].(string)
			if !ok {
				key = "forwarded" // not offered to the Rewriter: count_tokens, probes
			}
			if r, ok := rec["reason"].(string); ok && r != "" {
				key += " (" + r + ")"
			}
			counts[key]++
		default:
			keys := make([]string, 0, len(counts))
			for k, n := range counts {
				keys = append(keys, fmt.Sprintf("%s %d", k, n))
			}
			sort.Strings(keys)
			return strings.Join(keys, ", ")
		}
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// writeClaudeCodeFixtures saves the first and the last main-loop request of a session
// under testdata/claude-code: headers (credentials were removed when recorded) and body.
func writeClaudeCodeFixtures(t *testing.T, xs []claude.Exchange) {
	t.Helper()
	var main []claude.Exchange
	for _, x := range xs {
		if x.Kind == claude.KindMain {
			main = append(main, x)
		}
	}
	if len(main) < 2 {
		t.Fatalf("recorded %d main-loop requests, want at least 2", len(main))
	}
	dir := filepath.Join("testdata", "claude-code")
	for name, x := range map[string]claude.Exchange{"early": main[0], "late": main[len(main)-1]} {
		header, err := json.MarshalIndent(x.Header, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".headers.json"), append(header, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".body.json"), x.Body, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("recorded %s: request %d, step %d, %d bytes", name, x.Seq, x.Step, len(x.Body))
	}
}
