package mcpserver

import (
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/index"
)

// BenchmarkFindSymbol compares a lookup through the MCP tool, over an
// in-memory transport, with the same lookup on the index: the difference
// is the protocol, the rendering and the cap.
func BenchmarkFindSymbol(b *testing.B) {
	s := newServer(b, fixture(b), &Options{RefreshInterval: -1})
	cs := connect(b, s)
	args := map[string]any{"name": "Headers.get"}
	b.Run("index.Lookup", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.ix.Lookup(b.Context(), "Headers.get", index.LookupOptions{Limit: defaultFindLimit}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("mcp", func(b *testing.B) {
		for b.Loop() {
			if _, isErr := call(b, cs, toolFindSymbol, args); isErr {
				b.Fatal("tool error")
			}
		}
	})
}

// BenchmarkRefresh measures what freshness costs a call: an index update
// before every call against none.
func BenchmarkRefresh(b *testing.B) {
	dir := fixture(b)
	for _, c := range []struct {
		name  string
		every time.Duration
	}{{"never", -1}, {"every-call", time.Nanosecond}} {
		cs := connect(b, newServer(b, dir, &Options{RefreshInterval: c.every}))
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, isErr := call(b, cs, toolFindSymbol, map[string]any{"name": "NewStore"}); isErr {
					b.Fatal("tool error")
				}
			}
		})
	}
}
