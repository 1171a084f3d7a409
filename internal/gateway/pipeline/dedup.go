package pipeline

import (
	"context"
	"crypto/sha256"
	"fmt"

	"github.com/winnowhq/winnow/internal/telemetry"
)

// maxNamedArgs is the length of compact arguments above which a reference
// would be too long to name a result by its tool and arguments: such a
// result is stamped with a short id ("#r3") on a first line instead, and
// references name the id.
const maxNamedArgs = 48

// Dedup is the L0 stage: per session, a text identical to one of the last
// Options.DedupWindow texts (of at least Options.MinDedupChars bytes)
// becomes one line naming the earlier call, "[same result as
// github__get_issue {"number":12}, 2 calls ago]". A JSON text that differs
// from a remembered one (of the same tool, shown whole) in a few scalar
// values becomes "[same as ..., except: state: "open" → "closed"]" when that
// is at most half of its tokens and applying the changes to the earlier
// text gives the new one byte for byte. Tool errors never reach it.
type Dedup struct{}

// Name implements Stage.
func (Dedup) Name() string { return "dedup" }

// Before implements Stage; dedup happens after dispatch.
func (Dedup) Before(context.Context, *Turn) error { return nil }

// After implements Stage.
func (Dedup) After(_ context.Context, t *Turn) error {
	o := t.p.opts
	if o.DedupWindow < 0 {
		return nil
	}
	for _, tx := range t.Texts {
		if !tx.Final && len(tx.Upstream) >= o.MinDedupChars {
			dedup(t, tx)
		}
	}
	return nil
}

// dedup replaces tx by a reference to an identical or near-identical
// recent text, or remembers it.
func dedup(t *Turn, tx *Text) {
	sum := textSum(tx.Upstream)
	s := t.sess
	s.mu.Lock()
	if e := s.findLocked(sum, len(tx.Upstream)); e != nil {
		line := fmt.Sprintf("[same result as %s, %s]", e.name(), ago(t.seq-e.seq))
		s.mu.Unlock()
		tx.replace(telemetry.LayerDedup, line)
		return
	}
	bases := s.nearCandidatesLocked(t.Call.Tool, t.seq)
	s.mu.Unlock()
	args := compactArgs(t.Call.Args)
	if len(tx.Upstream) <= maxNearRefBytes && looksJSON(tx.Upstream) {
		for _, b := range bases {
			if line, ok := nearRef(t, b, tx.Upstream); ok {
				s.touch(b.entry)
				tx.replace(telemetry.LayerNearRef, line)
				return
			}
		}
	}
	diffed := false
	if len(tx.Upstream) <= maxNearRefBytes {
		for _, b := range bases {
			if b.entry.args != args {
				continue
			}
			if note, ok := diffRef(t, b, b.entry.seq, tx.Upstream, t.upstreamTokens(tx)); ok {
				tx.replace(telemetry.LayerNearRef, note)
				diffed = true
				break
			}
		}
	}
	e := &entry{
		sum:   sum,
		size:  len(tx.Upstream),
		tool:  t.Call.Tool,
		args:  args,
		paths: pathArgs(t.Call.Args),
		seq:   t.seq,
	}
	if len(tx.Upstream) <= maxNearRefBytes {
		e.text = tx.Upstream // for near references: JSON scalars or lines
	}
	if diffed {
		// Remembered so that a repeat of it is an exact reference; the
		// agent has the text as the earlier one and the diff.
		s.add(e, t.p.opts.DedupWindow)
		return
	}
	if len(e.args) > maxNamedArgs && !tx.whole { // a stamp would break the JSON
		tx.Ref, tx.Stamp = t.p.newRef(), true
		e.ref = tx.Ref
	}
	tx.entry = e
	s.add(e, t.p.opts.DedupWindow)
}

// textSum returns the SHA-256 of text. It hashes through a small buffer,
// since converting a long text to a []byte for sha256.Sum256 would copy
// it whole.
func textSum(text string) [sha256.Size]byte {
	h := sha256.New()
	buf := make([]byte, min(len(text), 8<<10))
	for len(text) > 0 {
		n := copy(buf, text)
		h.Write(buf[:n])
		text = text[n:]
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// replace makes tx a reference line.
func (tx *Text) replace(layer, line string) {
	tx.record(layer, tx.Text, line)
	tx.Text, tx.Final, tx.Dedup = line, true, true
}

// findLocked returns the entry of an identical text and makes it the most
// recently used, or returns nil.
func (s *session) findLocked(sum [sha256.Size]byte, size int) *entry {
	for i, e := range s.window {
		if e.size == size && e.sum == sum {
			copy(s.window[1:i+1], s.window[:i])
			s.window[0] = e
			return e
		}
	}
	return nil
}

// A nearBase is an entry a text may be a near duplicate of, with what a
// reference to it says, read under the session's lock.
type nearBase struct {
	entry *entry
	text  string
	name  string // e.g. `github__get_issue {"number":12}, 2 calls ago`
}

// nearCandidatesLocked returns the entries a text of tool, in call seq,
// may be a near duplicate of, most recently used first.
func (s *session) nearCandidatesLocked(tool string, seq int) []nearBase {
	var out []nearBase
	for _, e := range s.window {
		if e.text != "" && e.tool == tool && !e.trimmed {
			out = append(out, nearBase{entry: e, text: e.text, name: e.name() + ", " + ago(seq-e.seq)})
		}
	}
	return out
}

// touch makes e the most recently used entry, if it is still cached.
func (s *session) touch(e *entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.window {
		if x == e {
			copy(s.window[1:i+1], s.window[:i])
			s.window[0] = e
			return
		}
	}
}

// add makes e the most recently used entry and forgets those beyond the
// window.
func (s *session) add(e *entry, window int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.window = append(s.window, nil)
	copy(s.window[1:], s.window)
	s.window[0] = e
	if len(s.window) > window {
		clear(s.window[window:])
		s.window = s.window[:window]
	}
}

// looksJSON reports whether s starts, after whitespace, like a JSON
// object or array.
func looksJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			continue
		case '{', '[':
			return true
		}
		return false
	}
	return false
}
