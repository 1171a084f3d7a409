package chat_test

import (
	"encoding/json"
	"testing"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/anthropic"
)

const body = `{"model":"m","max_tokens":5,"messages":[` +
	`{"role":"user","content":"Read a.go"},` +
	`{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"tool_use","id":"t1","name":"Read","input":{"p":"a.go"}}]},` +
	`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"package a"},{"type":"text","text":"func A() {}"}]}]}]}`

func decode(t *testing.T) *chat.Conversation {
	t.Helper()
	c, err := anthropic.Decode([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Every kind of assignment a pass might make is noticed without the pass
// saying so, at the part, its message and the conversation.
func TestAssignmentsAreChanges(t *testing.T) {
	tests := []struct {
		name string
		edit func(c *chat.Conversation)
		msg  int // the message that must report the change
	}{
		{"text", func(c *chat.Conversation) { c.Messages[0].Parts[0].Text = "x" }, 0},
		{"signature", func(c *chat.Conversation) { c.Messages[1].Parts[0].Signature = "x" }, 1},
		{"id", func(c *chat.Conversation) { c.Messages[1].Parts[1].ID = "x" }, 1},
		{"name", func(c *chat.Conversation) { c.Messages[1].Parts[1].Name = "x" }, 1},
		{"input in place", func(c *chat.Conversation) { c.Messages[1].Parts[1].Input[2] = 'q' }, 1},
		{"input replaced", func(c *chat.Conversation) { c.Messages[1].Parts[1].Input = json.RawMessage(`{}`) }, 1},
		{"is_error", func(c *chat.Conversation) { c.Messages[2].Parts[0].IsError = true }, 2},
		{"nested text", func(c *chat.Conversation) { c.Messages[2].Parts[0].Content[1].Text = "x" }, 2},
		{"nested part dropped", func(c *chat.Conversation) {
			c.Messages[2].Parts[0].Content = c.Messages[2].Parts[0].Content[:1]
		}, 2},
		{"nested parts swapped", func(c *chat.Conversation) {
			p := c.Messages[2].Parts[0].Content
			p[0], p[1] = p[1], p[0]
		}, 2},
		{"type", func(c *chat.Conversation) { c.Messages[1].Parts[0].Type = chat.Text }, 1},
		{"part dropped", func(c *chat.Conversation) { c.Messages[1].Parts = c.Messages[1].Parts[1:] }, 1},
		{"part added", func(c *chat.Conversation) {
			c.Messages[0].Parts = append(c.Messages[0].Parts, chat.NewText("y"))
		}, 0},
		{"role", func(c *chat.Conversation) { c.Messages[0].Role = chat.RoleAssistant }, 0},
		{"message dropped", func(c *chat.Conversation) { c.Messages = c.Messages[:2] }, -1},
		{"field value", func(c *chat.Conversation) { c.Fields[1].Value[0] = '6' }, -1},
		{"field added", func(c *chat.Conversation) { c.SetField("stream", json.RawMessage(`true`)) }, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig := decode(t)
			c := orig.Clone()
			tt.edit(c)
			if c.Unchanged() {
				t.Error("conversation still reports unchanged")
			}
			if c.Original() != nil {
				t.Error("Original() of a changed conversation is not nil")
			}
			if _, ok := c.Source(); !ok {
				t.Error("a changed conversation lost its Source")
			}
			for i := range c.Messages {
				changed := !c.Messages[i].Unchanged()
				if changed != (i == tt.msg) {
					t.Errorf("message %d: changed = %v, want %v", i, changed, i == tt.msg)
				}
			}
			if !orig.Unchanged() {
				t.Error("editing a clone changed the original")
			}
		})
	}
}

func TestUndoneChangeIsNoChange(t *testing.T) {
	c := decode(t).Clone()
	p := &c.Messages[2].Parts[0]
	saved := p.Content
	if err := p.ReplaceContent("[elided]"); err != nil {
		t.Fatal(err)
	}
	if c.Unchanged() {
		t.Fatal("ReplaceContent went unnoticed")
	}
	p.Content = saved
	if !c.Unchanged() {
		t.Error("restoring the content did not restore Unchanged")
	}
}

func TestIdenticalAcrossDecodes(t *testing.T) {
	a, b := decode(t), decode(t)
	for i := range a.Messages {
		if !a.Messages[i].Identical(&b.Messages[i]) {
			t.Errorf("message %d of two decodes of one body is not Identical", i)
		}
		if a.Messages[i].SameOrigin(&b.Messages[i]) {
			t.Errorf("message %d of two separate decodes reports SameOrigin", i)
		}
	}
	c := a.Clone()
	if !c.Messages[1].SameOrigin(&a.Messages[1]) {
		t.Error("a clone's message does not share its origin")
	}
	c.Messages[1].Parts[0].Text = "changed"
	if c.Messages[1].Identical(&a.Messages[1]) {
		t.Error("a changed message is Identical to its original")
	}
	if c.Messages[1].Parts[1].Identical(&a.Messages[1].Parts[0]) {
		t.Error("different parts are Identical")
	}
	if !c.Messages[1].Parts[1].Identical(&a.Messages[1].Parts[1]) {
		t.Error("an untouched part is not Identical to its original")
	}
}

func TestHelpers(t *testing.T) {
	c := decode(t)
	r := &c.Messages[2].Parts[0]
	if got, want := r.PlainText(), "package a\nfunc A() {}"; got != want {
		t.Errorf("PlainText = %q, want %q", got, want)
	}
	if got, want := r.TextLen(), len(r.PlainText()); got != want {
		t.Errorf("TextLen = %d, want %d", got, want)
	}
	if got, want := c.TextLen(), len("Read a.go")+len("t")+len(`{"p":"a.go"}`)+len("package a\nfunc A() {}"); got != want {
		t.Errorf("Conversation.TextLen = %d, want %d", got, want)
	}
	if err := c.Messages[1].Parts[0].ReplaceContent("x"); err == nil {
		t.Error("ReplaceContent on a thinking part succeeded")
	}
	if v, ok := c.Field("max_tokens"); !ok || string(v) != "5" {
		t.Errorf(`Field("max_tokens") = %s, %v`, v, ok)
	}
	if !c.Messages[1].Has(chat.Thinking) || c.Messages[0].Has(chat.Thinking) {
		t.Error("Has(Thinking) is wrong")
	}
	if got := c.Messages[1].Parts[1].WireType(); got != "tool_use" {
		t.Errorf("WireType = %q, want tool_use", got)
	}
	if got := chat.NewText("x"); got.WireType() != "" || got.Unchanged() || got.Original() != nil {
		t.Error("a new part claims an origin")
	}
}

// A layout recorded at decoding is kept by changes and clones, like the
// source bytes, and is gone with them when a part becomes another type.
func TestLayout(t *testing.T) {
	var p chat.Part
	p.Type = chat.Text
	p.MarkDecodedLayout([]byte(`{"type":"text","text":"a"}`), "text", "layout")
	var m chat.Message
	m.Parts = []chat.Part{p}
	m.MarkDecodedLayout([]byte(`{"role":"user","content":[{"type":"text","text":"a"}]}`), "message layout")
	m.Parts[0].Text = "changed"
	if got := m.Parts[0].Layout(); got != "layout" {
		t.Errorf("changed part: Layout() = %v", got)
	}
	c := chat.Conversation{Messages: []chat.Message{m}}
	if got := c.Clone().Messages[0].Layout(); got != "message layout" {
		t.Errorf("cloned message: Layout() = %v", got)
	}
	m.Parts[0].Type = chat.Thinking
	if got := m.Parts[0].Layout(); got != nil {
		t.Errorf("part of another type: Layout() = %v, want nil", got)
	}
	if got := (&chat.Part{Type: chat.Text}).Layout(); got != nil {
		t.Errorf("new part: Layout() = %v, want nil", got)
	}
	if got := (&chat.Message{}).Layout(); got != nil {
		t.Errorf("new message: Layout() = %v, want nil", got)
	}
}
