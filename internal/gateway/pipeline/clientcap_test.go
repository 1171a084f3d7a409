package pipeline

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var (
	codex  = Client{Name: "codex-mcp-client", Version: "0.169.0"}
	claude = Client{Name: "claude-code", Version: "2.1.328"}
)

// TestClientCapBudget: a result's budget is the smaller of the call budget
// and the agent's client cap (less a margin), in bytes of what the client
// forwards; the cap comes from the table of known clients or the override.
func TestClientCapBudget(t *testing.T) {
	tree := dirTree(80_000)
	tests := []struct {
		name   string
		budget int
		caps   map[string]int
		client Client
		carry  bool // server-filesystem's form: the text also as structuredContent.content
		// maxBytes is the most bytes the client may get (0: no cap applies, and the
		// result is the one of a client winnow knows nothing about).
		maxBytes int
	}{
		{"unknown client: the call budget", 4000, nil, Client{Name: "inspector"}, false, 0},
		{"no clientInfo: the call budget", 4000, nil, Client{}, false, 0},
		{"Codex: its 12,000 bytes bind", 4000, nil, codex, false, 12_000 - 64},
		{"Codex, structured content escaped as JSON", 4000, nil, codex, true, 12_000 - 64},
		{"Claude Code under the call budget: no change", 4000, nil, claude, true, 0},
		{"Claude Code with a large call budget: its 50,000 characters bind", 100_000, nil, claude, true, 50_000},
		{"override lifts Codex's cap", 4000, map[string]int{"codex-mcp-client": 0}, codex, false, 0},
		{"override sets a cap", 4000, map[string]int{"inspector": 5000}, Client{Name: "inspector"}, true, 5000},
	}
	result := func(carry bool) *mcp.CallToolResult {
		if carry {
			return fsResult(tree)
		}
		return textResult(tree)
	}
	run := func(t *testing.T, budget int, caps map[string]int, c Client, carry bool) (*Pipeline, *mcp.CallToolResult) {
		p := New(Options{CallBudget: budget, ClientCaps: caps}, Dedup{}, Encode{}, Trim{})
		if carry {
			p.OutputSchema("fs__directory_tree", json.RawMessage(carrierSchema))
		}
		call := &Call{Session: "s", Tool: "fs__directory_tree", Args: json.RawMessage(`{"path":"/w"}`), Client: c}
		return p, p.After(t.Context(), call, result(carry))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, out := run(t, tt.budget, tt.caps, tt.client, tt.carry)
			got := strings.Join(modelView(out), "\n")
			if tt.maxBytes == 0 {
				_, plain := run(t, tt.budget, nil, Client{}, tt.carry)
				if diff := cmp.Diff(strings.Join(modelView(plain), "\n"), got); diff != "" {
					t.Errorf("the cap changed a result it should not have (-without +with):\n%.2000s", diff)
				}
				return
			}
			t.Logf("the client gets %d bytes, cap %d", len(got), tt.maxBytes)
			if len(got) > tt.maxBytes {
				t.Errorf("the client gets %d bytes, over its cap of %d", len(got), tt.maxBytes)
			}
			if len(got) < tt.maxBytes/2 {
				t.Errorf("the client gets %d bytes, less than half its cap of %d: the budget wastes it", len(got), tt.maxBytes)
			}
			var carried struct{ Content string }
			if tt.carry && json.Unmarshal([]byte(got), &carried) == nil {
				got = carried.Content
			}
			_, hint := splitHint(got)
			m := nextCall.FindStringSubmatch(hint)
			if m == nil {
				t.Fatalf("no winnow__more hint at the end of %.300q", got[max(len(got)-300, 0):])
			}
			for args := json.RawMessage(m[1]); ; {
				res := p.More("s", args)
				if res.IsError {
					t.Fatalf("winnow__more %s: %s", args, onlyText(t, res))
				}
				page := onlyText(t, res)
				if len(page) > tt.maxBytes {
					t.Errorf("winnow__more %s: %d bytes, over the cap of %d", args, len(page), tt.maxBytes)
				}
				_, hint = splitHint(page)
				n := nextCall.FindStringSubmatch(hint)
				if n == nil {
					break
				}
				args = json.RawMessage(n[1])
			}
		})
	}
}

// TestJSONStringBytes holds jsonStringBytes to the encoder the pipeline
// writes structured content with.
func TestJSONStringBytes(t *testing.T) {
	for _, s := range []string{"", "plain", "a \"quoted\" \\ path\n\ttab", "\x00\x1f é <&>", sourceFile(2000)} {
		if got, want := jsonStringBytes(s), len(quoteJSON(s)); got != want {
			t.Errorf("jsonStringBytes(%.40q) = %d, want %d", s, got, want)
		}
	}
}
