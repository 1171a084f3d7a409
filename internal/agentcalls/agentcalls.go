package agentcalls

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// The canonical tools: Claude Code's built-in names, which every agent's calls are mapped
// to when they do the same thing.
const (
	Read  = "Read"  // file_path, offset (first line, 1-based), limit (lines); no window: the whole file
	Grep  = "Grep"  // pattern, path (file or directory), glob (file name filter)
	Glob  = "Glob"  // pattern (file name pattern), path (directory)
	LS    = "LS"    // path
	Edit  = "Edit"  // file_path
	Write = "Write" // file_path
	Bash  = "Bash"  // command
)

// Canonical lists the canonical tools.
var Canonical = []string{Read, Grep, Glob, LS, Edit, Write, Bash}

// IsCanonical reports whether tool is one of the canonical tools.
func IsCanonical(tool string) bool { return slices.Contains(Canonical, tool) }

// A Call is one tool call an agent made, in the canonical vocabulary, with its result.
type Call struct {
	// Tool is the canonical tool, or the agent's own tool or command name when the call
	// maps to none (submit, finish, think).
	Tool string
	// Args are the canonical arguments (see the constants); for an unmapped call, the
	// agent's own arguments.
	Args map[string]any
	// Raw is the call as the agent wrote it: "<name> <arguments as JSON>" for a tool call,
	// the command text for an agent that writes its commands.
	Raw string
	// Result is the text the agent received back.
	Result string
	// Error says the tool reported a failure: an error flag, or an error the tool wrote
	// in place of a result ("ERROR: ...", "Usage: ...").
	Error bool
	// Agent is the agent's own name for what it called: "str_replace_editor view",
	// "execute_bash", "open", "scroll_down".
	Agent string
	// Turn is the index, in the source's message list, of the assistant message that
	// made the call; the calls of one message share it.
	Turn int
}

// Mapped reports whether the call maps to a canonical tool.
func (c *Call) Mapped() bool { return IsCanonical(c.Tool) }

// A Session is one agent run as its tool calls, in order.
type Session struct {
	Source string // where it was read from: a file, plus "#" and a record name when the file holds several
	Task   string // the task the agent was given, as its user wrote it
	Calls  []Call
}

// Counts returns how many calls of the session each tool got.
func (s *Session) Counts() map[string]int {
	n := make(map[string]int)
	for _, c := range s.Calls {
		n[c.Tool]++
	}
	return n
}

// rawCall returns the Raw text of a tool call.
func rawCall(name string, args map[string]any) string {
	if len(args) == 0 {
		return name
	}
	b, err := json.Marshal(args)
	if err != nil {
		return name
	}
	return name + " " + string(b)
}

// str returns args[key] as a string: a string as is, a number or boolean in its JSON form.
func str(args map[string]any, key string) string {
	switch v := args[key].(type) {
	case string:
		return v
	case nil:
		return ""
	default:
		b, _ := json.Marshal(v)
		return string(b)
	}
}

// num returns args[key] as an integer, and whether it is one: a JSON number or a string
// holding an integer.
func num(args map[string]any, key string) (int, bool) {
	switch v := args[key].(type) {
	case float64:
		return int(v), v == float64(int(v))
	case int:
		return v, true
	case json.Number:
		n, err := v.Int64()
		return int(n), err == nil
	case string:
		return atoi(strings.TrimSpace(v))
	}
	return 0, false
}

func atoi(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i, c := range s {
		if c == '-' && i == 0 && len(s) > 1 {
			continue
		}
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if s[0] == '-' {
		n = -n
	}
	return n, true
}

// cloneArgs returns a copy of args, never nil.
func cloneArgs(args map[string]any) map[string]any {
	if args == nil {
		return map[string]any{}
	}
	return maps.Clone(args)
}
