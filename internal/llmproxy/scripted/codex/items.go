package codex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// A request is the part of a POST /v1/responses body the fake reads.
type request struct {
	Model              string          `json:"model"`
	Instructions       string          `json:"instructions"`
	Input              json.RawMessage `json:"input"`
	Tools              json.RawMessage `json:"tools"`
	Stream             bool            `json:"stream"`
	Store              *bool           `json:"store"`
	PreviousResponseID string          `json:"previous_response_id"`
	PromptCacheKey     string          `json:"prompt_cache_key"`
	Include            []string        `json:"include"`
	ParallelToolCalls  *bool           `json:"parallel_tool_calls"`
	Reasoning          json.RawMessage `json:"reasoning"`

	items []item // Input decoded
	tools []tool // Tools decoded
}

// An item is one element of a request's input, with the fields the rules and the bill
// look at. Fields the fake does not know are ignored.
type item struct {
	Type             string          `json:"type"`
	ID               string          `json:"id"`
	Role             string          `json:"role"`
	CallID           string          `json:"call_id"`
	Name             string          `json:"name"`
	Arguments        string          `json:"arguments"`
	Input            string          `json:"input"`
	Output           json.RawMessage `json:"output"`
	Content          json.RawMessage `json:"content"`
	EncryptedContent *string         `json:"encrypted_content"`
	Action           json.RawMessage `json:"action"`

	raw json.RawMessage
}

// A tool is one entry of the request's tools.
type tool struct {
	Type  string `json:"type"`
	Name  string `json:"name"`
	Tools []tool `json:"tools"` // a namespace's
}

// Item types of the Responses API that the rules distinguish.
const (
	typeMessage          = "message"
	typeReasoning        = "reasoning"
	typeFunctionCall     = "function_call"
	typeFunctionOutput   = "function_call_output"
	typeCustomCall       = "custom_tool_call"
	typeCustomOutput     = "custom_tool_call_output"
	typeLocalShellCall   = "local_shell_call"
	typeLocalShellOutput = "local_shell_call_output"
)

// outputType maps each tool call type to the type of its output.
var outputType = map[string]string{
	typeFunctionCall:   typeFunctionOutput,
	typeCustomCall:     typeCustomOutput,
	typeLocalShellCall: typeLocalShellOutput,
}

// callType maps each tool output type to the type of its call.
var callType = map[string]string{
	typeFunctionOutput:   typeFunctionCall,
	typeCustomOutput:     typeCustomCall,
	typeLocalShellOutput: typeLocalShellCall,
}

// callNoun names a call type the way the API's error messages do.
var callNoun = map[string]string{
	typeFunctionCall:   "function call",
	typeCustomCall:     "custom tool call",
	typeLocalShellCall: "local shell call",
}

// idPrefix is the prefix the API gives the ids of the items it produces.
var idPrefix = map[string]string{
	typeReasoning:    "rs",
	typeFunctionCall: "fc",
	typeCustomCall:   "ctc",
	typeMessage:      "msg",
}

// decodeRequest parses a request body: the input as a list of items (a string input
// is one user message) and the tools.
func decodeRequest(body []byte) (*request, error) {
	var r request
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("the body is not valid JSON: %w", err)
	}
	in := bytes.TrimSpace(r.Input)
	switch {
	case len(in) == 0 || string(in) == "null":
	case in[0] == '"':
		var s string
		if err := json.Unmarshal(in, &s); err != nil {
			return nil, fmt.Errorf("input: %w", err)
		}
		r.items = []item{{Type: typeMessage, Role: "user", Content: in, raw: in}}
	default:
		var raws []json.RawMessage
		if err := json.Unmarshal(in, &raws); err != nil {
			return nil, fmt.Errorf("input: %w", err)
		}
		r.items = make([]item, len(raws))
		for i, raw := range raws {
			if err := json.Unmarshal(raw, &r.items[i]); err != nil {
				return nil, fmt.Errorf("input[%d]: %w", i, err)
			}
			if r.items[i].Type == "" && r.items[i].Role != "" {
				r.items[i].Type = typeMessage // an EasyInputMessage
			}
			r.items[i].raw = raw
		}
	}
	if len(bytes.TrimSpace(r.Tools)) > 0 && string(bytes.TrimSpace(r.Tools)) != "null" {
		if err := json.Unmarshal(r.Tools, &r.tools); err != nil {
			return nil, fmt.Errorf("tools: %w", err)
		}
	}
	return &r, nil
}

// hasTool reports whether the request offers a tool of that type and name.
func (r *request) hasTool(typ, name string) bool {
	for _, t := range r.tools {
		if t.Type == typ && (name == "" || t.Name == name) {
			return true
		}
	}
	return false
}

// text returns the text of a message's content or of a tool output: a string, or the
// text of each part of a list, one per line; an image part is "[image]".
func text(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		json.Unmarshal(raw, &s)
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return string(raw)
	}
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('\n')
		}
		if strings.Contains(p.Type, "image") {
			b.WriteString("[image]")
		} else {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}
