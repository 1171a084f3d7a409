package compact

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winnowhq/winnow/internal/chat"
)

// testOptions make every batch fire as soon as one output goes stale, so
// that a short hand-made conversation exercises the passes.
var testOptions = Options{
	Keep: 1, Trigger: 1, MinBatch: 1, Payback: -1,
	ClearMin: 10, SnipMin: 40, SnipHead: 2, SnipTail: 2, DedupMin: 10, ArgsMin: 100,
	HardLimit: -1,
}

// lines returns n numbered lines of the form "<prefix> i".
func lines(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s %d", prefix, i)
	}
	return b.String()
}

func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// openAIAgent is a hand-made agent run in the OpenAI dialect: it reads a
// file, runs the tests, reads the file again (the same output), writes the
// file twice (the second write supersedes the first) and runs the tests.
func openAIAgent() (body, content1 string) {
	file := lines("line", 30)
	tests := lines("test", 24) + "\nFAILED test_a.py::test_x - AssertionError"
	content1 = strings.Repeat("x = 1\n", 30)
	content2 := strings.Repeat("y = 2\n", 30)
	call := func(id, name, args string) string {
		return `{"role":"assistant","content":null,"tool_calls":[{"id":"` + id + `","type":"function","function":{"name":"` + name + `","arguments":` + js(args) + `}}]}`
	}
	result := func(id, text string) string {
		return `{"role":"tool","tool_call_id":"` + id + `","content":` + js(text) + `}`
	}
	wrote := "Wrote a.py:\n" + lines("written line", 20)
	msgs := []string{
		`{"role":"system","content":"You are a coding agent."}`,
		`{"role":"user","content":"Fix the bug in a.py."}`,
		call("c1", "read_file", `{"path":"a.py"}`),
		result("c1", file),
		call("c2", "bash", `{"command":"pytest"}`),
		result("c2", tests),
		call("c3", "read_file", `{"path":"a.py"}`),
		result("c3", file),
		`{"role":"assistant","content":"Let me fix it.\n\n---\n\n` + "```python\\nx = 1\\n\\n```" + `\n","tool_calls":[{"id":"c4","type":"function","function":{"name":"write_file","arguments":` + js(`{"path":"a.py","content":`+js(content1)+`}`) + `}}]}`,
		result("c4", "Wrote a.py."),
		call("c5", "write_file", `{"path":"a.py","content":`+js(content2)+`}`),
		result("c5", wrote),
		call("c6", "bash", `{"command":"pytest"}`),
		result("c6", "1 passed"),
	}
	return `{"model":"gpt-4o","messages":[` + strings.Join(msgs, ",") + `]}`, content1
}

// messagesOf returns the messages of a body as compact JSON strings.
func messagesOf(t *testing.T, body []byte) []string {
	t.Helper()
	var req struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(req.Messages))
	for i, m := range req.Messages {
		out[i] = string(m)
	}
	return out
}

// runPass compacts body with only the named pass (and the mandatory
// ones) and returns the messages out and the pass's report.
func runPass(t *testing.T, d chat.Dialect, body string, opts Options, pass string) ([]string, Report) {
	t.Helper()
	c := New(opts)
	if pass != "" {
		c = c.Only(pass)
	}
	out, sum, err := c.Rewrite(string(d), []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Violations) > 0 {
		t.Fatalf("violations: %v", sum.Violations)
	}
	var rep Report
	for _, r := range sum.Reports {
		if r.Pass == pass {
			rep = r
		}
	}
	return messagesOf(t, out), rep
}

// changedMessages returns the messages of out that differ from in, by
// index, for inputs of the same length.
func changedMessages(t *testing.T, in, out []string) map[int]string {
	t.Helper()
	if len(in) != len(out) {
		t.Fatalf("%d messages in, %d out", len(in), len(out))
	}
	diff := map[int]string{}
	for i := range in {
		if in[i] != out[i] {
			diff[i] = out[i]
		}
	}
	return diff
}

func TestPassesOpenAI(t *testing.T) {
	body, content1 := openAIAgent()
	in := messagesOf(t, []byte(body))
	cases := []struct {
		pass string
		want map[int]string
	}{
		{passDedup, map[int]string{
			7: `{"role":"tool","tool_call_id":"c3","content":"[winnow: output of read_file {\"path\":\"a.py\"} is the same as that of the earlier read_file {\"path\":\"a.py\"} (above, call c1); see that result]"}`,
		}},
		{passSnip, map[int]string{
			3: `{"role":"tool","tool_call_id":"c1","content":` + js("line 1\nline 2\n[winnow: 26 lines (201 bytes) of the output of read_file {\"path\":\"a.py\"} elided here; call it again to see them]\nline 29\nline 30") + `}`,
			5: `{"role":"tool","tool_call_id":"c2","content":` + js("test 1\ntest 2\n[winnow: 21 lines (161 bytes) of the output of bash {\"command\":\"pytest\"} elided here; call it again to see them]\ntest 24\nFAILED test_a.py::test_x - AssertionError") + `}`,
			7: `{"role":"tool","tool_call_id":"c3","content":` + js("line 1\nline 2\n[winnow: 26 lines (201 bytes) of the output of read_file {\"path\":\"a.py\"} elided here; call it again to see them]\nline 29\nline 30") + `}`,
		}},
		{passClear, map[int]string{
			3:  `{"role":"tool","tool_call_id":"c1","content":"[winnow: output of read_file {\"path\":\"a.py\"} cleared (30 lines); call it again if needed]"}`,
			5:  `{"role":"tool","tool_call_id":"c2","content":"[winnow: output of bash {\"command\":\"pytest\"} cleared (25 lines); call it again if needed]"}`,
			7:  `{"role":"tool","tool_call_id":"c3","content":"[winnow: output of read_file {\"path\":\"a.py\"} cleared (30 lines); call it again if needed]"}`,
			11: `{"role":"tool","tool_call_id":"c5","content":"[winnow: output of write_file {\"path\":\"a.py\",\"content\":\"y = 2\\ny = 2\\ny = 2\\ny = 2\\n…y = 2\\ny = 2\\ny = 2\\ny = 2\\n\"} cleared (21 lines); call it again if needed]"}`,
		}},
		{passArgs, map[int]string{
			8: `{"role":"assistant","content":"Let me fix it.\n\n---\n\n` + "```python\\nx = 1\\n\\n```" + `\n","tool_calls":[{"id":"c4","type":"function","function":{"name":"write_file","arguments":` +
				js(`{"path":"a.py","content":"[winnow: 180 bytes elided; superseded by a later write_file call with the same other arguments]"}`) + `}}]}`,
		}},
		{passLexical, map[int]string{
			8: `{"role":"assistant","content":"Let me fix it.\n` + "```python\\nx = 1\\n\\n```" + `","tool_calls":[{"id":"c4","type":"function","function":{"name":"write_file","arguments":` + js(`{"path":"a.py","content":`+js(content1)+`}`) + `}}]}`,
		}},
		{passThinking, map[int]string{}},
		{passTrim, map[int]string{}},
		{passRepair, map[int]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.pass, func(t *testing.T) {
			out, rep := runPass(t, chat.OpenAI, body, testOptions, tc.pass)
			got := changedMessages(t, in, out)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if rep.Changed != len(tc.want) && tc.pass != passArgs {
				t.Errorf("report %+v: %d changes, want %d", rep, rep.Changed, len(tc.want))
			}
			if len(tc.want) > 0 && (rep.TokensAfter >= rep.TokensBefore || len(rep.Notes) == 0) {
				t.Errorf("report %+v: want fewer tokens after, and notes", rep)
			}
		})
	}
}

func TestExcludeTools(t *testing.T) {
	body, _ := openAIAgent()
	in := messagesOf(t, []byte(body))
	opts := testOptions
	opts.ExcludeTools = []string{"read_file"}
	out, _ := runPass(t, chat.OpenAI, body, opts, "")
	got := changedMessages(t, in, out)
	for _, i := range []int{3, 7} { // read_file's outputs, stale, large, and the second a copy
		if _, ok := got[i]; ok {
			t.Errorf("message %d, an output of an excluded tool, changed: %s", i, got[i])
		}
	}
	for _, i := range []int{5, 11} {
		if !strings.Contains(got[i], "[winnow: output of") {
			t.Errorf("message %d was not compacted: %s", i, out[i])
		}
	}
}
