package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/shape"
	"github.com/winnowhq/winnow/internal/trimtree"
)

// MoreToolName is the name of the tool that returns what Trim left out.
const MoreToolName = "winnow__more"

const moreDescription = `Returns the part of a tool result that winnow left out to keep the result within its token budget.

A trimmed result ends with a line such as [68 more items: winnow__more {"ref":"r7"}]. Call this tool with those arguments to get the items that were left out, in their original order and format, one page at a time; each page but the last ends with the exact call for the next page, and the last with [end of r7]. Together, the trimmed result and its pages hold every item of the original result exactly once.`

// moreSchema is the input schema of winnow__more.
var moreSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"ref":  map[string]any{"type": "string", "description": `the ref from the hint line, e.g. "r7"`},
		"page": map[string]any{"type": "integer", "minimum": 1, "description": "page of the left-out items; default 1"},
	},
	"required":             []string{"ref"},
	"additionalProperties": false,
}

// MoreTool returns the winnow__more tool and its handler, for the gateway
// to serve next to the upstream tools. The handler finds refs in the
// session the request arrived on (mcp.ServerSession.ID(), the same id the
// gateway must put in Call.Session).
func (p *Pipeline) MoreTool() (*mcp.Tool, mcp.ToolHandler) {
	tool := &mcp.Tool{
		Name:        MoreToolName,
		Title:       "Rest of a trimmed tool result",
		Description: moreDescription,
		InputSchema: moreSchema,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}
	handler := func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var session string
		if req.Session != nil {
			session = req.Session.ID()
		}
		var args json.RawMessage
		if req.Params != nil {
			args = req.Params.Arguments
		}
		return p.More(session, args), nil
	}
	return tool, handler
}

// More answers a winnow__more call with args in session: a page of the
// items a trimmed result left out, or a tool error saying what to do.
func (p *Pipeline) More(session string, args json.RawMessage) *mcp.CallToolResult {
	var a struct {
		Ref  string `json:"ref"`
		Page int    `json:"page"`
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil || a.Ref == "" || a.Page < 0 {
		return toolError(`%s: arguments must be {"ref": "r7"} with an optional "page": 2, as the hint line of the trimmed result gives them`, MoreToolName)
	}
	page := max(a.Page, 1)
	h := p.store.get(session, a.Ref)
	if h == nil {
		return toolError("%s: no trimmed result %q in this session (winnow keeps the most recent ones while there is room); repeat the original tool call to get the result again", MoreToolName, a.Ref)
	}
	text, err := h.page(page, p.opts.Counter.Count)
	if err != nil {
		return toolError("%s: %v", MoreToolName, err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func toolError(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}}}
}

// page returns page n (from 1) of the items h left out, with its hint
// line: the call for the next page, or "[end of r7]". Pages are computed in order and remembered, so a page is the same
// every time it is asked for.
func (h *held) page(n int, count func(string) int) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for len(h.pages) <= n {
		start := h.pages[len(h.pages)-1]
		if start >= len(h.rest) {
			break
		}
		h.pages = append(h.pages, start+h.fill(start, count))
	}
	if n >= len(h.pages) {
		return "", fmt.Errorf("%s has %d pages; ask for page 1 to %d", h.ref, len(h.pages)-1, len(h.pages)-1)
	}
	start, end := h.pages[n-1], h.pages[n]
	text, _ := h.view(h.rest[start:end], count)
	unit := h.items.unit()
	var hint string
	if end < len(h.rest) {
		hint = fmt.Sprintf("[%d more %s: %s {\"ref\":%q,\"page\":%d}]", len(h.rest)-end, unit, MoreToolName, h.ref, n+1)
	} else {
		hint = fmt.Sprintf("[end of %s]", h.ref)
	}
	if text != "" && text[len(text)-1] != '\n' {
		text += "\n"
	}
	return text + hint, nil
}

// fill returns how many items, from offset start of rest, make a page:
// as many as fit the budget (less the hint's reserve), and at least one.
func (h *held) fill(start int, count func(string) int) int {
	limit := h.budget - trimtree.HintReserve
	srcLimit := float64(limit) / h.ratio
	cost := float64(count(h.items.prefix()) + count(h.items.suffix()))
	k := 0
	for start+k < len(h.rest) {
		c := float64(count(h.items.segment(h.rest[start+k])))
		if k > 0 && cost+c > srcLimit {
			break
		}
		cost += c
		k++
	}
	for k > 1 {
		_, n := h.view(h.rest[start:start+k], count)
		if n <= limit {
			break
		}
		k -= max(1, k*(n-limit)/n)
	}
	return k
}

// view renders the items with the given indexes as the agent sees them:
// in the source's format, encoded again if the first view was.
func (h *held) view(idx []int, count func(string) int) (string, int) {
	text := h.items.render(idx)
	if h.encoded {
		if e := shape.Encode(text, count); e.Encoder != "" {
			return e.Text, e.After
		}
	}
	return text, count(text)
}
