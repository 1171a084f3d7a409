package compact

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/winnowhq/winnow/internal/chat"
)

// maxCallBytes caps how much of a call a placeholder repeats.
const maxCallBytes = 160

// maxValueBytes caps each long string argument a placeholder repeats.
const maxValueBytes = 48

// describeCall returns a call as the model can recognise and repeat it:
// the tool's name and its arguments as compact JSON, each long string
// argument (a file's content, a long path) shortened from the middle to
// about maxValueBytes, the whole to about maxCallBytes. Shortening keeps
// both ends and never cuts the last path segment, so a placeholder still
// names the file it came from.
func describeCall(name string, input json.RawMessage) string {
	if ms, ok := members(input); ok {
		if len(ms) == 0 {
			return name
		}
		for i := range ms {
			if ms[i].ok && len(ms[i].str) > maxValueBytes {
				ms[i].raw = quote(shorten(ms[i].str, maxValueBytes))
			}
		}
		input = encodeMembers(ms)
	}
	var b bytes.Buffer
	if len(bytes.TrimSpace(input)) == 0 || json.Compact(&b, input) != nil {
		return name
	}
	return name + " " + shorten(b.String(), maxCallBytes)
}

// shorten returns s with its middle replaced by "…" so that it is about n
// bytes long, cut at rune boundaries. The tail keeps the last path
// segment whole (from the last '/' on) when s has one, even if that makes
// the result longer than n; otherwise head and tail are about n/2 each.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	tail := n / 2
	if i := strings.LastIndexByte(s, '/'); i > 0 && len(s)-i > tail {
		tail = len(s) - i
	}
	head := max(n-tail, n/4)
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	start := len(s) - tail
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	if start <= head {
		return s
	}
	return s[:head] + "…" + s[start:]
}

// cut returns s cut to at most n bytes at a rune boundary, with "…" when
// something was cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// A command is the tool call of a text-form agent: the block at the end of
// an assistant message that the agent's harness runs.
type command struct {
	tool string // the function's name or the command's first word
	call string // the call, one line, cut to maxCallBytes
}

// textCommand returns the command an assistant message ends with:
// SWE-smith's <function=NAME><parameter=KEY>VALUE</parameter>…</function>
// block, or SWE-agent's bare ``` fenced block. A fence with an info string
// ("```python") is code shown to a person, not a command, and a message
// that ends in prose has none.
func textCommand(m *chat.Message) (command, bool) {
	var b strings.Builder
	for k := range m.Parts {
		if m.Parts[k].Type == chat.Text {
			b.WriteString(m.Parts[k].Text)
			b.WriteByte('\n')
		}
	}
	text := strings.TrimRight(b.String(), " \t\r\n")
	if strings.HasSuffix(text, "</function>") {
		if i := strings.LastIndex(text, "<function="); i >= 0 {
			return functionCommand(text[i:])
		}
		return command{}, false
	}
	if !strings.HasSuffix(text, "```") {
		return command{}, false
	}
	body := strings.TrimSuffix(text, "```")
	open := strings.LastIndex(body, "```")
	if open < 0 || strings.TrimRight(body[open+3:], " \t\r\n") == "" {
		return command{}, false
	}
	rest := body[open+3:]
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 || strings.TrimSpace(rest[:nl]) != "" {
		return command{}, false // an info string, or no line break
	}
	lines := strings.Split(strings.TrimSpace(rest[nl+1:]), "\n")
	call := strings.TrimSpace(lines[0])
	if len(lines) > 1 {
		call += " …"
	}
	tool, _, _ := strings.Cut(call, " ")
	return command{tool: tool, call: cut(call, maxCallBytes)}, true
}

// functionCommand reads a <function=NAME>…</function> block as
// "NAME key=value …" with every value on one line.
func functionCommand(block string) (command, bool) {
	head, body, ok := strings.Cut(strings.TrimPrefix(block, "<function="), ">")
	name := strings.TrimSpace(head)
	if !ok || name == "" || strings.ContainsAny(name, " \n<") {
		return command{}, false
	}
	call := name
	for {
		i := strings.Index(body, "<parameter=")
		if i < 0 {
			break
		}
		body = body[i+len("<parameter="):]
		key, rest, ok := strings.Cut(body, ">")
		if !ok {
			break
		}
		value, after, _ := strings.Cut(rest, "</parameter>")
		value = strings.Join(strings.Fields(value), " ")
		call += " " + strings.TrimSpace(key) + "=" + cut(value, 80)
		body = after
	}
	return command{tool: name, call: cut(call, maxCallBytes)}, true
}
