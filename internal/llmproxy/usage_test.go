package llmproxy

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/telemetry"
)

func TestUsageTap(t *testing.T) {
	const (
		sse  = "text/event-stream; charset=utf-8"
		json = "application/json"
	)
	bigDelta := "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"" + strings.Repeat("x", 1<<20) + "\"}}\n\n"
	tests := []struct {
		name, dialect, contentType, encoding, body string
		want                                       *telemetry.Usage
		edits                                      []telemetry.ServerEdit
	}{
		{
			name: "anthropic stream", dialect: DialectAnthropic, contentType: sse,
			body: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":12,\"cache_creation_input_tokens\":300,\"cache_read_input_tokens\":4000,\"output_tokens\":1}}}\n\n" +
				"event: ping\ndata: {\"type\":\"ping\"}\n\n" + bigDelta +
				"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":99}," +
				"\"context_management\":{\"applied_edits\":[{\"type\":\"clear_tool_uses_20250919\",\"cleared_tool_uses\":3,\"cleared_input_tokens\":120}]}}\n\n" +
				"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
			want:  &telemetry.Usage{Input: 12, CacheWrite: 300, CacheRead: 4000, Output: 99},
			edits: []telemetry.ServerEdit{{Type: "clear_tool_uses_20250919", ClearedToolUses: 3, ClearedInputTokens: 120}},
		},
		{
			name: "anthropic stream, cumulative counts in message_delta, CRLF", dialect: DialectAnthropic, contentType: sse,
			body: "event: message_start\r\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":12,\"output_tokens\":1}}}\r\n\r\n" +
				"event: message_delta\r\ndata: {\"type\":\"message_delta\",\"usage\":{\"input_tokens\":15,\"cache_read_input_tokens\":7,\"output_tokens\":9}}\r\n\r\n",
			want: &telemetry.Usage{Input: 15, CacheRead: 7, Output: 9},
		},
		{
			name: "anthropic stream cut off before message_delta", dialect: DialectAnthropic, contentType: sse,
			body: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":12,\"output_tokens\":1}}}\n\n" + bigDelta,
		},
		{
			name: "anthropic message", dialect: DialectAnthropic, contentType: json,
			body: `{"type":"message","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":5,"cache_creation_input_tokens":0,"cache_read_input_tokens":100,"output_tokens":2},` +
				`"context_management":{"applied_edits":[{"type":"clear_tool_uses_20250919","cleared_tool_uses":1,"cleared_input_tokens":50}]}}`,
			want:  &telemetry.Usage{Input: 5, CacheRead: 100, Output: 2},
			edits: []telemetry.ServerEdit{{Type: "clear_tool_uses_20250919", ClearedToolUses: 1, ClearedInputTokens: 50}},
		},
		{
			name: "anthropic message, gzip", dialect: DialectAnthropic, contentType: json, encoding: "gzip",
			body: `{"type":"message","usage":{"input_tokens":5,"output_tokens":2}}`,
			want: &telemetry.Usage{Input: 5, Output: 2},
		},
		{
			name: "chat stream with include_usage", dialect: DialectOpenAI, contentType: sse,
			body: "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}],\"usage\":null}\n\n" +
				"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":1000,\"completion_tokens\":20,\"prompt_tokens_details\":{\"cached_tokens\":768}}}\n\n" +
				"data: [DONE]\n\n",
			want: &telemetry.Usage{Input: 232, CacheRead: 768, Output: 20},
		},
		{
			name: "chat stream without usage", dialect: DialectOpenAI, contentType: sse,
			body: "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\ndata: [DONE]\n\n",
		},
		{
			name: "chat completion", dialect: DialectOpenAI, contentType: json,
			body: `{"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`,
			want: &telemetry.Usage{Input: 10, Output: 5},
		},
		{
			name: "responses stream", dialect: DialectResponses, contentType: sse,
			body: "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"usage\":null}}\n\n" +
				"event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"usage\"}\n\n" +
				"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"output\":[],\"usage\":{\"input_tokens\":900,\"input_tokens_details\":{\"cached_tokens\":512},\"output_tokens\":30}}}\n\n",
			want: &telemetry.Usage{Input: 388, CacheRead: 512, Output: 30},
		},
		{
			name: "response", dialect: DialectResponses, contentType: json,
			body: `{"object":"response","usage":{"input_tokens":9,"input_tokens_details":{"cached_tokens":0},"output_tokens":3}}`,
			want: &telemetry.Usage{Input: 9, Output: 3},
		},
		{name: "brotli", dialect: DialectAnthropic, contentType: json, encoding: "br", body: "…"},
		{name: "plain text", dialect: DialectOpenAI, contentType: "text/plain", body: "usage"},
	}
	for _, tt := range tests {
		for _, chunked := range []bool{false, true} {
			body := []byte(tt.body)
			if tt.encoding == "gzip" {
				var b bytes.Buffer
				zw := gzip.NewWriter(&b)
				zw.Write(body)
				zw.Close()
				body = b.Bytes()
			}
			var rd io.Reader = bytes.NewReader(body)
			if chunked {
				rd = iotest.OneByteReader(rd)
			}
			res := &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {tt.contentType}}, Body: io.NopCloser(rd)}
			if tt.encoding != "" {
				res.Header.Set("Content-Encoding", tt.encoding)
			}
			tap := newUsageTap(res, tt.dialect)
			if tap != nil {
				got, err := io.ReadAll(tap)
				if err != nil || !bytes.Equal(got, body) {
					t.Fatalf("%s: the tap changed the body (%v)", tt.name, err)
				}
				if cap(tap.line) > maxUnnamedEvent {
					t.Errorf("%s: the tap kept a line of %d bytes", tt.name, cap(tap.line))
				}
			}
			usage, edits := tap.result()
			if diff := cmp.Diff(tt.want, usage); diff != "" {
				t.Errorf("%s (one byte at a time: %v): usage (-want +got):\n%s", tt.name, chunked, diff)
			}
			if diff := cmp.Diff(tt.edits, edits); diff != "" {
				t.Errorf("%s (one byte at a time: %v): edits (-want +got):\n%s", tt.name, chunked, diff)
			}
		}
	}
}

func TestUsageTapSkipsErrors(t *testing.T) {
	res := &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(`{"usage":{"prompt_tokens":1}}`))}
	if newUsageTap(res, DialectOpenAI) != nil {
		t.Error("a tap on an error response")
	}
}

// FuzzUsageTap: however the upstream's bytes are split into reads, the tap passes them on
// unchanged and reads the same usage and edits as from one read.
func FuzzUsageTap(f *testing.F) {
	f.Add([]byte("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":3}}}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":2},\"context_management\":{\"applied_edits\":[{\"type\":\"x\"}]}}\n\n"), uint16(17), true, true)
	f.Add([]byte("data: {\"choices\":[]}\r\n\r\ndata: {\"usage\":{\"prompt_tokens\":9,\"prompt_tokens_details\":{\"cached_tokens\":4}}}\r\n\r\ndata: [DONE]\r\n\r\n"), uint16(40), false, true)
	f.Add([]byte(`{"usage":{"input_tokens":1,"output_tokens":2}}`), uint16(5), true, false)
	f.Fuzz(func(t *testing.T, data []byte, split uint16, anthropic, sse bool) {
		dialect, ct := DialectOpenAI, "application/json"
		if anthropic {
			dialect = DialectAnthropic
		}
		if sse {
			ct = "text/event-stream"
		}
		read := func(rd io.Reader) (*telemetry.Usage, []telemetry.ServerEdit) {
			res := &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {ct}}, Body: io.NopCloser(rd)}
			tap := newUsageTap(res, dialect)
			got, err := io.ReadAll(tap)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("the tap changed the body: %q, %v", got, err)
			}
			return tap.result()
		}
		wantUsage, wantEdits := read(bytes.NewReader(data))
		at := int(split) % (len(data) + 1)
		for _, rd := range []io.Reader{
			io.MultiReader(bytes.NewReader(data[:at]), bytes.NewReader(data[at:])),
			iotest.OneByteReader(bytes.NewReader(data)),
		} {
			usage, edits := read(rd)
			if !cmp.Equal(wantUsage, usage) || !cmp.Equal(wantEdits, edits) {
				t.Fatalf("split reads: %v %v; one read: %v %v", usage, edits, wantUsage, wantEdits)
			}
		}
	})
}
