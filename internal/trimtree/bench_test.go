package trimtree

import (
	"encoding/json"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/bench/measure"
	"github.com/winnowhq/winnow/internal/tokens"
)

// benchDoc is a list_issues-like response: 300 issues, about 100 KiB of
// compact JSON, five of them about a websocket reconnect.
func benchDoc(b *testing.B) string {
	b.Helper()
	iss := issues(rand.New(rand.NewPCG(41, 42)), 300)
	for _, i := range []int{17, 88, 140, 211, 290} {
		iss[i].Title = "websocket reconnect loops forever"
	}
	return marshal(b, iss, false)
}

// benchCounters are the counters Trim is measured with: exact o200k (what
// the gateway uses), the calibrated estimator, and bytes/4, which costs
// next to nothing and so shows Trim's own time.
func benchCounters(b *testing.B) []struct {
	name  string
	count func(string) int
} {
	est := tokens.NewEstimator(tokens.O200k)
	return []struct {
		name  string
		count func(string) int
	}{
		{"o200k", o200k(b)},
		{"estimate", est.Count},
		{"bytes4", func(s string) int { return (len(s) + 3) / 4 }},
	}
}

// BenchmarkTrim trims benchDoc to 4000 tokens with three kinds of signal
// (matches a few items: DP; matches none: order; matches about a third of
// the items: greedy) and three counters (see loop for the metrics).
// Compare with BenchmarkCount, the counting alone, in the same run.
func BenchmarkTrim(b *testing.B) {
	doc := benchDoc(b)
	signals := []struct {
		name string
		sig  Signals
	}{
		{"dp", Signals{Args: []string{"websocket reconnect"}, Recent: []string{"flaky tests"}}},
		{"order", Signals{}},
		{"greedy", Signals{Args: []string{"cache", "login", "parser"}, Recent: []string{"billing", "search"}}},
	}
	for _, c := range benchCounters(b) {
		for _, s := range signals {
			b.Run(c.name+"/"+s.name, func(b *testing.B) {
				b.SetBytes(int64(len(doc)))
				var res Result
				loop(b, func() {
					var err error
					if res, err = Trim(doc, 4000, s.sig, c.count); err != nil {
						b.Fatal(err)
					}
				})
				if res.Strategy != s.name {
					b.Fatalf("strategy %q, want %q", res.Strategy, s.name)
				}
				b.ReportMetric(float64(len(res.Kept)), "kept")
			})
		}
	}
}

// loop runs f under b.Loop on a locked OS thread and reports, besides the
// mean ns/op, the median wall time of a call (p50-ns) and, on Linux, the
// median CPU time of the calling thread (p50-cpu-ns), which a busy
// machine inflates far less than wall time.
func loop(b *testing.B, f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var wall, cpu []time.Duration
	for b.Loop() {
		start := time.Now()
		cpu0, ok := measure.ThreadCPU()
		f()
		if cpu1, _ := measure.ThreadCPU(); ok {
			cpu = append(cpu, cpu1-cpu0)
		}
		wall = append(wall, time.Since(start))
	}
	b.ReportMetric(float64(median(wall).Nanoseconds()), "p50-ns")
	if len(cpu) > 0 {
		b.ReportMetric(float64(median(cpu).Nanoseconds()), "p50-cpu-ns")
	}
}

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

// BenchmarkCount is the counting Trim does on benchDoc, without the rest:
// the whole text, then every item with its separator.
func BenchmarkCount(b *testing.B) {
	doc := benchDoc(b)
	l, _ := findList(doc)
	for _, c := range benchCounters(b) {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			loop(b, func() {
				c.count(doc)
				l.costs(c.count)
			})
		})
	}
}

// BenchmarkScanJSON compares the one-pass scanner with encoding/json.Valid,
// which only validates.
func BenchmarkScanJSON(b *testing.B) {
	doc := benchDoc(b)
	b.Run("scanJSON", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		loop(b, func() {
			if _, ok := scanJSON(doc); !ok {
				b.Fatal("not valid")
			}
		})
	})
	b.Run("json.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		loop(b, func() {
			if !json.Valid([]byte(doc)) {
				b.Fatal("not valid")
			}
		})
	})
}

// BenchmarkValues is the scoring alone on benchDoc, with signals that few
// items match and with signals that a third of them match.
func BenchmarkValues(b *testing.B) {
	doc := benchDoc(b)
	l, _ := findList(doc)
	for _, tc := range []struct {
		name string
		sig  Signals
	}{
		{"few", Signals{Args: []string{"websocket reconnect"}, Recent: []string{"flaky tests"}}},
		{"broad", Signals{Args: []string{"cache", "login", "parser"}, Recent: []string{"billing", "search"}}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			loop(b, func() { newScorer(tc.sig).values(l) })
		})
	}
}
