package pipeline

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unicode"

	"github.com/winnowhq/winnow/internal/telemetry"
)

// A Call is one tools/call as the agent made it.
type Call struct {
	// Session identifies the agent's MCP session: the downstream
	// mcp.ServerSession's ID ("" over stdio, where there is one session).
	// Dedup references and winnow__more refs never cross sessions.
	Session string
	// Tool is the name the agent called, e.g. "github__get_issue": the
	// upstream's prefix, two underscores, the upstream's own tool name.
	Tool string
	// Args holds the call's arguments as the agent sent them.
	Args json.RawMessage
	// Client is the agent's MCP client; its cap on what it forwards
	// bounds the result's budget (clientcap.go).
	Client Client
	// Annotate, when set, completes the call's telemetry record before it
	// is recorded: the gateway's planner adds what it did around the call.
	Annotate func(*telemetry.Call)
}

// upstreamSep separates an upstream's prefix from its tool's name.
const upstreamSep = "__"

// prefix returns the upstream prefix of the call's tool ("github" for
// "github__get_issue"), or "" for a tool without one.
func (c *Call) prefix() string { return toolPrefix(c.Tool) }

func toolPrefix(tool string) string {
	if i := strings.Index(tool, upstreamSep); i > 0 {
		return tool[:i]
	}
	return ""
}

// localName returns the upstream's own name of the tool ("get_issue").
func localName(tool string) string {
	if i := strings.Index(tool, upstreamSep); i > 0 {
		return tool[i+len(upstreamSep):]
	}
	return tool
}

// compactArgs returns the arguments as compact JSON, "{}" when there are
// none, or the raw bytes trimmed when they are not valid JSON.
func compactArgs(args json.RawMessage) string {
	if len(bytes.TrimSpace(args)) == 0 {
		return "{}"
	}
	var b bytes.Buffer
	if err := json.Compact(&b, args); err != nil {
		return string(bytes.TrimSpace(args))
	}
	return b.String()
}

// Limits on the words taken from arguments for trimming signals.
const (
	maxArgWords   = 64
	maxWordLength = 64
)

// argWords returns the words of the argument values (not the keys): the
// runs of letters and digits of every string, and every number, in order,
// without repeats, at most maxArgWords of them.
func argWords(args json.RawMessage) []string {
	var words []string
	add := func(text string) {
		for f := range strings.FieldsFuncSeq(text, notWordRune) {
			if len(words) >= maxArgWords || len(f) > maxWordLength || slices.Contains(words, f) {
				continue
			}
			words = append(words, f)
		}
	}
	s := string(args)
	w := jsonWalk{s: s, scalar: func(start, end int) {
		v := s[start:end]
		switch v[0] {
		case '"':
			if strings.IndexByte(v, '\\') < 0 {
				add(v[1 : len(v)-1]) // no escapes: the contents as written
				return
			}
			var str string
			if json.Unmarshal([]byte(v), &str) == nil {
				add(str)
			}
		case 't', 'f', 'n':
		default:
			add(v)
		}
	}}
	if w.run() != nil {
		return nil
	}
	return words
}

// notWordRune reports whether r separates the words of an argument.
func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }
