package llmproxy_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/llmproxy"
	"github.com/winnowhq/winnow/internal/llmproxy/fakeapi"
)

// responsesSequence is the event names of fakeapi's Responses stream.
var responsesSequence = []string{"response.created", "response.output_text.delta", "response.output_text.delta", "response.completed"}

// TestPassthroughStreamsNeverBreak streams 2,000 POST /v1/responses requests with bodies of
// a few KB through the proxy, 8 at a time, and wants every one whole. The bodies are
// gzip-compressed, so the proxy does not read them (content_encoding): the client's body
// goes to the upstream as it streams in, the pass-through path every request that is not
// rewritten takes. Before the proxy put the server in full-duplex mode (see fullDuplex for
// the race) 1 to 3 of the 2,000 broke off with "use of closed network connection" on a
// 2-core machine (6 to 16 with uncompressed bodies, when /v1/responses still passed
// through); the window is hit by scheduling alone, with no hooks or sleeps in the proxy.
func TestPassthroughStreamsNeverBreak(t *testing.T) {
	const (
		requests    = 2000
		concurrency = 8
	)
	// Each stream lasts a few milliseconds, as a model's does (longer, really): the race
	// cuts off a stream that is still running, so streams that end at once hide it.
	h := newHarness(t, &fakeapi.Options{EventDelay: time.Millisecond}, nil)
	var failed atomic.Int64
	var mu sync.Mutex
	var first []string // the first few failures, to show
	fail := func(msg string) {
		if failed.Add(1) <= 5 {
			mu.Lock()
			first = append(first, msg)
			mu.Unlock()
		}
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range concurrency {
		wg.Go(func() {
			for i := range jobs {
				if err := streamResponse(h, i); err != nil {
					fail(fmt.Sprintf("request %d: %v", i, err))
				}
			}
		})
	}
	for i := range requests {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if n := failed.Load(); n > 0 {
		t.Errorf("%d of %d pass-through streams failed; the first:\n%s", n, requests, strings.Join(first, "\n"))
	}
	if n := strings.Count(h.logs.String(), `"aborted":true`); n > 0 {
		t.Errorf("the proxy logged %d aborted responses", n)
	}
}

// streamResponse posts one streaming Responses request, gzip-compressed to 4–8 KB (the size
// varies with i, so the body ends at every offset of the transport's write buffer; above
// its 4 KB the body reaches the upstream before the transport's last read of it), and
// reads the stream to its end.
func streamResponse(h *harness, i int) error {
	noise := make([]byte, 4096+(i*37)%4096)
	rand.NewChaCha8([32]byte{byte(i), byte(i >> 8)}).Read(noise) // incompressible, so the compressed body stays large
	var body bytes.Buffer
	zw := gzip.NewWriter(&body)
	fmt.Fprintf(zw, `{"model":"gpt-fake","stream":true,"input":[{"role":"user","content":"request %d %s"}]}`, i, base64.StdEncoding.EncodeToString(noise))
	zw.Close()
	req, err := http.NewRequest(http.MethodPost, h.url+"/v1/responses", &body)
	if err != nil {
		return err
	}
	for k, v := range clientHeaders("/v1/responses") {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Encoding", "gzip")
	res, err := h.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get(llmproxy.HeaderReason) != llmproxy.ReasonContentEncoding {
		return fmt.Errorf("status %d, %s %q: want 200, forwarded unread", res.StatusCode, llmproxy.HeaderReason, res.Header.Get(llmproxy.HeaderReason))
	}
	sse := sseReader{bufio.NewReader(res.Body)}
	var got []string
	for {
		ev, err := sse.next()
		if err != nil {
			if diff := cmp.Diff(responsesSequence, got); diff != "" {
				return fmt.Errorf("stream ended with %v; events (-want +got):\n%s", err, diff)
			}
			return nil
		}
		got = append(got, eventType(ev))
	}
}
