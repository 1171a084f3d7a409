package agentcalls

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// The transcript formats Sniff tells apart.
const (
	// FormatClaudeCode is a Claude Code session transcript:
	// ~/.claude/projects/<project>/<session>.jsonl, one JSON object per line.
	FormatClaudeCode = "claude-code"
	// FormatCodex is a Codex rollout: ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl.
	FormatCodex = "codex"
)

// sniffLines is how many lines Sniff looks at: a transcript says what it is within its
// first few records.
const sniffLines = 20

// Sniff returns the format of a transcript from its first lines (FormatClaudeCode or
// FormatCodex), or "" when they are neither: a Claude Code line carries a sessionId
// beside its type, a Codex rollout opens with its session_meta (current versions) or a
// header with instructions and then records (earlier ones).
func Sniff(head []byte) string {
	n := 0
	for line := range bytes.Lines(head) {
		if n++; n > sniffLines {
			break
		}
		var l struct {
			Type         string          `json:"type"`
			SessionID    *string         `json:"sessionId"`
			Payload      json.RawMessage `json:"payload"`
			Instructions json.RawMessage `json:"instructions"`
			RecordType   string          `json:"record_type"`
		}
		if json.Unmarshal(line, &l) != nil {
			continue
		}
		switch {
		case l.Type != "" && l.SessionID != nil:
			return FormatClaudeCode
		case l.Type == "session_meta" && l.Payload != nil, n == 1 && l.Instructions != nil, l.RecordType != "":
			return FormatCodex
		}
	}
	return ""
}

// claudeLine is one line of a Claude Code transcript, as far as calls need it.
type claudeLine struct {
	Type        string `json:"type"`
	IsSidechain bool   `json:"isSidechain"`
	IsMeta      bool   `json:"isMeta"`
	Message     *struct {
		ID      string          `json:"id"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// claudeBlock is one content block of a message.
type claudeBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     map[string]any  `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// ReadClaudeCode reads the tool calls of a Claude Code transcript (source names it),
// in the order the model made them, each with the result it got back. The tools are
// Claude Code's own: Read, Grep, Glob, LS, Edit, Write and Bash are canonical already
// (their arguments cut to the canonical ones; MultiEdit is an Edit), every other tool
// (Task, TodoWrite, WebFetch, mcp__<server>__<tool>) keeps its name and arguments. A
// transcript holds one agent's turns: the main session's, or a subagent's when every
// line is a sidechain; lines of the other kind (the subagent turns earlier versions
// wrote in the main file) are left out.
//
// Lines that are not JSON (a line cut short by a crash) are skipped and counted;
// a source without a single transcript line is an error.
func ReadClaudeCode(r io.Reader, source string) (s Session, skipped int, err error) {
	s.Source = source
	var (
		calls     []agentCall
		byID      = map[string]int{} // tool_use id → index in calls
		messages  int                // messages so far
		turnOf    = map[string]int{} // assistant message id → its index: its blocks come on lines of their own
		sidechain *bool
		lines     int
	)
	br := bufio.NewReader(r)
	for {
		line, rerr := br.ReadBytes('\n')
		if line = bytes.TrimSpace(line); len(line) > 0 {
			var l claudeLine
			switch {
			case json.Unmarshal(line, &l) != nil || l.Type == "":
				skipped++
			default:
				lines++
			}
			if m := l.Message; m != nil && (l.Type == "user" || l.Type == "assistant") {
				if sidechain == nil {
					sidechain = &l.IsSidechain
				}
				if l.IsSidechain == *sidechain {
					blocks := claudeBlocks(m.Content)
					switch l.Type {
					case "assistant":
						turn, ok := turnOf[m.ID]
						if !ok || m.ID == "" {
							turn = messages
							messages++
							turnOf[m.ID] = turn
						}
						for _, b := range blocks {
							if b.Type == "tool_use" && b.Name != "" {
								byID[b.ID] = len(calls)
								calls = append(calls, agentCall{name: b.Name, args: b.Input, raw: rawCall(b.Name, b.Input), turn: turn})
							}
						}
					case "user":
						messages++
						if s.Task == "" && !l.IsMeta {
							s.Task = claudeTask(m.Content, blocks)
						}
						for _, b := range blocks {
							if i, ok := byID[b.ToolUseID]; ok && b.Type == "tool_result" {
								delete(byID, b.ToolUseID) // the first result answers it
								calls[i].result, calls[i].isError = claudeText(b.Content), b.IsError
							}
						}
					}
				}
			}
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			return s, skipped, fmt.Errorf("read %s: %w", source, rerr)
		}
	}
	if lines == 0 {
		return s, skipped, fmt.Errorf("read %s: not a Claude Code transcript (no line with a type)", source)
	}
	for _, c := range calls {
		s.Calls = append(s.Calls, claudeCall(c))
	}
	return s, skipped, nil
}

// claudeBlocks decodes a message's content: a string is one text block.
func claudeBlocks(content json.RawMessage) []claudeBlock {
	var blocks []claudeBlock
	if json.Unmarshal(content, &blocks) == nil {
		return blocks
	}
	var text string
	if json.Unmarshal(content, &text) == nil {
		return []claudeBlock{{Type: "text", Text: text}}
	}
	return nil
}

// claudeTask returns the text of a user message that is the user's own: not a tool
// result, not a command or reminder Claude Code wrote itself ("<command-name>…").
func claudeTask(content json.RawMessage, blocks []claudeBlock) string {
	for _, b := range blocks {
		if b.Type == "tool_result" {
			return ""
		}
	}
	for _, b := range blocks {
		if t := strings.TrimSpace(b.Text); b.Type == "text" && t != "" && !strings.HasPrefix(t, "<") {
			return t
		}
	}
	return ""
}

// claudeText returns a tool result's text: a string, or its text blocks joined by
// newlines, an image as "[image]".
func claudeText(content json.RawMessage) string {
	var parts []string
	for _, b := range claudeBlocks(content) {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "image":
			parts = append(parts, "[image]")
		}
	}
	return strings.Join(parts, "\n")
}

// claudeCall maps one of Claude Code's calls to the canonical vocabulary: its own
// tools by name, with their canonical arguments.
func claudeCall(c agentCall) Call {
	out := Call{Tool: c.name, Raw: c.raw, Result: c.result, Error: c.isError, Agent: c.name, Turn: c.turn}
	keep := func(keys ...string) map[string]any {
		args := map[string]any{}
		for _, k := range keys {
			if v, ok := c.args[k]; ok && v != nil && v != "" {
				args[k] = v
			}
		}
		return args
	}
	switch c.name {
	case Read:
		from, _ := num(c.args, "offset")
		n, _ := num(c.args, "limit")
		out.Args = window(str(c.args, "file_path"), from, n)
	case Grep:
		out.Args = keep("pattern", "path", "glob")
	case Glob:
		out.Args = keep("pattern", "path")
	case LS:
		out.Args = keep("path")
	case Edit, "MultiEdit":
		out.Tool, out.Args = Edit, keep("file_path")
	case Write:
		out.Args = keep("file_path")
	case Bash:
		out.Args = keep("command")
	default:
		out.Args = cloneArgs(c.args)
	}
	return out
}
