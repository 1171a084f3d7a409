package proxy

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestMessagesBody(t *testing.T) {
	for _, size := range []int{4 << 10, 1 << 20} {
		body := MessagesBody(size, false)
		if len(body) < size || len(body) > size+16<<10 { // one turn over at most
			t.Errorf("MessagesBody(%d): %d bytes", size, len(body))
		}
		if !bytes.Equal(body, MessagesBody(size, false)) {
			t.Errorf("MessagesBody(%d) differs between calls", size)
		}
		var req struct {
			Model    string
			Stream   bool
			Messages []struct {
				Role    string
				Content []struct {
					Type      string `json:"type"`
					ID        string `json:"id"`
					ToolUseID string `json:"tool_use_id"`
				}
			}
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatalf("MessagesBody(%d) is not JSON: %v", size, err)
		}
		// Every tool_use is answered by a tool_result in the next message.
		uses := 0
		for i, m := range req.Messages {
			for _, c := range m.Content {
				if c.Type != "tool_use" {
					continue
				}
				uses++
				next := req.Messages[i+1]
				if next.Role != "user" || next.Content[0].Type != "tool_result" || next.Content[0].ToolUseID != c.ID {
					t.Fatalf("tool_use %s in message %d has no result after it", c.ID, i)
				}
			}
		}
		if uses == 0 || req.Stream {
			t.Errorf("MessagesBody(%d): %d tool uses, stream %v", size, uses, req.Stream)
		}
	}
}

// TestRun runs the whole benchmark small and checks that the report holds what it measured.
func TestRun(t *testing.T) {
	rep, err := Run(t.Context(), Options{BodyBytes: 64 << 10, Requests: 5, Streams: 5, Streaming: 20, Warmup: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Request.Direct.N != 5 || rep.Request.Proxy.N != 5 || rep.TTFB.Proxy.N != 5 || rep.BodyBytes < 64<<10 {
		t.Errorf("counts: %+v", rep)
	}
	if rep.Request.Proxy.P50 <= 0 || rep.TTFB.Direct.P50 <= 0 || rep.Request.Ratio <= 0 {
		t.Errorf("durations: %+v", rep)
	}
	c := rep.Concurrency
	if c.Streams != 20 || c.Open != 20 || c.Complete != 20 || len(c.Errors) != 0 {
		t.Errorf("concurrency: %+v", c)
	}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"POST 0.1 MB", "TTFB stream", "request overhead: p50", "20 complete, 0 errors"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, text.String())
		}
	}
}

// bench runs one setup for the Go benchmarks.
func bench(b *testing.B, viaProxy, ttfb bool) {
	s, err := start(b.Context(), nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.stop()
	tr := &http.Transport{MaxIdleConnsPerHost: 16, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	base := s.direct
	if viaProxy {
		base = s.proxy
	}
	body := MessagesBody(1<<20, false)
	if ttfb {
		body = MessagesBody(ttfbBodyBytes, true)
	}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, _, err := timeRequest(b.Context(), client, base, body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDirect posts a 1 MiB messages body to the fake API.
func BenchmarkDirect(b *testing.B) { bench(b, false, false) }

// BenchmarkViaProxy posts the same body through the proxy.
func BenchmarkViaProxy(b *testing.B) { bench(b, true, false) }

// BenchmarkTTFBDirect streams a response from the fake API (the whole exchange; the command
// reports the first byte alone).
func BenchmarkTTFBDirect(b *testing.B) { bench(b, false, true) }

// BenchmarkTTFBViaProxy streams the same response through the proxy.
func BenchmarkTTFBViaProxy(b *testing.B) { bench(b, true, true) }

// TestConversation checks that each request of a conversation extends the one before it by
// one turn, that conversations differ from their first message on, and that the middle
// request is about the size asked for.
func TestConversation(t *testing.T) {
	const size, n = 256 << 10, 6
	bodies := Conversation(size, n, 0)
	other := Conversation(size, n, 1)
	if len(bodies) != n {
		t.Fatalf("%d bodies, want %d", len(bodies), n)
	}
	var prev []json.RawMessage
	for k, body := range bodies {
		var req struct{ Messages []json.RawMessage }
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatalf("request %d is not JSON: %v", k, err)
		}
		if k > 0 {
			if len(req.Messages) != len(prev)+3 {
				t.Errorf("request %d: %d messages after %d; want one turn more", k, len(req.Messages), len(prev))
			}
			end := bytes.LastIndex(bodies[k-1], []byte(`],"system"`))
			if !bytes.HasPrefix(body, bodies[k-1][:end]) {
				t.Errorf("request %d does not repeat request %d byte for byte", k, k-1)
			}
		}
		prev = req.Messages
	}
	if mid := len(bodies[n/2]); mid < size*3/4 || mid > size*5/4 {
		t.Errorf("the middle request has %d bytes, want about %d", mid, size)
	}
	if bytes.Equal(bodies[0][:4096], other[0][:4096]) {
		t.Error("two conversations start alike")
	}
}
