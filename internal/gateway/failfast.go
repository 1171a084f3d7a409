package gateway

import (
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/gateway/pipeline"
	"github.com/winnowhq/winnow/internal/telemetry"
)

// maxStreaks bounds the calls a session keeps fail-fast streaks for; the oldest go first.
const maxStreaks = 64

// A streak is what a session knows of the results of one call (one planner key) of a tool
// whose model has fail_fast_after_n.
type streak struct {
	tool  string
	paths []string // for invalidation: a change may make the call productive again
	n     int      // unproductive results in a row
	sum   [sha256.Size]byte
	seen  bool     // sum is set
	what  string   // what the last unproductive result was, for the answer
	last  []string // its texts, for telemetry
	// forced is set when a fail-fast answer was given: the next identical call goes to
	// the upstream, which is how the agent insists.
	forced bool
}

// failFast returns the fail-fast answer to the call, or nil: after fail_fast_after_n
// identical calls in a row returned unproductive results (empty, "No matches found", or
// the same as the identical call before), the next one is answered from the session,
// saying so and how to send it anyway. Repeating the call sends it.
func (ec *enrichCall) failFast() *mcp.CallToolResult {
	n := ec.model.FailFastAfter
	if n <= 0 {
		return nil
	}
	s := ec.s
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.streaks[ec.key]
	if st == nil || st.n < n || st.forced {
		return nil
	}
	st.forced = true
	ec.served, ec.replaced = telemetry.ServedFailFast, st.last
	msg := fmt.Sprintf("[winnow: not sent to the upstream: the last %d identical calls of %s (same arguments) returned %s. "+
		"Repeat this call unchanged to send it anyway, or change its arguments.]", st.n, ec.call.Tool, st.what)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

// observe updates the call's streak with its result.
func (ec *enrichCall) observe(res *mcp.CallToolResult) {
	if ec.model.FailFastAfter <= 0 {
		return
	}
	text := resultText(res)
	sum := sha256.Sum256([]byte(text))
	what := unproductive(res, text)
	s := ec.s
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.streaks[ec.key]
	if st == nil {
		st = &streak{tool: ec.call.Tool, paths: pipeline.PathArgs(ec.call.Args)}
		s.addStreak(ec.key, st)
	}
	if what == "" && st.seen && st.sum == sum {
		what = "the same result each time"
	}
	st.sum, st.seen, st.forced = sum, true, false
	if what == "" {
		st.n, st.what, st.last = 0, "", nil
		return
	}
	st.n++
	st.what = what
	st.last = []string{text}
}

// addStreak adds a streak, forgetting the oldest past maxStreaks.
func (s *enrichSession) addStreak(key string, st *streak) {
	s.streaks[key] = st
	s.order = append(s.order, key)
	for len(s.order) > maxStreaks {
		delete(s.streaks, s.order[0])
		s.order = s.order[1:]
	}
}

// noResultPhrases start the texts of searches that found nothing.
var noResultPhrases = []string{"no matches found", "no match found", "no results", "0 results", "no files found", "nothing found"}

// unproductive says what made a result unproductive ("nothing", "an empty list", the
// text of a search that found nothing), or returns "" for a result with something in it.
func unproductive(res *mcp.CallToolResult, text string) string {
	t := strings.TrimSpace(text)
	switch {
	case t == "" && len(res.Content) > 0 && !onlyText(res):
		return "" // an image, a resource
	case t == "[]" || t == "{}" || (t == "" && isEmptyList(res.StructuredContent)):
		return "an empty list"
	case t == "" && res.StructuredContent == nil, t == "null":
		return "nothing"
	}
	if len(t) <= 120 {
		lower := strings.ToLower(t)
		for _, p := range noResultPhrases {
			if strings.HasPrefix(lower, p) {
				return strconv.Quote(t)
			}
		}
	}
	return ""
}

func onlyText(res *mcp.CallToolResult) bool {
	for _, c := range res.Content {
		if _, ok := c.(*mcp.TextContent); !ok {
			return false
		}
	}
	return true
}

// isEmptyList reports whether a structured content is an empty list or object, or an
// object whose only member is an empty list.
func isEmptyList(v any) bool {
	switch x := v.(type) {
	case []any:
		return len(x) == 0
	case map[string]any:
		if len(x) == 0 {
			return true
		}
		if len(x) == 1 {
			for _, m := range x {
				l, ok := m.([]any)
				return ok && len(l) == 0
			}
		}
	}
	return false
}
