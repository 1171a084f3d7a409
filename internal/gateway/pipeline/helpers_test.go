package pipeline

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// issues returns n GitHub-like issues; each has a unique marker in its
// title ("issue-m0042") so that tests can find it in any encoding.
func issues(n int) []map[string]any {
	out := make([]map[string]any, n)
	for i := range out {
		topic := "crash when parsing a header line"
		if i%7 == 3 {
			topic = "timeout in the upload retry loop"
		}
		out[i] = map[string]any{
			"number":     1000 + i,
			"title":      fmt.Sprintf("issue-m%04d: %s", i, topic),
			"state":      []string{"open", "closed"}[i%2],
			"user":       map[string]any{"login": fmt.Sprintf("user%d", i%5), "id": 5000 + i%5},
			"labels":     []map[string]any{{"name": "bug", "color": "d73a4a"}},
			"comments":   i % 9,
			"created_at": fmt.Sprintf("2025-03-%02dT09:%02d:00Z", 1+i%28, i%60),
			"html_url":   fmt.Sprintf("https://github.com/acme/widget/issues/%d", 1000+i),
			"body":       strings.Repeat("Steps to reproduce are in the attached log. ", 1+i%3),
		}
	}
	return out
}

func marker(i int) string { return fmt.Sprintf("issue-m%04d", i) }

func mustJSON(t testing.TB, v any, indent bool) string {
	t.Helper()
	var b []byte
	var err error
	if indent {
		b, err = json.MarshalIndent(v, "", "  ")
	} else {
		b, err = json.Marshal(v)
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func onlyText(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	if res == nil || len(res.Content) != 1 {
		t.Fatalf("result %+v: want one content", res)
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, want text", res.Content[0])
	}
	return tc.Text
}

// splitHint separates a text from its last line.
func splitHint(s string) (body, hint string) {
	s = strings.TrimSuffix(s, "\n")
	i := strings.LastIndexByte(s, '\n')
	if i < 0 {
		return "", s
	}
	return s[:i+1], s[i+1:]
}
