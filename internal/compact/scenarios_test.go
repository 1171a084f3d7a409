package compact

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winnowhq/winnow/internal/chat"
)

// textFormAgent is a SWE-smith-style run: commands in <function=…> blocks
// at the end of the assistant's text, outputs as user messages, and one
// message in the middle that a person wrote (it follows an assistant
// message that ends in prose).
func textFormAgent() string {
	fn := func(cmd string) string {
		return js("Let me look.\n\n<function=bash>\n<parameter=command>" + cmd + "</parameter>\n</function>")
	}
	msgs := []string{
		`{"role":"user","content":"Fix the failing test in /testbed."}`,
		`{"role":"assistant","content":` + fn("ls /testbed") + `}`,
		`{"role":"user","content":` + js("OBSERVATION:\n"+lines("/testbed/src/file", 40)) + `}`,
		`{"role":"assistant","content":"I found the files. Should I also update the docs?"}`,
		`{"role":"user","content":` + js("Yes, please update docs/index.md too.\n"+lines("requirement", 30)) + `}`,
		`{"role":"assistant","content":` + fn("cat /testbed/src/file1.py") + `}`,
		`{"role":"user","content":` + js("OBSERVATION:\n"+lines("code line", 40)) + `}`,
		`{"role":"assistant","content":` + fn("pytest") + `}`,
		`{"role":"user","content":` + js("OBSERVATION:\n"+lines("test output", 40)) + `}`,
	}
	return `{"model":"claude-sonnet-4-5","max_tokens":1024,"system":"You are an agent.","messages":[` + strings.Join(msgs, ",") + `]}`
}

func TestTextFormClear(t *testing.T) {
	body := textFormAgent()
	in := messagesOf(t, []byte(body))
	out, rep := runPass(t, chat.Anthropic, body, testOptions, passClear)
	want := map[int]string{
		2: `{"role":"user","content":"[winnow: output of ` + "`bash command=ls /testbed`" + ` cleared (41 lines); run it again if needed]"}`,
		6: `{"role":"user","content":"[winnow: output of ` + "`bash command=cat /testbed/src/file1.py`" + ` cleared (41 lines); run it again if needed]"}`,
	}
	if diff := cmp.Diff(want, changedMessages(t, in, out)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if rep.Changed != 2 {
		t.Errorf("report %+v", rep)
	}
	// The person's message (4) is long and stale, and stays; so does the
	// last output (8).
	out, _ = runPass(t, chat.Anthropic, body, Options{NoTextForm: true, Keep: 1, Trigger: 1, MinBatch: 1, Payback: -1}, passClear)
	if diff := cmp.Diff(in, out); diff != "" {
		t.Errorf("NoTextForm: (-in +out):\n%s", diff)
	}
}

// thinkingAgent is an Anthropic run with thinking on every assistant
// message: a tool loop, a finished turn, a person's follow-up, and a second
// tool loop that is still active (the request ends with tool results). The
// model binds thinking to its prefix (Family Preserved).
func thinkingAgent(n int) string {
	return thinkingAgentOf("claude-opus-5-5", n)
}

// thinkingAgentOf is thinkingAgent with another model.
func thinkingAgentOf(model string, n int) string {
	think := func(i int) string {
		return `{"type":"thinking","thinking":"step ` + itoa(i) + `","signature":"sig` + itoa(i) + `"}`
	}
	use := func(i int, cmd string) string {
		return `{"role":"assistant","content":[` + think(i) + `,{"type":"tool_use","id":"t` + itoa(i) + `","name":"bash","input":{"command":"` + cmd + `"}}]}`
	}
	result := func(i int, text string) string {
		return `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t` + itoa(i) + `","content":` + js(text) + `}]}`
	}
	msgs := []string{
		`{"role":"user","content":"Fix a.py."}`,
		use(1, "cat a.py"),
		result(1, lines("a.py line", 60)),
		use(3, "pytest"),
		result(3, lines("pytest line", 60)),
		`{"role":"assistant","content":[` + think(5) + `,{"type":"text","text":"Fixed."}]}`,
		`{"role":"user","content":"Thanks. Now b.py."}`,
		use(7, "cat b.py"),
		result(7, lines("b.py line", 60)),
		use(9, "pytest b"),
		result(9, lines("pytest b line", 60)),
	}
	return `{"model":"` + model + `","max_tokens":2048,"thinking":{"type":"adaptive"},"messages":[` + strings.Join(msgs[:n], ",") + `]}`
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestThinkingDroppedOnlyWhereAllowed(t *testing.T) {
	body := thinkingAgent(11)
	in := messagesOf(t, []byte(body))
	out, rep := runPass(t, chat.Anthropic, body, testOptions, passClear)
	// The batch could not fire while the first tool loop was active (its
	// thinking is bound to what the batch changes); it fired once the
	// person wrote (message 6), dropping the thinking of that finished
	// turn. The second loop is active: nothing from message 7 on changes.
	want := map[int]string{
		1: `{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"bash","input":{"command":"cat a.py"}}]}`,
		2: `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"[winnow: output of bash {\"command\":\"cat a.py\"} cleared (60 lines); call it again if needed]"}]}`,
		3: `{"role":"assistant","content":[{"type":"tool_use","id":"t3","name":"bash","input":{"command":"pytest"}}]}`,
		5: `{"role":"assistant","content":[{"type":"text","text":"Fixed."}]}`,
	}
	if diff := cmp.Diff(want, changedMessages(t, in, out)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if rep.Changed != 1 {
		t.Errorf("clear report %+v", rep)
	}
	// Every request of the run compacts validly and starts with the
	// previous one's compacted messages, except at a batch point.
	var prev []string
	var prevBatches int
	for n := 1; n <= 11; n++ {
		if n%2 == 0 {
			continue // requests end with a user message: 0, 2, 4, 6 (the person's), 8, 10
		}
		b := thinkingAgent(n)
		got, sum, err := New(testOptions).Rewrite("anthropic", []byte(b))
		if err != nil || len(sum.Violations) > 0 {
			t.Fatalf("request of %d messages: %v %v", n, err, sum.Violations)
		}
		msgs := messagesOf(t, got)
		if prev != nil && len(sum.Batches) == prevBatches {
			if diff := cmp.Diff(prev, msgs[:len(prev)]); diff != "" {
				t.Errorf("request of %d messages does not extend the previous one, and no batch fired: (-prev +got):\n%s", n, diff)
			}
		}
		prev, prevBatches = msgs, len(sum.Batches)
		if n == 11 {
			// The kept thinking of the active loop was produced after the
			// rewritten prefix, not the client's: Validate against the
			// client's request objects to it, ValidateBound does not.
			orig := decode(t, chat.Anthropic, b)
			out := decode(t, chat.Anthropic, string(got))
			if vs := Validate(chat.Anthropic, orig, out); len(vs) == 0 || vs[0].Rule != RuleThinkingPrefix {
				t.Errorf("Validate against the client's request: %v, want a thinking-prefix violation", vs)
			}
		}
	}
}

func TestTrimMiddle(t *testing.T) {
	body, _ := openAIAgent()
	in := messagesOf(t, []byte(body))
	opts := testOptions
	opts.HardLimit, opts.Sink = 600, 2
	out, rep := runPass(t, chat.OpenAI, body, opts, passTrim)
	// Without clearing, the request goes over the limit as it grows; the
	// batches drop the oldest calls with their results (never the system
	// prompt and the task, never the last call), and the assistant message
	// after them says what went.
	want := []string{
		in[0], in[1],
		`{"role":"assistant","content":[{"type":"text","text":"[winnow: 6 earlier messages dropped here to stay under the context limit: 3 tool calls (read_file ×2, bash ×1) and their results; make a call again if you need its output]"},{"type":"text","text":"Let me fix it.\n\n---\n\n` + "```python\\nx = 1\\n\\n```" + `\n"}],"tool_calls":[{"id":"c4","type":"function","function":{"name":"write_file","arguments":` + js(`{"path":"a.py","content":`+js(strings.Repeat("x = 1\n", 30))+`}`) + `}}]}`,
	}
	want = append(want, in[9:]...)
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if rep.Changed != 6 || len(rep.Notes) == 0 {
		t.Errorf("report %+v", rep)
	}
	// Three calls are what it takes: the request without them fits the
	// limit, and with the last of them it would not.
	st := newState(decode(t, chat.OpenAI, body), opts.withDefaults(), map[string]bool{passTrim: true})
	kept := 0
	for i, m := range st.msgs {
		if i < 2 || i >= 6 {
			kept += m.tokens
		}
	}
	if last := st.msgs[6].tokens + st.msgs[7].tokens; kept-last > opts.HardLimit || kept <= opts.HardLimit {
		t.Errorf("kept %d tokens (+%d with the last call dropped), limit %d", kept, last, opts.HardLimit)
	}
}

func TestRepair(t *testing.T) {
	cases := []struct {
		name    string
		dialect chat.Dialect
		in      []string
		want    []string
	}{{
		name:    "anthropic result without its call, and results after text",
		dialect: chat.Anthropic,
		in: []string{
			`{"role":"user","content":"go"}`,
			`{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"ls","input":{}}]}`,
			`{"role":"user","content":[{"type":"text","text":"note"},{"type":"tool_result","tool_use_id":"a","content":"x"},{"type":"tool_result","tool_use_id":"zz","content":"stray"}]}`,
		},
		want: []string{
			`{"role":"user","content":"go"}`,
			`{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"ls","input":{}}]}`,
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"x"},{"type":"text","text":"note"},{"type":"text","text":"[winnow: output of a tool call that is not in the conversation]\nstray"}]}`,
		},
	}, {
		name:    "anthropic call without its result",
		dialect: chat.Anthropic,
		in: []string{
			`{"role":"user","content":"go"}`,
			`{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"ls","input":{}},{"type":"tool_use","id":"b","name":"pwd","input":{}}]}`,
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"x"}]}`,
			`{"role":"assistant","content":[{"type":"tool_use","id":"c","name":"cat","input":{"path":"f"}}]}`,
			`{"role":"user","content":"what happened?"}`,
		},
		want: []string{
			`{"role":"user","content":"go"}`,
			`{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"ls","input":{}},{"type":"tool_use","id":"b","name":"pwd","input":{}}]}`,
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"b","content":"[winnow: no result was recorded for this call]","is_error":true},{"type":"tool_result","tool_use_id":"a","content":"x"}]}`,
			`{"role":"assistant","content":[{"type":"text","text":"[winnow: tool call cat {\"path\":\"f\"} was made, but its result is not in the conversation]"}]}`,
			`{"role":"user","content":"what happened?"}`,
		},
	}, {
		name:    "openai orphan tool message and unanswered call",
		dialect: chat.OpenAI,
		in: []string{
			`{"role":"user","content":"go"}`,
			`{"role":"tool","tool_call_id":"old","content":"stray"}`,
			`{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"ls","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"pwd","arguments":"{}"}}]}`,
			`{"role":"tool","tool_call_id":"a","content":"x"}`,
			`{"role":"tool","tool_call_id":"a","content":"again"}`,
			`{"role":"user","content":"and?"}`,
		},
		want: []string{
			`{"role":"user","content":"go"}`,
			`{"role":"user","content":"[winnow: output of a tool call that is not in the conversation]\nstray"}`,
			`{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"ls","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"pwd","arguments":"{}"}}]}`,
			`{"role":"tool","tool_call_id":"a","content":"x"}`,
			`{"role":"tool","tool_call_id":"b","content":"[winnow: no result was recorded for this call]"}`,
			`{"role":"user","content":"[winnow: output of a tool call that is not in the conversation]\nagain"}`,
			`{"role":"user","content":"and?"}`,
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := `{"model":"m","max_tokens":9,"messages":[` + strings.Join(tc.in, ",") + `]}`
			orig := decode(t, tc.dialect, body)
			if len(Validate(tc.dialect, orig, orig)) == 0 {
				t.Fatal("the input is valid; the case tests nothing")
			}
			out, sum, err := New(Options{}).Only(passRepair).Rewrite(string(tc.dialect), []byte(body))
			if err != nil || len(sum.Violations) > 0 || !sum.Changed {
				t.Fatalf("err %v, violations %v, changed %v", err, sum.Violations, sum.Changed)
			}
			if diff := cmp.Diff(tc.want, messagesOf(t, out)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
