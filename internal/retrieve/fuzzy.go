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
// bit-parallel (Hyyrö) when a fits in a machine word, by the classic
// table otherwise.
func lcsLen(a, b string) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) == 0 {
		return 0
	}
	if len(a) > 64 {
		return lcsTable(a, b)
	}
	var pm [256]uint64
	for i := 0; i < len(a); i++ {
		pm[a[i]] |= 1 << i
	}
	s := ^uint64(0)
	for i := 0; i < len(b); i++ {
		m := pm[b[i]]
		u := s & m
		s = (s + u) | (s - u)
	}
	mask := ^uint64(0)
	if len(a) < 64 {
		mask = 1<<len(a) - 1
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
