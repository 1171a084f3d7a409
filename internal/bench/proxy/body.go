package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// MessagesBody returns a /v1/messages request body of about size bytes (never less) shaped
// like a coding agent's: a system prompt, tool definitions, and turns of a user request, an
// assistant reply with a tool call, and the tool's result (source files with line numbers,
// JSON from an API, test logs), as an agent resends them on every turn. The same size gives
// the same bytes.
func MessagesBody(size int, stream bool) []byte {
	rng := rand.New(rand.NewPCG(1, uint64(size)))
	req := request(rng, stream)
	messages := []map[string]any{}
	req["messages"] = messages
	total := len(mustMarshal(req)) // grows by each message and its comma
	for turn := 0; total < size; turn++ {
		for _, m := range turnMessages(rng, turn) {
			messages = append(messages, m)
			total += len(mustMarshal(m)) + 1
		}
	}
	req["messages"] = messages
	return mustMarshal(req)
}

// request returns the members of a request other than its messages.
func request(rng *rand.Rand, stream bool) map[string]any {
	return map[string]any{
		"model":      "claude-sonnet-4-5",
		"max_tokens": 32000,
		"stream":     stream,
		"system": []map[string]any{{"type": "text", "cache_control": map[string]string{"type": "ephemeral"},
			"text": "You are an interactive CLI tool that helps users with software engineering tasks. " + prose(rng, 120)}},
		"tools": tools(),
	}
}

// turnMessages returns one turn: a user request, the assistant's reply with a tool call, and
// the tool's result.
func turnMessages(rng *rand.Rand, turn int) []map[string]any {
	id := fmt.Sprintf("toolu_%024d", turn)
	tool, input, result := toolCall(rng, turn)
	return []map[string]any{
		{"role": "user", "content": []map[string]any{{"type": "text", "text": prose(rng, 30)}}},
		{"role": "assistant", "content": []map[string]any{
			{"type": "text", "text": prose(rng, 20)},
			{"type": "tool_use", "id": id, "name": tool, "input": input},
		}},
		{"role": "user", "content": []map[string]any{{"type": "tool_result", "tool_use_id": id, "content": result}}},
	}
}

// Conversation returns the bodies of n consecutive requests of one agent conversation, as
// the agent sends them: each repeats the one before it byte for byte up to the end of its
// messages and adds one turn (see MessagesBody), and request n/2 is about size bytes. id
// tells conversations apart: each id has its own task (first message) and history. The
// same arguments give the same bytes.
func Conversation(size, n int, id uint64) [][]byte {
	rng := rand.New(rand.NewPCG(2+id, uint64(size)))
	empty := mustMarshal(request(rng, false))
	// json.Marshal sorts keys: max_tokens, messages, model, stream, system, tools.
	head, tail, _ := bytes.Cut(empty, []byte(`"system"`))
	head = append(bytes.Clone(head), `"messages":[`...)
	tail = append([]byte(`],"system"`), tail...)
	var msgs [][]byte
	total, turns := len(head)+len(tail), 0
	for ; total < size; turns++ {
		for _, m := range turnMessages(rng, turns) {
			msgs = append(msgs, mustMarshal(m))
			total += len(msgs[len(msgs)-1]) + 1
		}
	}
	first := max(turns-n/2, 1) // turns in the first request
	for range first + n - 1 - turns {
		for _, m := range turnMessages(rng, len(msgs)/3) {
			msgs = append(msgs, mustMarshal(m))
		}
	}
	bodies := make([][]byte, n)
	for k := range bodies {
		body := bytes.Clone(head)
		body = append(body, bytes.Join(msgs[:3*(first+k)], []byte{','})...)
		bodies[k] = append(body, tail...)
	}
	return bodies
}

// mustMarshal marshals maps of strings, numbers and booleans, which cannot fail.
func mustMarshal(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}

func tools() []map[string]any {
	schema := func(props ...string) map[string]any {
		p := map[string]any{}
		for _, name := range props {
			p[name] = map[string]string{"type": "string", "description": "The " + name + " to use"}
		}
		return map[string]any{"type": "object", "properties": p, "required": props[:1]}
	}
	return []map[string]any{
		{"name": "Read", "description": "Reads a file from the local filesystem.", "input_schema": schema("file_path", "offset", "limit")},
		{"name": "Bash", "description": "Executes a bash command in a persistent shell session.", "input_schema": schema("command", "timeout")},
		{"name": "Grep", "description": "A search tool built on ripgrep.", "input_schema": schema("pattern", "path", "glob")},
		{"name": "WebFetch", "description": "Fetches content from a URL.", "input_schema": schema("url", "prompt")},
	}
}

// toolCall returns one tool call and its result, rotating through the kinds of output an
// agent reads most: source code, JSON and logs.
func toolCall(rng *rand.Rand, turn int) (name string, input map[string]any, result string) {
	switch turn % 3 {
	case 0:
		path := fmt.Sprintf("internal/%s/%s.go", word(rng), word(rng))
		return "Read", map[string]any{"file_path": "/repo/" + path}, source(rng, 120)
	case 1:
		return "Bash", map[string]any{"command": "gh api repos/acme/widgets/issues?per_page=20"}, issuesJSON(rng, 20)
	default:
		return "Bash", map[string]any{"command": "go test ./..."}, testLog(rng, 80)
	}
}

var words = strings.Fields(`request response handler config index token budget stream cache
session buffer parse encode decode route upstream client server message content block
result error context writer reader value count limit offset query symbol file path`)

func word(rng *rand.Rand) string { return words[rng.IntN(len(words))] }

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func prose(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(word(rng))
		if rng.IntN(12) == 0 {
			b.WriteByte('.')
		}
	}
	return b.String()
}

// source is a Go file as the Read tool shows it: numbered lines with a tab.
func source(rng *rand.Rand, lines int) string {
	var b strings.Builder
	for i := 1; i <= lines; i++ {
		var line string
		switch rng.IntN(6) {
		case 0:
			line = fmt.Sprintf("func (%c *%s) %s%s(ctx context.Context, %s %s) error {", word(rng)[0], title(word(rng)), title(word(rng)), title(word(rng)), word(rng), title(word(rng)))
		case 1:
			line = fmt.Sprintf("\tif err := %s.%s(%s); err != nil {\n\t\treturn fmt.Errorf(\"%s %s: %%w\", err)\n\t}", word(rng), title(word(rng)), word(rng), word(rng), word(rng))
		case 2:
			line = fmt.Sprintf("\t// %s", prose(rng, 10))
		case 3:
			line = fmt.Sprintf("\t%s := %s[%d:%s]", word(rng), word(rng), rng.IntN(64), word(rng))
		case 4:
			line = "}"
		default:
			line = fmt.Sprintf("\t%s.%s = append(%s.%s, %s)", word(rng), title(word(rng)), word(rng), title(word(rng)), word(rng))
		}
		fmt.Fprintf(&b, "%6d\t%s\n", i, line)
	}
	return b.String()
}

func issuesJSON(rng *rand.Rand, n int) string {
	issues := make([]map[string]any, n)
	for i := range issues {
		issues[i] = map[string]any{
			"number": 1000 + rng.IntN(9000), "state": "open", "title": title(prose(rng, 8)),
			"user":   map[string]any{"login": word(rng) + word(rng), "id": rng.IntN(1 << 24), "type": "User"},
			"labels": []map[string]string{{"name": word(rng), "color": fmt.Sprintf("%06x", rng.IntN(1<<24))}},
			"body":   prose(rng, 60), "comments": rng.IntN(30),
			"created_at": fmt.Sprintf("2025-%02d-%02dT%02d:%02d:00Z", 1+rng.IntN(12), 1+rng.IntN(28), rng.IntN(24), rng.IntN(60)),
			"html_url":   fmt.Sprintf("https://github.com/acme/widgets/issues/%d", rng.IntN(10000)),
		}
	}
	data, err := json.MarshalIndent(issues, "", "  ")
	if err != nil {
		panic(err) // maps of plain values always marshal
	}
	return string(data)
}

func testLog(rng *rand.Rand, lines int) string {
	var b strings.Builder
	for range lines {
		switch rng.IntN(4) {
		case 0:
			fmt.Fprintf(&b, "=== RUN   Test%s%s\n", title(word(rng)), title(word(rng)))
		case 1:
			fmt.Fprintf(&b, "--- PASS: Test%s%s (0.%02ds)\n", title(word(rng)), title(word(rng)), rng.IntN(100))
		case 2:
			fmt.Fprintf(&b, "    %s_test.go:%d: %s\n", word(rng), rng.IntN(400), prose(rng, 9))
		default:
			fmt.Fprintf(&b, "ok  \tgithub.com/acme/widgets/internal/%s\t0.%03ds\n", word(rng), rng.IntN(1000))
		}
	}
	return b.String()
}
