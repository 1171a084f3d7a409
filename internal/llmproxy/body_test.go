package llmproxy_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/llmproxy"
	"github.com/winnowhq/winnow/internal/llmproxy/fakeapi"
)

// A served is a proxy run by Serve on a loopback listener, as `winnow proxy` runs it, in
// front of a recording fake API.
type served struct {
	api  *fakeapi.API
	addr string // host:port of the proxy
	logs *logSink
}

// newServed starts a recording fake API (apiOpts may be nil) and a proxy with opts in front
// of it, served until the test ends.
func newServed(t *testing.T, apiOpts *fakeapi.Options, opts llmproxy.Options) *served {
	t.Helper()
	ao := fakeapi.Options{}
	if apiOpts != nil {
		ao = *apiOpts
	}
	ao.Record = true
	api, err := fakeapi.Start(&ao)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	s := &served{api: api, logs: newLogSink()}
	opts.AnthropicUpstream, opts.OpenAIUpstream = api.URL, api.URL
	opts.Logger = s.logs.logger()
	p, err := llmproxy.New(&opts)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := serve(t, t.Context(), p)
	s.addr = strings.TrimPrefix(base, "http://")
	return s
}

// dial opens a raw TCP connection to the proxy.
func (s *served) dial(t *testing.T) *net.TCPConn {
	t.Helper()
	c, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(waitLimit))
	return c.(*net.TCPConn)
}

// A proxyAnswer is what a raw client read back: the status and body of the response, or
// the error reading one (a connection closed without a response).
type proxyAnswer struct {
	status int
	header http.Header
	body   string
	err    error
}

// readAnswer reads one response from c.
func readAnswer(c net.Conn) proxyAnswer {
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return proxyAnswer{err: err}
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	return proxyAnswer{status: res.StatusCode, header: res.Header, body: string(body), err: err}
}

func (a proxyAnswer) String() string {
	if a.status == 0 {
		return fmt.Sprintf("no response (%v)", a.err)
	}
	return fmt.Sprintf("%d %q", a.status, a.body)
}

// errorMessage returns the message of an error body in the dialect's shape, or "" when
// body is not one.
func errorMessage(dialect, body string) string {
	if dialect == llmproxy.DialectAnthropic {
		var e struct {
			Type  string
			Error struct{ Type, Message string }
		}
		if json.Unmarshal([]byte(body), &e) != nil || e.Type != "error" || e.Error.Type == "" {
			return ""
		}
		return e.Error.Message
	}
	var e struct {
		Error *struct{ Message, Type string }
	}
	if json.Unmarshal([]byte(body), &e) != nil || e.Error == nil || e.Error.Type == "" {
		return ""
	}
	return e.Error.Message
}

// rawRequest is the head of a request to path with the headers an SDK of dialect sends,
// plus extra header lines ("Name: value\r\n").
func rawRequest(path, dialect, extra string) string {
	head := "POST " + path + " HTTP/1.1\r\nHost: proxy\r\n"
	if dialect == llmproxy.DialectAnthropic {
		head += "X-Api-Key: sk-ant-test-key\r\nAnthropic-Version: 2023-06-01\r\n"
	} else {
		head += "Authorization: Bearer sk-openai-test-key\r\n"
	}
	return head + extra + "\r\n"
}

// bodyCases are requests whose body the proxy reads in each of its ways: whole for the
// Rewriter, streamed through unread (not JSON; a path it does not rewrite), streamed on
// past MaxBodyBytes, and chunked.
var bodyCases = []struct {
	name, path, dialect, header string
	maxBody                     int64 // MaxBodyBytes; 0 the default
}{
	{"rewritable", "/v1/messages", llmproxy.DialectAnthropic, "Content-Type: application/json\r\n", 0},
	{"rewritable openai", "/v1/chat/completions", llmproxy.DialectOpenAI, "Content-Type: application/json\r\n", 0},
	{"not json", "/v1/messages", llmproxy.DialectAnthropic, "Content-Type: text/plain\r\n", 0},
	{"not rewritten path", "/v1/messages/count_tokens", llmproxy.DialectAnthropic, "Content-Type: application/json\r\n", 0},
	{"openai pass-through", "/v1/embeddings", llmproxy.DialectOpenAI, "Content-Type: application/json\r\n", 0},
	{"above max body", "/v1/responses", llmproxy.DialectOpenAI, "Content-Type: application/json\r\n", 16},
}

// bodyOpts configures the proxy of the body tests: a real rewriting Rewriter and the
// body cap maxBody.
func bodyOpts(t *testing.T, maxBody int64) llmproxy.Options {
	return llmproxy.Options{Rewriter: newDropField(t, "metadata"), MaxBodyBytes: maxBody}
}

// partialBody is the first bytes of a body that announces 200.
const partialBody = `{"model":"m","messages":[{"role":"user","content":"hi"}`

// TestHalfClosedBody: a client that sends part of the body it announced and then
// half-closes its connection gets a 400 in its API's error shape, saying what went wrong,
// not a 200 with an empty body; nothing is forwarded whole, and the request is logged
// once, as an error.
func TestHalfClosedBody(t *testing.T) {
	for _, chunked := range []bool{false, true} {
		for _, tt := range bodyCases {
			name := tt.name
			if chunked {
				name += "/chunked"
			}
			t.Run(name, func(t *testing.T) {
				s := newServed(t, nil, bodyOpts(t, tt.maxBody))
				c := s.dial(t)
				if chunked {
					io.WriteString(c, rawRequest(tt.path, tt.dialect, tt.header+"Transfer-Encoding: chunked\r\n"))
					fmt.Fprintf(c, "%x\r\n%s\r\n", len(partialBody), partialBody)
				} else {
					io.WriteString(c, rawRequest(tt.path, tt.dialect, tt.header+"Content-Length: 200\r\n")+partialBody)
				}
				c.CloseWrite()
				got := readAnswer(c)
				if got.status != http.StatusBadRequest || !strings.Contains(errorMessage(tt.dialect, got.body), "request body") {
					t.Errorf("answer %s; want a 400 whose %s error says the request body was incomplete", got, tt.dialect)
				}
				rec := s.logs.next(t)
				if msg, _ := rec["error"].(string); rec["status"] != 400.0 || !strings.Contains(msg, "request body") {
					t.Errorf("log line %v, want status 400 and the read error", rec)
				}
				for _, r := range s.api.Requests() {
					t.Errorf("the upstream received %s %s with %d bytes of body", r.Method, r.Path, len(r.Body))
				}
			})
		}
	}
}

// Short body timeouts for the tests, so that each takes a fraction of a second.
const (
	testBodyIdle    = 300 * time.Millisecond
	testBodyTimeout = 1500 * time.Millisecond
)

// timeoutOpts is bodyOpts with the short timeouts.
func timeoutOpts(t *testing.T, maxBody int64) llmproxy.Options {
	o := bodyOpts(t, maxBody)
	o.BodyIdleTimeout, o.BodyTimeout = testBodyIdle, testBodyTimeout
	return o
}

// warnings counts the log lines at Warn level or above.
func warnings(logs string) int {
	n := 0
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(line, `"level":"WARN"`) || strings.Contains(line, `"level":"ERROR"`) {
			n++
		}
	}
	return n
}

// TestBodyIdleTimeout: a client that stops sending its body half-way, without closing
// anything, is answered 408 in its API's error shape once the idle timeout has passed,
// whichever way the proxy reads the body; nothing reaches the upstream whole, and the
// request is logged once.
func TestBodyIdleTimeout(t *testing.T) {
	for _, tt := range bodyCases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newServed(t, nil, timeoutOpts(t, tt.maxBody))
			c := s.dial(t)
			start := time.Now()
			io.WriteString(c, rawRequest(tt.path, tt.dialect, tt.header+"Content-Length: 200\r\n")+partialBody)
			got := readAnswer(c)
			took := time.Since(start)
			msg := errorMessage(tt.dialect, got.body)
			if got.status != http.StatusRequestTimeout || !strings.Contains(msg, "request body stalled: no byte for 300ms") {
				t.Errorf("answer %s; want a 408 whose %s error says the body stalled", got, tt.dialect)
			}
			if took < testBodyIdle {
				t.Errorf("answered after %s, before the idle timeout (%s)", took, testBodyIdle)
			}
			rec := s.logs.next(t)
			if m, _ := rec["error"].(string); rec["status"] != 408.0 || !strings.Contains(m, "stalled") {
				t.Errorf("log line %v, want status 408 and the timeout", rec)
			}
			if n := warnings(s.logs.String()); n != 1 {
				t.Errorf("%d warnings logged, want the request's line only:\n%s", n, s.logs.String())
			}
			for _, r := range s.api.Requests() {
				t.Errorf("the upstream received %s %s with %d bytes of body", r.Method, r.Path, len(r.Body))
			}
		})
	}
}

// TestBodyTimeout: three clients trickling their bodies a byte at a time, each byte well
// within the idle timeout, are all answered 408 once the body timeout has passed (they
// held the proxy as long as they liked before), while another client is served as usual.
func TestBodyTimeout(t *testing.T) {
	s := newServed(t, nil, timeoutOpts(t, 0))
	type result struct {
		got  proxyAnswer
		took time.Duration
	}
	results := make(chan result, 3)
	start := time.Now()
	for range 3 {
		c := s.dial(t)
		go func() {
			io.WriteString(c, rawRequest("/v1/messages", llmproxy.DialectAnthropic, "Content-Type: application/json\r\nContent-Length: 200\r\n"))
			go func() {
				for i := 0; ; i++ {
					if _, err := c.Write([]byte{partialBody[i%len(partialBody)]}); err != nil {
						return // answered, and closed
					}
					time.Sleep(testBodyIdle / 6)
				}
			}()
			got := readAnswer(c)
			results <- result{got, time.Since(start)}
		}()
	}
	res := s.send(t, "/v1/messages", `{"model":"m","messages":[]}`)
	if res.status != http.StatusOK {
		t.Errorf("a client sending its body at once, while three trickled: %s", res)
	}
	for range 3 {
		r := <-results
		msg := errorMessage(llmproxy.DialectAnthropic, r.got.body)
		if r.got.status != http.StatusRequestTimeout || !strings.Contains(msg, "request body incomplete after 1.5s") {
			t.Errorf("answer %s; want a 408 saying the body took too long", r.got)
		}
		if r.took < testBodyTimeout {
			t.Errorf("answered after %s, before the body timeout (%s)", r.took, testBodyTimeout)
		}
	}
	if n := warnings(s.logs.String()); n != 3 {
		t.Errorf("%d warnings logged, want one per trickling client:\n%s", n, s.logs.String())
	}
}

// send posts body to path in one go, with an SDK's headers, on a new connection.
func (s *served) send(t *testing.T, path, body string) proxyAnswer {
	t.Helper()
	c := s.dial(t)
	fmt.Fprintf(c, "%sContent-Length: %d\r\n\r\n%s", strings.TrimSuffix(rawRequest(path, dialectOf(path), "Content-Type: application/json\r\n"), "\r\n"), len(body), body)
	return readAnswer(c)
}

// TestBodyTimeoutsSpareResponses: once the body has arrived, neither timeout bounds the
// response: a stream whose events are further apart than the body timeout reaches its
// end, whether the body was read for the Rewriter or streamed through, and the
// connection then serves the next request.
func TestBodyTimeoutsSpareResponses(t *testing.T) {
	for _, maxBody := range []int64{0, 16} {
		t.Run(fmt.Sprintf("max body %d", maxBody), func(t *testing.T) {
			pace := make(chan struct{})
			s := newServed(t, &fakeapi.Options{Pace: pace}, timeoutOpts(t, maxBody))
			c := s.dial(t)
			br := bufio.NewReader(c)
			body := `{"model":"m","stream":true,"messages":[]}`
			fmt.Fprintf(c, "%sContent-Length: %d\r\n\r\n%s", strings.TrimSuffix(rawRequest("/v1/messages", llmproxy.DialectAnthropic, "Content-Type: application/json\r\n"), "\r\n"), len(body), body)
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatal(err)
			}
			sse := sseReader{bufio.NewReader(res.Body)}
			if ev, err := sse.next(); err != nil || kind(ev) != "message_start" {
				t.Fatalf("first event %q, %v", ev, err)
			}
			time.Sleep(testBodyTimeout + testBodyIdle) // longer than either timeout
			close(pace)                                // the rest of the events at once
			n := 1
			for {
				ev, err := sse.next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("the stream broke after %d events: %v", n, err)
				}
				n++
				if kind(ev) == "message_stop" {
					break
				}
			}
			res.Body.Close()
			if n < 3 {
				t.Errorf("the stream had %d events", n)
			}
			io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: proxy\r\n\r\n")
			if res, err := http.ReadResponse(br, nil); err != nil || res.StatusCode != http.StatusOK {
				t.Errorf("the next request on the connection: %v, %v", res, err)
			}
		})
	}
}

// TestClientLeavesBeforeAnswer: a client that sends its whole body, then half-closes its
// connection, has left as far as net/http can tell (the request's context ends); the
// proxy then cancels the upstream request and closes the connection without an answer,
// rather than answering an empty 200.
func TestClientLeavesBeforeAnswer(t *testing.T) {
	s := newServed(t, nil, bodyOpts(t, 0))
	c := s.dial(t)
	body := `{"model":"m","messages":[]}`
	fmt.Fprintf(c, "%sX-Fake-Delay: 5s\r\nContent-Length: %d\r\n\r\n%s", strings.TrimSuffix(rawRequest("/v1/messages", llmproxy.DialectAnthropic, "Content-Type: application/json\r\n"), "\r\n"), len(body), body)
	c.CloseWrite()
	if got := readAnswer(c); got.status != 0 {
		t.Errorf("answer %s; want the connection closed without one", got)
	}
	if rec := s.logs.next(t); rec["status"] != 499.0 {
		t.Errorf("log line %v, want status 499", rec)
	}
}
