package compact

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// codexSession is a request body of a Codex session on the Responses API after steps tool
// calls: developer and user messages, then for each step a reasoning item with encrypted
// content, an exec_command function_call and its output (a large file), as Codex 0.169
// sends them (see ../chat/testdata/responses_codex_*.json).
func codexSession(steps int) string {
	items := []string{
		`{"type":"message","role":"developer","content":[{"type":"input_text","text":"You are Codex, a coding agent."}]}`,
		`{"type":"message","role":"user","content":[{"type":"input_text","text":"Fix the failing test in parser.py."}]}`,
	}
	for i := range steps {
		file := strings.Repeat(fmt.Sprintf("def f%d(x):\n    return x + %d  # parser step\n", i, i), 150)
		out, _ := json.Marshal("Chunk ID: 1\nProcess exited with code 0\nOutput:\n" + file)
		args, _ := json.Marshal(fmt.Sprintf(`{"cmd":"cat src/mod%d/parser.py","workdir":"/repo"}`, i))
		items = append(items,
			fmt.Sprintf(`{"type":"reasoning","id":"rs_%d","summary":[],"content":null,"encrypted_content":"gAAAAB%s"}`, i, strings.Repeat("x", 200)),
			fmt.Sprintf(`{"type":"function_call","id":"fc_%d","name":"exec_command","arguments":%s,"call_id":"call_%d"}`, i, args, i),
			fmt.Sprintf(`{"type":"function_call_output","id":"fco_%d","call_id":"call_%d","output":%s}`, i, i, out))
	}
	return `{"model":"gpt-5.5","stream":true,"input":[` + strings.Join(items, ",") +
		`],"tools":[{"type":"function","name":"exec_command","parameters":{"type":"object"}}],"tool_choice":"auto","parallel_tool_calls":true,"reasoning":{"effort":"medium"},"store":false,"include":["reasoning.encrypted_content"],"prompt_cache_key":"t1"}`
}

// inputOf returns the input items of a Responses body.
func inputOf(t *testing.T, body []byte) []string {
	t.Helper()
	var req struct{ Input []json.RawMessage }
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(req.Input))
	for i, m := range req.Input {
		out[i] = string(m)
	}
	return out
}

// A Codex session is compacted in sticky batches: old outputs become placeholders that name
// the command, reasoning items and calls go as they came, every request is valid, and each
// extends the one before it except at a batch.
func TestCompactResponses(t *testing.T) {
	c := New(Options{})
	var prev []string
	var prevBatches, changed int
	for steps := 1; steps <= 20; steps++ {
		body := codexSession(steps)
		got, sum, err := c.Rewrite("responses", []byte(body))
		if err != nil || len(sum.Violations) > 0 {
			t.Fatalf("%d steps: %v %v", steps, err, sum.Violations)
		}
		in, out := inputOf(t, []byte(body)), inputOf(t, got)
		if len(in) != len(out) {
			t.Fatalf("%d steps: %d items in, %d out", steps, len(in), len(out))
		}
		for i := range in {
			if in[i] == out[i] {
				continue
			}
			if !strings.Contains(in[i], `"function_call_output"`) || !strings.Contains(out[i], "[winnow: output of exec_command") || !strings.Contains(out[i], "parser.py") {
				t.Errorf("%d steps: item %d changed:\n%s", steps, i, out[i])
			}
		}
		if sum.Changed {
			changed++
			if sum.TokensAfter >= sum.TokensBefore {
				t.Errorf("%d steps: changed, but %d → %d tokens", steps, sum.TokensBefore, sum.TokensAfter)
			}
		}
		if prev != nil && len(sum.Batches) == prevBatches {
			if diff := cmp.Diff(prev, out[:len(prev)]); diff != "" {
				t.Errorf("%d steps: does not extend the previous request, and no batch fired: (-prev +got):\n%s", steps, diff)
			}
		}
		prev, prevBatches = out, len(sum.Batches)
	}
	if changed == 0 || prevBatches == 0 {
		t.Errorf("no request of 20 steps was compacted (%d batches)", prevBatches)
	}
}

// The bodies Codex really sent go through: unchanged (too short to compact) and valid.
func TestCompactResponsesRecorded(t *testing.T) {
	for name, body := range fixtures(t, "responses") {
		got, sum, err := New(Options{}).Rewrite("responses", body)
		if err != nil || len(sum.Violations) > 0 {
			t.Errorf("%s: %v %v", name, err, sum.Violations)
		}
		if string(got) != string(body) {
			t.Errorf("%s: changed", name)
		}
	}
}
