package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tests run real upstream MCP servers: the test binary itself, re-executed with
// envUpstream set, serves the upstream below on stdio (so the gateway spawns a real child
// process), and the same server is served over streamable HTTP by httptest.

const (
	envUpstream = "WINNOW_GATEWAY_TEST_UPSTREAM" // "1": serve the test upstream on stdio
	envProtocol = "WINNOW_GATEWAY_TEST_PROTOCOL" // "legacy": refuse protocol 2026-07-28
	envStubborn = "WINNOW_GATEWAY_TEST_STUBBORN" // "1": ignore stdin EOF and SIGTERM
)

func TestMain(m *testing.M) {
	if file := os.Getenv(envRecord); file != "" {
		os.Exit(recordTraffic(file))
	}
	if os.Getenv(envUpstream) == "1" {
		os.Exit(serveUpstreamStdio())
	}
	os.Exit(m.Run())
}

func serveUpstreamStdio() int {
	if os.Getenv(envStubborn) == "1" {
		signal.Ignore(syscall.SIGTERM)
	}
	srv := newTestUpstream(os.Getenv(envProtocol) == "legacy")
	err := srv.Run(context.Background(), &mcp.StdioTransport{MaxLineLength: -1})
	fmt.Fprintln(os.Stderr, "test upstream stopped:", err)
	if os.Getenv(envStubborn) == "1" {
		for {
			time.Sleep(time.Hour) // only SIGKILL ends this process
		}
	}
	return 0
}

// echoSchema is written with its keys out of order and numbers in unusual notation: a
// gateway that decodes and re-encodes schemas would change its bytes.
const echoSchema = `{"type":"object","properties":{"zeta":{"type":"string","description":"listed first on purpose"},"alpha":{"type":"number","minimum":1.50,"maximum":1e3}},"required":["zeta"],"additionalProperties":false}`

const echoOutputSchema = `{"type":"object","properties":{"echoed":{"type":"string"}},"required":["echoed"]}`

// testRPCError is the JSON-RPC error of the upstream's rpcerror tool.
var testRPCError = &jsonrpc.Error{Code: -32042, Message: "quota exceeded for this key", Data: json.RawMessage(`{"retry_after":30,"scope":"repo"}`)}

// testMedia returns the content of the upstream's media tool: binary data that must arrive
// byte for byte.
func testMedia() []mcp.Content {
	r := rand.New(rand.NewPCG(1, 2))
	blob := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.UintN(256))
		}
		return b
	}
	return []mcp.Content{
		&mcp.TextContent{Text: "media follows"},
		&mcp.ImageContent{Data: blob(64 << 10), MIMEType: "image/png"},
		&mcp.AudioContent{Data: blob(32 << 10), MIMEType: "audio/wav"},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///tmp/blob.bin", MIMEType: "application/octet-stream", Blob: blob(16 << 10)}},
		&mcp.ResourceLink{URI: "file:///tmp/linked.txt", Name: "linked.txt", MIMEType: "text/plain"},
	}
}

// bigText returns n bytes of deterministic text.
func bigText(n int) string {
	const line = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-the-quick-brown-fox\n"
	return strings.Repeat(line, n/len(line)+1)[:n]
}

// rootsSeen records the roots the upstream fetched after notifications/roots/list_changed.
type rootsSeen struct {
	mu      sync.Mutex
	uris    []string
	updated chan struct{} // closed and replaced at every update
}

func (r *rootsSeen) set(uris []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.uris = uris
	close(r.updated)
	r.updated = make(chan struct{})
}

// wait returns the roots once they number want, or what it has when ctx ends.
func (r *rootsSeen) wait(ctx context.Context, want int) []string {
	for {
		r.mu.Lock()
		uris, ch := r.uris, r.updated
		r.mu.Unlock()
		if len(uris) == want {
			return uris
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return uris
		}
	}
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func object() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }

// newTestUpstream returns the test upstream. With legacy set it refuses the stateless
// protocol, so it may send requests (roots, sampling, elicitation) while serving a call.
func newTestUpstream(legacy bool) *mcp.Server {
	seen := &rootsSeen{updated: make(chan struct{})}
	opts := &mcp.ServerOptions{
		RootsListChangedHandler: func(ctx context.Context, req *mcp.RootsListChangedRequest) {
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				res, err := req.Session.ListRoots(ctx, nil)
				if err != nil {
					seen.set([]string{"error: " + err.Error()})
					return
				}
				var uris []string
				for _, r := range res.Roots {
					uris = append(uris, r.URI)
				}
				seen.set(uris)
			}()
		},
	}
	if legacy {
		opts.SupportedProtocolVersions = []string{"2025-11-25", "2025-06-18"}
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "test-upstream", Version: "1.0.0"}, opts)
	addPlannerTools(srv)
	yes, no := true, false
	srv.AddTool(&mcp.Tool{
		Name:         "echo",
		Title:        "Echo",
		Description:  "Returns its arguments exactly as it received them.",
		InputSchema:  json.RawMessage(echoSchema),
		OutputSchema: json.RawMessage(echoOutputSchema),
		Annotations:  &mcp.ToolAnnotations{Title: "Echo it", ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: &yes},
		Meta:         mcp.Meta{"example.com/owner": "tests"},
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res := textResult(string(req.Params.Arguments))
		res.StructuredContent = map[string]any{"echoed": string(req.Params.Arguments)}
		return res, nil
	})
	srv.AddTool(&mcp.Tool{Name: "fail", Description: "Always fails.", InputSchema: object()},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "upstream says no: issue 42 does not exist"}}, IsError: true}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "rpcerror", InputSchema: object()},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, testRPCError
		})
	srv.AddTool(&mcp.Tool{Name: "big", InputSchema: object()},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct{ Bytes int }
			if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
				return nil, err
			}
			return textResult(bigText(a.Bytes)), nil
		})
	srv.AddTool(&mcp.Tool{Name: "media", InputSchema: object()},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: testMedia()}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "sleep", InputSchema: object()},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct{ MS int }
			if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
				return nil, err
			}
			select {
			case <-time.After(time.Duration(a.MS) * time.Millisecond):
				return textResult("slept"), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
	srv.AddTool(&mcp.Tool{Name: "crash", InputSchema: object()},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fmt.Fprintf(os.Stderr, "crashing on purpose (token %s)\n", os.Getenv("TOKEN"))
			os.Exit(3)
			return nil, nil
		})
	srv.AddTool(&mcp.Tool{Name: "pid", InputSchema: object()},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return textResult(fmt.Sprint(os.Getpid())), nil
		})
	srv.AddTool(&mcp.Tool{Name: "env", InputSchema: object()},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct{ Name string }
			if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
				return nil, err
			}
			v, ok := os.LookupEnv(a.Name)
			if !ok {
				return textResult("<unset>"), nil
			}
			return textResult(v), nil
		})
	extra := &mcp.Tool{Name: "extra", Description: "Added at run time.", InputSchema: object()}
	srv.AddTool(&mcp.Tool{Name: "add_tool", InputSchema: object()},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			srv.AddTool(extra, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return textResult("extra works"), nil
			})
			return textResult("added"), nil
		})
	srv.AddTool(&mcp.Tool{Name: "remove_tool", InputSchema: object()},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			srv.RemoveTools("extra")
			return textResult("removed"), nil
		})
	srv.AddTool(&mcp.Tool{Name: "roots", InputSchema: object()},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := req.Session.ListRoots(ctx, nil)
			if err != nil {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}, IsError: true}, nil
			}
			return textResult(rootURIs(res.Roots)), nil
		})
	srv.AddTool(&mcp.Tool{Name: "roots_seen", InputSchema: object()},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct{ Want int }
			if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
				return nil, err
			}
			return textResult(strings.Join(seen.wait(ctx, a.Want), " ")), nil
		})
	srv.AddTool(&mcp.Tool{Name: "mrtr_roots", InputSchema: object()},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if r, ok := req.Params.InputResponses["r"].(*mcp.ListRootsResult); ok {
				return textResult(req.Params.RequestState + ": " + rootURIs(r.Roots)), nil
			}
			return &mcp.CallToolResult{
				InputRequests: mcp.InputRequestMap{"r": &mcp.ListRootsParams{}},
				RequestState:  "state-7",
			}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "sample", InputSchema: object()},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{
				MaxTokens: 50,
				Messages:  []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "say hi to the gateway"}}},
			})
			if err != nil {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}, IsError: true}, nil
			}
			t, _ := res.Content.(*mcp.TextContent)
			if t == nil {
				return nil, fmt.Errorf("sampled content is %T", res.Content)
			}
			return textResult(res.Model + ": " + t.Text), nil
		})
	srv.AddTool(&mcp.Tool{Name: "elicit", InputSchema: object()},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{
				Message:         "Which branch?",
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{"branch":{"type":"string"}},"required":["branch"]}`),
			})
			if err != nil {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}, IsError: true}, nil
			}
			b, _ := json.Marshal(res.Content)
			return textResult(res.Action + " " + string(b)), nil
		})
	return srv
}

func rootURIs(roots []*mcp.Root) string {
	var b bytes.Buffer
	for i, r := range roots {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(r.URI)
	}
	return b.String()
}
