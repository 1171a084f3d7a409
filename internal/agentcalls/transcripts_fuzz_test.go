package agentcalls

import (
	"bytes"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzClaudeCode checks ReadClaudeCode on any input: it never panics, and reading the
// first lines of a transcript gives the first calls of reading all of it (the same
// tools, arguments, turns; only results may come later). Seeds: testdata/fuzz.
func FuzzClaudeCode(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) { checkPrefixes(t, data, ReadClaudeCode) })
}

// FuzzCodex is FuzzClaudeCode for ReadCodex.
func FuzzCodex(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) { checkPrefixes(t, data, ReadCodex) })
}

type transcriptReader func(io.Reader, string) (Session, int, error)

// checkPrefixes reads data whole and cut after each of its lines, and checks that each
// cut's calls begin the whole's.
func checkPrefixes(t *testing.T, data []byte, read transcriptReader) {
	whole, _, err := read(bytes.NewReader(data), "fuzz")
	if err != nil {
		return
	}
	for _, c := range whole.Calls {
		if c.Tool == "" {
			t.Fatalf("a call without a tool: %+v", c)
		}
	}
	n := 0
	for line := range bytes.Lines(data) {
		n += len(line)
		cut, _, err := read(bytes.NewReader(data[:n]), "fuzz")
		if err != nil {
			continue // no record yet
		}
		if len(cut.Calls) > len(whole.Calls) {
			t.Fatalf("the first %d bytes hold %d calls, the whole %d", n, len(cut.Calls), len(whole.Calls))
		}
		if diff := cmp.Diff(shapes(whole.Calls[:len(cut.Calls)]), shapes(cut.Calls)); diff != "" {
			t.Fatalf("the first %d bytes give other calls than the whole (-whole +cut):\n%s", n, diff)
		}
	}
}

// shape is a call without what later lines may still add: its result.
type shape struct {
	Tool, Agent, Raw string
	Args             map[string]any
	Turn             int
}

func shapes(calls []Call) []shape {
	out := make([]shape, len(calls))
	for i, c := range calls {
		out[i] = shape{c.Tool, c.Agent, c.Raw, c.Args, c.Turn}
	}
	return out
}
