package llmproxy

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/winnowhq/winnow/internal/telemetry"
)

// Limits of what a usageTap keeps in memory.
const (
	// maxUsageJSON bounds the copy of a JSON response kept to read its usage at the end; a
	// larger response is not read for usage.
	maxUsageJSON = 4 << 20
	// maxUsageEvent bounds one data line of an event that carries usage (a Responses
	// response.completed repeats the whole response, output included).
	maxUsageEvent = 8 << 20
	// maxUnnamedEvent bounds one data line of an unnamed event (OpenAI chat chunks, a few
	// hundred bytes; the last carries the usage).
	maxUnnamedEvent = 64 << 10
	// maxOtherLine bounds any other line (event:, id:, comments).
	maxOtherLine = 256
)

// A usageTap is a response body that, as the proxy copies it to the client, reads the
// usage the upstream billed and the context edits it applied, without holding the
// stream back or buffering it: an event stream is scanned line by line, keeping only the
// data lines of the events that carry usage, and it stops looking once it has the usage;
// a JSON body is copied aside (up to maxUsageJSON) and read at its end.
type usageTap struct {
	io.ReadCloser
	anthropic bool

	sse      bool
	gzipped  bool          // a gzip-encoded JSON body
	json     *bytes.Buffer // the JSON body so far, nil once given up
	line     []byte        // the current line of a stream, when kept
	skipping bool          // dropping the rest of the current line
	event    string        // the name of the current event, "" between events
	done     bool          // the usage is complete: stop looking
	usage    *usageCounts  // nil until some usage was seen
	edits    []telemetry.ServerEdit
	partial  bool // the stream ended before its usage was complete
}

// usageCounts are a response's usage as the API reported it; nil fields were absent.
type usageCounts struct {
	input, cacheWrite, cacheRead, output int
}

// newUsageTap returns a tap on res's body, or nil when the response cannot carry usage
// the tap can read: not a success, not JSON or an event stream, or encoded in a way
// other than gzip (gzip only for JSON).
func newUsageTap(res *http.Response, dialect string) *usageTap {
	if res.StatusCode != http.StatusOK || res.Body == nil || res.Body == http.NoBody {
		return nil
	}
	mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type"))
	enc := strings.ToLower(res.Header.Get("Content-Encoding"))
	t := &usageTap{ReadCloser: res.Body, anthropic: dialect == DialectAnthropic}
	switch {
	case mt == "text/event-stream" && (enc == "" || enc == "identity"):
		t.sse = true
	case mt == "application/json" && (enc == "" || enc == "identity" || enc == "gzip"):
		t.gzipped = enc == "gzip"
		t.json = new(bytes.Buffer)
	default:
		return nil
	}
	return t
}

// Read reads from the upstream's body and scans what it read.
func (t *usageTap) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	if n > 0 {
		t.scan(p[:n])
	}
	return n, err
}

func (t *usageTap) scan(p []byte) {
	switch {
	case t.sse && !t.done:
		t.scanLines(p)
	case t.json != nil:
		if t.json.Len()+len(p) > maxUsageJSON {
			t.json = nil
			return
		}
		t.json.Write(p)
	}
}

// scanLines splits the stream into lines, keeping each one only as far as its limit.
func (t *usageTap) scanLines(p []byte) {
	for len(p) > 0 && !t.done {
		i := bytes.IndexByte(p, '\n')
		if t.skipping {
			if i < 0 {
				return
			}
			t.skipping, p = false, p[i+1:]
			continue
		}
		part := p
		if i >= 0 {
			part, p = p[:i], p[i+1:]
		} else {
			p = nil
		}
		if len(t.line)+len(part) > t.limit(t.line, part) {
			t.line, t.skipping = t.line[:0], i < 0
			continue
		}
		t.line = append(t.line, part...)
		if i >= 0 {
			t.handleLine(bytes.TrimSuffix(t.line, []byte("\r")))
			t.line = t.line[:0]
		}
	}
}

// limit is how long the current line (kept so far, and the next part of it) may grow
// before it is dropped: long for the data of an event that carries usage, short for
// everything else.
func (t *usageTap) limit(kept, next []byte) int {
	head := kept
	if len(head) < len("event:") {
		head = append(head[:len(head):len(head)], next[:min(len(next), len("event:"))]...)
	}
	switch {
	case len(head) < len("data:"):
		return maxOtherLine
	case bytes.HasPrefix(head, []byte("data:")) && t.event == "":
		return maxUnnamedEvent
	case bytes.HasPrefix(head, []byte("data:")) && carriesUsage(t.event):
		return maxUsageEvent
	case bytes.HasPrefix(head, []byte("data:")):
		return 0
	}
	return maxOtherLine
}

// carriesUsage reports whether events named name carry usage or context edits:
// Anthropic's message_start and message_delta, and the Responses API's final events.
func carriesUsage(name string) bool {
	switch name {
	case "message_start", "message_delta", "response.completed", "response.incomplete", "response.failed":
		return true
	}
	return false
}

// handleLine reads one whole line of the stream.
func (t *usageTap) handleLine(line []byte) {
	switch {
	case len(line) == 0:
		t.event = ""
	case bytes.HasPrefix(line, []byte("event:")):
		t.event = string(bytes.TrimSpace(line[len("event:"):]))
	case bytes.HasPrefix(line, []byte("data:")):
		t.data(bytes.TrimSpace(line[len("data:"):]))
	}
}

// data reads the data of one event.
func (t *usageTap) data(d []byte) {
	if len(d) == 0 || d[0] != '{' {
		return // [DONE]
	}
	if t.anthropic {
		t.anthropicEvent(d)
		return
	}
	if t.event == "" && !bytes.Contains(d, []byte(`"usage"`)) {
		return // a chat chunk without usage: most of them
	}
	if t.openaiBody(d) {
		t.done = true
	}
}

// anthropicUsage is the usage object of the Messages API.
type anthropicUsage struct {
	InputTokens              *int `json:"input_tokens"`
	CacheCreationInputTokens *int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     *int `json:"cache_read_input_tokens"`
	OutputTokens             *int `json:"output_tokens"`
}

// contextManagement is the context_management object of a Messages API response.
type contextManagement struct {
	AppliedEdits []struct {
		Type               string `json:"type"`
		ClearedToolUses    int    `json:"cleared_tool_uses"`
		ClearedInputTokens int    `json:"cleared_input_tokens"`
	} `json:"applied_edits"`
}

// anthropicEvent reads message_start (the usage so far) and message_delta (the final
// counts, each cumulative, and the context edits applied).
func (t *usageTap) anthropicEvent(d []byte) {
	var ev struct {
		Type    string `json:"type"`
		Message struct {
			Usage *anthropicUsage `json:"usage"`
		} `json:"message"`
		Usage             *anthropicUsage    `json:"usage"`
		ContextManagement *contextManagement `json:"context_management"`
	}
	if json.Unmarshal(d, &ev) != nil {
		return
	}
	switch ev.Type {
	case "message_start":
		t.mergeAnthropic(ev.Message.Usage)
		t.partial = true
	case "message_delta":
		t.mergeAnthropic(ev.Usage)
		t.addEdits(ev.ContextManagement)
		t.partial, t.done = false, true
	}
}

// mergeAnthropic takes the counts u has over the ones seen before.
func (t *usageTap) mergeAnthropic(u *anthropicUsage) {
	if u == nil {
		return
	}
	if t.usage == nil {
		t.usage = &usageCounts{}
	}
	set := func(dst *int, v *int) {
		if v != nil {
			*dst = *v
		}
	}
	set(&t.usage.input, u.InputTokens)
	set(&t.usage.cacheWrite, u.CacheCreationInputTokens)
	set(&t.usage.cacheRead, u.CacheReadInputTokens)
	set(&t.usage.output, u.OutputTokens)
}

func (t *usageTap) addEdits(cm *contextManagement) {
	if cm == nil {
		return
	}
	for _, e := range cm.AppliedEdits {
		t.edits = append(t.edits, telemetry.ServerEdit{Type: e.Type, ClearedToolUses: e.ClearedToolUses, ClearedInputTokens: e.ClearedInputTokens})
	}
}

// openaiUsage is the usage object of chat completions (prompt_/completion_tokens) and of
// the Responses API (input_/output_tokens); cached tokens are part of the prompt's.
type openaiUsage struct {
	PromptTokens        *int          `json:"prompt_tokens"`
	CompletionTokens    *int          `json:"completion_tokens"`
	PromptTokensDetails *cachedTokens `json:"prompt_tokens_details"`
	InputTokens         *int          `json:"input_tokens"`
	OutputTokens        *int          `json:"output_tokens"`
	InputTokensDetails  *cachedTokens `json:"input_tokens_details"`
}

type cachedTokens struct {
	CachedTokens int `json:"cached_tokens"`
}

// openaiBody reads the usage of a chat completion or chunk (usage at the top) or of a
// Responses API response or event (usage in response), and reports whether it found it.
func (t *usageTap) openaiBody(d []byte) bool {
	var body struct {
		Usage    *openaiUsage `json:"usage"`
		Response *struct {
			Usage *openaiUsage `json:"usage"`
		} `json:"response"`
	}
	if json.Unmarshal(d, &body) != nil {
		return false
	}
	u := body.Usage
	if u == nil && body.Response != nil {
		u = body.Response.Usage
	}
	if u == nil {
		return false
	}
	prompt, cached, output := u.PromptTokens, u.PromptTokensDetails, u.CompletionTokens
	if prompt == nil {
		prompt, cached, output = u.InputTokens, u.InputTokensDetails, u.OutputTokens
	}
	if prompt == nil {
		return false
	}
	c := &usageCounts{input: *prompt}
	if cached != nil {
		c.cacheRead = min(cached.CachedTokens, *prompt)
		c.input -= c.cacheRead
	}
	if output != nil {
		c.output = *output
	}
	t.usage = c
	return true
}

// finish reads a JSON body's usage, once the body has been read to its end.
func (t *usageTap) finish() {
	if t.json == nil || t.done {
		return
	}
	t.done = true
	data := t.json.Bytes()
	if t.gzipped {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		if data, err = io.ReadAll(io.LimitReader(zr, maxUsageJSON)); err != nil {
			return
		}
	}
	if !t.anthropic {
		t.openaiBody(data)
		return
	}
	var msg struct {
		Usage             *anthropicUsage    `json:"usage"`
		ContextManagement *contextManagement `json:"context_management"`
	}
	if json.Unmarshal(data, &msg) == nil {
		t.mergeAnthropic(msg.Usage)
		t.addEdits(msg.ContextManagement)
	}
}

// ended reports whether a stream has sent its final counts: a client that hangs up after
// them (Codex does, right after response.completed) has had the whole answer.
func (t *usageTap) ended() bool {
	return t != nil && t.sse && t.done && !t.partial
}

// result returns the usage and the context edits the response reported; usage is nil
// when it reported none, or a stream ended before its final counts.
func (t *usageTap) result() (*telemetry.Usage, []telemetry.ServerEdit) {
	if t == nil {
		return nil, nil
	}
	t.finish()
	if t.usage == nil || t.partial {
		return nil, t.edits
	}
	u := t.usage
	return &telemetry.Usage{Input: u.input, CacheWrite: u.cacheWrite, CacheRead: u.cacheRead, Output: u.output}, t.edits
}
