package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/bench/measure"
)

// githubArray returns a GitHub-like JSON array of issues (as the GitHub MCP
// server returns list_issues) of about size bytes.
func githubArray(b *testing.B, size int) string {
	b.Helper()
	var list []map[string]any
	for n := 1; ; n *= 2 {
		list = issues(n)
		if text := mustJSON(b, list, true); len(text) >= size {
			for len(list) > 1 && len(mustJSON(b, list[:len(list)-1], true)) >= size {
				list = list[:len(list)-1]
			}
			return mustJSON(b, list, true)
		}
	}
}

// BenchmarkAfter measures the whole After on GitHub-like issue lists of 4
// KiB and 100 KiB: a fresh result (a new session each time, so nothing is
// a duplicate: dedup misses, encode, and at 100 KiB trim), the same with a
// counter that costs next to nothing (fresh-bytes4: the pipeline's own
// work, without the estimator's), and a repeat (dedup hit).
// encoding/json's Valid and Compact on the same input run alongside as
// the peers to compare with: the least any stage that reads the whole
// response must cost.
//
// Besides the mean, each reports the median wall time of a call (p50-ns,
// the latency the issue's target is about) and the median CPU time of the
// calling thread (p50-cpu-ns), which a busy machine inflates far less.
func BenchmarkAfter(b *testing.B) {
	for _, size := range []int{4 << 10, 100 << 10} {
		text := githubArray(b, size)
		name := fmt.Sprintf("%dKiB", size>>10)
		args := json.RawMessage(`{"owner":"acme","repo":"widget","labels":"bug,upload"}`)
		b.Run(name+"/fresh", func(b *testing.B) {
			p := Default(Options{})
			b.SetBytes(int64(len(text)))
			i := 0
			loop(b, func() {
				i++
				c := &Call{Session: strconv.Itoa(i), Tool: "github__list_issues", Args: args}
				p.Before(b.Context(), c)
				p.After(b.Context(), c, textResult(text))
			})
		})
		b.Run(name+"/fresh-bytes4", func(b *testing.B) {
			p := Default(Options{Counter: bytes4{}})
			b.SetBytes(int64(len(text)))
			i := 0
			loop(b, func() {
				i++
				c := &Call{Session: strconv.Itoa(i), Tool: "github__list_issues", Args: args}
				p.Before(b.Context(), c)
				p.After(b.Context(), c, textResult(text))
			})
		})
		b.Run(name+"/repeat", func(b *testing.B) {
			p := Default(Options{})
			c := &Call{Session: "s", Tool: "github__list_issues", Args: args}
			p.After(b.Context(), c, textResult(text))
			b.SetBytes(int64(len(text)))
			loop(b, func() {
				p.Before(b.Context(), c)
				p.After(b.Context(), c, textResult(text))
			})
		})
		b.Run(name+"/peer-json.Valid", func(b *testing.B) {
			data := []byte(text)
			b.SetBytes(int64(len(text)))
			loop(b, func() { json.Valid(data) })
		})
		b.Run(name+"/peer-json.Compact", func(b *testing.B) {
			data := []byte(text)
			var out bytes.Buffer
			b.SetBytes(int64(len(text)))
			loop(b, func() {
				out.Reset()
				if err := json.Compact(&out, data); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// bytes4 counts a token per four bytes.
type bytes4 struct{}

func (bytes4) Count(s string) int { return (len(s) + 3) / 4 }

// loop runs f under b.Loop on a locked OS thread and reports, besides the
// mean ns/op and allocations, the median wall time of a call (p50-ns)
// and, on Linux, the median CPU time of the calling thread (p50-cpu-ns).
func loop(b *testing.B, f func()) {
	b.ReportAllocs()
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
