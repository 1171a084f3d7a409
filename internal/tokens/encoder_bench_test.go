package tokens

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// BenchmarkCount counts the whole calibration corpus (about 380 KB of Go,
// Python, JSON, prose, logs and multilingual text) with tiktoken-go's
// codec and with the encoder, side by side:
//
//	go test -run '^$' -bench BenchmarkCount ./internal/tokens
func BenchmarkCount(b *testing.B) {
	var sb strings.Builder
	for _, f := range loadCorpus(b) {
		sb.WriteString(f.text)
	}
	text := sb.String()
	for _, enc := range []Encoding{O200k, CL100k} {
		tk := tiktoken(b, enc)
		e := encoderOf(enc)
		run := func(name string, count func(string) int) {
			b.Run(name+"/"+string(enc), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				var n int
				for b.Loop() {
					n = count(text)
				}
				b.ReportMetric(float64(n), "tokens")
			})
		}
		run("tiktoken-go", func(s string) int { n, _ := tk.Count(s); return n })
		run("winnow", e.count)
	}
}

// BenchmarkFirstCount measures what a one-shot process pays to count its
// first text: each iteration starts this test binary afresh (running
// TestFirstCountChild) and counts "hello world" once, with tiktoken-go
// (which builds its vocabulary first) or with the encoder. It reports the
// child's own time from before the first count to after it (first-ns) and
// the child process's CPU time (cpu-ns, which includes starting the test
// binary, the same for both):
//
//	go test -run '^$' -bench BenchmarkFirstCount ./internal/tokens
func BenchmarkFirstCount(b *testing.B) {
	for _, which := range []string{"tiktoken-go", "winnow"} {
		b.Run(which, func(b *testing.B) {
			var first, cpu time.Duration
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^TestFirstCountChild$", "-test.count=1")
				cmd.Env = append(os.Environ(), "WINNOW_FIRST_COUNT="+which)
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("child: %v\n%s", err, out)
				}
				var ns int64
				if _, err := fmt.Sscanf(string(out), "first-count-ns %d", &ns); err != nil {
					b.Fatalf("child printed %q: %v", out, err)
				}
				first += time.Duration(ns)
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			b.ReportMetric(float64(first.Nanoseconds())/float64(b.N), "first-ns")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns")
		})
	}
}

// TestFirstCountChild is BenchmarkFirstCount's child process; run
// otherwise, it does nothing.
func TestFirstCountChild(t *testing.T) {
	which := os.Getenv("WINNOW_FIRST_COUNT")
	if which == "" {
		t.Skip("run by BenchmarkFirstCount")
	}
	const text = "hello world"
	start := time.Now()
	var n int
	switch which {
	case "tiktoken-go":
		c, err := codec(O200k)
		if err != nil {
			t.Fatal(err)
		}
		n, _ = c.Count(text)
	case "winnow":
		n = Count(O200k, text)
	default:
		t.Fatalf("WINNOW_FIRST_COUNT=%q", which)
	}
	elapsed := time.Since(start)
	if n != 2 {
		t.Fatalf("%s counts %d tokens in %q, want 2", which, n, text)
	}
	fmt.Printf("first-count-ns %d\n", elapsed.Nanoseconds())
	os.Exit(0) // print nothing else
}
