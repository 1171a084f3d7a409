package pipeline

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/tokens"
)

var nextCall = regexp.MustCompile(`: winnow__more (\{[^}]*\})\]$`)

// TestMoreOverMCP serves a trimmed tool and winnow__more from a real MCP
// server and follows the hints as an agent would, over an in-memory
// transport: every item of the upstream's result must arrive exactly
// once, and every text must keep within the budget.
func TestMoreOverMCP(t *testing.T) {
	const budget = 700
	p := Default(Options{CallBudget: budget})
	upstream := mustJSON(t, issues(90), true)

	server := mcp.NewServer(&mcp.Implementation{Name: "gateway", Version: "v0.0.1"}, nil)
	server.AddTool(&mcp.Tool{Name: "github__search_issues", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			c := &Call{Session: req.Session.ID(), Tool: req.Params.Name, Args: req.Params.Arguments}
			p.Before(ctx, c)
			return p.After(ctx, c, textResult(upstream)), nil
		})
	server.AddTool(p.MoreTool())
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v0.0.1"}, nil)
	cs, err := client.Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(tools.Tools, func(tl *mcp.Tool) bool { return tl.Name == MoreToolName }) {
		t.Fatalf("tools/list lacks %s", MoreToolName)
	}

	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "github__search_issues", Arguments: map[string]any{"q": "upload timeout"}})
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{onlyText(t, res)}
	for calls := 0; ; calls++ {
		_, hint := splitHint(texts[len(texts)-1])
		m := nextCall.FindStringSubmatch(hint)
		if m == nil {
			break
		}
		if calls > 50 {
			t.Fatal("more than 50 pages")
		}
		var args map[string]any
		if err := json.Unmarshal([]byte(m[1]), &args); err != nil {
			t.Fatalf("hint %q: %v", hint, err)
		}
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: MoreToolName, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s %s: %v %+v", MoreToolName, m[1], err, res)
		}
		texts = append(texts, onlyText(t, res))
	}
	if len(texts) < 3 {
		t.Fatalf("%d texts; want a trimmed view and at least two pages", len(texts))
	}
	all := strings.Join(texts, "\n")
	for i := range 90 {
		if n := strings.Count(all, marker(i)); n != 1 {
			t.Errorf("%s arrived %d times, want once", marker(i), n)
		}
	}
	for i, s := range texts {
		if n := p.opts.Counter.Count(s); n > budget {
			t.Errorf("text %d counts %d tokens, over the budget of %d", i, n, budget)
		}
	}
	// There is room for several items, but not for all that match the
	// arguments: the view holds only items that match.
	shown := 0
	for i := range 90 {
		if strings.Contains(texts[0], marker(i)) {
			shown++
			if i%7 != 3 {
				t.Errorf("the view holds %s, which does not match the arguments, while others that do are left out", marker(i))
			}
		}
	}
	if shown < 5 {
		t.Errorf("the view holds %d items; want at least 5", shown)
	}
}

// TestMoreRecoversExactly trims without re-encoding, so the view and the
// pages are in the upstream's own format: the items they hold, put
// together, must be the upstream's items byte for byte, each once, and
// what surrounds the list must be unchanged.
func TestMoreRecoversExactly(t *testing.T) {
	items := issues(60)
	var lines []string
	for i := range 300 {
		lines = append(lines, "2025-03-02T10:00:00Z INFO request "+marker(i)+" served")
	}
	tests := []struct {
		name, text string
		split      func(t *testing.T, text string) (frame string, items []string)
	}{
		{"array", mustJSON(t, items, true), splitArray},
		{"compact array", mustJSON(t, items, false), splitArray},
		{"wrapper", mustJSON(t, map[string]any{"total_count": 60, "incomplete_results": false, "items": items}, true), splitWrapper},
		{"lines", strings.Join(lines, "\n") + "\n", splitLines},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := New(Options{CallBudget: 500}, Dedup{}, Trim{})
			c := &Call{Session: "s", Tool: "x__list", Args: json.RawMessage(`{}`)}
			view := onlyText(t, p.After(t.Context(), c, textResult(tt.text)))
			body, hint := splitHint(view)
			m := nextCall.FindStringSubmatch(hint)
			if m == nil {
				t.Fatalf("no hint in the view's last line %q", hint)
			}
			if n := tokens.Count(tokens.O200k, hint); n > 18 {
				t.Errorf("hint %q takes %d tokens, want at most 18", hint, n)
			}
			wantFrame, want := tt.split(t, tt.text)
			frame, got := tt.split(t, body)
			if frame != wantFrame {
				t.Errorf("the view changed what surrounds the list:\n%s\nwant\n%s", frame, wantFrame)
			}
			args := json.RawMessage(m[1])
			for page := 1; ; page++ {
				res := p.More("s", args)
				if res.IsError {
					t.Fatalf("page %d: %s", page, onlyText(t, res))
				}
				body, hint := splitHint(onlyText(t, res))
				frame, its := tt.split(t, body)
				if frame != wantFrame {
					t.Errorf("page %d changed what surrounds the list", page)
				}
				got = append(got, its...)
				m := nextCall.FindStringSubmatch(hint)
				if m == nil {
					break
				}
				args = json.RawMessage(m[1])
			}
			slices.Sort(got)
			slices.Sort(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("items recovered (-want +got):\n%s", diff)
			}
		})
	}
}

func splitArray(t *testing.T, text string) (string, []string) {
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, text)
	}
	out := make([]string, len(raw))
	for i, r := range raw {
		out[i] = string(r)
	}
	return "", out
}

func splitWrapper(t *testing.T, text string) (string, []string) {
	var w map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &w); err != nil {
		t.Fatalf("not a JSON object: %v", err)
	}
	_, items := splitArray(t, string(w["items"]))
	delete(w, "items")
	frame, _ := json.Marshal(w)
	return string(frame), items
}

func splitLines(t *testing.T, text string) (string, []string) {
	return "", strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}
