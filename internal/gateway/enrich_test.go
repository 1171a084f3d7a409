package gateway

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/config"
	"github.com/winnowhq/winnow/internal/gateway/pipeline"
	"github.com/winnowhq/winnow/internal/telemetry"
	"github.com/winnowhq/winnow/internal/toolvalue"
)

// envRecord, set to a file, makes the test binary relay stdio between the gateway and the
// command given as its arguments, appending every line the gateway sends to the file: a
// record of a real server's traffic, taken at its transport.
const envRecord = "WINNOW_GATEWAY_TEST_RECORD"

// recordTraffic relays stdin to the command of os.Args[1:], recording each line, and its
// stdout and stderr back; it returns the command's exit code.
func recordTraffic(file string) int {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "record: no command")
		return 2
	}
	rec, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		return 2
	}
	defer rec.Close()
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, envRecord+"=") })
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	in, err := cmd.StdinPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		return 2
	}
	r := bufio.NewReader(os.Stdin)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			rec.Write(line) // before the server sees it, so the record holds every answered call
			if _, werr := in.Write(line); werr != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	in.Close()
	var exit *exec.ExitError
	if err := cmd.Wait(); errors.As(err, &exit) {
		return exit.ExitCode()
	}
	return 0
}

// recordedCalls counts the tools/call requests in a record, by "<tool> <arguments>" (the
// arguments as compact JSON).
func recordedCalls(t *testing.T, file string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for line := range strings.Lines(string(data)) {
		var msg struct {
			Method string `json:"method"`
			Params struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal([]byte(line), &msg) != nil || msg.Method != "tools/call" {
			continue
		}
		out[msg.Params.Name+" "+compactJSON(t, string(msg.Params.Arguments))]++
	}
	return out
}

// addPlannerTools adds to the test upstream what the planner's tests need: a count of the
// tools/call requests it received (the tool "calls" returns them as {"<tool>": n}), a tool
// annotated read-only but destructive, a tool that holds a call until it is cancelled, and
// a value to set and read.
func addPlannerTools(srv *mcp.Server) {
	var mu sync.Mutex
	calls := map[string]int{}
	value := "unset"
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if r, ok := req.(*mcp.CallToolRequest); ok && method == "tools/call" && r.Params != nil {
				mu.Lock()
				calls[r.Params.Name]++
				mu.Unlock()
			}
			return next(ctx, method, req)
		}
	})
	srv.AddTool(&mcp.Tool{Name: "calls", InputSchema: object()},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			mu.Lock()
			defer mu.Unlock()
			data, err := json.Marshal(calls)
			return textResult(string(data)), err
		})
	yes := true
	srv.AddTool(&mcp.Tool{Name: "purge", InputSchema: object(),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &yes}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return textResult("purged"), nil
		})
	srv.AddTool(&mcp.Tool{Name: "hold", InputSchema: object()},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "hold started")
			<-ctx.Done()
			fmt.Fprintln(os.Stderr, "hold cancelled")
			return nil, ctx.Err()
		})
	srv.AddTool(&mcp.Tool{Name: "set_value", InputSchema: object()},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct{ Value string }
			if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
				return nil, err
			}
			mu.Lock()
			value = a.Value
			mu.Unlock()
			return textResult("set"), nil
		})
	// get_value reads the value at once and answers after delay_ms: a slow read.
	srv.AddTool(&mcp.Tool{Name: "get_value", InputSchema: object()},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct {
				DelayMS int `json:"delay_ms"`
			}
			if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
				return nil, err
			}
			mu.Lock()
			v := value
			mu.Unlock()
			select {
			case <-time.After(time.Duration(a.DelayMS) * time.Millisecond):
				return textResult(v), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
}

// upstreamCalls returns the tools/call requests the test upstream received, by tool.
func upstreamCalls(t *testing.T, c *client) map[string]int {
	t.Helper()
	var n map[string]int
	if err := json.Unmarshal([]byte(text(c.call(t, "up__calls", map[string]any{}))), &n); err != nil {
		t.Fatal(err)
	}
	delete(n, "calls")
	return n
}

// rules is a user layer for the tests: each tool read-only unless said otherwise, with
// the follow-ups given.
type rules map[string]toolvalue.Spec

func (r rules) layer() toolvalue.Layer {
	var l toolvalue.Layer
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range r {
			if !yield(k) {
				return
			}
		}
	}) {
		l = append(l, toolvalue.Rule{Pattern: name, Origin: "test", Spec: r[name]})
	}
	return l
}

func readOnly(follow ...toolvalue.FollowUp) toolvalue.Spec {
	se := toolvalue.ReadOnly
	tokens := 40
	return toolvalue.Spec{SideEffect: &se, TypicalTokens: &tokens, FollowUps: follow}
}

func edge(tool string, args map[string]string) toolvalue.FollowUp {
	return toolvalue.FollowUp{Tool: tool, Probability: 1, Args: args}
}

// plannerGateway starts the test upstream behind a gateway whose planner runs in mode
// with the built-in models and user, recording telemetry in the returned log.
func plannerGateway(t *testing.T, mode string, user rules) (*harness, *client, *callLog) {
	t.Helper()
	return plannerGatewayWith(t, &Enrich{Mode: mode}, user)
}

// plannerGatewayWith is plannerGateway with the planner's options e (Tools is set here).
func plannerGatewayWith(t *testing.T, e *Enrich, user rules) (*harness, *client, *callLog) {
	t.Helper()
	reg := toolvalue.NewRegistry(toolvalue.Builtin())
	reg.SetUser(user.layer())
	e.Tools = reg
	log := &callLog{}
	pipe := pipeline.Default(pipeline.Options{Telemetry: log})
	h := startGateway(t, []config.Upstream{stdioUpstream(t, "up", nil)}, &Options{
		Shaper: pipe,
		Enrich: e,
	})
	down := h.connect(t, clientOptions{})
	down.waitTools(t, func(m map[string]*mcp.Tool) bool { return m["up__calls"] != nil })
	return h, down, log
}

// waitFor waits until cond holds, re-checking at every change of the planner's state.
func waitFor(t *testing.T, e *enricher, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		ch := e.changes()
		if cond() {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("timed out waiting until %s", what)
		}
	}
}

// landed reports whether a follow-up with key has landed in some session.
func (e *enricher) landed(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.sessions {
		s.mu.Lock()
		f := s.fetches[key]
		ok := f != nil && f.res != nil
		s.mu.Unlock()
		if ok {
			return true
		}
	}
	return false
}

// queued reports whether a follow-up with key waits for a host slot in some session.
func (e *enricher) queued(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.sessions {
		s.mu.Lock()
		f := s.fetches[key]
		ok := f != nil && !f.started && f.res == nil
		s.mu.Unlock()
		if ok {
			return true
		}
	}
	return false
}

// inflight returns how many sessions the planner holds and how many of their follow-ups
// went to an upstream and have not landed.
func (e *enricher) inflight() (sessions, started int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.sessions {
		s.mu.Lock()
		for _, f := range s.fetches {
			if f.started && f.res == nil {
				started++
			}
		}
		s.mu.Unlock()
	}
	return len(e.sessions), started
}

// plans returns the decisions of a telemetry record's plans, by tool.
func plans(c telemetry.Call) map[string]string {
	out := map[string]string{}
	for _, p := range c.Plans {
		out[p.Tool] = p.Decision
	}
	return out
}

func recorded(l *callLog, tool string) []telemetry.Call {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []telemetry.Call
	for _, c := range l.calls {
		if c.Tool == tool {
			out = append(out, c)
		}
	}
	return out
}

// TestEnrichNeverSpeculatesDestructive: a tool annotated destructiveHint is never run
// ahead, even when the user's rules call it read-only and the planner admits it; a
// read-only follow-up of the same call is, and answers the agent's identical call
// without reaching the upstream.
func TestEnrichNeverSpeculatesDestructive(t *testing.T) {
	h, down, log := plannerGateway(t, config.EnrichPrefetch, rules{
		"up__echo":  readOnly(edge("up__purge", nil), edge("up__big", map[string]string{"bytes": "const:64"})),
		"up__purge": readOnly(),
		"up__big":   readOnly(),
	})
	down.call(t, "up__echo", map[string]any{"zeta": "go"})
	bigKey := `up__big {"bytes":64}`
	waitFor(t, h.gw.enrich, "the follow-up of big landed", func() bool { return h.gw.enrich.landed(bigKey) })

	echo := recorded(log, "up__echo")[0]
	if diff := cmp.Diff(map[string]string{"up__big": "prefetch", "up__purge": "declined"}, plans(echo)); diff != "" {
		t.Errorf("plans after echo (-want +got):\n%s", diff)
	}
	for _, p := range echo.Plans {
		if p.Tool == "up__purge" && !strings.Contains(p.Reason, "may change something") {
			t.Errorf("purge declined because %q, want the gateway's own reason", p.Reason)
		}
	}
	if got := text(down.call(t, "up__big", map[string]any{"bytes": 64})); got != bigText(64) {
		t.Errorf("big served from prefetch = %q", got)
	}
	if got := recorded(log, "up__big"); len(got) != 1 || got[0].Served != telemetry.ServedPrefetch || got[0].Key != bigKey {
		t.Errorf("telemetry of big: %+v, want served by prefetch with key %s", got, bigKey)
	}
	if diff := cmp.Diff(map[string]int{"echo": 1, "big": 1}, upstreamCalls(t, down)); diff != "" {
		t.Errorf("calls the upstream received (-want +got):\n%s", diff)
	}
}

// TestEnrichInlineDelimited: in inline mode a follow-up that lands within the wait is
// appended to the result, delimited and naming its call, in the text content and in the
// structured content the model reads; the agent's identical call is answered from it.
func TestEnrichInlineDelimited(t *testing.T) {
	_, down, log := plannerGateway(t, config.EnrichInline, rules{
		"up__echo": readOnly(edge("up__big", map[string]string{"bytes": "const:100"})),
		"up__big":  readOnly(),
	})
	res := down.call(t, "up__echo", map[string]any{"zeta": "go"})
	block := "[winnow: read ahead — up__big {\"bytes\":100}]\n" + strings.TrimSuffix(bigText(100), "\n") +
		"\n[winnow: end of up__big {\"bytes\":100}]"
	if len(res.Content) != 2 || text(&mcp.CallToolResult{Content: res.Content[1:]}) != block {
		t.Fatalf("echo with an inline follow-up: %d contents %q, want the echo then\n%s", len(res.Content), text(res), block)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	if want := res.Content[0].(*mcp.TextContent).Text + "\n\n" + block; sc["echoed"] != want {
		t.Errorf("structured content = %q, want %q: the block appended to the text member", sc["echoed"], want)
	}
	echo := recorded(log, "up__echo")[0]
	if len(echo.Steps) == 0 || echo.Steps[len(echo.Steps)-1].Layer != telemetry.LayerInline || echo.Steps[len(echo.Steps)-1].After != block {
		t.Errorf("telemetry steps of echo %+v, want the inline block last", echo.Steps)
	}
	if diff := cmp.Diff(map[string]string{"up__big": "inline"}, plans(echo)); diff != "" {
		t.Errorf("plans (-want +got):\n%s", diff)
	}
	if got := text(down.call(t, "up__big", map[string]any{"bytes": 100})); got != bigText(100) {
		t.Errorf("big after the inline = %q", got)
	}
	if got := recorded(log, "up__big"); len(got) != 1 || got[0].Served != telemetry.ServedInline {
		t.Errorf("telemetry of big: %+v, want served by the inline", got)
	}
	if diff := cmp.Diff(map[string]int{"echo": 1, "big": 1}, upstreamCalls(t, down)); diff != "" {
		t.Errorf("calls the upstream received (-want +got):\n%s", diff)
	}
}

// TestEnrichInlineWaitBounded: an inline follow-up that is not back within the inline
// wait is not waited for: the result goes without it, telemetry says it was prefetched
// instead and why, and it answers the agent's identical call once it lands.
func TestEnrichInlineWaitBounded(t *testing.T) {
	_, down, log := plannerGatewayWith(t, &Enrich{Mode: config.EnrichInline, InlineWait: 100 * time.Millisecond}, rules{
		"up__echo":      readOnly(edge("up__get_value", map[string]string{"delay_ms": "const:1500"})),
		"up__get_value": readOnly(),
	})
	down.call(t, "up__set_value", map[string]any{"value": "v"})

	start := time.Now()
	res := down.call(t, "up__echo", map[string]any{"zeta": "go"})
	if took := time.Since(start); len(res.Content) != 1 || took >= 1500*time.Millisecond {
		t.Errorf("echo took %v with %d contents; want it back after the inline wait, without the slow follow-up", took, len(res.Content))
	}
	p := recorded(log, "up__echo")[0].Plans
	if len(p) != 1 || p[0].Decision != telemetry.DecisionPrefetch || !strings.Contains(p[0].Reason, "not back within the inline wait") {
		t.Errorf("plans: %+v, want the inline candidate turned prefetch, saying why", p)
	}
	if got := text(down.call(t, "up__get_value", map[string]any{"delay_ms": 1500})); got != "v" {
		t.Errorf("get_value = %q", got)
	}
	if got := recorded(log, "up__get_value"); len(got) != 1 || got[0].Served != telemetry.ServedPrefetch {
		t.Errorf("telemetry of get_value: %+v, want served by the follow-up", got)
	}
	if got := upstreamCalls(t, down)["get_value"]; got != 1 {
		t.Errorf("the upstream received %d get_value calls, want 1", got)
	}
}

// TestEnrichInvalidatesInFlight: a follow-up in flight when a mutating call arrives is
// discarded: the agent's read after the change reaches the upstream and sees the change.
func TestEnrichInvalidatesInFlight(t *testing.T) {
	h, down, _ := plannerGateway(t, config.EnrichPrefetch, rules{
		"up__echo":      readOnly(edge("up__get_value", map[string]string{"delay_ms": "const:400"})),
		"up__get_value": readOnly(),
	})
	down.call(t, "up__set_value", map[string]any{"value": "one"})
	down.call(t, "up__echo", map[string]any{"zeta": "go"})
	waitFor(t, h.gw.enrich, "the follow-up went to the upstream", func() bool { _, n := h.gw.enrich.inflight(); return n == 1 })
	// In flight at the gateway is not yet received by the upstream (under -race the call
	// could still be on its way when set_value dropped it, and never arrive): wait for it.
	for deadline := time.Now().Add(20 * time.Second); upstreamCalls(t, down)["get_value"] < 1; {
		if time.Now().After(deadline) {
			t.Fatal("the follow-up never reached the upstream")
		}
		time.Sleep(5 * time.Millisecond)
	}
	down.call(t, "up__set_value", map[string]any{"value": "two"})
	if got := text(down.call(t, "up__get_value", map[string]any{"delay_ms": 400})); got != "two" {
		t.Errorf("get_value after set_value two = %q; a follow-up started before the change answered it", got)
	}
	if n := h.gw.enrich.stats.discarded.Load(); n != 1 {
		t.Errorf("%d follow-ups discarded, want 1", n)
	}
	if got := upstreamCalls(t, down)["get_value"]; got != 2 {
		t.Errorf("the upstream received %d get_value calls, want the follow-up's and the agent's", got)
	}
}

// TestEnrichTakeOver: the agent's call of a follow-up in flight waits for it instead of
// sending the call again; its call of a follow-up still waiting for a host slot goes to
// the upstream at once, and the follow-up is dropped.
func TestEnrichTakeOver(t *testing.T) {
	reg := toolvalue.NewRegistry(toolvalue.Builtin())
	reg.SetUser(rules{
		"up__echo":      readOnly(edge("up__get_value", map[string]string{"delay_ms": "const:300"})),
		"up__big":       readOnly(edge("up__hold", nil)),
		"up__pid":       readOnly(edge("up__get_value", map[string]string{"delay_ms": "const:0"})),
		"up__get_value": readOnly(),
		"up__hold":      readOnly(),
	}.layer())
	log := &callLog{}
	h := startGateway(t, []config.Upstream{stdioUpstream(t, "up", nil)}, &Options{
		Shaper: pipeline.Default(pipeline.Options{Telemetry: log}),
		Enrich: &Enrich{Mode: config.EnrichPrefetch, Tools: reg, HostConcurrency: 1},
	})
	down := h.connect(t, clientOptions{})
	down.waitTools(t, func(m map[string]*mcp.Tool) bool { return m["up__calls"] != nil })
	e := h.gw.enrich

	down.call(t, "up__set_value", map[string]any{"value": "v"})
	down.call(t, "up__echo", map[string]any{"zeta": "go"})
	waitFor(t, e, "get_value went to the upstream", func() bool { _, n := e.inflight(); return n == 1 })
	if got := text(down.call(t, "up__get_value", map[string]any{"delay_ms": 300})); got != "v" {
		t.Errorf("get_value = %q", got)
	}
	if got := recorded(log, "up__get_value"); len(got) != 1 || got[0].Served != telemetry.ServedPrefetch {
		t.Errorf("telemetry of get_value: %+v, want served by the follow-up it waited for", got)
	}

	down.call(t, "up__big", map[string]any{"bytes": 10}) // hold takes the host's one slot
	waitFor(t, e, "hold went to the upstream", func() bool { _, n := e.inflight(); return n == 1 })
	down.call(t, "up__pid", map[string]any{})
	fast := `up__get_value {"delay_ms":0}`
	waitFor(t, e, "get_value waits for the slot", func() bool { return e.queued(fast) })
	if got := text(down.call(t, "up__get_value", map[string]any{"delay_ms": 0})); got != "v" {
		t.Errorf("get_value = %q", got)
	}
	if got := recorded(log, "up__get_value"); len(got) != 2 || got[1].Served != "" {
		t.Errorf("telemetry of the second get_value: %+v, want it answered by the upstream", got)
	}
	waitFor(t, e, "the queued follow-up was dropped", func() bool { return e.stats.discarded.Load() == 1 })
	if got := upstreamCalls(t, down)["get_value"]; got != 2 {
		t.Errorf("the upstream received %d get_value calls, want 2 (one follow-up waited for, one call of the agent)", got)
	}
}

// TestEnrichSessionEndCancels: when the agent's session ends, its follow-ups in flight are
// cancelled (the upstream is told), its state is forgotten and no goroutine is left.
func TestEnrichSessionEndCancels(t *testing.T) {
	h, down, _ := plannerGateway(t, config.EnrichPrefetch, rules{
		"up__echo": readOnly(edge("up__hold", nil)),
		"up__hold": readOnly(),
	})
	down.call(t, "up__echo", map[string]any{"zeta": "go"})
	e := h.gw.enrich
	// The upstream's stderr and goroutine exits have no event to wait on: poll.
	poll := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting until %s; logs:\n%s", what, h.logs.String())
			}
		}
	}
	poll("the upstream runs hold", func() bool { return strings.Contains(h.logs.String(), "hold started") })
	if _, n := e.inflight(); n != 1 {
		t.Fatalf("%d follow-ups in flight, want hold", n)
	}
	down.cs.Close()
	waitFor(t, e, "the session was forgotten", func() bool { s, n := e.inflight(); return s == 0 && n == 0 })
	poll("the upstream was told", func() bool { return strings.Contains(h.logs.String(), "hold cancelled") })
	poll("no follow-up goroutine is left", func() bool { return !followUpsRunning() })
	if n := e.stats.discarded.Load(); n != 1 {
		t.Errorf("%d follow-ups discarded, want 1", n)
	}
}

// TestEnrichCloseCancels: closing the gateway cancels the follow-ups in flight and waits
// for them.
func TestEnrichCloseCancels(t *testing.T) {
	h, down, _ := plannerGateway(t, config.EnrichPrefetch, rules{
		"up__echo": readOnly(edge("up__hold", nil)),
		"up__hold": readOnly(),
	})
	down.call(t, "up__echo", map[string]any{"zeta": "go"})
	e := h.gw.enrich
	waitFor(t, e, "hold went to the upstream", func() bool { _, n := e.inflight(); return n == 1 })
	closed := make(chan struct{})
	go func() {
		h.gw.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(20 * time.Second):
		t.Fatal("Close did not return with a follow-up in flight")
	}
	if followUpsRunning() {
		t.Error("a follow-up goroutine outlived Close")
	}
}

// followUpsRunning reports whether a goroutine runs a follow-up call.
func followUpsRunning() bool {
	buf := make([]byte, 1<<20)
	return strings.Contains(string(buf[:runtime.Stack(buf, true)]), "gateway.(*enricher).run(")
}

func TestUnproductive(t *testing.T) {
	tests := []struct {
		name string
		res  *mcp.CallToolResult
		want string
	}{
		{"text", textResult("main.go"), ""},
		{"empty text", textResult("  \n"), "nothing"},
		{"no content", &mcp.CallToolResult{}, "nothing"},
		{"empty JSON list", textResult("[]"), "an empty list"},
		{"empty structured list", &mcp.CallToolResult{StructuredContent: map[string]any{"items": []any{}}}, "an empty list"},
		{"structured items", &mcp.CallToolResult{StructuredContent: map[string]any{"items": []any{1}}}, ""},
		{"no matches", textResult("No matches found"), `"No matches found"`},
		{"no results", textResult("no results for foo"), `"no results for foo"`},
		{"a line about no matches in a long text", textResult("No matches found in a.go\n" + strings.Repeat("b.go\n", 40)), ""},
		{"an image", &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: []byte{1}, MIMEType: "image/png"}}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unproductive(tt.res, resultText(tt.res)); got != tt.want {
				t.Errorf("unproductive = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestEnrichSessionCap: a session has at most MaxPrefetch follow-ups in flight; the
// gateway declines more, saying why.
func TestEnrichSessionCap(t *testing.T) {
	reg := toolvalue.NewRegistry(toolvalue.Builtin())
	reg.SetUser(rules{
		"up__echo": readOnly(edge("up__hold", nil)),
		"up__pid":  readOnly(edge("up__big", map[string]string{"bytes": "const:10"})),
		"up__hold": readOnly(),
		"up__big":  readOnly(),
	}.layer())
	log := &callLog{}
	h := startGateway(t, []config.Upstream{stdioUpstream(t, "up", nil)}, &Options{
		Shaper: pipeline.Default(pipeline.Options{Telemetry: log}),
		Enrich: &Enrich{Mode: config.EnrichPrefetch, Tools: reg, MaxPrefetch: 1},
	})
	down := h.connect(t, clientOptions{})
	down.waitTools(t, func(m map[string]*mcp.Tool) bool { return m["up__calls"] != nil })
	down.call(t, "up__echo", map[string]any{"zeta": "go"})
	waitFor(t, h.gw.enrich, "hold went to the upstream", func() bool { _, n := h.gw.enrich.inflight(); return n == 1 })
	down.call(t, "up__pid", map[string]any{})
	p := recorded(log, "up__pid")[0].Plans
	if len(p) != 1 || p[0].Decision != telemetry.DecisionDeclined || !strings.Contains(p[0].Reason, "1 follow-ups in flight already") {
		t.Errorf("plans after pid: %+v, want big declined for the session's cap", p)
	}
}

// TestEnrichCacheBounds: a session's cache keeps at most CacheEntries results and
// CacheBytes of them, dropping the oldest first, and a result past its time answers
// nothing.
func TestEnrichCacheBounds(t *testing.T) {
	h := startGateway(t, nil, &Options{Enrich: &Enrich{Mode: config.EnrichPrefetch, CacheEntries: 3, CacheBytes: 250}})
	e, u := h.gw.enrich, newUpstream(h.gw, stdioUpstream(t, "up", nil))
	s := e.session(nil)
	land := func(key string, size int, ttl time.Duration) {
		f := &fetch{key: key, tool: "up__big", done: make(chan struct{}), cancel: func() {}}
		s.mu.Lock()
		s.fetches[key] = f
		s.running++
		s.mu.Unlock()
		e.land(s, f, u, textResult(strings.Repeat("x", size)), time.Millisecond, nil, ttl)
	}
	held := func() []string {
		s.mu.Lock()
		defer s.mu.Unlock()
		return slices.Sorted(maps.Keys(s.fetches))
	}
	for _, k := range []string{"a", "b", "c", "d"} {
		land(k, 50, time.Hour)
	}
	if diff := cmp.Diff([]string{"b", "c", "d"}, held()); diff != "" {
		t.Errorf("after 4 results with room for 3 (-want +got):\n%s", diff)
	}
	land("e", 200, time.Hour) // 50+50+200 > 250: c and b go
	if diff := cmp.Diff([]string{"d", "e"}, held()); diff != "" {
		t.Errorf("after a large result (-want +got):\n%s", diff)
	}
	land("f", 300, time.Hour) // larger than the whole cache: never kept
	if diff := cmp.Diff([]string{"d", "e"}, held()); diff != "" {
		t.Errorf("after a result larger than the cache (-want +got):\n%s", diff)
	}
	land("g", 10, time.Nanosecond)
	time.Sleep(time.Millisecond)
	if f := s.take(t.Context(), "g", time.Second); f != nil {
		t.Error("a result past its freshness answered a call")
	}
	if f := s.take(t.Context(), "e", time.Second); f == nil || resultText(f.res) != strings.Repeat("x", 200) {
		t.Error("a fresh result did not answer its call")
	}
	if f := s.take(t.Context(), "e", time.Second); f != nil {
		t.Error("a result answered two calls")
	}
}

// TestEnrichApproximateNotKept: an inline follow-up whose arguments are a guess (a window
// around a search's hit) that cannot be inlined is stopped and not kept for the agent's
// call, since the cache answers only an identical call and the agent's own read seldom has
// the guessed bounds; telemetry says it was declined, and why.
func TestEnrichApproximateNotKept(t *testing.T) {
	_, down, log := plannerGatewayWith(t, &Enrich{Mode: config.EnrichInline, InlineWait: 100 * time.Millisecond}, rules{
		// A hit at line 1560 of a.go: the window around it starts at line 1500, which the
		// slow tool takes as milliseconds, so the follow-up misses the inline wait.
		"up__get_value": readOnly(edge("up__sleep", map[string]string{"ms": "result.hits.offset"})),
		"up__sleep":     readOnly(),
	})
	down.call(t, "up__set_value", map[string]any{"value": "a.go:1560:	return parse(x)"})

	if res := down.call(t, "up__get_value", map[string]any{"delay_ms": 0}); len(res.Content) != 1 {
		t.Errorf("get_value has %d contents, want it alone", len(res.Content))
	}
	p := recorded(log, "up__get_value")[0].Plans
	if len(p) != 1 || p[0].Tool != "up__sleep" || p[0].Decision != telemetry.DecisionDeclined || !strings.Contains(p[0].Reason, "approximate arguments are not kept") {
		t.Fatalf("plans: %+v, want the window around the hit declined once it missed the inline, saying why", p)
	}
	down.call(t, "up__sleep", map[string]any{"ms": 1500})
	if got := recorded(log, "up__sleep"); len(got) != 1 || got[0].Served != "" {
		t.Errorf("telemetry of sleep: %+v, want it answered by the upstream, not by the follow-up", got)
	}
}
