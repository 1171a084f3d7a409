package telemetry

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/tokens"
)

func sampleCall() Call {
	return Call{
		Time:      time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC),
		Session:   "session-SECRET",
		Tool:      "github__list_issues",
		Args:      []byte(`{"q":"argSECRET"}`),
		Shape:     "json_array_objects",
		Latency:   1500 * time.Microsecond,
		Upstream:  []string{`[{"title":"bodySECRET one"},{"title":"two"}]`},
		Delivered: []string{"[1]:\ntitle\nbodySECRET one\n[1 of 2 items; rest: winnow__more {\"ref\":\"r1\"}]"},
		Steps: []Step{
			{Layer: LayerEncode, Before: `[{"title":"bodySECRET one"},{"title":"two"}]`, After: "[2]:\ntitle\nbodySECRET one\ntwo"},
			{Layer: LayerTrim, Before: "[2]:\ntitle\nbodySECRET one\ntwo", After: "[1]:\ntitle\nbodySECRET one"},
			{Layer: LayerTrim, After: `[1 of 2 items; rest: winnow__more {"ref":"r1"}]`},
		},
	}
}

func TestWriterEvent(t *testing.T) {
	w, err := Open(filepath.Join(t.TempDir(), "t.jsonl"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	c := sampleCall()
	ev := w.Event(c)
	count := func(s string) int { return tokens.Count(tokens.O200k, s) }
	want := Event{
		Time:    c.Time,
		Tool:    c.Tool,
		Session: ev.Session,
		Args:    ev.Args,
		Shape:   c.Shape,
		Layer:   "encode+trim",
		Before:  count(c.Upstream[0]),
		After:   count(c.Delivered[0]),
		Layers: []LayerTokens{
			{Layer: LayerEncode, Before: count(c.Steps[0].Before), After: count(c.Steps[0].After)},
			{Layer: LayerTrim, Before: count(c.Steps[1].Before), After: count(c.Steps[1].After) + count(c.Steps[2].After)},
		},
		LatencyUS: 1500,
		Counter:   CounterExact,
	}
	if diff := cmp.Diff(want, ev); diff != "" {
		t.Errorf("event mismatch (-want +got):\n%s", diff)
	}
	if len(ev.Session) != 16 || len(ev.Args) != 16 || ev.Session == ev.Args {
		t.Errorf("hashes %q %q: want 16 hex digits each, different", ev.Session, ev.Args)
	}
	if again := w.Event(c); again.Args != ev.Args || again.Session != ev.Session {
		t.Error("the same identifiers hashed differently within one writer")
	}
	other, err := Open(filepath.Join(t.TempDir(), "u.jsonl"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if other.Event(c).Args == ev.Args {
		t.Error("two writers share a hash key: hashes could be matched across runs")
	}
}

func TestWriterFileHoldsNoText(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dir", "t.jsonl")
	w, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		w.Record(sampleCall())
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	w.Record(sampleCall()) // after Close: dropped, no panic
	if w.Dropped() != 1 {
		t.Errorf("dropped %d, want 1", w.Dropped())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("SECRET")) || bytes.Contains(data, []byte("title")) {
		t.Errorf("telemetry holds text:\n%s", data)
	}
	if n := bytes.Count(data, []byte("\n")); n != 3 {
		t.Errorf("%d lines, want 3", n)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600", fi.Mode().Perm())
	}
}

// gate is a Counter that blocks until released, to fill the queue.
type gate struct {
	entered chan struct{}
	release chan struct{}
}

func (g gate) Count(s string) int {
	select {
	case g.entered <- struct{}{}:
	default:
	}
	<-g.release
	return len(s)
}

func TestWriterDropsWhenFull(t *testing.T) {
	g := gate{entered: make(chan struct{}, 1), release: make(chan struct{})}
	w, err := Open(filepath.Join(t.TempDir(), "t.jsonl"), &Options{Counter: g, Queue: 1})
	if err != nil {
		t.Fatal(err)
	}
	w.Record(sampleCall())
	<-g.entered            // the goroutine holds the first call
	w.Record(sampleCall()) // queued
	w.Record(sampleCall()) // dropped
	if w.Dropped() != 1 {
		t.Errorf("dropped %d, want 1", w.Dropped())
	}
	close(g.release)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	n := 0
	if _, _, err := ScanFile(w.Path(), func(Event) { n++ }, nil); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("%d events written, want 2", n)
	}
}

func TestWriterEstimatesLargeTexts(t *testing.T) {
	w, err := Open(filepath.Join(t.TempDir(), "t.jsonl"), &Options{MaxExactBytes: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	c := sampleCall()
	c.Upstream = []string{strings.Repeat("word ", 100)}
	ev := w.Event(c)
	if ev.Counter != CounterEstimate || ev.Before != tokens.NewEstimator(tokens.O200k).Count(c.Upstream[0]) {
		t.Errorf("counter %q before %d: want the estimate", ev.Counter, ev.Before)
	}
}

func TestWriterRotates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	w, err := Open(path, &Options{MaxFileBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		w.Record(sampleCall())
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + RotatedSuffix} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > 1000 {
			t.Errorf("%s: %d bytes, over the limit", p, fi.Size())
		}
	}
	n := 0
	files, _, err := ScanFile(path, func(Event) { n++ }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || n == 0 || n > 20 {
		t.Errorf("read %d events from %v", n, files)
	}
}

func TestScanSkipsWhatIsNotAnEvent(t *testing.T) {
	in := `{"time":"2026-03-02T10:00:00Z","tool":"a__b","before":10,"after":4}

not json
{"time":"2026-03-02T10:00:01Z","tool":"a__b","before":3,"after":3}
{"tool":"no time"}
{"time":"2026-03-02T10:00:02Z","tool":"a__c","bef`
	var tools []string
	skipped, err := Scan(strings.NewReader(in), func(ev Event) { tools = append(tools, ev.Tool) })
	if err != nil {
		t.Fatal(err)
	}
	if skipped != 3 || len(tools) != 2 {
		t.Errorf("skipped %d, read %v; want 3 skipped, 2 read", skipped, tools)
	}
}

// TestScanAllKinds checks that each line goes to the function of its kind whatever else it
// holds: a kind only inside a string or a nested object does not make a line a proxy event,
// a kind this winnow does not know is skipped, and so is a proxy event without a time.
func TestScanAllKinds(t *testing.T) {
	in := `{"time":"2026-03-02T10:00:00Z","tool":"a__b","args":"{\"kind\":\"proxy\"}","before":1,"after":1}
{"kind":"proxy","time":"2026-03-02T10:00:01Z","model":"m"}
{"time":"2026-03-02T10:00:02Z","kind":"proxy","model":"late kind"}
{"kind":"future","time":"2026-03-02T10:00:03Z","tool":"a__b"}
{"kind":"proxy","model":"no time"}
{"kind":7,"time":"2026-03-02T10:00:04Z","tool":"a__b"}
{"time":"2026-03-02T10:00:05Z","tool":"a__c","layers":[{"kind":"x"}]}
`
	var tools, models []string
	skipped, err := ScanAll(strings.NewReader(in),
		func(ev Event) { tools = append(tools, ev.Tool) },
		func(ev ProxyEvent) { models = append(models, ev.Model) })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a__b", "a__c"}; !slices.Equal(tools, want) {
		t.Errorf("gateway events %v, want %v", tools, want)
	}
	if want := []string{"m", "late kind"}; !slices.Equal(models, want) {
		t.Errorf("proxy events %v, want %v", models, want)
	}
	if skipped != 3 {
		t.Errorf("skipped %d lines, want 3", skipped)
	}
}
