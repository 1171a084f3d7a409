package anthropic

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/chat"
)

func TestInvalidUTF8(t *testing.T) {
	body := []byte("{\"messages\":[{\"role\":\"user\",\"content\":\"caf\xe9 \xff\xfe\"},{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"ok \xc3\"}]}]}")
	c, err := Decode(body)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if got, _ := Encode(c); !bytes.Equal(got, body) {
		t.Errorf("unchanged body with invalid UTF-8 did not round-trip:\n got %q\nwant %q", got, body)
	}
	if got, want := c.Messages[0].Parts[0].Text, "caf\uFFFD \uFFFD\uFFFD"; got != want {
		t.Errorf("decoded text = %q, want %q (invalid bytes become U+FFFD, as in encoding/json)", got, want)
	}
	c.Messages[1].Parts[0].Text += "!"
	out, err := Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(out) || !bytes.Contains(out, []byte("caf\xe9 \xff\xfe")) {
		t.Errorf("editing one message disturbed another: %q", out)
	}
}

func TestHugeBody(t *testing.T) {
	big := strings.Repeat("0123456789abcdef\n", 1<<19) // 8.5 MB of tool output
	body, _ := json.Marshal(map[string]any{
		"model": "m",
		"messages": []any{
			map[string]any{"role": "user", "content": "go"},
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "t", "name": "cat", "input": map[string]any{}}}},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "t", "content": big}}},
		},
	})
	c, err := Decode(body)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Messages[2].Parts[0].TextLen(); got != len(big) {
		t.Fatalf("tool result holds %d bytes, want %d", got, len(big))
	}
	if err := c.Messages[2].Parts[0].ReplaceContent("[8 MB elided]"); err != nil {
		t.Fatal(err)
	}
	out, err := Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) > 300 {
		t.Errorf("compacted body is %d bytes", len(out))
	}
}

func TestDeepNesting(t *testing.T) {
	// Tool results nested in tool results, which the API does not allow:
	// below the first level they are opaque, and the body round-trips.
	var b strings.Builder
	b.WriteString(`{"messages":[{"role":"user","content":`)
	const depth = 3000
	for range depth {
		b.WriteString(`[{"type":"tool_result","tool_use_id":"x","content":`)
	}
	b.WriteString(`"leaf"`)
	for range depth {
		b.WriteString(`}]`)
	}
	b.WriteString(`}]}`)
	body := []byte(b.String())
	c, err := Decode(body)
	if err != nil {
		t.Fatal(err)
	}
	outer := &c.Messages[0].Parts[0]
	if outer.Type != chat.ToolResult || len(outer.Content) != 1 || outer.Content[0].Type != chat.Unknown {
		t.Fatalf("outer tool result = %s with %d parts; want a tool result holding one unknown block", outer.Type, len(outer.Content))
	}
	outer.IsError = true
	out, err := Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	cut := len(body) - len(`}]}]}`) // the outer result's closing brace
	want := append(append(bytes.Clone(body[:cut]), `,"is_error":true`...), body[cut:]...)
	if !bytes.Equal(out, want) {
		t.Errorf("setting is_error on the outer result changed more than that")
	}
	if _, err := Decode([]byte(strings.Repeat("[", 20000) + strings.Repeat("]", 20000))); err == nil {
		t.Error("a body nested past encoding/json's limit decoded")
	}
}
