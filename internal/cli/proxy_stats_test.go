package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/compact/traj"
	"github.com/winnowhq/winnow/internal/llmproxy/fakeapi"
	"github.com/winnowhq/winnow/internal/telemetry"
)

// privateMarker is seeded in the texts of requests sent through the proxy; it must never
// reach the telemetry file.
const privateMarker = "qx-PRIVATE-3b9e1d-do-not-record"

// TestProxyTelemetryAndStats runs `winnow proxy` with telemetry on in front of fakeapi,
// replays a Claude trajectory as Claude Code and a GPT-4o one as the OpenAI SDK, adds a
// Codex Responses stream and a Claude Code stream asking for a server-side edit, then
// checks the telemetry file (one event per request, no text of any request) and what
// `winnow stats` makes of it, as text and as JSON.
func TestProxyTelemetryAndStats(t *testing.T) {
	trajs, err := traj.Load(filepath.Join("..", "compact", "traj", "testdata", "trajectories"))
	if err != nil {
		t.Fatal(err)
	}
	api, err := fakeapi.Start(&fakeapi.Options{Record: true})
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "telemetry.jsonl")
	userConfig := filepath.Join(dir, "config.toml")
	os.WriteFile(userConfig, fmt.Appendf(nil, "[proxy]\nanthropic_upstream = %q\nopenai_upstream = %q\n\n[telemetry]\nenabled = true\npath = %q\n",
		api.URL, api.URL, path), 0o600)
	t.Setenv("WINNOW_CONFIG", userConfig)
	t.Chdir(dir)

	p := startProxy(t, "--listen", "127.0.0.1:0", "--log-format", "json")
	for range 2 {
		<-p.lines // the export lines
	}
	if line := <-p.lines; !strings.Contains(line, "telemetry: "+path) {
		t.Errorf("start line %q, want the telemetry file", line)
	}
	go func() { // the request log, unread
		for range p.lines {
		}
	}()
	client := &http.Client{Transport: &http.Transport{}, Timeout: 30 * time.Second}
	send := func(path string, body []byte, header map[string]string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, p.base+path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", path, res.StatusCode)
		}
	}

	claudeCode := map[string]string{"X-Api-Key": "sk-ant-test", "Anthropic-Version": "2023-06-01",
		"User-Agent": "claude-cli/2.1.328 (external, cli)", "X-Fake-Cache-Read": "3000", "X-Fake-Cache-Write": "1000"}
	openaiSDK := map[string]string{"Authorization": "Bearer sk-test", "User-Agent": "OpenAI/JS 5.0.0", "X-Fake-Cache-Read": "5000"}
	var firstUser string // a text of a replayed conversation, which must not be recorded either
	sent := 0
	for _, tr := range trajs {
		path, header := "/v1/chat/completions", openaiSDK
		switch {
		case strings.Contains(tr.Name, "arrow-py__arrow"):
			path, header = "/v1/messages", claudeCode
		case tr.Name == "sweagent_demo_function_calling_replace_marshmallow-1867.traj.json":
		default:
			continue
		}
		for req, err := range traj.Requests(tr, nil) {
			if err != nil {
				t.Fatal(err)
			}
			send(path, req.Body, header)
			sent++
		}
		if firstUser == "" {
			firstUser = firstUserText(t, tr)
		}
	}
	if sent < 20 {
		t.Fatalf("replayed %d requests; the trajectories are missing", sent)
	}
	codex := map[string]string{"Authorization": "Bearer sk-test", "User-Agent": "codex_exec/0.169.0 (Debian 12.0.0; x86_64) unknown (codex_exec; 0.169.0)"}
	send("/v1/responses", fmt.Appendf(nil, `{"model":"gpt-5.5-codex","stream":true,"input":[{"type":"message","role":"developer","content":"%s"},`+
		`{"type":"message","role":"user","content":[{"type":"input_text","text":"%s"}]}]}`, privateMarker, privateMarker), codex)
	send("/v1/messages", fmt.Appendf(nil, `{"model":"claude-sonnet-4-5","max_tokens":100,"stream":true,"system":"%s",`+
		`"context_management":{"edits":[{"type":"clear_tool_uses_20250919"}]},"messages":[{"role":"user","content":"%s"}]}`, privateMarker, privateMarker), claudeCode)
	sent += 2
	client.CloseIdleConnections()
	if code, rest := p.stop(t); code != 0 {
		t.Fatalf("exit %d:\n%s", code, rest)
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{privateMarker, firstUser} {
		if bytes.Contains(data, []byte(text)) {
			t.Fatalf("the telemetry holds the text %q of a request", text)
		}
	}
	var events []telemetry.ProxyEvent
	if _, err := telemetry.ScanAll(bytes.NewReader(data), nil, func(ev telemetry.ProxyEvent) { events = append(events, ev) }); err != nil {
		t.Fatal(err)
	}
	if len(events) != sent {
		t.Fatalf("%d events for %d requests", len(events), sent)
	}
	clients := map[string]int{}
	changed := 0
	for _, ev := range events {
		clients[ev.Client]++
		if ev.Rewrite == "changed" && len(ev.Passes) > 0 {
			changed++
		}
		if ev.Usage == nil || ev.Usage.Output != 5 || ev.Status != http.StatusOK || ev.Conversation == "" || ev.Model == "" {
			t.Errorf("event %+v: want usage, status 200, a conversation and a model", ev)
		}
	}
	if clients["claude-code"] < 10 || clients["openai-sdk"] < 5 || clients["codex"] != 1 || changed == 0 {
		t.Errorf("clients %v, %d rewritten with passes", clients, changed)
	}

	code, out, errOut := run(t, "stats")
	if code != 0 {
		t.Fatalf("stats: exit %d: %s", code, errOut)
	}
	t.Logf("winnow stats:\n%s", out)
	if data, err := os.ReadFile(path); err == nil && testing.Verbose() {
		t.Logf("first event: %s", bytes.SplitN(data, []byte("\n"), 2)[0])
	}
	for _, want := range []string{
		fmt.Sprintf("proxy: %d requests in 4 conversations", sent),
		"server-side edits: 0 requested, 1 applied, 1 tool uses and 50 input tokens cleared (the API's count)",
		"unpriced: 1 requests to models with no list price here (gpt-5.5-codex)",
		"by model (most saved first):\n  claude-3-7-sonnet-20250219",
		"by client (most saved first):\n  claude-code",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stats output lacks %q", want)
		}
	}
	var s struct {
		Proxy struct {
			Requests      int
			Conversations int
			Tokens        struct{ Before, After, Saved int }
			Passes        []struct{ Pass string }
			ServerEdits   struct{ Applied int } `json:"server_edits"`
			Cost          struct {
				Billed          float64 `json:"billed_usd"`
				SavedCompaction float64 `json:"saved_compaction_usd"`
			}
			UnpricedModels []string `json:"unpriced_models"`
			Models         []struct{ Name string }
			Clients        []struct{ Name string }
		}
	}
	code, out, errOut = run(t, "stats", "--json")
	if code != 0 || json.Unmarshal([]byte(out), &s) != nil {
		t.Fatalf("stats --json: exit %d: %s%s", code, out, errOut)
	}
	pr := s.Proxy
	names := func(gs []struct{ Name string }) (out []string) {
		for _, g := range gs {
			out = append(out, g.Name)
		}
		slices.Sort(out)
		return out
	}
	if pr.Requests != sent || pr.Conversations != 4 || pr.Tokens.Saved <= 0 || len(pr.Passes) == 0 || pr.ServerEdits.Applied != 1 ||
		pr.Cost.Billed <= 0 || pr.Cost.SavedCompaction <= 0 || !slices.Equal(pr.UnpricedModels, []string{"gpt-5.5-codex"}) ||
		!slices.Equal(names(pr.Models), []string{"claude-3-7-sonnet-20250219", "claude-sonnet-4-5", "gpt-4o", "gpt-5.5-codex"}) ||
		!slices.Equal(names(pr.Clients), []string{"claude-code", "codex", "openai-sdk"}) {
		t.Errorf("stats --json proxy part: %+v", pr)
	}
}

// firstUserText returns the first 60 bytes of the first user message's text in tr.
func firstUserText(t *testing.T, tr traj.Trajectory) string {
	t.Helper()
	for req, err := range traj.Requests(tr, nil) {
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Messages []struct {
				Role    string
				Content json.RawMessage
			}
		}
		json.Unmarshal(req.Body, &body)
		for _, m := range body.Messages {
			var s string
			if m.Role == "user" && json.Unmarshal(m.Content, &s) == nil && len(s) > 60 {
				return s[:60]
			}
			var parts []struct{ Text string }
			if m.Role == "user" && json.Unmarshal(m.Content, &parts) == nil && len(parts) > 0 && len(parts[0].Text) > 60 {
				return parts[0].Text[:60]
			}
		}
		break
	}
	t.Fatalf("%s: no user text", tr.Name)
	return ""
}
