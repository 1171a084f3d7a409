package agentcalls

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/winnowhq/winnow/internal/compact/traj"
)

// agentCall is a call as the agent made it, before mapping.
type agentCall struct {
	name    string         // tool or command name
	args    map[string]any // its arguments
	raw     string
	result  string
	isError bool
	turn    int
}

// FromTrajectory returns the tool calls of a trajectory loaded by package traj, mapped to
// the canonical tools (see the package documentation). Calls whose results the
// trajectory lacks (a run that ends on a call) have an empty Result.
func FromTrajectory(t traj.Trajectory) (Session, error) {
	msgs := make([]traj.Message, len(t.Messages))
	toolForm := false
	for i, raw := range t.Messages {
		m, err := traj.ParseMessage(t.Dialect, raw)
		if err != nil {
			return Session{}, fmt.Errorf("calls of %s: message %d: %w", t.Name, i, err)
		}
		msgs[i] = m
		toolForm = toolForm || len(m.Calls) > 0 || len(m.Results) > 0
	}
	s := Session{Source: t.Name, Task: task(msgs)}
	var calls []agentCall
	if toolForm {
		var err error
		if calls, err = toolCalls(msgs); err != nil {
			return Session{}, fmt.Errorf("calls of %s: %w", t.Name, err)
		}
	} else {
		calls = textCalls(msgs)
	}
	m := mapper{cwd: startDir(msgs, calls)}
	for _, c := range calls {
		s.Calls = append(s.Calls, m.canonical(c))
	}
	return s, nil
}

// task returns the task of the last user message before the first assistant message
// (after any demonstration sent ahead of it): the issue the agent's harness wrapped in its
// template, when the template marks it (OpenHands and SWE-smith's <pr_description>,
// SWE-agent's "ISSUE:" up to "INSTRUCTIONS:"), else the whole message.
func task(msgs []traj.Message) string {
	var t string
	for _, m := range msgs {
		if m.Role == "assistant" {
			break
		}
		if m.Role == "user" {
			t = m.Text
		}
	}
	if _, rest, ok := strings.Cut(t, "<pr_description>"); ok {
		if issue, _, ok := strings.Cut(rest, "</pr_description>"); ok {
			return strings.TrimSpace(issue)
		}
	}
	if _, rest, ok := strings.Cut(t, "ISSUE:\n"); ok {
		if issue, _, ok := strings.Cut(rest, "\nINSTRUCTIONS:"); ok {
			return strings.TrimSpace(issue)
		}
	}
	return t
}

var uploadedRE = regexp.MustCompile(`<uploaded_files>\s*(\S+)\s*</uploaded_files>`)

// uploadedDir returns the repository directory an OpenHands or SWE-smith task message
// names.
func uploadedDir(msgs []traj.Message) string {
	for _, m := range msgs {
		if m.Role == "assistant" {
			break
		}
		if s := uploadedRE.FindStringSubmatch(m.Text); s != nil {
			return s[1]
		}
	}
	return ""
}

// startDir returns the directory the agent starts in: the repository its task names, else
// the first directory SWE-agent's status lines report (it rarely moves).
func startDir(msgs []traj.Message, calls []agentCall) string {
	if d := uploadedDir(msgs); d != "" {
		return d
	}
	for _, c := range calls {
		if s := cwdRE.FindStringSubmatch(c.result); s != nil {
			return strings.TrimSpace(s[1])
		}
	}
	return ""
}

// toolCalls pairs the tool calls of messages with their results by id. Ids may repeat
// within a run (SWE-agent demonstrations reuse them): a result answers the earliest call
// with its id still unanswered.
func toolCalls(msgs []traj.Message) ([]agentCall, error) {
	var calls []agentCall
	pending := map[string][]int{}
	for i, m := range msgs {
		for _, c := range m.Calls {
			args := map[string]any{}
			if in := strings.TrimSpace(c.Input); in != "" {
				if err := json.Unmarshal([]byte(in), &args); err != nil || args == nil {
					// Arguments that are not an object are kept whole.
					args = map[string]any{"input": c.Input}
				}
			}
			pending[c.ID] = append(pending[c.ID], len(calls))
			calls = append(calls, agentCall{name: c.Name, args: args, raw: rawCall(c.Name, args), turn: i})
		}
		for _, r := range m.Results {
			q := pending[r.ID]
			if len(q) == 0 {
				return nil, fmt.Errorf("message %d: a result for call %q, which no call is waiting for", i, r.ID)
			}
			calls[q[0]].result, calls[q[0]].isError = r.Text, r.Error
			pending[r.ID] = q[1:]
		}
	}
	return calls, nil
}

// textCalls reads the calls an agent wrote in its messages' text: SWE-smith's
// <function=NAME><parameter=K>V</parameter></function>, or SWE-agent's command in the
// last fenced block. A call's result is the next user message.
func textCalls(msgs []traj.Message) []agentCall {
	var calls []agentCall
	for i, m := range msgs {
		if m.Role != "assistant" {
			continue
		}
		c, ok := functionCall(m.Text)
		if !ok {
			c, ok = fencedCommand(m.Text)
		}
		if !ok {
			continue
		}
		c.turn = i
		if i+1 < len(msgs) && msgs[i+1].Role == "user" {
			c.result = msgs[i+1].Text
		}
		calls = append(calls, c)
	}
	return calls
}

var (
	functionRE  = regexp.MustCompile(`(?s)<function=([^>\s]+)>(.*?)(?:</function>|$)`)
	parameterRE = regexp.MustCompile(`(?s)<parameter=([^>\s]+)>(.*?)</parameter>`)
)

// functionCall reads the first <function=...> call of text.
func functionCall(text string) (agentCall, bool) {
	m := functionRE.FindStringSubmatch(text)
	if m == nil {
		return agentCall{}, false
	}
	args := map[string]any{}
	for _, p := range parameterRE.FindAllStringSubmatch(m[2], -1) {
		v := strings.TrimPrefix(strings.TrimSuffix(p[2], "\n"), "\n")
		var j any
		if strings.HasPrefix(strings.TrimSpace(v), "[") && json.Unmarshal([]byte(v), &j) == nil {
			args[p[1]] = j // view_range: [791, 808]
		} else {
			args[p[1]] = v
		}
	}
	return agentCall{name: m[1], args: args, raw: strings.TrimSpace(m[0])}, true
}

var fenceRE = regexp.MustCompile("(?ms)^```[^\\n`]*\\n(.*?)^```")

// fencedCommand reads the command of the last fenced block of text, as SWE-agent's
// thought-action parser does.
func fencedCommand(text string) (agentCall, bool) {
	all := fenceRE.FindAllStringSubmatch(text, -1)
	if len(all) == 0 {
		return agentCall{}, false
	}
	cmd := strings.TrimSpace(all[len(all)-1][1])
	if cmd == "" {
		return agentCall{}, false
	}
	name, args := sweCommand(cmd)
	return agentCall{name: name, args: args, raw: cmd}, true
}
