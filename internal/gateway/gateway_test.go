package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/config"
	"github.com/winnowhq/winnow/internal/gateway/pipeline"
)

func TestReexportedToolsAreUntouched(t *testing.T) {
	h := startGateway(t, []config.Upstream{stdioUpstream(t, "up", nil)}, nil)
	down := h.connect(t, clientOptions{})
	tools := down.tools(t)

	// What the upstream says about its tools, to a client of its own.
	direct := directClient(t, newTestUpstream(false))
	want, err := direct.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	wantSchemas := rawInputSchemas(t, direct.capture)
	gotSchemas := rawInputSchemas(t, down.capture)

	if _, ok := tools["own_tool"]; !ok {
		t.Error("the server's own tool is gone")
	}
	for _, w := range want.Tools {
		name := "up__" + w.Name
		g, ok := tools[name]
		if !ok {
			t.Errorf("%s is not re-exported; tools: %v", name, keys(tools))
			continue
		}
		if diff := cmp.Diff(w, g, cmpopts.IgnoreFields(mcp.Tool{}, "Name")); diff != "" {
			t.Errorf("%s differs from the upstream's %s (-upstream +gateway):\n%s", name, w.Name, diff)
		}
		if gotSchemas[name] != wantSchemas[w.Name] {
			t.Errorf("input schema of %s is not byte-identical:\n upstream: %s\n  gateway: %s", name, wantSchemas[w.Name], gotSchemas[name])
		}
	}
	if got, want := gotSchemas["up__echo"], compactJSON(t, echoSchema); got != want {
		t.Errorf("echo's schema is not as the upstream declared it:\n got %s\nwant %s", got, want)
	}
	if n := len(tools); n != len(want.Tools)+1 {
		t.Errorf("the client sees %d tools, want the upstream's %d and the server's own", n, len(want.Tools))
	}
	if s := statusOf(h.gw, "up"); s.State != StateReady || s.Tools != len(want.Tools) || s.Transport != "stdio" {
		t.Errorf("status = %+v, want ready with %d tools over stdio", s, len(want.Tools))
	}
}

// directClient connects a client straight to srv, capturing raw tools/list results.
func directClient(t testing.TB, srv *mcp.Server) *client {
	t.Helper()
	h := &harness{srv: srv}
	return h.connect(t, clientOptions{})
}

// recordingShaper records the calls it sees and marks the results it shapes.
type recordingShaper struct {
	mu     sync.Mutex
	before []Call
	after  []Call
}

func (r *recordingShaper) Before(_ context.Context, c *Call) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.before = append(r.before, *c)
}

func (r *recordingShaper) After(_ context.Context, c *Call, res *mcp.CallToolResult) *mcp.CallToolResult {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.after = append(r.after, *c)
	out := *res
	out.Content = append(append([]mcp.Content{}, res.Content...), &mcp.TextContent{Text: "[shaped]"})
	return &out
}

func TestCallPassesArgumentsAndShapesResults(t *testing.T) {
	shaper := &recordingShaper{}
	h := startGateway(t, []config.Upstream{stdioUpstream(t, "up", nil)}, &Options{Shaper: shaper})
	down := h.connect(t, clientOptions{})

	args := json.RawMessage(`{"zeta":"z \u00e9 \"quoted\"","alpha":2.50}`)
	res := down.call(t, "up__echo", args)
	if res.IsError {
		t.Fatalf("echo failed: %s", text(res))
	}
	if diff := cmp.Diff(string(args)+"\n[shaped]", text(res)); diff != "" {
		t.Errorf("the upstream did not receive the arguments as sent, or the result was not shaped (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"echoed": string(args)}, res.StructuredContent); diff != "" {
		t.Errorf("structured content mismatch (-want +got):\n%s", diff)
	}

	failed := down.call(t, "up__fail", map[string]any{})
	if !failed.IsError || text(failed) != "upstream says no: issue 42 does not exist" {
		t.Errorf("error result = %v %q, want the upstream's error unmodified", failed.IsError, text(failed))
	}

	agent := pipeline.Client{Name: "agent", Version: "1"} // the clientInfo the harness's client sends
	want := []Call{
		{Tool: "up__echo", Args: args, Client: agent},
		{Tool: "up__fail", Args: json.RawMessage(`{}`), Client: agent},
	}
	shaper.mu.Lock()
	defer shaper.mu.Unlock()
	if diff := cmp.Diff(want, shaper.before); diff != "" {
		t.Errorf("Before saw (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want[:1], shaper.after); diff != "" {
		t.Errorf("After saw (-want +got), and must not see error results:\n%s", diff)
	}
}

func TestJSONRPCErrorPassesThrough(t *testing.T) {
	h := startGateway(t, []config.Upstream{stdioUpstream(t, "up", nil)}, nil)
	down := h.connect(t, clientOptions{})
	_, err := down.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "up__rpcerror", Arguments: map[string]any{}})
	var got *jsonrpc.Error
	if !errors.As(err, &got) {
		t.Fatalf("call returned %v, want a JSON-RPC error", err)
	}
	if diff := cmp.Diff(testRPCError, got); diff != "" {
		t.Errorf("JSON-RPC error mismatch (-upstream +client):\n%s", diff)
	}
	if s := statusOf(h.gw, "up"); s.State != StateReady {
		t.Errorf("a JSON-RPC error changed the upstream's state: %+v", s)
	}
}

func TestToolListChangedReachesTheClient(t *testing.T) {
	h := startGateway(t, []config.Upstream{stdioUpstream(t, "up", nil)}, nil)
	down := h.connect(t, clientOptions{})
	if _, ok := down.tools(t)["up__extra"]; ok {
		t.Fatal("up__extra exists before the upstream adds it")
	}

	down.call(t, "up__add_tool", map[string]any{})
	tools := down.waitTools(t, func(m map[string]*mcp.Tool) bool { return m["up__extra"] != nil })
	if d := tools["up__extra"].Description; d != "Added at run time." {
		t.Errorf("up__extra description = %q", d)
	}
	if got := text(down.call(t, "up__extra", map[string]any{})); got != "extra works" {
		t.Errorf("up__extra answered %q", got)
	}

	down.call(t, "up__remove_tool", map[string]any{})
	down.waitTools(t, func(m map[string]*mcp.Tool) bool { return m["up__extra"] == nil && m["up__echo"] != nil })
}

func TestRestartAfterCrash(t *testing.T) {
	t.Setenv("WINNOW_TEST_CRASH_TOKEN", "tok-crash-5551234")
	up := stdioUpstream(t, "up", map[string]string{"TOKEN": "${WINNOW_TEST_CRASH_TOKEN}"})
	h := startGateway(t, []config.Upstream{up}, &Options{Backoff: Backoff{Base: time.Second, Max: 5 * time.Second}})
	down := h.connect(t, clientOptions{})
	before := text(down.call(t, "up__pid", map[string]any{}))

	res := down.call(t, "up__crash", map[string]any{})
	if !res.IsError || !strings.Contains(text(res), "upstream up failed during the call") {
		t.Fatalf("crash call = %v %q, want a tool error about the failed upstream", res.IsError, text(res))
	}
	res = down.call(t, "up__echo", map[string]any{"zeta": "x"})
	if !res.IsError || !strings.Contains(text(res), "upstream up is restarting (attempt 1, ") {
		t.Errorf("call during restart = %v %q, want the restarting tool error", res.IsError, text(res))
	}
	st := h.waitStatus(t, "up", func(s Status) bool { return s.State == StateRestarting && !s.NextRetry.IsZero() })
	for _, want := range []string{"exit status 3", "crashing on purpose", redacted} {
		if !strings.Contains(st.LastError, want) {
			t.Errorf("LastError = %q, want it to mention %q", st.LastError, want)
		}
	}
	h.waitStatus(t, "up", func(s Status) bool { return s.State == StateReady })

	res = down.call(t, "up__echo", map[string]any{"zeta": "again"})
	if res.IsError || text(res) != `{"zeta":"again"}` {
		t.Errorf("after the restart echo = %v %q", res.IsError, text(res))
	}
	if after := text(down.call(t, "up__pid", map[string]any{})); after == before {
		t.Errorf("the upstream process was not restarted (pid %s both times)", after)
	}
	for _, s := range []string{h.logs.String(), st.LastError} {
		if strings.Contains(s, "tok-crash-5551234") {
			t.Errorf("a secret from the upstream's stderr leaked: %s", s)
		}
	}
}

func TestMissingCommand(t *testing.T) {
	bad := config.Upstream{Name: "ghost", Command: "/nonexistent/winnow-test-mcp-server"}
	h := startGateway(t, []config.Upstream{bad, stdioUpstream(t, "up", nil)}, nil)
	down := h.connect(t, clientOptions{})

	st := statusOf(h.gw, "ghost")
	if st.State != StateFailed || !strings.Contains(st.LastError, `command "/nonexistent/winnow-test-mcp-server"`) ||
		!strings.Contains(st.LastError, "no such file or directory") {
		t.Errorf("status = %+v, want failed naming the command", st)
	}
	if !strings.Contains(h.logs.String(), "level=ERROR") || !strings.Contains(h.logs.String(), "winnow-test-mcp-server") {
		t.Errorf("the startup failure was not logged as an error:\n%s", h.logs.String())
	}
	tools := down.tools(t)
	for name := range tools {
		if strings.HasPrefix(name, "ghost__") {
			t.Errorf("the failed upstream has a tool: %s", name)
		}
	}
	if got := text(down.call(t, "own_tool", map[string]any{})); got != "own tool works" {
		t.Errorf("own tool answered %q", got)
	}
	if got := text(down.call(t, "up__echo", map[string]any{"zeta": "ok"})); got != `{"zeta":"ok"}` {
		t.Errorf("the other upstream answered %q", got)
	}

	notInPath := config.Upstream{Name: "ghost2", Command: "winnow-test-no-such-mcp-server"}
	h2 := startGateway(t, []config.Upstream{notInPath}, nil)
	if st := statusOf(h2.gw, "ghost2"); st.State != StateFailed || !strings.Contains(st.LastError, "executable file not found in $PATH") {
		t.Errorf("status = %+v, want failed: not found in $PATH", st)
	}
}

func TestCallTimeout(t *testing.T) {
	up := stdioUpstream(t, "up", nil)
	up.Timeout = 2 * time.Second // long enough for the second call even on a loaded machine
	h := startGateway(t, []config.Upstream{up}, nil)
	down := h.connect(t, clientOptions{})

	res := down.call(t, "up__sleep", map[string]any{"ms": 60000})
	want := "upstream up: sleep did not answer within 2s, so the call was cancelled (the timeout is set in its [[upstream]] entry)"
	if !res.IsError || text(res) != want {
		t.Errorf("slow call = %v %q, want tool error %q", res.IsError, text(res), want)
	}
	if got := text(down.call(t, "up__sleep", map[string]any{"ms": 1})); got != "slept" {
		t.Errorf("after a timeout the upstream answered %q, want it still connected", got)
	}
	if s := statusOf(h.gw, "up"); s.State != StateReady {
		t.Errorf("a timeout changed the upstream's state: %+v", s)
	}
}

// TestLargeResponse passes a result larger than the SDK's line limit (16 MiB), which the
// gateway lifts for its stdio upstreams (Options.MaxMessageBytes), through to the agent.
//
// The message crosses the SDK's JSON coding about ten times (the upstream encodes it, the
// gateway scans, decodes and re-encodes it, the client scans and decodes it), each a loop
// over every byte: without -race 50 MiB took 3.9 s to reach the gateway, under -race 25.5 s
// (9.5 s for 20 MiB, linearly), past the usual 20 s call timeout on a busy machine. So the
// size is just past the limit, and the call timeout is generous: this test is about size,
// TestCallTimeout about timeouts.
func TestLargeResponse(t *testing.T) {
	up := stdioUpstream(t, "up", nil)
	up.Timeout = 2 * time.Minute
	h := startGateway(t, []config.Upstream{up}, nil)
	down := h.connect(t, clientOptions{})
	const size = mcp.DefaultMaxLineLength + 1<<20
	res := down.call(t, "up__big", map[string]any{"bytes": size})
	got := text(res)
	if res.IsError || len(got) != size {
		t.Fatalf("%d-byte response: error=%v, got %d bytes: %.200s", size, res.IsError, len(got), got)
	}
	if sha256.Sum256([]byte(got)) != sha256.Sum256([]byte(bigText(size))) {
		t.Errorf("the %d-byte response arrived altered", size)
	}
}

func TestBinaryContentUntouched(t *testing.T) {
	h := startGateway(t, []config.Upstream{stdioUpstream(t, "up", nil)}, nil)
	down := h.connect(t, clientOptions{})
	res := down.call(t, "up__media", map[string]any{})
	if diff := cmp.Diff(testMedia(), res.Content); diff != "" {
		t.Errorf("binary content changed (-upstream +client):\n%s", diff)
	}
}

func TestChildEnvironment(t *testing.T) {
	t.Setenv("WINNOW_TEST_GIVEN", "given-value")
	t.Setenv("WINNOW_TEST_NOT_GIVEN", "must-not-reach-the-child")
	up := stdioUpstream(t, "up", map[string]string{"FROM_CONFIG": "${WINNOW_TEST_GIVEN}/x"})
	h := startGateway(t, []config.Upstream{up}, nil)
	down := h.connect(t, clientOptions{})
	for name, want := range map[string]string{
		"FROM_CONFIG":           "given-value/x",
		"WINNOW_TEST_NOT_GIVEN": "<unset>",
		"WINNOW_TEST_GIVEN":     "<unset>",
	} {
		if got := text(down.call(t, "up__env", map[string]any{"name": name})); got != want {
			t.Errorf("child's %s = %q, want %q", name, got, want)
		}
	}
}

func TestDisabledAndUnresolvable(t *testing.T) {
	off := stdioUpstream(t, "off", nil)
	off.Disabled = true
	unset := stdioUpstream(t, "unset", map[string]string{"TOKEN": "${WINNOW_TEST_SURELY_UNSET_VAR}"})
	h := startGateway(t, []config.Upstream{off, unset}, nil)
	if s := statusOf(h.gw, "off"); s.State != StateDisabled {
		t.Errorf("disabled upstream status = %+v", s)
	}
	s := statusOf(h.gw, "unset")
	if s.State != StateFailed || s.LastError != "upstream unset: env.TOKEN: ${WINNOW_TEST_SURELY_UNSET_VAR}: environment variable WINNOW_TEST_SURELY_UNSET_VAR is not set" {
		t.Errorf("upstream with an unset variable: %+v", s)
	}
	down := h.connect(t, clientOptions{})
	if n := len(down.tools(t)); n != 1 {
		t.Errorf("the client sees %d tools, want only the server's own", n)
	}
}

func TestInvalidates(t *testing.T) {
	up := stdioUpstream(t, "gh", nil)
	up.Disabled = true
	up.Invalidates = map[string][]string{"create_issue": {"list_issues", "get_issue"}}
	h := startGateway(t, []config.Upstream{up}, nil)
	if diff := cmp.Diff([]string{"gh__list_issues", "gh__get_issue"}, h.gw.Invalidates("gh__create_issue")); diff != "" {
		t.Errorf("Invalidates mismatch (-want +got):\n%s", diff)
	}
	if got := h.gw.Invalidates("gh__list_issues"); got != nil {
		t.Errorf("Invalidates(list_issues) = %v, want nil", got)
	}
	other := config.Upstream{Name: "fs", Command: "x", Invalidates: map[string][]string{"write_file": {"read_*"}}}
	want := map[string][]string{
		"gh__create_issue": {"gh__list_issues", "gh__get_issue"},
		"fs__write_file":   {"fs__read_*"},
	}
	if diff := cmp.Diff(want, Invalidations([]config.Upstream{up, other})); diff != "" {
		t.Errorf("Invalidations mismatch (-want +got):\n%s", diff)
	}
}
