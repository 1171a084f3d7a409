package telemetry

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/winnowhq/winnow/internal/tokens"
)

// Defaults of [Options].
const (
	DefaultQueue         = 256
	DefaultMaxExactBytes = 1 << 20
	DefaultMaxFileBytes  = 32 << 20
)

// RotatedSuffix is appended to the telemetry file's path when it is rotated.
const RotatedSuffix = ".1"

// Options configures a [Writer]. The zero value means the defaults.
type Options struct {
	// Counter counts tokens; nil means exact o200k.
	Counter tokens.Counter
	// MaxExactBytes is the size above which a text is estimated rather than
	// counted exactly (exact counting runs at a few MB/s).
	MaxExactBytes int
	// MaxFileBytes is the size at which the file is renamed to
	// path+RotatedSuffix (replacing an older one) and a new file started.
	MaxFileBytes int64
	// Queue is the number of calls waiting to be written; when it is full,
	// further calls are dropped and counted (see [Writer.Dropped]) rather
	// than slowing the gateway down.
	Queue int
	// Logger receives write errors; nil discards them.
	Logger *slog.Logger
}

// A Writer appends one [Event] per recorded [Call], and one [ProxyEvent] per
// recorded [Exchange], to a JSONL file. Record and RecordExchange never block
// and never fail; counting, hashing and writing happen on the Writer's
// goroutine until Close. A Writer is safe for concurrent use.
type Writer struct {
	path     string
	key      []byte
	count    tokens.Counter
	estimate tokens.Estimator
	maxExact int
	maxFile  int64
	log      *slog.Logger

	mu     sync.Mutex // guards closed and sends on queue
	closed bool
	queue  chan record
	done   chan struct{}

	dropped atomic.Int64
	failed  atomic.Int64

	f    *os.File // owned by the goroutine after Open
	size int64
}

// Open opens (creating it and its directory if need be) the telemetry file at
// path for appending, and starts the Writer's goroutine. The file is private
// to the user (mode 0600, directory 0700).
func Open(path string, opts *Options) (*Writer, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Counter == nil {
		c, err := tokens.Exact(tokens.O200k)
		if err != nil {
			return nil, fmt.Errorf("open telemetry: %w", err)
		}
		o.Counter = c
	}
	if o.MaxExactBytes <= 0 {
		o.MaxExactBytes = DefaultMaxExactBytes
	}
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = DefaultMaxFileBytes
	}
	if o.Queue <= 0 {
		o.Queue = DefaultQueue
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	w := &Writer{
		path:     path,
		key:      make([]byte, 32),
		count:    o.Counter,
		estimate: tokens.NewEstimator(tokens.O200k),
		maxExact: o.MaxExactBytes,
		maxFile:  o.MaxFileBytes,
		log:      o.Logger,
		queue:    make(chan record, o.Queue),
		done:     make(chan struct{}),
	}
	rand.Read(w.key)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open telemetry %s: %w", path, err)
	}
	if err := w.openFile(); err != nil {
		return nil, err
	}
	go w.run()
	return w, nil
}

// Path returns the file the Writer appends to.
func (w *Writer) Path() string { return w.path }

// A record is one queued Call or Exchange.
type record struct {
	call     Call
	exchange *Exchange
}

// Record queues c to be written. It returns at once; if the queue is full or
// the Writer is closed, c is dropped and counted.
func (w *Writer) Record(c Call) {
	w.enqueue(record{call: c})
}

func (w *Writer) enqueue(r record) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		w.dropped.Add(1)
		return
	}
	select {
	case w.queue <- r:
	default:
		w.dropped.Add(1)
	}
}

// Dropped returns the number of calls and exchanges dropped so far because
// the queue was full or the Writer closed.
func (w *Writer) Dropped() int64 { return w.dropped.Load() }

// Failed returns the number of events that could not be written.
func (w *Writer) Failed() int64 { return w.failed.Load() }

// Close writes the calls still queued, stops the goroutine and closes the
// file. Calls recorded after Close are dropped. Close is idempotent.
func (w *Writer) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		<-w.done
		return nil
	}
	w.closed = true
	close(w.queue)
	w.mu.Unlock()
	<-w.done
	if err := w.f.Close(); err != nil {
		return fmt.Errorf("close telemetry %s: %w", w.path, err)
	}
	return nil
}

func (w *Writer) run() {
	defer close(w.done)
	for r := range w.queue {
		var line any
		if r.exchange != nil {
			line = w.ProxyEvent(*r.exchange)
		} else {
			line = w.Event(r.call)
		}
		if err := w.write(line); err != nil {
			w.failed.Add(1)
			w.log.Warn("telemetry: write event", "path", w.path, "err", err)
		}
	}
}

// Event turns c into the Event the Writer would write: texts counted,
// identifiers hashed, no text kept.
func (w *Writer) Event(c Call) Event {
	m := meter{w: w, seen: make(map[string]int)}
	ev := Event{
		Time:      c.Time.UTC(),
		Tool:      c.Tool,
		Session:   w.hash([]byte(c.Session)),
		Args:      w.hash(c.Args),
		Shape:     c.Shape,
		Before:    m.sum(c.Upstream),
		After:     m.sum(c.Delivered),
		Dedup:     c.Dedup,
		Error:     c.Error,
		LatencyUS: c.Latency.Microseconds(),

		Served:          c.Served,
		PredictedTokens: c.PredictedTokens,
		Key:             w.hashOpt([]byte(c.Key)),
		Plans:           w.plans(c.Plans),
		UpstreamUS:      c.UpstreamLatency.Microseconds(),
	}
	var names []string
	for _, s := range c.Steps {
		b, a := m.count(s.Before), m.count(s.After)
		if n := len(ev.Layers); n > 0 && ev.Layers[n-1].Layer == s.Layer {
			ev.Layers[n-1].Before += b
			ev.Layers[n-1].After += a
			continue
		}
		ev.Layers = append(ev.Layers, LayerTokens{Layer: s.Layer, Before: b, After: a})
		names = appendNew(names, s.Layer)
	}
	ev.Layer = LayerNone
	if len(names) > 0 {
		ev.Layer = strings.Join(names, "+")
	}
	ev.Counter = CounterExact
	if m.estimated {
		ev.Counter = CounterEstimate
	}
	return ev
}

func appendNew(names []string, s string) []string {
	for _, n := range names {
		if n == s {
			return names
		}
	}
	return append(names, s)
}

// hash returns the first 8 bytes of HMAC-SHA256(key, b) in hex.
func (w *Writer) hash(b []byte) string {
	h := hmac.New(sha256.New, w.key)
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// A meter counts the texts of one call, each distinct text once.
type meter struct {
	w         *Writer
	seen      map[string]int
	estimated bool
}

func (m *meter) count(s string) int {
	if n, ok := m.seen[s]; ok {
		return n
	}
	var n int
	if len(s) > m.w.maxExact {
		n = m.w.estimate.Count(s)
		m.estimated = true
	} else {
		n = m.w.count.Count(s)
	}
	m.seen[s] = n
	return n
}

func (m *meter) sum(texts []string) int {
	n := 0
	for _, s := range texts {
		n += m.count(s)
	}
	return n
}

// write appends ev (an Event or a ProxyEvent) as one line, rotating the file
// first if the line would take it past the size limit.
func (w *Writer) write(ev any) error {
	line, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("encode event: %w", err)
	}
	line = append(line, '\n')
	if w.size > 0 && w.size+int64(len(line)) > w.maxFile {
		if err := w.rotate(); err != nil {
			return err
		}
	}
	n, err := w.f.Write(line) // one write per line: O_APPEND keeps lines whole across processes
	w.size += int64(n)
	return err
}

func (w *Writer) openFile() error {
	f, err := os.OpenFile(w.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("open telemetry %s: %w", w.path, err)
	}
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		f.Close()
		return fmt.Errorf("open telemetry %s: %w", w.path, err)
	}
	w.f, w.size = f, size
	return nil
}

// rotate renames the file to path+RotatedSuffix and starts a new one.
func (w *Writer) rotate() error {
	closeErr := w.f.Close()
	renameErr := os.Rename(w.path, w.path+RotatedSuffix)
	if err := w.openFile(); err != nil {
		return errors.Join(err, closeErr, renameErr)
	}
	if err := errors.Join(closeErr, renameErr); err != nil {
		return fmt.Errorf("rotate telemetry %s: %w", w.path, err)
	}
	return nil
}
