package llm

import (
	"context"
	"errors"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// anthropicClient sends Messages API requests through the official SDK, with the SDK's own
// retries off (the Client retries, counting attempts) and its environment defaults off (the
// key and base URL come from the caller, never from variables the SDK reads itself).
type anthropicClient struct {
	api anthropic.Client
}

func newAnthropic(o *Options) *anthropicClient {
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithoutOpenTelemetry(),
		option.WithMaxRetries(0),
		option.WithHTTPClient(o.HTTPClient),
	}
	if o.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(o.BaseURL))
	}
	if o.APIKey != "" {
		opts = append(opts, option.WithAPIKey(o.APIKey))
	}
	return &anthropicClient{api: anthropic.NewClient(opts...)}
}

func (a *anthropicClient) send(ctx context.Context, req Request) (*Response, error) {
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(req.Model),
		MaxTokens: int64(req.MaxTokens),
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(req.Prompt))},
	}
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	msg, err := a.api.Messages.New(ctx, params)
	if err != nil {
		var ae *anthropic.Error
		if errors.As(err, &ae) {
			out := &APIError{Status: ae.StatusCode, Message: trimBody([]byte(ae.RawJSON()))}
			if ae.Response != nil {
				out.RetryAfter = retryAfter(ae.Response.Header)
			}
			return nil, out
		}
		return nil, err
	}
	var text strings.Builder
	for _, block := range msg.Content {
		if block.Type == "text" {
			text.WriteString(block.Text)
		}
	}
	return &Response{
		Text:         text.String(),
		Model:        string(msg.Model),
		StopReason:   string(msg.StopReason),
		InputTokens:  int(msg.Usage.InputTokens),
		OutputTokens: int(msg.Usage.OutputTokens),
	}, nil
}
