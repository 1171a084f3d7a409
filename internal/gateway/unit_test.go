package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestBackoffDelay(t *testing.T) {
	b := Backoff{Base: time.Second, Max: 30 * time.Second, Jitter: 0.25}
	tests := []struct {
		attempt int
		r       float64
		want    time.Duration
	}{
		{1, 0.5, time.Second},
		{2, 0.5, 2 * time.Second},
		{3, 0.5, 4 * time.Second},
		{5, 0.5, 16 * time.Second},
		{6, 0.5, 30 * time.Second}, // capped
		{1000, 0.5, 30 * time.Second},
		{0, 0.5, time.Second},
		{3, 0, 3 * time.Second}, // -25%
		{3, 1, 5 * time.Second}, // +25%
		{6, 0, 22500 * time.Millisecond},
	}
	for _, tt := range tests {
		if got := b.Delay(tt.attempt, tt.r); got != tt.want {
			t.Errorf("Delay(%d, %v) = %v, want %v", tt.attempt, tt.r, got, tt.want)
		}
	}
	if got := (Backoff{}).Delay(1, 0.5); got != DefaultBackoffBase {
		t.Errorf("zero Backoff Delay(1) = %v, want the default %v", got, DefaultBackoffBase)
	}
}

func TestRedactor(t *testing.T) {
	r := newRedactor([]string{"tok-123456", "tok-123456789", "on", ""})
	got := r.String("auth tok-123456789 and tok-123456; on, off")
	if want := "auth [REDACTED] and [REDACTED]; on, off"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	var none *redactor
	if got := none.String("plain"); got != "plain" {
		t.Errorf("nil redactor changed the text: %q", got)
	}
}

func TestRedactHandler(t *testing.T) {
	var buf bytes.Buffer
	r := newRedactor([]string{"s3cret-value"})
	log := slog.New(&redactHandler{next: slog.NewTextHandler(&buf, nil), r: r}).With("ctx", "with s3cret-value")
	log.Info("message s3cret-value", "err", errors.New("failed: s3cret-value"), "n", 42,
		slog.Group("g", "inner", "s3cret-value"), "any", []string{"s3cret-value"})
	out := buf.String()
	if strings.Contains(out, "s3cret-value") {
		t.Errorf("the secret was logged: %s", out)
	}
	for _, want := range []string{`msg="message [REDACTED]"`, `ctx="with [REDACTED]"`, `err="failed: [REDACTED]"`, "n=42", "g.inner=[REDACTED]", "any=[[REDACTED]]"} {
		if !strings.Contains(out, want) {
			t.Errorf("log line lacks %s: %s", want, out)
		}
	}
}

func TestListTeeFindsTheResponse(t *testing.T) {
	id, err := jsonrpc.MakeID(float64(7))
	if err != nil {
		t.Fatal(err)
	}
	result := `{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"z":{},"a":{}}}}]}`
	tests := []struct {
		name, contentType, body string
		want                    []string
	}{
		{"json", "application/json", `{"jsonrpc":"2.0","id":7,"result":` + result + `}`, []string{result}},
		{"sse", "text/event-stream", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n" +
			"id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":" + result + "}\n\n", []string{result}},
		{"sse with CRLF and split data", "text/event-stream; charset=utf-8", "data: {\"jsonrpc\":\"2.0\",\"id\":7,\r\ndata: \"result\":" + result + "}\r\n\r\n", []string{result}},
		{"other id", "application/json", `{"jsonrpc":"2.0","id":8,"result":` + result + `}`, nil},
		{"error response", "application/json", `{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"no"}}`, nil},
		{"not json", "text/event-stream", "data: nonsense\n\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			capture := &listCapture{}
			resp := &http.Response{Header: http.Header{"Content-Type": {tt.contentType}}, Body: io.NopCloser(strings.NewReader(tt.body))}
			teeListResponse(resp, id, capture)
			// Read in small pieces, as a stream arrives.
			var out bytes.Buffer
			p := make([]byte, 5)
			for {
				n, err := resp.Body.Read(p)
				out.Write(p[:n])
				if err != nil {
					break
				}
			}
			if out.String() != tt.body {
				t.Errorf("the body was altered: %q", out.String())
			}
			var got []string
			for _, r := range capture.take() {
				got = append(got, string(r))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("captured (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnavailableMessages(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		st   Status
		want string
	}{
		{Status{Name: "github", State: StateRestarting, Attempt: 3, NextRetry: now.Add(4 * time.Second), LastError: "process exited: exit status 1"},
			"upstream github is restarting (attempt 3, next in 4s): process exited: exit status 1"},
		{Status{Name: "github", State: StateRestarting, Attempt: 2, NextRetry: now.Add(1234 * time.Millisecond), LastError: "x"},
			"upstream github is restarting (attempt 2, next in 1.2s): x"},
		{Status{Name: "github", State: StateRestarting, Attempt: 4, LastError: "x"},
			"upstream github is restarting (attempt 4, connecting now): x"},
		{Status{Name: "github", State: StateFailed, LastError: `command "gh": not found`},
			`upstream github is down and will not be restarted: command "gh": not found`},
		{Status{Name: "github", State: StateClosed}, "upstream github is shut down"},
	}
	for _, tt := range tests {
		if got := tt.st.unavailable(now); got != tt.want {
			t.Errorf("unavailable = %q, want %q", got, tt.want)
		}
	}
}

func TestUpstreamErrorIgnoresTransportErrors(t *testing.T) {
	upstream := &jsonrpc.Error{Code: -32042, Message: "quota"}
	rejected := &jsonrpc.Error{Code: codeRejected, Message: "rejected by transport"}
	tests := []struct {
		name string
		err  error
		want *jsonrpc.Error
	}{
		{"wrapped upstream error", fmt.Errorf("calling %q: %w", "tools/call", upstream), upstream},
		{"HTTP error with a JSON-RPC body", fmt.Errorf("POST: %w: %w: Bad Request", upstream, rejected), upstream},
		{"transport rejection", fmt.Errorf("POST: %w: %w", rejected, errors.New("connection refused")), nil},
		{"plain", errors.New("connection closed"), nil},
	}
	for _, tt := range tests {
		if got := upstreamError(tt.err); got != tt.want {
			t.Errorf("%s: upstreamError = %v, want %v", tt.name, got, tt.want)
		}
	}
	if !hasCode(fmt.Errorf("x: %w", rejected), codeRejected) || hasCode(upstream, codeRejected) {
		t.Error("hasCode does not find the rejection")
	}
}

func TestStderrTail(t *testing.T) {
	s := &stderrTail{log: slog.New(slog.NewTextHandler(io.Discard, nil)), red: newRedactor([]string{"hunter22"})}
	for i := range 12 {
		fmt.Fprintf(s, "line %d\n", i)
	}
	fmt.Fprint(s, "password hunter22 without newline")
	want := "line 4 | line 5 | line 6 | line 7 | line 8 | line 9 | line 10 | line 11 | password [REDACTED] without newline"
	if got := s.tail(); got != want {
		t.Errorf("tail = %q, want %q", got, want)
	}
}

// FuzzListTee checks that a listTee passes any body through unaltered, in any chunking, and
// captures at most one result, which is then valid JSON.
func FuzzListTee(f *testing.F) {
	f.Add("data: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"tools\":[]}}\n\n", uint8(3), true)
	f.Add("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}", uint8(1), false)
	f.Add("\r\n\r\n\n\ndata:\ndata: x\r\n\r\n", uint8(2), true)
	id, err := jsonrpc.MakeID(float64(7))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body string, chunk uint8, sse bool) {
		ct := "application/json"
		if sse {
			ct = "text/event-stream"
		}
		capture := &listCapture{}
		resp := &http.Response{Header: http.Header{"Content-Type": {ct}}, Body: io.NopCloser(strings.NewReader(body))}
		teeListResponse(resp, id, capture)
		var out bytes.Buffer
		p := make([]byte, int(chunk)%16+1)
		for {
			n, err := resp.Body.Read(p)
			out.Write(p[:n])
			if err != nil {
				break
			}
		}
		if out.String() != body {
			t.Fatalf("body altered: %q → %q", body, out.String())
		}
		got := capture.take()
		if len(got) > 1 {
			t.Fatalf("captured %d results", len(got))
		}
		for _, r := range got {
			if !json.Valid(r) {
				t.Fatalf("captured invalid JSON %q", r)
			}
		}
	})
}
