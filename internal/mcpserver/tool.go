package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/index"
)

// A tool is one of winnow's own tools: its definition and the function
// that answers it with text for the model.
type tool[In any] struct {
	name  string
	title string
	doc   string // the description, markdown for the model
	// example is a valid arguments object, shown when a call's arguments
	// do not fit the schema.
	example string
	// more says how to see what a truncated answer left out.
	more string
	run  func(ctx context.Context, in In) (string, error)
	// runCounted, set instead of run by a tool that counts its answer
	// exactly as it builds it (context packs to a budget), also returns
	// that count, so an answer known to fit is not counted again.
	runCounted func(ctx context.Context, in In) (string, int, error)
}

// add registers t on the server. Its input schema is inferred from In.
// Every call brings the index up to date first and has its answer capped.
func add[In any](s *Server, t tool[In]) {
	closed := false
	def := &mcp.Tool{
		Name:        t.name,
		Title:       t.title,
		Description: strings.TrimSpace(t.doc),
		Annotations: &mcp.ToolAnnotations{
			Title:          t.title,
			ReadOnlyHint:   true,
			IdempotentHint: true,
			OpenWorldHint:  &closed,
		},
	}
	s.examples[t.name] = t.example
	mcp.AddTool(s.mcp, def, func(ctx context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		markArgumentsValid(ctx)
		note := s.fresh.ensure(ctx)
		if tierNoted[t.name] {
			note = joinNotes(note, s.quickNote(ctx))
		}
		var text string
		counted := 0 // tokens of text, when known exactly
		var err error
		if t.runCounted != nil {
			text, counted, err = t.runCounted(ctx, in)
		} else {
			text, err = t.run(ctx, in)
		}
		if err != nil {
			return errorResult(err), nil, nil
		}
		if note != "" {
			text = note + "\n\n" + text
			counted = 0
		}
		if counted > 0 && counted <= s.limit.max {
			return textResult(text), nil, nil
		}
		return textResult(s.limit.cap(text, t.more)), nil, nil
	})
}

// tierNoted are the tools whose answers come from the index's rows and
// say so when it is at the quick tier; context says it in its header,
// telescope in its root.
var tierNoted = map[string]bool{toolFindSymbol: true, toolOutline: true, toolReferences: true}

// quickNote is the note of an answer from an index at the quick tier, or "".
func (s *Server) quickNote(ctx context.Context) string {
	if tier, err := s.ix.Tier(ctx); err != nil || tier != index.TierQuick {
		return ""
	}
	return "Note: from the quick index (definitions found by a fast scan while the full index is built): spans, signatures and references may be less precise."
}

func joinNotes(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "\n" + b
}

// An agentError is a failure the agent can fix: its message says what to
// do instead.
type agentError struct{ msg string }

func (e *agentError) Error() string { return e.msg }

// fixable returns an agentError with a formatted message.
func fixable(format string, args ...any) error {
	return &agentError{msg: fmt.Sprintf(format, args...)}
}

// errorResult turns a tool's error into a tool result with IsError set.
// An agentError speaks for itself; any other error is winnow's own
// failure, and the message says the arguments were not the problem.
func errorResult(err error) *mcp.CallToolResult {
	msg := err.Error()
	if ae := (*agentError)(nil); !errors.As(err, &ae) {
		msg = fmt.Sprintf("winnow could not answer: %v. The arguments were fine; this is a failure of winnow or of its index.", err)
	}
	return errorText(msg, err)
}

// errorText is a tool error result with the text msg, recording err for
// middleware that reads it with GetError.
func errorText(msg string, err error) *mcp.CallToolResult {
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
	res.SetError(err)
	return res
}

// textResult is a successful result holding text.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}
