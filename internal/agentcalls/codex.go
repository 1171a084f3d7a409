package agentcalls

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// codexLine is one line of a rollout: current versions wrap each record as
// {"timestamp", "type", "payload"}; earlier ones wrote response items bare.
type codexLine struct {
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
}

// codexItem is a response item, or the session_meta and turn_context records, as far as
// calls need them.
type codexItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Namespace string          `json:"namespace"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	Action    *struct {
		Command          []string `json:"command"`
		WorkingDirectory string   `json:"working_directory"`
	} `json:"action"`
	Cwd string `json:"cwd"`
}

// ReadCodex reads the tool calls of a Codex rollout (source names it), in the order the
// model made them, each with the output it got back. Shell commands (exec_command,
// shell, local_shell) are mapped like any agent's shell commands (see the package
// documentation), relative to the directory the call ran in; apply_patch is an Edit of
// the first file the patch updates or deletes, or a Write of the first it adds; a
// tool of an MCP server, which Codex lists in the namespace mcp__<server>, is named
// mcp__<server>__<tool>, as Claude Code names them; other tools keep their names and
// arguments. A command's result is its output without the header Codex puts before it,
// and it is an error when the command exited with a status other than 0.
//
// Lines that are not JSON are skipped and counted; a source without a single rollout
// record is an error.
func ReadCodex(r io.Reader, source string) (s Session, skipped int, err error) {
	s.Source = source
	var (
		calls   []codexPending
		byID    = map[string]int{}
		cwd     string
		items   int // response items so far
		turn    = -1
		inModel bool // the last item was the model's: the next call is of the same response
		records int
	)
	br := bufio.NewReader(r)
	for {
		line, rerr := br.ReadBytes('\n')
		if line = bytes.TrimSpace(line); len(line) > 0 {
			it, kind, ok := codexRecord(line)
			switch {
			case !ok:
				skipped++
			case kind == "session_meta" || kind == "turn_context":
				records++
				if it.Cwd != "" {
					cwd = it.Cwd
				}
			case kind == "response_item":
				records++
				model := it.Type != "message" && !strings.HasSuffix(it.Type, "_output") || it.Role == "assistant"
				if model && !inModel {
					turn = items
				}
				inModel = model
				items++
				switch {
				case it.Type == "message" && it.Role == "user" && s.Task == "":
					s.Task = codexTask(it.Content)
				case strings.HasSuffix(it.Type, "_call_output"):
					if i, ok := byID[it.CallID]; ok {
						delete(byID, it.CallID)
						calls[i].result, calls[i].isError = codexOutput(it.Output)
					}
				case (it.Type == "function_call" || it.Type == "custom_tool_call") && it.Name != "" || it.Type == "local_shell_call":
					c := codexPending{agentCall: codexCall(it), cwd: cwd}
					c.turn = turn
					byID[it.CallID] = len(calls)
					calls = append(calls, c)
				}
			default:
				records++ // event_msg, token counts and the like
			}
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			return s, skipped, fmt.Errorf("read %s: %w", source, rerr)
		}
	}
	if records == 0 {
		return s, skipped, fmt.Errorf("read %s: not a Codex rollout (no record with a type)", source)
	}
	for _, c := range calls {
		s.Calls = append(s.Calls, codexCanonical(c))
	}
	return s, skipped, nil
}

// codexRecord decodes one line into a response item (or a session_meta or turn_context
// record) and its kind, whichever way the rollout's version wrote it.
func codexRecord(line []byte) (codexItem, string, bool) {
	var l codexLine
	if json.Unmarshal(line, &l) != nil {
		return codexItem{}, "", false
	}
	var it codexItem
	if l.Payload != nil {
		if json.Unmarshal(l.Payload, &it) != nil {
			return codexItem{}, "", false
		}
		return it, l.Type, l.Type != ""
	}
	if json.Unmarshal(line, &it) != nil {
		return codexItem{}, "", false
	}
	switch it.Type {
	case "message", "reasoning", "function_call", "function_call_output", "custom_tool_call",
		"custom_tool_call_output", "local_shell_call", "local_shell_call_output":
		return it, "response_item", true
	}
	var head struct {
		ID         string `json:"id"`
		RecordType string `json:"record_type"`
	}
	json.Unmarshal(line, &head)
	return it, "header", head.ID != "" || head.RecordType != ""
}

// codexTask returns the text of a user message, unless Codex wrote it itself (the
// environment context, AGENTS.md instructions: text in <tags>).
func codexTask(content json.RawMessage) string {
	var parts []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(content, &parts)
	for _, p := range parts {
		if t := strings.TrimSpace(p.Text); t != "" && !strings.HasPrefix(t, "<") && !strings.HasPrefix(t, "# AGENTS.md") {
			return t
		}
	}
	return ""
}

// codexPending is a call and the directory the session was in when it was made.
type codexPending struct {
	agentCall
	cwd string
}

// codexCall reads one call as the model made it.
func codexCall(it codexItem) agentCall {
	c := agentCall{name: it.Name, args: map[string]any{}}
	switch it.Type {
	case "local_shell_call":
		c.name = "local_shell"
		if it.Action != nil {
			c.args["command"] = toAnySlice(it.Action.Command)
			if it.Action.WorkingDirectory != "" {
				c.args["workdir"] = it.Action.WorkingDirectory
			}
		}
	case "custom_tool_call":
		c.args["input"] = it.Input
	default:
		if json.Unmarshal([]byte(it.Arguments), &c.args) != nil || c.args == nil {
			c.args = map[string]any{"arguments": it.Arguments}
		}
	}
	if ns, ok := strings.CutPrefix(it.Namespace, "mcp__"); ok && ns != "" {
		c.name = "mcp__" + ns + "__" + c.name
	}
	c.raw = rawCall(c.name, c.args)
	return c
}

func toAnySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// codexHeader matches the header Codex puts before a tool's output: exec_command's
// ("Chunk ID", "Wall time", "Process exited with code N", "Original token count") and
// apply_patch's ("Exit code: N", "Wall time").
var codexHeader = regexp.MustCompile(`(?s)\A(?:Chunk ID: [^\n]*\n)?(?:Wall time: [^\n]*\n)?(?:Process exited with code |Exit code: )(-?\d+)\n(?:Wall time: [^\n]*\n)?(?:Original token count: [^\n]*\n)?Output:\n`)

// codexOutput returns a call's result text and whether it failed: the output of a
// command without Codex's header (current versions) or JSON envelope (earlier ones:
// {"output", "metadata": {"exit_code"}}), or the text of the output's parts.
func codexOutput(raw json.RawMessage) (string, bool) {
	var text string
	if json.Unmarshal(raw, &text) != nil {
		var parts []struct {
			Text string `json:"text"`
		}
		json.Unmarshal(raw, &parts)
		var b []string
		for _, p := range parts {
			b = append(b, p.Text)
		}
		return strings.Join(b, "\n"), false
	}
	if m := codexHeader.FindStringSubmatch(text); m != nil {
		code, _ := strconv.Atoi(m[1])
		return text[len(m[0]):], code != 0
	}
	var env struct {
		Output   *string `json:"output"`
		Metadata struct {
			ExitCode *int `json:"exit_code"`
		} `json:"metadata"`
	}
	if strings.HasPrefix(text, "{") && json.Unmarshal([]byte(text), &env) == nil && env.Output != nil {
		return *env.Output, env.Metadata.ExitCode != nil && *env.Metadata.ExitCode != 0
	}
	return text, false
}

// codexCanonical maps one of Codex's calls to the canonical vocabulary, relative
// paths against the call's own workdir or else the session's directory.
func codexCanonical(c codexPending) Call {
	out := Call{Raw: c.raw, Result: c.result, Error: c.isError, Agent: c.name, Turn: c.turn}
	cwd := absPath(str(c.args, "workdir"), c.cwd)
	switch c.name {
	case "exec_command":
		out.Tool, out.Args = shell(str(c.args, "cmd"), cwd)
	case "shell", "local_shell", "container.exec":
		out.Tool, out.Args = shell(shellLine(c.args["command"]), cwd)
	case "apply_patch":
		patch := str(c.args, "input")
		if patch == "" {
			patch = str(c.args, "patch")
		}
		out.Tool, out.Args = patchCall(patch, cwd)
	default:
		out.Tool, out.Args = c.name, cloneArgs(c.args)
	}
	return out
}

// shellLine returns the command line of an argv: the script of bash -lc SCRIPT, else
// the words joined.
func shellLine(v any) string {
	list, _ := v.([]any)
	var words []string
	for _, w := range list {
		s, _ := w.(string)
		words = append(words, s)
	}
	if len(words) == 3 && (words[0] == "bash" || words[0] == "/bin/bash" || words[0] == "sh") && (words[1] == "-lc" || words[1] == "-c") {
		return words[2]
	}
	return strings.Join(words, " ")
}

// patchFile matches a file header of an apply_patch patch.
var patchFile = regexp.MustCompile(`(?m)^\*\*\* (Add|Update|Delete) File: (.+)$`)

// patchCall maps a patch to an Edit of its first updated or deleted file, else a Write
// of its first added file.
func patchCall(patch, cwd string) (string, map[string]any) {
	ms := patchFile.FindAllStringSubmatch(patch, -1)
	for _, m := range ms {
		if m[1] != "Add" {
			return Edit, map[string]any{"file_path": absPath(strings.TrimSpace(m[2]), cwd)}
		}
	}
	if len(ms) > 0 {
		return Write, map[string]any{"file_path": absPath(strings.TrimSpace(ms[0][2]), cwd)}
	}
	return Edit, map[string]any{}
}
