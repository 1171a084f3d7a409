package retrieve

import (
	"math/bits"
	"strings"

	"github.com/winnowhq/winnow/internal/terms"
)

// Natural language to identifiers: "is subset of the reals" names
// is_subset; "when loading the config" names load_config or
// config_loader. Phrases of the task's prose become candidate names
// (snake, camel and Pascal case join to the same normalised form),
// matched against the names of the index exactly, or by a similarity
// ratio over the normalised forms.
const (
	phraseMaxWords = 3    // words per phrase
	phraseMax      = 64   // candidate names per task, first come first served
	ratioThreshold = 0.86 // similarity a near name needs: "parse_header" ~ "parse_headers"
	ratioMaxNames  = 8    // near names kept per candidate
	minPhraseLen   = 6    // shorter normalised candidates match too much
)

// phraseCandidates returns the normalised candidate names of the prose
// of a task: runs of two or three words, in order and (for two words)
// swapped, each also with its words stemmed.
func phraseCandidates(prose string) []string {
	var words []string
	var runs [][]string
	flush := func() {
		if len(words) > 1 {
			runs = append(runs, words)
		}
		words = nil
	}
	for _, w := range strings.FieldsFunc(prose, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '\'')
	}) {
		lw := strings.ToLower(w)
		if articles[lw] {
			continue // "load the config" names load_config
		}
		// Other sentence glue ends a run; "is", "has", "to" start names.
		if terms.IsStopword(lw) && !nameVerbs[lw] || len(lw) > terms.MaxLen {
			flush()
			continue
		}
		words = append(words, lw)
	}
	flush()
	seen := make(map[string]bool)
	var out []string
	add := func(ws ...string) {
		for _, stem := range []bool{false, true} {
			var b strings.Builder
			for _, w := range ws {
				if stem {
					w = terms.Stem(w)
				}
				b.WriteString(w)
			}
			c := b.String()
			if len(c) >= minPhraseLen && !seen[c] && len(out) < phraseMax {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	for _, run := range runs {
		for i := range run {
			for n := 2; n <= phraseMaxWords && i+n <= len(run); n++ {
				add(run[i : i+n]...)
				if n == 2 {
					add(run[i+1], run[i]) // verb–noun either way round
				}
			}
		}
	}
	return out
}

var articles = map[string]bool{"the": true, "a": true, "an": true}

// nameVerbs are stopwords that begin identifiers.
var nameVerbs = map[string]bool{"is": true, "has": true, "to": true, "as": true, "can": true, "do": true, "new": true}

// normName is the form names are compared in: lower case, no
// underscores or dashes, so that is_subset, isSubset and IsSubset meet.
func normName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '-':
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// ratio is the normalised Indel similarity of a and b, as rapidfuzz's
// ratio computes it: 2·LCS(a, b) / (len(a) + len(b)), in [0, 1].
func ratio(a, b string) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	return 2 * float64(lcsLen(a, b)) / float64(len(a)+len(b))
}

// lcsLen is the length of the longest common subsequence of a and b,
// bit-parallel (Hyyrö) when the shorter fits in a machine word, by the
// classic table otherwise.
func lcsLen(a, b string) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) > 64 {
		return lcsTable(a, b)
	}
	var p lcsPattern
	p.set(a)
	return p.lcs(b)
}

// An lcsPattern is one side of Hyyrö's bit-parallel LCS, prepared once
// to be compared with many strings: the LCS is symmetric, so the
// pattern need not be the shorter side, only at most 64 bytes long.
type lcsPattern struct {
	pm  [256]uint64 // bit i of pm[c] is set where the pattern has byte c
	len int
}

func (p *lcsPattern) set(a string) {
	p.len = len(a)
	for i := 0; i < len(a); i++ {
		p.pm[a[i]] |= 1 << i
	}
}

// lcs is the length of the longest common subsequence of the pattern
// and b.
func (p *lcsPattern) lcs(b string) int {
	if p.len == 0 {
		return 0
	}
	s := ^uint64(0)
	for i := 0; i < len(b); i++ {
		u := s & p.pm[b[i]]
		s = (s + u) | (s - u)
	}
	mask := ^uint64(0)
	if p.len < 64 {
		mask = 1<<p.len - 1
	}
	return bits.OnesCount64(^s & mask)
}

func lcsTable(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
			} else {
				cur[j] = max(prev[j], cur[j-1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
