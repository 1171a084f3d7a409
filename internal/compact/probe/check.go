package probe

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/winnowhq/winnow/internal/compact/traj"
)

// DefaultHandle matches the retrieval handle a compaction writes into a
// placeholder when it keeps the elided bytes where a tool can fetch them
// again: a winnow:// URI, such as winnow://restore/3f2a9c1e.
const DefaultHandle = `winnow://[^\s"'<>()\[\]{}]+`

// Options configure a Checker. The zero value means the defaults.
type Options struct {
	// Handle matches a retrieval handle in a placeholder; nil means
	// DefaultHandle.
	Handle *regexp.Regexp
}

// A Status is what became of one fact in a compacted replay.
type Status int

// Statuses, from best to worst.
const (
	Present     Status = iota // the fact's string is in the request at every use
	Recoverable               // at some use only a placeholder with a handle stands in for its output
	Lost                      // at some use it is neither present nor recoverable, or that use was never checked
)

// A Checker probes the compacted requests of one trajectory for its
// facts. Feed it the request of every turn that uses a fact (Check), then
// read the Result. It is not safe for concurrent use.
type Checker struct {
	dialect string
	facts   []Fact
	status  []Status
	checked []map[int]bool // per fact, the uses checked so far
	byTurn  map[int][]int  // turn → indices of the facts used there
	handle  *regexp.Regexp
}

// NewChecker returns a Checker for facts extracted from a trajectory in
// dialect.
func NewChecker(dialect string, facts []Fact, opts *Options) (*Checker, error) {
	if dialect != traj.OpenAI && dialect != traj.Anthropic {
		return nil, fmt.Errorf("probe: unknown dialect %q", dialect)
	}
	c := &Checker{
		dialect: dialect,
		facts:   facts,
		status:  make([]Status, len(facts)),
		checked: make([]map[int]bool, len(facts)),
		byTurn:  make(map[int][]int),
	}
	if opts != nil && opts.Handle != nil {
		c.handle = opts.Handle
	} else {
		c.handle = regexp.MustCompile(DefaultHandle)
	}
	for i, f := range facts {
		c.checked[i] = make(map[int]bool)
		for _, u := range f.Uses {
			c.byTurn[u] = append(c.byTurn[u], i)
		}
	}
	return c, nil
}

// Check probes the compacted request sent for turn (the index of the
// assistant message it asked for), given as its parts. text renders one
// part as traj.Render does; callers that render parts anyway pass a
// memoised renderer.
//
// A fact is present when its string is in the text of any part. It is
// recoverable when it is not, but the compacted request still holds its
// output's slot and that slot holds a retrieval handle (Options.Handle):
// the slot is the tool result answering the same call (tool call id), or
// in the text form the message at the same index, provided the compacted
// request has as many messages as the original, so indices still line up.
func (c *Checker) Check(turn int, parts traj.Parts, text func(json.RawMessage) (string, error)) error {
	idx := c.byTurn[turn]
	if len(idx) == 0 {
		return nil
	}
	all, err := partTexts(parts, text)
	if err != nil {
		return fmt.Errorf("probe turn %d: %w", turn, err)
	}
	var slots map[string][]string // memo of slotTexts by fact slot
	for _, i := range idx {
		f := c.facts[i]
		c.checked[i][turn] = true
		if slices.ContainsFunc(all, func(s string) bool { return strings.Contains(s, f.Text) }) {
			continue
		}
		if slots == nil {
			if slots, err = c.slotTexts(turn, parts); err != nil {
				return fmt.Errorf("probe turn %d: %w", turn, err)
			}
		}
		st := Lost
		if slices.ContainsFunc(slots[slotKey(f)], c.handle.MatchString) {
			st = Recoverable
		}
		c.status[i] = max(c.status[i], st)
	}
	return nil
}

func partTexts(parts traj.Parts, text func(json.RawMessage) (string, error)) ([]string, error) {
	raws := slices.Concat(parts.Tools, parts.Messages)
	if parts.System != nil {
		raws = append(raws, parts.System)
	}
	out := make([]string, len(raws))
	for i, raw := range raws {
		s, err := text(raw)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// slotKey names the slot of a fact's output: its tool call id, or in the
// text form its message index.
func slotKey(f Fact) string {
	if f.ID != "" {
		return "id:" + f.ID
	}
	return fmt.Sprintf("message:%d", f.Message)
}

// slotTexts returns the texts of the output slots of a compacted request:
// tool results by call id, and in the text form (no tool results at all)
// the messages by index when the request has as many messages as the
// original request of that turn.
func (c *Checker) slotTexts(turn int, parts traj.Parts) (map[string][]string, error) {
	slots := make(map[string][]string)
	toolForm := false
	var texts []string
	for i, raw := range parts.Messages {
		m, err := traj.ParseMessage(c.dialect, raw)
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		for _, r := range m.Results {
			toolForm = true
			slots["id:"+r.ID] = append(slots["id:"+r.ID], r.Text)
		}
		texts = append(texts, m.Text)
	}
	if !toolForm && len(parts.Messages) == turn {
		for i, t := range texts {
			slots[fmt.Sprintf("message:%d", i)] = []string{t}
		}
	}
	return slots, nil
}

// A Result counts the facts of one or more trajectories by what became of
// them.
type Result struct {
	Facts       int      `json:"facts"`
	Present     int      `json:"present"`
	Recoverable int      `json:"recoverable"`
	Lost        int      `json:"lost"`
	Examples    []string `json:"lost_examples,omitempty"` // a few lost facts, for reading
}

// maxExamples bounds Result.Examples.
const maxExamples = 8

// Recall returns the share of facts present or recoverable at every use;
// 1 when there are no facts.
func (r Result) Recall() float64 {
	if r.Facts == 0 {
		return 1
	}
	return float64(r.Present+r.Recoverable) / float64(r.Facts)
}

// Add adds o to r.
func (r *Result) Add(o Result) {
	r.Facts += o.Facts
	r.Present += o.Present
	r.Recoverable += o.Recoverable
	r.Lost += o.Lost
	for _, e := range o.Examples {
		if len(r.Examples) < maxExamples {
			r.Examples = append(r.Examples, e)
		}
	}
}

// Result returns what became of the facts. A fact with a use that was
// never checked counts as lost: a replay that skipped a turn must not
// raise the recall.
func (c *Checker) Result() Result {
	r := Result{Facts: len(c.facts)}
	for i, f := range c.facts {
		st := c.status[i]
		if len(c.checked[i]) < len(f.Uses) {
			st = Lost
		}
		switch st {
		case Present:
			r.Present++
		case Recoverable:
			r.Recoverable++
		default:
			r.Lost++
			if len(r.Examples) < maxExamples {
				r.Examples = append(r.Examples, fmt.Sprintf("%s %q from message %d, used at %v", f.Kind, f.Text, f.Message, f.Uses))
			}
		}
	}
	return r
}
