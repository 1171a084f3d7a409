package traj

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMalformed feeds broken files and checks that the error names the
// file and says what is wrong.
func TestMalformed(t *testing.T) {
	tests := []struct {
		name, file, content, want string
	}{
		{"empty file", "a.json", "  \n", "empty file"},
		{"not JSON", "a.json", "hello", "not JSON"},
		{"truncated", "a.json", `[{"messages": [`, "parse JSON"},
		{"empty array", "a.json", `[]`, "empty array"},
		{"array of numbers", "a.json", `[1, 2]`, "item 0: want a JSON object"},
		{"unknown record", "a.json", `{"foo": 1}`, "record has keys [foo]"},
		{"unknown item", "a.json", `[{"foo": 1}]`, "item 0 has keys [foo]"},
		{"bad record in array", "a.json", `[{"messages":[{"role":"user","content":"x"}]}, {"messages": 3}]`, "record 1: messages: want an array"},
		{"no messages", "a.json", `{"messages": []}`, "no messages"},
		{"first message without role", "a.json", `[{"content": "hi"}]`, "item 0 has keys [content]"},
		{"message without role", "a.json", `[{"role": "user", "content": "hi"}, {"content": "hi"}]`, "message 1: no role"},
		{"unknown role", "a.json", `[{"role": "robot", "content": "hi"}]`, `message 0: openai message with role "robot"`},
		{"bad content", "a.json", `[{"role": "user", "content": 7}]`, "message 0: content: want a string or a list of parts"},
		{
			"orphan tool result", "a.json",
			`[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"c1","content":"out"}]`,
			"message 1: tool result for c1",
		},
		{
			"unanswered call", "a.json",
			`[{"role":"user","content":"hi"},{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{}"}}]},{"role":"user","content":"again"}]`,
			"message 2: tool call c1 of message 1 has no result",
		},
		{
			"call without id", "a.json",
			`[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"ls","arguments":"{}"}}]}]`,
			"tool_calls[0]: want an id and a function name",
		},
		{
			"mixed dialects", "a.json",
			`[{"role":"tool","tool_call_id":"x","content":"a"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"y","content":"b"}]}]`,
			"message 0 has OpenAI shapes and message 1 Anthropic ones",
		},
		{
			"anthropic result for an unknown call", "a.json",
			`[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"ls","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"x"}]}]`,
			"message 2: tool result for t2",
		},
		{
			"anthropic system in the middle", "a.json",
			`[{"role":"user","content":[{"type":"text","text":"hi"}]},{"role":"system","content":"late"},{"role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"s"}]}]`,
			`message 1: anthropic message with role "system"`,
		},
		{
			"swe-agent tool without ids", "a.traj",
			`{"history":[{"role":"system","content":"s"},{"role":"tool","content":"out"}]}`,
			"history[1]: tool message without tool_call_ids",
		},
		{
			"swe-agent bad stringified calls", "a.traj",
			`{"history":[{"role":"user","content":"u"},{"role":"assistant","content":"a","tool_calls":"[{'id': 'c1', 'function': {'name': 'ls'"}]}`,
			"history[1]: tool_calls: stringified list is neither JSON nor a Python literal",
		},
		{"swe-agent empty history", "a.traj", `{"history":[]}`, "history: no messages"},
		{"nebius bad role", "a.json", `[{"trajectory":[{"role":"robot","text":"x"}]}]`, `record 0: trajectory[0]: role "robot"`},
		{"nebius no text", "a.json", `[{"trajectory":[{"role":"user"}]}]`, "record 0: trajectory[0]: no text"},
		{"jsonl bad line", "a.jsonl", "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}\n\n{oops\n", "line 3: want a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tt.file)
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadFile(path)
			if err == nil {
				t.Fatalf("loaded %s", tt.content)
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q: want the file name and %q", err, tt.want)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing path: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("# not data"), 0o644)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "no *.json") {
		t.Errorf("directory without data: %v", err)
	}
	// one bad file fails the directory, naming that file
	os.WriteFile(filepath.Join(dir, "good.json"), []byte(`[{"role":"user","content":"x"}]`), 0o644)
	bad := filepath.Join(dir, "sub", "bad.json")
	os.MkdirAll(filepath.Dir(bad), 0o755)
	os.WriteFile(bad, []byte(`[{"role":"user"`), 0o644)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("bad file in a directory: %v", err)
	}
	// hidden directories are skipped
	os.Rename(filepath.Join(dir, "sub"), filepath.Join(dir, ".sub"))
	ts, err := Load(dir)
	if err != nil || len(ts) != 1 {
		t.Errorf("with the bad file hidden: %d trajectories, %v", len(ts), err)
	}
}
