package proxy

import (
	"context"
	"runtime/pprof"
	"syscall"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/compact"
)

// benchConversation is the conversation `winnow bench proxy --compact` sends first: requests
// of about 1 MiB, each the one before plus a turn.
func benchConversation(b *testing.B) [][]byte {
	b.Helper()
	return Conversation(1<<20, conversationRequests, 0)
}

// A cpuClock adds up the CPU time the process spends (every thread, the collector's
// included) while it times something: on a shared machine that is steadier than the wall
// clock, which counts the time other processes hold the CPU. Run the benchmarks with -cpu 1
// so that the process does nothing else meanwhile.
type cpuClock struct{ total time.Duration }

func (c *cpuClock) time(f func()) {
	start := cpuTime()
	f()
	c.total += cpuTime() - start
}

// report adds the CPU time per operation to b's results, as cpu-ns/op.
func (c *cpuClock) report(b *testing.B) {
	b.ReportMetric(float64(c.total.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRewriteCold is the proxy's compaction of the first request of a conversation
// (nothing cached to reuse), as `winnow bench proxy --compact` times it in "first turn
// (cold)": decode, passes, validation, encode and storing the request in the cache.
func BenchmarkRewriteCold(b *testing.B) {
	body := benchConversation(b)[0]
	c := compact.New(compact.Options{})
	var cpu cpuClock
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		cpu.time(func() {
			if _, sum, err := c.RewriteCached(compact.NewCache(nil), "anthropic", body); err != nil || !sum.Changed {
				b.Fatal(err, sum.Violations)
			}
		})
	}
	cpu.report(b)
}

// BenchmarkRewriteNextTurn is the proxy's compaction of a request that extends the one
// before it by a turn, as "next turn" times it: each iteration rewrites the next request of
// the conversation with the cache holding the one before (the first request, which starts
// the cache, is not timed).
func BenchmarkRewriteNextTurn(b *testing.B) {
	bodies := benchConversation(b)
	c := compact.New(compact.Options{})
	var cache *compact.Cache
	var cpu cpuClock
	k := 0
	b.SetBytes(int64(len(bodies[len(bodies)/2])))
	for b.Loop() {
		if k == 0 {
			b.StopTimer()
			cache = compact.NewCache(nil)
			if _, _, err := c.RewriteCached(cache, "anthropic", bodies[0]); err != nil {
				b.Fatal(err)
			}
			k = 1
			b.StartTimer()
		}
		// The label tells the timed requests apart in a CPU profile: -tagfocus turn=next.
		pprof.Do(context.Background(), pprof.Labels("turn", "next"), func(context.Context) {
			cpu.time(func() {
				if _, sum, err := c.RewriteCached(cache, "anthropic", bodies[k]); err != nil || !sum.Changed {
					b.Fatal(err, sum.Violations)
				}
			})
		})
		if s := cache.Stats(); s.Hits != uint64(k) {
			b.Fatalf("request %d: %d cache hits, want %d", k, s.Hits, k)
		}
		k = (k + 1) % len(bodies)
	}
	cpu.report(b)
}
