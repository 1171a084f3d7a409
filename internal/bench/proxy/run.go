package proxy

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/winnowhq/winnow/internal/bench/measure"
	"github.com/winnowhq/winnow/internal/llmproxy"
	"github.com/winnowhq/winnow/internal/llmproxy/fakeapi"
)

// Options configure a run. Zero fields take the defaults in brackets.
type Options struct {
	BodyBytes int       // size of the request body of the latency comparison [1 MiB]
	Requests  int       // timed requests per side, direct and through the proxy [200]
	Streams   int       // timed streaming requests per side for time to first byte [200]
	Streaming int       // concurrent streams in the concurrency check [200]
	Warmup    int       // untimed requests per side before each comparison [20]
	Progress  io.Writer // phase lines; nil for none

	// Rewriter is the proxy's rewriter; nil forwards bodies unchanged.
	Rewriter llmproxy.Rewriter
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.BodyBytes, 1<<20)
	def(&o.Requests, 200)
	def(&o.Streams, 200)
	def(&o.Streaming, 200)
	def(&o.Warmup, 20)
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	return o
}

// ttfbBodyBytes is the least body size of the streaming requests whose time to first byte
// is measured (MessagesBody rounds up to whole turns: ~10 KB): a small request, so the
// number is the streaming path's, not the body copy's.
const ttfbBodyBytes = 4 << 10

// A setup is a fake API and a proxy in front of it, on loopback ports.
type setup struct {
	api    *fakeapi.API
	direct string // the API's base URL
	proxy  string // the proxy's base URL
	stop   func() error
}

// start runs a fake API with apiOpts (skimming bodies) and a proxy with rw (nil: passthrough)
// in front of it.
func start(ctx context.Context, apiOpts *fakeapi.Options, rw llmproxy.Rewriter) (*setup, error) {
	o := fakeapi.Options{}
	if apiOpts != nil {
		o = *apiOpts
	}
	o.Skim = true
	api, err := fakeapi.Start(&o)
	if err != nil {
		return nil, err
	}
	p, err := llmproxy.New(&llmproxy.Options{
		Rewriter:          rw,
		AnthropicUpstream: api.URL,
		OpenAIUpstream:    api.URL,
		Logger:            slog.New(slog.NewTextHandler(io.Discard, nil)),
		ShutdownTimeout:   5 * time.Second,
	})
	if err != nil {
		api.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		api.Close()
		return nil, fmt.Errorf("proxy bench: listen: %w", err)
	}
	sctx, cancel := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- p.Serve(sctx, ln) }()
	return &setup{api: api, direct: api.URL, proxy: "http://" + ln.Addr().String(), stop: func() error {
		cancel()
		return errors.Join(<-served, api.Close())
	}}, nil
}

// Run measures the proxy against calling the fake API directly; see the package
// documentation for what and how.
func Run(ctx context.Context, opts Options) (*Report, error) {
	o := opts.withDefaults()
	rep := &Report{LoadAvg: measure.LoadAvg(), BodyBytes: o.BodyBytes, TTFBBodyBytes: ttfbBodyBytes}
	s, err := start(ctx, nil, o.Rewriter)
	if err != nil {
		return nil, err
	}
	defer s.stop()
	tr := &http.Transport{MaxIdleConnsPerHost: 1024, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}

	body := MessagesBody(o.BodyBytes, false)
	rep.BodyBytes = len(body)
	if o.Rewriter == nil {
		fmt.Fprintf(o.Progress, "proxy bench: %d requests of %d bytes, direct and through the proxy\n", o.Requests, len(body))
		if rep.Request, err = interleave(ctx, client, s, [][]byte{body}, o.Warmup, o.Requests, false); err != nil {
			return nil, fmt.Errorf("request latency: %w", err)
		}
	} else if err := conversations(ctx, client, s, o, rep); err != nil {
		return nil, fmt.Errorf("request latency: %w", err)
	}
	small := MessagesBody(ttfbBodyBytes, true)
	rep.TTFBBodyBytes = len(small)
	fmt.Fprintf(o.Progress, "proxy bench: %d streams, time to first byte\n", o.Streams)
	if rep.TTFB, err = interleave(ctx, client, s, [][]byte{small}, o.Warmup, o.Streams, true); err != nil {
		return nil, fmt.Errorf("time to first byte: %w", err)
	}
	fmt.Fprintf(o.Progress, "proxy bench: %d concurrent streams\n", o.Streaming)
	if rep.Concurrency, err = concurrency(ctx, client, small, o.Streaming, o.Rewriter); err != nil {
		return nil, fmt.Errorf("concurrent streams: %w", err)
	}
	rep.LoadAvgEnd = measure.LoadAvg()
	return rep, nil
}

// conversationRequests is the number of requests of each conversation the request overhead
// is measured on when the proxy rewrites: the first is cold (the proxy has not seen the
// conversation), the others extend the request before them by one turn.
const conversationRequests = 20

// conversations measures the request overhead of a rewriting proxy the way an agent loads
// it: conversations of conversationRequests requests of about o.BodyBytes, each request the
// previous one and one more turn, until o.Requests requests that extend an earlier one have
// been timed. A proxy that remembers earlier requests (compaction's cache) does only the new
// turn's work on those; the first request of each conversation is timed apart, as rep.Cold.
func conversations(ctx context.Context, client *http.Client, s *setup, o Options, rep *Report) error {
	warm := [][]byte{MessagesBody(o.BodyBytes, false)}
	if _, err := interleave(ctx, client, s, warm, o.Warmup, 0, false); err != nil {
		return err
	}
	var direct, proxied, coldDirect, coldProxied []time.Duration
	rep.BodyBytes, rep.MinBodyBytes, rep.MaxBodyBytes = o.BodyBytes, 0, 0
	for id := uint64(0); len(proxied) < o.Requests; id++ {
		bodies := Conversation(o.BodyBytes, conversationRequests, id)
		fmt.Fprintf(o.Progress, "proxy bench: conversation %d, %d requests of %d to %d bytes, direct and through the proxy\n",
			id+1, len(bodies), len(bodies[0]), len(bodies[len(bodies)-1]))
		for k, body := range bodies {
			if k > 0 && len(proxied) == o.Requests {
				break
			}
			d, p, err := timePair(ctx, client, s, body, k%2 == 1, false)
			if err != nil {
				return err
			}
			if k == 0 {
				coldDirect, coldProxied = append(coldDirect, d), append(coldProxied, p)
				continue
			}
			direct, proxied = append(direct, d), append(proxied, p)
			if rep.MinBodyBytes == 0 || len(body) < rep.MinBodyBytes {
				rep.MinBodyBytes = len(body)
			}
			rep.MaxBodyBytes = max(rep.MaxBodyBytes, len(body))
			rep.Conversations = int(id) + 1
		}
	}
	rep.Request = compare(direct, proxied)
	cold := compare(coldDirect, coldProxied)
	rep.Cold = &cold
	return nil
}

// interleave times n requests against the API directly and through the proxy, alternating
// which goes first, after warm untimed ones; request i sends bodies[i%len(bodies)]. With
// ttfb it times the first byte of the response, else the whole exchange.
func interleave(ctx context.Context, client *http.Client, s *setup, bodies [][]byte, warm, n int, ttfb bool) (Comparison, error) {
	var direct, proxied []time.Duration
	for i := range warm + n {
		d, p, err := timePair(ctx, client, s, bodies[i%len(bodies)], i%2 == 1, ttfb)
		if err != nil {
			return Comparison{}, err
		}
		if i >= warm {
			direct, proxied = append(direct, d), append(proxied, p)
		}
	}
	return compare(direct, proxied), nil
}

// timePair times body directly and through the proxy, the proxy first if proxyFirst.
func timePair(ctx context.Context, client *http.Client, s *setup, body []byte, proxyFirst, ttfb bool) (direct, proxied time.Duration, err error) {
	order := []string{s.direct, s.proxy}
	if proxyFirst {
		order[0], order[1] = order[1], order[0]
	}
	for _, base := range order {
		total, first, err := timeRequest(ctx, client, base, body)
		if err != nil {
			return 0, 0, err
		}
		d := total
		if ttfb {
			d = first
		}
		if base == s.direct {
			direct = d
		} else {
			proxied = d
		}
	}
	return direct, proxied, nil
}

// newRequest returns a POST of body to base/v1/messages with the headers
// of an Anthropic client.
func newRequest(ctx context.Context, base string, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/messages", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Api-Key", "sk-ant-bench")
	req.Header.Set("Anthropic-Version", "2023-06-01")
	return req, nil
}

// timeRequest posts body to base/v1/messages and returns the time to the whole response
// and to its first body byte.
func timeRequest(ctx context.Context, client *http.Client, base string, body []byte) (total, first time.Duration, err error) {
	req, err := newRequest(ctx, base, body)
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	res, err := client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer res.Body.Close()
	var one [1]byte
	if _, err := io.ReadFull(res.Body, one[:]); err != nil {
		return 0, 0, fmt.Errorf("read %s: %w", base, err)
	}
	first = time.Since(start)
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		return 0, 0, fmt.Errorf("read %s: %w", base, err)
	}
	total = time.Since(start)
	if res.StatusCode != http.StatusOK {
		return 0, 0, fmt.Errorf("%s: status %d", base, res.StatusCode)
	}
	return total, first, nil
}

// Concurrency is the result of the concurrent streams check.
type Concurrency struct {
	Streams int `json:"streams"`
	// Open is how many streams had their first event while all were held open.
	Open int `json:"open"`
	// Complete is how many received every event through message_stop.
	Complete int       `json:"complete"`
	Errors   []string  `json:"errors,omitempty"`
	Duration Durations `json:"duration"` // of each stream, first request byte to last event
	Elapsed  Millis    `json:"elapsed_ms"`
}

// concurrency opens n streams through a proxy whose upstream holds every stream after its
// first event until all n have it, so all are open at once, then lets them finish.
func concurrency(ctx context.Context, client *http.Client, body []byte, n int, rw llmproxy.Rewriter) (Concurrency, error) {
	pace := make(chan struct{})
	s, err := start(ctx, &fakeapi.Options{Pace: pace}, rw)
	if err != nil {
		return Concurrency{}, err
	}
	defer s.stop()
	res := Concurrency{Streams: n}
	var mu sync.Mutex
	var opened, done sync.WaitGroup
	opened.Add(n)
	done.Add(n)
	durations := make([]time.Duration, 0, n)
	begin := time.Now()
	for range n {
		go func() {
			defer done.Done()
			d, err := stream(ctx, client, s.proxy, body, opened.Done)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				res.Errors = append(res.Errors, err.Error())
				return
			}
			res.Complete++
			durations = append(durations, d)
		}()
	}
	opened.Wait()
	mu.Lock()
	res.Open = n - len(res.Errors) // a stream that failed before its first event never opened
	mu.Unlock()
	close(pace)
	done.Wait()
	res.Elapsed = Millis(time.Since(begin))
	res.Duration = measure.Summarize(durations)
	return res, nil
}

// stream posts a streaming request, calls opened once (after the first event, or on
// failure before it) and reads the stream to message_stop.
func stream(ctx context.Context, client *http.Client, base string, body []byte, opened func()) (time.Duration, error) {
	once := sync.OnceFunc(opened)
	defer once()
	req, err := newRequest(ctx, base, body)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("status %d", res.StatusCode)
	}
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "event: ") {
			once()
		}
		if line == "event: message_stop" {
			io.Copy(io.Discard, res.Body)
			return time.Since(start), nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, errors.New("the stream ended before message_stop")
}
