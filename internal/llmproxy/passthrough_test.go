package llmproxy_test

import (
	"bufio"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/llmproxy/fakeapi"
)

// responsesSequence is the event names of fakeapi's Responses stream.
var responsesSequence = []string{"response.created", "response.output_text.delta", "response.output_text.delta", "response.completed"}

// TestPassthroughStreamsNeverBreak streams 2,000 POST /v1/responses requests with bodies of
// a few KB through the proxy, 8 at a time, and wants every one whole. This path is not
// rewritten: the client's body goes to the upstream as it streams in. Before the proxy put
// the server in full-duplex mode (see fullDuplex for the race) 6 to 16 of the 2,000 broke
// off with "use of closed network connection" on a 2-core machine, every run; the window
// is hit by scheduling alone, with no hooks or sleeps in the proxy's path.
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

// streamResponse posts one streaming Responses request of 2–6 KB (the size varies with i,
// so the body ends at every offset of the transport's write buffer) and reads the stream
// to its end.
func streamResponse(h *harness, i int) error {
	filler := strings.Repeat("x", 2048+(i*37)%4096)
	body := fmt.Sprintf(`{"model":"gpt-fake","stream":true,"input":[{"role":"user","content":"request %d %s"}]}`, i, filler)
	req, err := http.NewRequest(http.MethodPost, h.url+"/v1/responses", strings.NewReader(body))
	if err != nil {
		return err
	}
	for k, v := range clientHeaders("/v1/responses") {
		req.Header.Set(k, v)
	}
	res, err := h.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", res.StatusCode)
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
