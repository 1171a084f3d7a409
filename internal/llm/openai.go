package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// DefaultOpenAIBaseURL is the chat completions API of OpenAI itself.
const DefaultOpenAIBaseURL = "https://api.openai.com/v1"

// maxResponseBytes bounds the answer read from a server.
const maxResponseBytes = 16 << 20

// openAIClient speaks the chat completions API: POST {base}/chat/completions, non-streaming.
type openAIClient struct {
	endpoint string
	key      string
	http     *http.Client
}

func newOpenAI(o *Options) (*openAIClient, error) {
	base := o.BaseURL
	if base == "" {
		base = DefaultOpenAIBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("new llm client: base URL %q must be an http or https URL", base)
	}
	return &openAIClient{endpoint: strings.TrimRight(base, "/") + "/chat/completions", key: o.APIKey, http: o.HTTPClient}, nil
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model     string        `json:"model"`
	Messages  []chatMessage `json:"messages"`
	MaxTokens int           `json:"max_tokens,omitempty"`
}

type chatResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func (c *openAIClient) send(ctx context.Context, req Request) (*Response, error) {
	body := chatRequest{Model: req.Model, MaxTokens: req.MaxTokens}
	if req.System != "" {
		body.Messages = append(body.Messages, chatMessage{Role: "system", Content: req.System})
	}
	body.Messages = append(body.Messages, chatMessage{Role: "user", Content: req.Prompt})
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("encode chat request: %w", err)
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("chat request: %w", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	if c.key != "" {
		hr.Header.Set("Authorization", "Bearer "+c.key)
	}
	resp, err := c.http.Do(hr)
	if err != nil {
		return nil, fmt.Errorf("POST %s: %w", c.endpoint, unwrapURLError(err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return nil, fmt.Errorf("read chat response: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, &APIError{Status: resp.StatusCode, Message: trimBody(data), RetryAfter: retryAfter(resp.Header)}
	}
	var cr chatResponse
	if err := json.Unmarshal(data, &cr); err != nil {
		return nil, fmt.Errorf("decode chat response: %w", err)
	}
	if cr.Error != nil {
		return nil, &APIError{Status: resp.StatusCode, Message: cr.Error.Message}
	}
	if len(cr.Choices) == 0 {
		return nil, fmt.Errorf("chat response has no choices")
	}
	return &Response{
		Text:         cr.Choices[0].Message.Content,
		Model:        cr.Model,
		StopReason:   cr.Choices[0].FinishReason,
		InputTokens:  cr.Usage.PromptTokens,
		OutputTokens: cr.Usage.CompletionTokens,
	}, nil
}

// unwrapURLError drops *url.Error's repetition of method and URL, which the caller states.
func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}
