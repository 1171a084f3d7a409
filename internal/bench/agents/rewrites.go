package agents

import (
	"context"
	"log/slog"
	"maps"
	"sync"
)

// A rewriteCounter is a log handler that counts the proxy's per-request lines by what the
// proxy did with the body: "changed", "unchanged", "bypassed (reason)", or "forwarded" for
// requests not offered to the Rewriter (count_tokens, probes).
type rewriteCounter struct {
	mu     sync.Mutex
	counts map[string]int
}

func newRewriteCounter() *rewriteCounter { return &rewriteCounter{counts: make(map[string]int)} }

func (c *rewriteCounter) logger() *slog.Logger { return slog.New(c) }

func (c *rewriteCounter) snapshot() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.counts)
}

func (c *rewriteCounter) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelInfo }

func (c *rewriteCounter) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "proxy" {
		return nil
	}
	key, reason := "forwarded", ""
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "rewrite":
			key = a.Value.String()
		case "reason":
			reason = a.Value.String()
		}
		return true
	})
	if reason != "" {
		key += " (" + reason + ")"
	}
	c.mu.Lock()
	c.counts[key]++
	c.mu.Unlock()
	return nil
}

func (c *rewriteCounter) WithAttrs([]slog.Attr) slog.Handler { return c }
func (c *rewriteCounter) WithGroup(string) slog.Handler      { return c }
