package pipeline

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// carrierSchema is the output schema server-filesystem gives its text
// tools, as zod writes it.
const carrierSchema = `{"type":"object","properties":{"content":{"type":"string"}},"required":["content"],"additionalProperties":false,"$schema":"http://json-schema.org/draft-07/schema#"}`

// fsResult is a result as server-filesystem returns it: the text, and the
// same text as structuredContent.content (decoded, as the SDK's client
// gives it).
func fsResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: map[string]any{"content": text},
	}
}

// sourceFile returns a Go-like source text of about size bytes.
func sourceFile(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "func handler%03d(w http.ResponseWriter, r *http.Request) { serve(w, r, %d) }\n", i, i)
	}
	return b.String()
}

// dirTree returns a directory_tree listing (2-space indented JSON) of
// about size bytes, with a marker in every file name.
func dirTree(size int) string {
	type node struct {
		Name     string  `json:"name"`
		Type     string  `json:"type"`
		Children []*node `json:"children,omitempty"`
	}
	var root []*node
	n := 0
	for d := 0; ; d++ {
		dir := &node{Name: fmt.Sprintf("pkg%02d", d), Type: "directory", Children: []*node{}}
		for f := 0; f < 12; f++ {
			dir.Children = append(dir.Children, &node{Name: fmt.Sprintf("file-m%04d.go", n), Type: "file"})
			n++
		}
		root = append(root, dir)
		b, _ := json.MarshalIndent(root, "", "  ")
		if len(b) >= size {
			return string(b)
		}
	}
}

// modelReads is what Claude Code and Codex give the model: the structured
// content as JSON when there is some.
func modelReads(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	v := modelView(res)
	if len(v) != 1 {
		t.Fatalf("model view %q: want one text", v)
	}
	return v[0]
}

// validates checks sc against the JSON schema text.
func validates(t testing.TB, schema string, sc any) {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(schema), &s); err != nil {
		t.Fatal(err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(sc)
	var v any
	json.Unmarshal(data, &v)
	if err := r.Validate(v); err != nil {
		t.Errorf("structured content does not validate against the re-exported schema: %v\n%s", err, data)
	}
}

func TestOutputSchemaDecision(t *testing.T) {
	tests := []struct {
		name   string
		schema any
		keep   bool
		mode   outputMode
	}{
		{"none", nil, false, modeWhole},
		{"text carrier", json.RawMessage(carrierSchema), true, modeCarrier},
		{"numbers", json.RawMessage(`{"type":"object","properties":{"temperature":{"type":"number"},"conditions":{"type":"string"}}}`), false, modeWhole},
		{"constrained string", json.RawMessage(`{"type":"object","properties":{"content":{"type":"string","maxLength":10}}}`), false, modeWhole},
		{"array of media", json.RawMessage(`{"type":"object","properties":{"content":{"type":"array"}}}`), false, modeWhole},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Default(Options{})
			got := p.OutputSchema("fs__tool", tt.schema)
			if (got != nil) != tt.keep {
				t.Errorf("kept %v, want %v", got != nil, tt.keep)
			}
			if m := p.modes.get("fs__tool"); m != tt.mode {
				t.Errorf("mode %d, want %d", m, tt.mode)
			}
		})
	}
}

// TestStructuredCarrier: a server-filesystem read repeated, and a large
// directory_tree listing: the savings are in structuredContent, content
// says the same, the schema still validates, and winnow__more recovers
// every item of the listing.
func TestStructuredCarrier(t *testing.T) {
	p := Default(Options{})
	for _, tool := range []string{"fs__read_text_file", "fs__directory_tree"} {
		if got := p.OutputSchema(tool, json.RawMessage(carrierSchema)); got == nil {
			t.Fatalf("%s: the text-carrier schema was dropped", tool)
		}
	}
	read := &Call{Session: "s", Tool: "fs__read_text_file", Args: json.RawMessage(`{"path":"/repo/server.go"}`)}
	file := sourceFile(8 << 10)
	first := p.After(t.Context(), read, fsResult(file))
	if got := modelReads(t, first); !strings.Contains(got, "handler042") {
		t.Fatalf("first read changed: %.200s", got)
	}
	again := p.After(t.Context(), read, fsResult(file))
	sc, ok := again.StructuredContent.(map[string]any)
	if !ok {
		t.Fatalf("structured content %T", again.StructuredContent)
	}
	ref, _ := sc["content"].(string)
	if !strings.HasPrefix(ref, "[same result as fs__read_text_file") {
		t.Errorf("repeat: structuredContent.content = %q, want a reference", ref)
	}
	if got := onlyText(t, again); got != ref {
		t.Errorf("content %q differs from structuredContent %q", got, ref)
	}
	t.Logf("repeated %d-byte read: the model reads %d bytes: %s", len(file), len(modelReads(t, again)), modelReads(t, again))
	if n := len(modelReads(t, again)); n > 300 {
		t.Errorf("the model reads %d bytes for the repeat, want at most 300", n)
	}
	validates(t, carrierSchema, again.StructuredContent)

	tree := dirTree(78 << 10)
	list := &Call{Session: "s", Tool: "fs__directory_tree", Args: json.RawMessage(`{"path":"/repo"}`)}
	direct := modelReads(t, fsResult(tree))
	res := p.After(t.Context(), list, fsResult(tree))
	got := modelReads(t, res)
	t.Logf("%d-byte listing: the model reads %d bytes of %d direct (%.1f%%)", len(tree), len(got), len(direct), 100*float64(len(got))/float64(len(direct)))
	if len(got)*4 > len(direct) {
		t.Errorf("the model reads %d bytes of the listing, over 25%% of the %d it reads directly", len(got), len(direct))
	}
	validates(t, carrierSchema, res.StructuredContent)
	shaped := res.StructuredContent.(map[string]any)["content"].(string)
	if onlyText(t, res) != shaped {
		t.Error("content and structuredContent differ")
	}
	_, hint := splitHint(shaped)
	m := nextCall.FindStringSubmatch(hint)
	if m == nil {
		t.Fatalf("no winnow__more hint in structuredContent: %q", hint)
	}
	all := shaped
	args := json.RawMessage(m[1])
	for page := 1; ; page++ {
		r := p.More("s", args)
		if r.IsError {
			t.Fatalf("page %d: %s", page, onlyText(t, r))
		}
		text := onlyText(t, r)
		if n := p.opts.Counter.Count(text); n > p.opts.CallBudget {
			t.Errorf("page %d counts %d tokens, over the budget of %d", page, n, p.opts.CallBudget)
		}
		all += text
		_, hint := splitHint(text)
		m := nextCall.FindStringSubmatch(hint)
		if m == nil {
			break
		}
		args = json.RawMessage(m[1])
	}
	for i := 0; strings.Contains(tree, fmt.Sprintf("file-m%04d", i)); i++ {
		if n := strings.Count(all, fmt.Sprintf("file-m%04d.go", i)); n != 1 {
			t.Errorf("file-m%04d arrived %d times, want once", i, n)
		}
	}
}

// TestStructuredWhole: a tool without an output schema whose text is the
// serialized JSON of its structuredContent (the spec's SHOULD): a repeat
// is {"winnow": reference}; a large list keeps its wrapper and kept
// items, gains the hint as "winnow", and its pages hold the rest exactly.
func TestStructuredWhole(t *testing.T) {
	p := Default(Options{CallBudget: 800})
	p.OutputSchema("gh__list_issues", nil)
	wrapper := map[string]any{"total_count": 60, "items": issues(60)}
	text := mustJSON(t, wrapper, true)
	raw := json.RawMessage(mustJSON(t, wrapper, false))
	result := func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: raw}
	}
	c := &Call{Session: "s", Tool: "gh__list_issues", Args: json.RawMessage(`{"q":"upload timeout"}`)}
	res := p.After(t.Context(), c, result())
	sc, ok := res.StructuredContent.(json.RawMessage)
	if !ok {
		t.Fatalf("structured content not shaped: %T", res.StructuredContent)
	}
	var got struct {
		Total  int               `json:"total_count"`
		Items  []json.RawMessage `json:"items"`
		Winnow string            `json:"winnow"`
	}
	if err := json.Unmarshal(sc, &got); err != nil {
		t.Fatalf("shaped structured content is not JSON: %v", err)
	}
	if got.Total != 60 || len(got.Items) == 0 || len(got.Items) == 60 {
		t.Errorf("total %d, %d items kept: want the wrapper and some items", got.Total, len(got.Items))
	}
	if onlyText(t, res) != string(sc) {
		t.Errorf("content is not the serialization of the shaped structured content")
	}
	m := nextCall.FindStringSubmatch(got.Winnow)
	if m == nil {
		t.Fatalf("winnow member %q: want the hint", got.Winnow)
	}
	var want []string
	_, want = splitWrapper(t, string(raw))
	var items []string
	for _, it := range got.Items {
		items = append(items, string(it))
	}
	args := json.RawMessage(m[1])
	for {
		body, hint := splitHint(onlyText(t, p.More("s", args)))
		_, its := splitWrapper(t, body)
		items = append(items, its...)
		m := nextCall.FindStringSubmatch(hint)
		if m == nil {
			break
		}
		args = json.RawMessage(m[1])
	}
	slices.Sort(items)
	slices.Sort(want)
	if diff := cmp.Diff(want, items); diff != "" {
		t.Errorf("items recovered (-want +got):\n%s", diff)
	}

	small := json.RawMessage(`{"number":12,"title":"` + strings.Repeat("a long title ", 30) + `"}`)
	one := &Call{Session: "s", Tool: "gh__list_issues", Args: json.RawMessage(`{"n":12}`)}
	p.After(t.Context(), one, &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(small)}}, StructuredContent: small})
	rep := p.After(t.Context(), one, &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(small)}}, StructuredContent: small})
	var note map[string]string
	if err := json.Unmarshal(rep.StructuredContent.(json.RawMessage), &note); err != nil || !strings.HasPrefix(note["winnow"], "[same result as gh__list_issues") || len(note) != 1 {
		t.Errorf("repeat: structured content %s, want {\"winnow\": reference}", rep.StructuredContent)
	}
}

// TestStructuredUnchanged: small and error results keep their structured
// content as it was, and the upstream's result is never modified.
func TestStructuredUnchanged(t *testing.T) {
	p := Default(Options{})
	p.OutputSchema("fs__read_text_file", json.RawMessage(carrierSchema))
	c := &Call{Session: "s", Tool: "fs__read_text_file", Args: json.RawMessage(`{"path":"a"}`)}
	up := fsResult("short")
	if got := p.After(t.Context(), c, up); got != up {
		t.Error("a short result was copied or changed")
	}
	file := sourceFile(2 << 10)
	p.After(t.Context(), c, fsResult(file))
	up = fsResult(file)
	p.After(t.Context(), c, up)
	if up.StructuredContent.(map[string]any)["content"] != file {
		t.Error("the upstream's structured content was modified")
	}
}
