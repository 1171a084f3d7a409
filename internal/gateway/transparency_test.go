package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/config"
)

// everything is server-everything behind a gateway on a server made as winnow makes its own
// (no capability of its own beyond tools, subscriptions recorded by the SDK).
type everything struct {
	h *harness
}

func startEverything(t *testing.T) *everything {
	t.Helper()
	entry := npmServer(t, "server-everything")
	srv := mcp.NewServer(&mcp.Implementation{Name: "winnow-test", Version: "0"}, &mcp.ServerOptions{
		Capabilities:       &mcp.ServerCapabilities{},
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	srv.AddTool(&mcp.Tool{Name: "own_tool", InputSchema: object()},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return textResult("own"), nil
		})
	logs := &syncBuffer{}
	ups := []config.Upstream{{Name: "everything", Command: "node", Args: []string{entry, "stdio"}, Timeout: 30 * time.Second}}
	gw, err := Start(context.Background(), ups, srv, &Options{StartupTimeout: 90 * time.Second, TerminateTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gw.Close() })
	if s := statusOf(gw, "everything"); s.State != StateReady {
		t.Fatalf("everything is not ready: %+v\n%s", s, logs.String())
	}
	return &everything{h: &harness{gw: gw, srv: srv, logs: logs}}
}

// agent is a downstream client recording the notifications it receives.
type agent struct {
	cs *mcp.ClientSession

	mu       sync.Mutex
	progress []*mcp.ProgressNotificationParams
	logs     []*mcp.LoggingMessageParams
	updated  []string
	got      chan struct{}
}

func (a *agent) note(f func()) {
	a.mu.Lock()
	f()
	a.mu.Unlock()
	select {
	case a.got <- struct{}{}:
	default:
	}
}

// wait waits until ok holds of the agent's records.
func (a *agent) wait(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		a.mu.Lock()
		done := ok()
		a.mu.Unlock()
		if done {
			return
		}
		select {
		case <-a.got:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("never got %s", what)
		}
	}
}

// An agentOption changes the agent's client before it connects.
type agentOption func(*mcp.Client)

func withRoots(roots ...*mcp.Root) agentOption {
	return func(c *mcp.Client) { c.AddRoots(roots...) }
}

func withMiddleware(m mcp.Middleware) agentOption {
	return func(c *mcp.Client) { c.AddReceivingMiddleware(m) }
}

func (e *everything) connect(t *testing.T, opts *mcp.ClientOptions, more ...agentOption) *agent {
	t.Helper()
	a := &agent{got: make(chan struct{}, 1)}
	o := mcp.ClientOptions{}
	if opts != nil {
		o = *opts
	}
	o.ProgressNotificationHandler = func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		a.note(func() { a.progress = append(a.progress, r.Params) })
	}
	o.LoggingMessageHandler = func(_ context.Context, r *mcp.LoggingMessageRequest) {
		a.note(func() { a.logs = append(a.logs, r.Params) })
	}
	o.ResourceUpdatedHandler = func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
		a.note(func() { a.updated = append(a.updated, r.Params.URI) })
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := e.h.srv.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	c := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, &o)
	for _, m := range more {
		m(c)
	}
	a.cs, err = c.Connect(t.Context(), ct, &mcp.ClientSessionOptions{ProtocolVersion: legacyProtocol})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.cs.Close() })
	return a
}

func TestE2EProgressReachesTheClientWithItsToken(t *testing.T) {
	e := startEverything(t)
	a := e.connect(t, nil)
	params := &mcp.CallToolParams{Name: "everything__trigger-long-running-operation", Arguments: map[string]any{"duration": 0.3, "steps": 3}}
	params.SetProgressToken("agent-token-7")
	res, err := a.cs.CallTool(t.Context(), params)
	if err != nil || res.IsError {
		t.Fatalf("call: %v %v", err, res)
	}
	a.wait(t, "3 progress notifications", func() bool { return len(a.progress) == 3 })
	for i, p := range a.progress {
		if p.ProgressToken != "agent-token-7" || p.Progress != float64(i+1) || p.Total != 3 {
			t.Errorf("notification %d = %+v, want token agent-token-7, progress %d of 3", i, p, i+1)
		}
	}
}

func TestE2ELogMessagesAndSetLevel(t *testing.T) {
	e := startEverything(t)
	init := e.connect(t, nil).cs.InitializeResult()
	if init.Capabilities.Logging == nil {
		t.Fatalf("logging not declared though the upstream logs: %+v", init.Capabilities)
	}
	a := e.connect(t, nil)
	if err := a.cs.SetLoggingLevel(t.Context(), &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	res, err := a.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "everything__toggle-simulated-logging", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %v", err, res)
	}
	t.Cleanup(func() {
		a.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "everything__toggle-simulated-logging", Arguments: map[string]any{}})
	})
	a.wait(t, "a log message", func() bool { return len(a.logs) > 0 })
	if data, _ := json.Marshal(a.logs[0].Data); !strings.Contains(string(data), "message") {
		t.Errorf("log message = %s", data)
	}
}

func TestE2EResourcesAreReexported(t *testing.T) {
	e := startEverything(t)
	a := e.connect(t, nil)
	caps := a.cs.InitializeResult().Capabilities
	if caps.Resources == nil || !caps.Resources.Subscribe || caps.Prompts == nil || caps.Completions == nil {
		t.Errorf("capabilities = %+v, want resources with subscribe, prompts, completions", caps)
	}
	list, err := a.cs.ListResources(t.Context(), nil)
	if err != nil || len(list.Resources) == 0 {
		t.Fatalf("resources/list: %v %v", err, list)
	}
	r := list.Resources[0]
	if !strings.HasPrefix(r.Name, "everything__") || !strings.HasPrefix(r.URI, "demo://") {
		t.Errorf("resource = %+v, want its name prefixed and its URI the upstream's", r)
	}
	read, err := a.cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: r.URI})
	if err != nil || len(read.Contents) == 0 || read.Contents[0].URI != r.URI {
		t.Fatalf("resources/read %s: %v %+v", r.URI, err, read)
	}
	tmpls, err := a.cs.ListResourceTemplates(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, tm := range tmpls.ResourceTemplates {
		uris = append(uris, tm.URITemplate)
	}
	if !slices.Contains(uris, "demo://resource/dynamic/text/{resourceId}") {
		t.Errorf("templates = %v", uris)
	}

	// The resource links a tool returns can be read through the gateway.
	res, err := a.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "everything__get-resource-links", Arguments: map[string]any{"count": 2}})
	if err != nil || res.IsError {
		t.Fatalf("get-resource-links: %v %v", err, res)
	}
	links := 0
	for _, c := range res.Content {
		l, ok := c.(*mcp.ResourceLink)
		if !ok {
			continue
		}
		links++
		got, err := a.cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: l.URI})
		if err != nil || len(got.Contents) == 0 || got.Contents[0].URI != l.URI {
			t.Errorf("reading the link %s: %v %+v", l.URI, err, got)
		}
	}
	if links == 0 {
		t.Fatalf("no resource links in %+v", res.Content)
	}

	if err := a.cs.Subscribe(t.Context(), &mcp.SubscribeParams{URI: r.URI}); err != nil {
		t.Errorf("subscribe: %v", err)
	}
	if err := a.cs.Unsubscribe(t.Context(), &mcp.UnsubscribeParams{URI: r.URI}); err != nil {
		t.Errorf("unsubscribe: %v", err)
	}
	if _, err := a.cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "nowhere://x"}); err == nil {
		t.Error("reading a URI no upstream has succeeded")
	}
}

func TestE2EPromptsAndCompletion(t *testing.T) {
	e := startEverything(t)
	a := e.connect(t, nil)
	list, err := a.cs.ListPrompts(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Prompts {
		names = append(names, p.Name)
	}
	if !slices.Contains(names, "everything__args-prompt") || !slices.Contains(names, "everything__simple-prompt") {
		t.Fatalf("prompts = %v", names)
	}
	got, err := a.cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "everything__args-prompt", Arguments: map[string]string{"city": "Lisbon"}})
	if err != nil || len(got.Messages) == 0 {
		t.Fatalf("prompts/get: %v %+v", err, got)
	}
	if b, _ := json.Marshal(got.Messages); !strings.Contains(string(b), "Lisbon") {
		t.Errorf("prompt messages = %s, want the argument in them", b)
	}
	comp, err := a.cs.Complete(t.Context(), &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: "everything__completable-prompt"},
		Argument: mcp.CompleteParamsArgument{Name: "department", Value: "Eng"},
	})
	if err != nil || !slices.Equal(comp.Completion.Values, []string{"Engineering"}) {
		t.Errorf("completion of a prompt argument: %v %+v", err, comp)
	}
	comp, err = a.cs.Complete(t.Context(), &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "demo://resource/dynamic/text/{resourceId}"},
		Argument: mcp.CompleteParamsArgument{Name: "resourceId", Value: "1"},
	})
	if err != nil || len(comp.Completion.Values) == 0 {
		t.Errorf("completion of a template argument: %v %+v", err, comp)
	}
}

func TestE2EElicitationReplyIsNotJudged(t *testing.T) {
	e := startEverything(t)
	// 500 is above the requested schema's maximum (100) and the email is no email: the SDK
	// would refuse this reply; the gateway leaves judging it to the upstream.
	reply := map[string]any{"name": "Ada", "check": true, "integer": 500, "email": "not-an-email"}
	// The Go SDK's client checks its own handler's reply; a client such as Claude Code does
	// not, so this one answers in a middleware, before that check.
	a := e.connect(t, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("not reached")
		},
	}, withMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "elicitation/create" {
				return &mcp.ElicitResult{Action: "accept", Content: reply}, nil
			}
			return next(ctx, method, req)
		}
	}))
	var tools map[string]*mcp.Tool
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		tools = map[string]*mcp.Tool{}
		for tool, err := range a.cs.Tools(t.Context(), nil) {
			if err != nil {
				t.Fatal(err)
			}
			tools[tool.Name] = tool
		}
		if tools["everything__trigger-elicitation-request"] != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	res, err := a.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "everything__trigger-elicitation-request", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	out := text(res)
	if res.IsError || !strings.Contains(out, "500") || !strings.Contains(out, "not-an-email") {
		t.Errorf("the upstream did not get the reply as sent:\n%s", out)
	}
}

func TestE2ERootsAreTheClients(t *testing.T) {
	e := startEverything(t)
	a := e.connect(t, nil, withRoots(&mcp.Root{URI: "file:///work/agent-root", Name: "agent-root"}))
	deadline := time.Now().Add(20 * time.Second)
	var out string
	for time.Now().Before(deadline) {
		res, err := a.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "everything__get-roots-list", Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		if out = text(res); strings.Contains(out, "file:///work/agent-root") {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Errorf("the upstream never saw the client's root:\n%s", out)
}

// With no client to ask, an upstream's roots/list gets an empty list, never null.
func TestRootsWithoutAClientAreEmptyNotNull(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	gw, err := Start(context.Background(), nil, srv, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer gw.Close()
	u := newUpstream(gw, config.Upstream{Name: "x", Command: "x"})
	res, err := u.forwardRoots(t.Context(), &mcp.ListRootsRequest{Params: &mcp.ListRootsParams{}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	if string(b) != `{"roots":[]}` {
		t.Errorf("roots/list answer = %s, want {\"roots\":[]}", b)
	}
}
