package pipeline

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/*.txtar")

// A scenario is a sequence of tool calls with the upstream's results and
// the results the agent should see, in a txtar archive:
//
//	-- options.json --            optional: {"dedup_window": 2, "call_budget": 300, "invalidates": {...}}
//	-- 1.call --                  {"session": "s1", "tool": "github__get_issue", "args": {"number": 12}}
//	-- 1.result --                the upstream's result as one text content
//	-- 1.result.json --           or as an MCP CallToolResult in JSON (errors, images, several contents)
//	-- 1.want --                  what the agent receives, rendered by renderResult
//
// A call to winnow__more has no result: Pipeline.More answers it. Every
// other call goes through Before and After, in order.
type scenarioOptions struct {
	DedupWindow   int                 `json:"dedup_window"`
	MinDedupChars int                 `json:"min_dedup_chars"`
	CallBudget    int                 `json:"call_budget"`
	Invalidates   map[string][]string `json:"invalidates"`
}

type scenarioCall struct {
	Session string          `json:"session"`
	Tool    string          `json:"tool"`
	Args    json.RawMessage `json:"args"`
}

func TestScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runScenario(t, file)
		})
	}
}

var stepName = regexp.MustCompile(`^(\d+)\.(call|result|result\.json|want)$`)

func runScenario(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]*txtar.File{}
	last := 0
	for i := range ar.Files {
		f := &ar.Files[i]
		sections[f.Name] = f
		if m := stepName.FindStringSubmatch(f.Name); m != nil {
			n, _ := strconv.Atoi(m[1])
			last = max(last, n)
		} else if f.Name != "options.json" {
			t.Fatalf("unknown section %q", f.Name)
		}
	}
	var so scenarioOptions
	if f := sections["options.json"]; f != nil {
		if err := json.Unmarshal(f.Data, &so); err != nil {
			t.Fatalf("options.json: %v", err)
		}
	}
	p := Default(Options{
		DedupWindow:   so.DedupWindow,
		MinDedupChars: so.MinDedupChars,
		CallBudget:    so.CallBudget,
		Invalidates:   so.Invalidates,
	})
	changed := false
	for n := 1; n <= last; n++ {
		name := strconv.Itoa(n)
		cf := sections[name+".call"]
		if cf == nil {
			t.Fatalf("step %d has no call", n)
		}
		var sc scenarioCall
		if err := json.Unmarshal(cf.Data, &sc); err != nil {
			t.Fatalf("%s.call: %v", name, err)
		}
		var got *mcp.CallToolResult
		if sc.Tool == MoreToolName {
			got = p.More(sc.Session, sc.Args)
		} else {
			upstream := scenarioResult(t, sections, name)
			before := renderResult(upstream)
			c := &Call{Session: sc.Session, Tool: sc.Tool, Args: sc.Args}
			p.Before(t.Context(), c)
			got = p.After(t.Context(), c, upstream)
			if after := renderResult(upstream); after != before {
				t.Errorf("step %d: After modified the upstream's result", n)
			}
		}
		rendered := renderResult(got)
		wf := sections[name+".want"]
		if *update {
			if wf == nil {
				ar.Files = append(ar.Files, txtar.File{Name: name + ".want"})
				wf = &ar.Files[len(ar.Files)-1]
				sections[name+".want"] = wf
			}
			if string(wf.Data) != rendered {
				wf.Data = []byte(rendered)
				changed = true
			}
			continue
		}
		if wf == nil {
			t.Fatalf("step %d has no want section (run with -update)", n)
		}
		if diff := cmp.Diff(string(wf.Data), rendered); diff != "" {
			t.Errorf("step %d (%s %s) mismatch (-want +got):\n%s", n, sc.Tool, sc.Args, diff)
		}
	}
	if changed {
		ordered := orderSections(ar.Files)
		ar.Files = ordered
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// orderSections puts each step's want right after its call and result.
func orderSections(files []txtar.File) []txtar.File {
	rank := func(f txtar.File) (int, int) {
		m := stepName.FindStringSubmatch(f.Name)
		if m == nil {
			return 0, 0
		}
		n, _ := strconv.Atoi(m[1])
		kind := map[string]int{"call": 1, "result": 2, "result.json": 2, "want": 3}[m[2]]
		return n, kind
	}
	out := append([]txtar.File(nil), files...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0; j-- {
			a1, a2 := rank(out[j-1])
			b1, b2 := rank(out[j])
			if a1 < b1 || a1 == b1 && a2 <= b2 {
				break
			}
			out[j-1], out[j] = out[j], out[j-1]
		}
	}
	return out
}

// scenarioResult reads a step's upstream result.
func scenarioResult(t *testing.T, sections map[string]*txtar.File, name string) *mcp.CallToolResult {
	t.Helper()
	if f := sections[name+".result.json"]; f != nil {
		var res mcp.CallToolResult
		if err := json.Unmarshal(f.Data, &res); err != nil {
			t.Fatalf("%s.result.json: %v", name, err)
		}
		return &res
	}
	f := sections[name+".result"]
	if f == nil {
		t.Fatalf("step %s has no result", name)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(f.Data)}}}
}

// renderResult writes a result as the agent sees it: each content under a
// header line, text verbatim, other content summarised with a hash of its
// data.
func renderResult(res *mcp.CallToolResult) string {
	var b strings.Builder
	if res.IsError {
		b.WriteString("[isError]\n")
	}
	for i, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			fmt.Fprintf(&b, "[content %d: text]\n", i+1)
			b.WriteString(c.Text)
			if !strings.HasSuffix(c.Text, "\n") {
				b.WriteString("\n[no newline at end]\n")
			}
		case *mcp.ImageContent:
			fmt.Fprintf(&b, "[content %d: image %s, %d bytes, sha256 %x]\n", i+1, c.MIMEType, len(c.Data), sha256.Sum256(c.Data))
		case *mcp.AudioContent:
			fmt.Fprintf(&b, "[content %d: audio %s, %d bytes, sha256 %x]\n", i+1, c.MIMEType, len(c.Data), sha256.Sum256(c.Data))
		default:
			data, _ := json.Marshal(c)
			fmt.Fprintf(&b, "[content %d: %s]\n", i+1, data)
		}
	}
	return b.String()
}
