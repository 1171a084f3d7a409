package llmproxy_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/winnowhq/winnow/internal/llmproxy"
)

// TestAnthropicSDK drives the proxy with the official Go SDK, streaming and not, with a
// rewriting Rewriter in the proxy: the SDK gets whole answers, the upstream gets the
// rewritten body with the SDK's own headers.
func TestAnthropicSDK(t *testing.T) {
	h := newHarness(t, nil, &llmproxy.Options{Rewriter: newDropField(t, "metadata")})
	client := anthropic.NewClient(
		option.WithoutEnvironmentDefaults(),
		option.WithoutOpenTelemetry(),
		option.WithBaseURL(h.url),
		option.WithAPIKey("sk-ant-sdk-test-key"),
		option.WithMaxRetries(0),
	)
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model("claude-sonnet-4-5"),
		MaxTokens: 64,
		Metadata:  anthropic.MetadataParam{UserID: anthropic.String("user-to-drop")},
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Say hello."))},
	}

	t.Run("non-streaming", func(t *testing.T) {
		var res *http.Response
		msg, err := client.Messages.New(t.Context(), params, option.WithResponseInto(&res))
		if err != nil {
			t.Fatalf("Messages.New: %v", err)
		}
		if len(msg.Content) != 1 || msg.Content[0].Text != "Hello, world" || msg.StopReason != anthropic.StopReasonEndTurn {
			t.Errorf("message %+v", msg)
		}
		if g := res.Header.Get(llmproxy.HeaderRewrite); g != llmproxy.RewriteChanged {
			t.Errorf("%s = %q", llmproxy.HeaderRewrite, g)
		}
		checkSDKRequest(t, h)
		h.logs.next(t)
	})

	t.Run("streaming", func(t *testing.T) {
		stream := client.Messages.NewStreaming(t.Context(), params)
		defer stream.Close()
		var msg anthropic.Message
		var types []string
		for stream.Next() {
			ev := stream.Current()
			types = append(types, ev.Type)
			if err := msg.Accumulate(ev); err != nil {
				t.Fatalf("accumulate %s: %v", ev.Type, err)
			}
		}
		if err := stream.Err(); err != nil {
			t.Fatalf("stream: %v", err)
		}
		if len(msg.Content) != 1 || msg.Content[0].Text != "Hello, world" || msg.StopReason != anthropic.StopReasonEndTurn {
			t.Errorf("accumulated message %+v from events %v", msg, types)
		}
		if types[0] != "message_start" || types[len(types)-1] != "message_stop" {
			t.Errorf("events %v", types)
		}
		checkSDKRequest(t, h)
		h.logs.next(t)
	})

	t.Run("upstream error", func(t *testing.T) {
		_, err := client.Messages.New(t.Context(), params, option.WithHeader("X-Fake-Status", "529"))
		var apiErr *anthropic.Error
		if !errors.As(err, &apiErr) || apiErr.StatusCode != 529 {
			t.Fatalf("err = %v, want an API error with status 529", err)
		}
		if !strings.Contains(apiErr.Error(), "fake status 529") {
			t.Errorf("the SDK error lost the upstream's message: %v", apiErr)
		}
		h.logs.next(t)
	})
}

// checkSDKRequest checks the last request upstream: the rewritten body and the SDK headers.
func checkSDKRequest(t *testing.T, h *harness) {
	t.Helper()
	got := h.lastReceived(t)
	if strings.Contains(string(got.Body), "metadata") || !strings.Contains(string(got.Body), "Say hello.") {
		t.Errorf("upstream body %s, want it without metadata and with the message", got.Body)
	}
	if got.Header.Get("X-Api-Key") != "sk-ant-sdk-test-key" || got.Header.Get("Anthropic-Version") == "" {
		t.Errorf("upstream headers %v", got.Header)
	}
}
