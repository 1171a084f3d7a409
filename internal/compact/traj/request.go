package traj

import (
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strconv"
)

// Default request settings.
const (
	DefaultOpenAIModel    = "gpt-4o"
	DefaultAnthropicModel = "claude-sonnet-4-5"
	DefaultMaxTokens      = 4096
)

// RequestOptions set the fields of a request that a trajectory does not
// decide. The zero value means the defaults.
type RequestOptions struct {
	// Model names the model in every request; empty means the
	// trajectory's Model, else DefaultOpenAIModel or DefaultAnthropicModel.
	Model string
	// MaxTokens is the request's max_tokens; 0 means DefaultMaxTokens.
	MaxTokens int
}

// A Request is the request body an agent sent for one assistant turn.
type Request struct {
	Turn int    // index in Trajectory.Messages of the assistant message it asked for
	Body []byte // the body, compact JSON
}

// Requests returns the requests the agent of t sent, in order: one per
// assistant message, whose messages are all the messages before it. Each
// body is {"model", "max_tokens", "system" (Anthropic, when t has one),
// "tools" (when t has some), "messages"}, ready for the dialect's API.
// The iterator stops at the first error, which it yields with a zero
// Request; errors can only come from a Trajectory that was not loaded by
// this package and fails Validate.
func Requests(t Trajectory, opts *RequestOptions) iter.Seq2[Request, error] {
	return func(yield func(Request, error) bool) {
		head, roles, err := requestHead(t, opts)
		if err != nil {
			yield(Request{}, err)
			return
		}
		// Every body shares its head and a prefix of messages: build the
		// message list once and cut it.
		body := head
		var ends []int // ends[i]: length of body after message i
		for _, m := range t.Messages {
			if len(ends) > 0 {
				body = append(body, ',')
			}
			body = append(body, m...)
			ends = append(ends, len(body))
		}
		for i, role := range roles {
			if role != "assistant" || i == 0 {
				continue
			}
			b := make([]byte, 0, ends[i-1]+2)
			b = append(append(b, body[:ends[i-1]]...), "]}"...)
			if !yield(Request{Turn: i, Body: b}, nil) {
				return
			}
		}
	}
}

// requestHead validates t and returns the start of every body, up to and
// including `"messages":[`, and the role of each message.
func requestHead(t Trajectory, opts *RequestOptions) ([]byte, []string, error) {
	if opts == nil {
		opts = &RequestOptions{}
	}
	if err := t.Validate(); err != nil {
		return nil, nil, fmt.Errorf("requests of %s: %w", t.Name, err)
	}
	roles := make([]string, len(t.Messages))
	for i, m := range t.Messages {
		var r struct {
			Role string `json:"role"`
		}
		if err := json.Unmarshal(m, &r); err != nil {
			return nil, nil, fmt.Errorf("requests of %s: message %d: %w", t.Name, i, err)
		}
		roles[i] = r.Role
	}
	model := opts.Model
	if model == "" {
		model = t.Model
	}
	if model == "" {
		model = DefaultOpenAIModel
		if t.Dialect == Anthropic {
			model = DefaultAnthropicModel
		}
	}
	maxTokens := opts.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	b := appendString([]byte(`{"model":`), model)
	b = append(b, `,"max_tokens":`...)
	b = strconv.AppendInt(b, int64(maxTokens), 10)
	if t.System != "" {
		if t.Dialect != Anthropic {
			return nil, nil, fmt.Errorf("requests of %s: a System prompt outside the messages is Anthropic's; OpenAI's is a message", t.Name)
		}
		b = appendString(append(b, `,"system":`...), t.System)
	}
	if len(t.Tools) > 0 {
		b = append(b, `,"tools":[`...)
		for i, tool := range t.Tools {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, tool...)
		}
		b = append(b, ']')
	}
	return append(b, `,"messages":[`...), roles, nil
}

// Parts are the parts of a request body a model reads, in the order a
// provider lays them out before the prompt cache: tools, system prompt,
// messages. Other fields (model, max_tokens, sampling settings) are not
// prompt and are left out.
type Parts struct {
	Model    string
	Tools    []json.RawMessage
	System   json.RawMessage // Anthropic's top-level system prompt; nil when absent
	Messages []json.RawMessage
}

// ParseRequest splits a request body of either dialect into its Parts.
func ParseRequest(body []byte) (Parts, error) {
	var r struct {
		Model    string            `json:"model"`
		Tools    []json.RawMessage `json:"tools"`
		System   json.RawMessage   `json:"system"`
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return Parts{}, fmt.Errorf("request body: %w", err)
	}
	if r.Messages == nil {
		return Parts{}, errors.New("request body: no messages")
	}
	if isNull(r.System) {
		r.System = nil
	}
	return Parts{Model: r.Model, Tools: r.Tools, System: r.System, Messages: r.Messages}, nil
}
