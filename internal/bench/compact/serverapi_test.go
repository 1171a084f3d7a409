package compact

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/compact"
	"github.com/winnowhq/winnow/internal/compact/traj"
)

// Messages of a small agent run: a task, two tool loops of the first
// task, a second task, and a loop still open.
const (
	mTask1   = `{"role":"user","content":"task one"}`
	mCall1   = `{"role":"assistant","content":[{"type":"thinking","thinking":"t1","signature":"s1"},{"type":"tool_use","id":"a","name":"read","input":{}}]}`
	mResult1 = `{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"one"}]}`
	mCall2   = `{"role":"assistant","content":[{"type":"thinking","thinking":"t2","signature":"s2"},{"type":"tool_use","id":"b","name":"grep","input":{}}]}`
	mResult2 = `{"role":"user","content":[{"type":"tool_result","tool_use_id":"b","content":[{"type":"text","text":"two"}]}]}`
	mTask2   = `{"role":"user","content":[{"type":"text","text":"task two"}]}`
	mCall3   = `{"role":"assistant","content":[{"type":"thinking","thinking":"t3","signature":"s3"},{"type":"tool_use","id":"c","name":"read","input":{}}]}`
	mResult3 = `{"role":"user","content":[{"type":"tool_result","tool_use_id":"c","content":"three","is_error":true}]}`

	// the same, as the API model prices them
	pCall1   = `{"role":"assistant","content":[{"type":"thinking","thinking":"t1"},{"type":"tool_use","id":"a","name":"read","input":{}}]}`
	pCall2   = `{"role":"assistant","content":[{"type":"thinking","thinking":"t2"},{"type":"tool_use","id":"b","name":"grep","input":{}}]}`
	pCall3   = `{"role":"assistant","content":[{"type":"thinking","thinking":"t3"},{"type":"tool_use","id":"c","name":"read","input":{}}]}`
	sCall1   = `{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"read","input":{}}]}`
	sCall2   = `{"role":"assistant","content":[{"type":"tool_use","id":"b","name":"grep","input":{}}]}`
	cResult1 = `{"role":"user","content":[{"content":"[cleared]","tool_use_id":"a","type":"tool_result"}]}`
	cResult2 = `{"role":"user","content":[{"content":"[cleared]","tool_use_id":"b","type":"tool_result"}]}`
)

var agentRun = []string{mTask1, mCall1, mResult1, mCall2, mResult2, mTask2, mCall3, mResult3}

func requestBody(contextManagement string, msgs ...string) []byte {
	b := `{"model":"m","max_tokens":10,"thinking":{"type":"adaptive"},"system":"sys",`
	if contextManagement != "" {
		b += `"context_management":` + contextManagement + `,`
	}
	return []byte(b + `"messages":[` + strings.Join(msgs, ",") + `]}`)
}

func TestAPIPrompt(t *testing.T) {
	const clearKeep1 = `{"edits":[{"type":"clear_tool_uses_20250919","trigger":{"type":"input_tokens","value":500},"keep":{"type":"tool_uses","value":1}}]}`
	for _, tc := range []struct {
		name   string
		family compact.Family
		body   []byte
		tokens int // what the request counts before the edits
		want   []string
		edit   APIEdit
	}{{
		name:   "last-turn strips thinking before the last human message",
		family: compact.LastTurn,
		body:   requestBody("", agentRun...),
		want:   []string{mTask1, sCall1, mResult1, sCall2, mResult2, mTask2, pCall3, mResult3},
		edit:   APIEdit{Stripped: 2},
	}, {
		name:   "last-turn keeps the thinking of one long tool loop",
		family: compact.LastTurn,
		body:   requestBody("", agentRun[:5]...),
		want:   []string{mTask1, pCall1, mResult1, pCall2, mResult2},
	}, {
		name:   "keep-all bills every block, without its signature",
		family: compact.KeepAll,
		body:   requestBody("", agentRun...),
		want:   []string{mTask1, pCall1, mResult1, pCall2, mResult2, mTask2, pCall3, mResult3},
	}, {
		name:   "preserved below the trigger",
		family: compact.Preserved,
		body:   requestBody(clearKeep1, agentRun...),
		tokens: 500,
		want:   []string{mTask1, pCall1, mResult1, pCall2, mResult2, mTask2, pCall3, mResult3},
		edit:   APIEdit{Requested: true},
	}, {
		name:   "preserved past the trigger clears all but the last keep",
		family: compact.Preserved,
		body:   requestBody(clearKeep1, agentRun...),
		tokens: 501,
		want:   []string{mTask1, pCall1, cResult1, pCall2, cResult2, mTask2, pCall3, mResult3},
		edit:   APIEdit{Requested: true, Applied: true, Cleared: 2},
	}, {
		name:   "excluded tools are not cleared",
		family: compact.Preserved,
		body:   requestBody(`{"edits":[{"type":"clear_tool_uses_20250919","trigger":{"type":"input_tokens","value":1},"keep":{"type":"tool_uses","value":0},"exclude_tools":["read"]}]}`, agentRun...),
		tokens: 2,
		want:   []string{mTask1, pCall1, mResult1, pCall2, cResult2, mTask2, pCall3, mResult3},
		edit:   APIEdit{Requested: true, Applied: true, Cleared: 1},
	}, {
		name:   "the API's defaults: 100,000 tokens, keep 3",
		family: compact.Preserved,
		body:   requestBody(`{"edits":[{"type":"clear_tool_uses_20250919"}]}`, agentRun...),
		tokens: 100_001,
		want:   []string{mTask1, pCall1, mResult1, pCall2, mResult2, mTask2, pCall3, mResult3},
		edit:   APIEdit{Requested: true, Applied: true},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			count := func(traj.Parts) (int, error) { return tc.tokens, nil }
			p, e, err := newAPIModel().prompt(tc.family, tc.body, count)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, strs(p.Messages)); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			if e != tc.edit {
				t.Errorf("edit %+v, want %+v", e, tc.edit)
			}
			if string(p.System) != `"sys"` || p.Model != "m" {
				t.Errorf("system %s, model %s", p.System, p.Model)
			}
		})
	}
}

// The trigger compares the request as billed: with thinking and without
// signatures, before anything is cleared.
func TestAPIPromptCountsBeforeClearing(t *testing.T) {
	var counted []string
	count := func(p traj.Parts) (int, error) {
		counted = strs(p.Messages)
		return 1 << 20, nil
	}
	body := requestBody(`{"edits":[{"type":"clear_tool_uses_20250919","keep":{"type":"tool_uses","value":0}}]}`, agentRun[:3]...)
	if _, _, err := newAPIModel().prompt(compact.Preserved, body, count); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{mTask1, pCall1, mResult1}, counted); diff != "" {
		t.Errorf("counted (-want +got):\n%s", diff)
	}
}

func TestAPIPromptRefuses(t *testing.T) {
	count := func(traj.Parts) (int, error) { return 0, nil }
	for name, cm := range map[string]string{
		"unknown edit":   `{"edits":[{"type":"clear_thinking_20251015","keep":"all"}]}`,
		"trigger in use": `{"edits":[{"type":"clear_tool_uses_20250919","trigger":{"type":"tool_uses","value":3}}]}`,
		"keep in tokens": `{"edits":[{"type":"clear_tool_uses_20250919","keep":{"type":"input_tokens","value":3}}]}`,
		"edits not list": `{"edits":{}}`,
		"clear_at_least": `{"edits":[{"type":"clear_tool_uses_20250919","clear_at_least":{"type":"input_tokens","value":3}}]}`,
		"tool inputs":    `{"edits":[{"type":"clear_tool_uses_20250919","clear_tool_inputs":true}]}`,
	} {
		if _, _, err := newAPIModel().prompt(compact.Preserved, requestBody(cm, mTask1), count); err == nil {
			t.Errorf("%s: priced", name)
		}
	}
	if _, _, err := newAPIModel().prompt(compact.KeepAll, []byte(`{"model":"m"}`), count); err == nil {
		t.Error("a body without messages was priced")
	}
}
