package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/shape"
	"github.com/winnowhq/winnow/internal/trimtree"
)

// MoreToolName is the name of the tool that returns what Trim left out.
const MoreToolName = "winnow__more"

const moreDescription = `Returns the part of a tool result that winnow left out to keep the result within its token budget.

A trimmed result ends with a line such as [68 more items: winnow__more {"ref":"r7"}]. Call this tool with those arguments to get the items that were left out, in their original order and format, one page at a time; each page but the last ends with the exact call for the next page, and the last with [end of r7]. No page is over the token budget: an item too large for one comes in parts, each headed [part 2 of 5 of one item ...], which joined with nothing between them are the item. Together, the trimmed result and its pages hold every item of the original result exactly once.`

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

// A pageSpan is one page of a held response: the items rest[start:end],
// or, for an item too large for a page alone (end == start+1), its part
// numbered part of parts (from 1).
type pageSpan struct {
	start, end  int
	part, parts int
}

// page returns page n (from 1) of the items h left out, with its hint
// line: the call for the next page, or "[end of r7]". Pages are computed
// in order and remembered, so a page is the same every time it is asked
// for. No page counts more than h.budget tokens: an item that alone would
// is sent in parts, each saying so.
func (h *held) page(n int, count func(string) int) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for len(h.pages) < n {
		next, ok := h.nextPage(count)
		if !ok {
			break
		}
		h.pages = append(h.pages, next)
	}
	if n > len(h.pages) {
		return "", fmt.Errorf("%s has %d pages; ask for page 1 to %d", h.ref, len(h.pages), len(h.pages))
	}
	pg := h.pages[n-1]
	var text string
	if pg.parts > 0 {
		item := h.rest[pg.start]
		chunks := h.chunks(item, count)
		text = fmt.Sprintf("[part %d of %d of one item too large for a page; the parts, joined with nothing between them, are the item]\n", pg.part, pg.parts) + chunks[pg.part-1]
	} else {
		text, _ = h.view(h.rest[pg.start:pg.end], count)
	}
	left := len(h.rest) - pg.end
	unit := h.items.unit()
	var hint string
	switch {
	case pg.parts > 0 && pg.part < pg.parts:
		hint = fmt.Sprintf("[part %d of %d of this item and %d more %s: %s {\"ref\":%q,\"page\":%d}]", pg.part+1, pg.parts, left, unit, MoreToolName, h.ref, n+1)
	case left > 0:
		hint = fmt.Sprintf("[%d more %s: %s {\"ref\":%q,\"page\":%d}]", left, unit, MoreToolName, h.ref, n+1)
	default:
		hint = fmt.Sprintf("[end of %s]", h.ref)
	}
	if pg.parts > 0 || text != "" && text[len(text)-1] != '\n' {
		text += "\n"
	}
	return text + hint, nil
}

// nextPage computes the page after the last one computed, if any items
// are left.
func (h *held) nextPage(count func(string) int) (pageSpan, bool) {
	start := 0
	if k := len(h.pages); k > 0 {
		last := h.pages[k-1]
		if last.parts > 0 && last.part < last.parts {
			return pageSpan{start: last.start, end: last.end, part: last.part + 1, parts: last.parts}, true
		}
		start = last.end
	}
	if start >= len(h.rest) {
		return pageSpan{}, false
	}
	k := h.fill(start, count)
	if k == 1 {
		if _, n := h.view(h.rest[start:start+1], count); n > h.budget-trimtree.HintReserve {
			return pageSpan{start: start, end: start + 1, part: 1, parts: len(h.chunks(h.rest[start], count))}, true
		}
	}
	return pageSpan{start: start, end: start + k}, true
}

// partNote bounds the tokens of the line that heads a part.
const partNote = 40

// chunks cuts item i (its own bytes, without the list around it) into
// parts that each fit a page: before a newline where it can, else at a
// rune boundary, so that no part ends with a newline and the one a page
// adds after it is not the item's. Joined, the parts are the item.
func (h *held) chunks(i int, count func(string) int) []string {
	if h.split != nil && h.splitItem == i {
		return h.split
	}
	it := h.items.items[i]
	text := h.items.text[it.Start:it.End]
	limit := max(h.budget-trimtree.HintReserve-partNote, 1)
	var out []string
	var cur strings.Builder
	curN := 0
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
			curN = 0
		}
	}
	for _, line := range cutBeforeNewlines(text) {
		n := count(line)
		if curN+n > limit {
			flush()
		}
		for n > limit { // one line over a page: cut it
			piece := cutRunes(line, max(len(line)*limit/n, 1))
			for len(piece) > 1 && count(piece) > limit {
				piece = cutRunes(piece, len(piece)*9/10)
			}
			out = append(out, piece)
			line = line[len(piece):]
			n = count(line)
		}
		cur.WriteString(line)
		curN += n
	}
	flush()
	h.split, h.splitItem = out, i
	return out
}

// cutBeforeNewlines cuts s before every newline: "a\nb\n" is "a", "\nb",
// "\n".
func cutBeforeNewlines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s[1:], '\n')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// cutRunes returns the longest prefix of s of at most n bytes (at least
// one rune) that ends at a rune boundary.
func cutRunes(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	if n == 0 {
		_, size := utf8.DecodeRuneInString(s)
		return s[:size]
	}
	return s[:n]
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
