package trimtree

import (
	"math"
	"unicode"
	"unicode/utf8"

	"github.com/winnowhq/winnow/internal/terms"
)

// Weights of the two kinds of signal word: what the current call asks for
// says more about what the agent wants from its result than what it asked
// for before.
const (
	weightArg    = 2.0
	weightRecent = weightArg / 2
)

// A scorer values items by the signal terms they contain.
type scorer struct {
	slot   map[string]int // signal term → index into weight
	weight []float64
	// heads2 marks the two-byte ASCII signal terms and heads3 (hashed)
	// the first three bytes of the longer ones. Stem only cuts suffixes
	// (and turns -ies into -y), returns words of four bytes or fewer as
	// they are and leaves at least three bytes of longer ones, so a part
	// of two bytes can only be a two-byte term and a longer part only a
	// term that starts with its first three bytes, lower-cased. ASCII
	// parts whose start is not marked are passed over before they are
	// lower-cased and stemmed.
	heads2 [utf8.RuneSelf * utf8.RuneSelf / 64]uint64
	heads3 [1 << 16 / 64]uint64
	// pairs marks the first two bytes of every signal term that starts
	// with two ASCII bytes: one load passes over almost every part.
	pairs [utf8.RuneSelf * utf8.RuneSelf / 64]uint64

	// state of the item being scanned
	item int   // 1 + its index
	seen []int // per slot, 1 + the index of the last item that contained it
	hits []int // slots found, for all items so far
}

// newScorer collects the terms of the signals (split, lower-cased, stemmed
// as package terms does), each with the larger weight it has.
func newScorer(sig Signals) *scorer {
	s := &scorer{slot: make(map[string]int)}
	s.add(sig.Args, weightArg)
	s.add(sig.Recent, weightRecent)
	return s
}

func (s *scorer) add(words []string, w float64) {
	for _, word := range words {
		for _, t := range terms.Terms(word) {
			if k, ok := s.slot[t]; ok {
				s.weight[k] = max(s.weight[k], w)
				continue
			}
			s.slot[t] = len(s.weight)
			s.weight = append(s.weight, w)
			s.mark(t)
		}
	}
}

// values returns the value of every item of l: the sum, over the distinct
// signal terms it contains, of the term's weight times its inverse
// document frequency among the items, ln(n/df), divided by the same sum
// over every signal term found in any item, so values lie in [0, 1]. A
// term every item contains tells them nothing apart and weighs 0; a term
// one item in a hundred contains weighs ln 100 ≈ 4.6. How often an item
// repeats a term does not count.
func (s *scorer) values(l *list) []float64 {
	n := len(l.items)
	v := make([]float64, n)
	if len(s.weight) == 0 {
		return v
	}
	s.seen = make([]int, len(s.weight))
	ends := make([]int, n) // item i's slots are hits[ends[i-1]:ends[i]]
	for i, it := range l.items {
		s.item = i + 1
		s.scan(l.text[it.start:it.end], l.format == FormatJSON)
		ends[i] = len(s.hits)
	}
	df := make([]int, len(s.weight))
	for _, k := range s.hits {
		df[k]++
	}
	idfw := make([]float64, len(s.weight))
	var total float64
	for k, d := range df {
		if d > 0 {
			idfw[k] = s.weight[k] * math.Log(float64(n)/float64(d))
			total += idfw[k]
		}
	}
	if total == 0 {
		return v
	}
	start := 0
	for i, end := range ends {
		for _, k := range s.hits[start:end] {
			v[i] += idfw[k]
		}
		v[i] /= total
		start = end
	}
	return v
}

// Byte classes for scan: a byte is in a word when its class is not
// classOther. classHigh is any byte of a multi-byte UTF-8 character, in a
// word when the character is a letter or a digit. A word whose bytes are
// all classLower, or all classDigit, is one identifier part.
const (
	classOther = 0
	classLower = 1 << iota
	classUpper
	classDigit
	classUnderscore
	classHigh
	classBackslash // in no word; in JSON text, it starts an escape

	classWord = classLower | classUpper | classDigit | classUnderscore | classHigh
)

var byteClass = func() (t [256]uint8) {
	for c := range 256 {
		switch b := byte(c); {
		case isLower(b):
			t[c] = classLower
		case isUpper(b):
			t[c] = classUpper
		case isDigit(b):
			t[c] = classDigit
		case b == '_':
			t[c] = classUnderscore
		case b >= utf8.RuneSelf:
			t[c] = classHigh
		case b == '\\':
			t[c] = classBackslash
		}
	}
	return t
}()

// scan finds the signal terms of one item's text. Words are runs of
// letters, digits and underscores, as for package terms; in JSON text a
// backslash escape ends a word and is skipped, so that "line\nnext" gives
// line and next rather than line and nnext.
func (s *scorer) scan(text string, isJSON bool) {
	i := 0
	for i < len(text) {
		// Pass over the bytes between words.
		for i < len(text) && byteClass[text[i]] == classOther {
			i++
		}
		if i == len(text) {
			break
		}
		if byteClass[text[i]] == classBackslash {
			if isJSON {
				i += max(escapeLen(text[i:]), 1)
			} else {
				i++
			}
			continue
		}
		start := i
		// Most words are lower-case letters only: take them in a tight
		// loop, then the rest of the word, if any, byte by byte.
		for i < len(text) && byteClass[text[i]] == classLower {
			i++
		}
		var seen uint8 // the classes of the word's bytes
		if i > start {
			seen = classLower
		}
		for i < len(text) {
			c := byteClass[text[i]]
			if c&classWord == 0 {
				break
			}
			if c == classHigh {
				r, size := utf8.DecodeRuneInString(text[i:])
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					break
				}
				i += size - 1
			}
			seen |= c
			i++
		}
		if i == start { // a character that is neither letter nor digit
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
			continue
		}
		w := text[start:i]
		if seen == classLower || seen == classDigit {
			// One part, already lower-case: most are passed over on the
			// pairs bitmap alone.
			if len(w) >= 2 && s.pairs[pairIndex(w[0], w[1])/64]&(1<<(pairIndex(w[0], w[1])%64)) != 0 && s.mayBe(w) {
				s.part(w)
			}
			continue
		}
		s.word(w, seen)
	}
}

// pairIndex returns the index of the bit of pairs or heads2 for two ASCII
// bytes.
func pairIndex(c0, c1 byte) int { return int(c0)*utf8.RuneSelf + int(c1) }

// word splits one word of more than one class of bytes (seen) into
// identifier parts, as terms.SplitIdentifier does, without allocating for
// ASCII words, and records the signal terms they stand for.
func (s *scorer) word(w string, seen uint8) {
	if seen&classHigh == 0 {
		splitASCII(w, s.part)
		return
	}
	for _, p := range terms.SplitIdentifier(w) {
		s.part(p)
	}
}

// splitASCII calls yield with the parts of an ASCII word of letters,
// digits and underscores, as terms.SplitIdentifier would return them (a
// test holds the two to the same parts), without allocating.
func splitASCII(w string, yield func(string)) {
	start := 0
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c == '_' {
			if i > start {
				yield(w[start:i])
			}
			start = i + 1
			continue
		}
		if i == start {
			continue
		}
		prev := w[i-1]
		if isDigit(c) != isDigit(prev) || isUpper(c) && isLower(prev) ||
			isUpper(c) && isUpper(prev) && i+1 < len(w) && isLower(w[i+1]) {
			yield(w[start:i])
			start = i
		}
	}
	if start < len(w) {
		yield(w[start:])
	}
}

// part records the signal term an identifier part stands for, if any.
func (s *scorer) part(p string) {
	if len(p) < 2 || len(p) > terms.MaxLen {
		return
	}
	if !s.mayBe(p) {
		return
	}
	t, ok := terms.Normalize(p)
	if !ok {
		return
	}
	if k, ok := s.slot[t]; ok && s.seen[k] != s.item {
		s.seen[k] = s.item
		s.hits = append(s.hits, k)
	}
}

// mark records the start of a signal term in heads2 or heads3.
func (s *scorer) mark(t string) {
	if len(t) >= 2 && t[0] < utf8.RuneSelf && t[1] < utf8.RuneSelf {
		h := pairIndex(t[0], t[1])
		s.pairs[h/64] |= 1 << (h % 64)
	}
	switch {
	case len(t) == 2 && t[0] < utf8.RuneSelf && t[1] < utf8.RuneSelf:
		h := int(t[0])*utf8.RuneSelf + int(t[1])
		s.heads2[h/64] |= 1 << (h % 64)
	case len(t) > 2 && t[0] < utf8.RuneSelf && t[1] < utf8.RuneSelf && t[2] < utf8.RuneSelf:
		h := head3(t[0], t[1], t[2])
		s.heads3[h/64] |= 1 << (h % 64)
	}
}

// mayBe reports whether part p, of at least two bytes, may stand for a
// signal term: its start is marked, or is not ASCII.
func (s *scorer) mayBe(p string) bool {
	c0, c1 := toLower(p[0]), toLower(p[1])
	if c0 >= utf8.RuneSelf || c1 >= utf8.RuneSelf {
		return true
	}
	h := pairIndex(c0, c1)
	if s.pairs[h/64]&(1<<(h%64)) == 0 {
		return false
	}
	if len(p) == 2 {
		return s.heads2[h/64]&(1<<(h%64)) != 0
	}
	c2 := toLower(p[2])
	if c2 >= utf8.RuneSelf {
		return true
	}
	h3 := head3(c0, c1, c2)
	return s.heads3[h3/64]&(1<<(h3%64)) != 0
}

// head3 hashes three ASCII bytes to an index of heads3.
func head3(c0, c1, c2 byte) int {
	return int((uint32(c0)<<16 | uint32(c1)<<8 | uint32(c2)) * 0x9E3779B1 >> 16)
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

func toLower(c byte) byte {
	if isUpper(c) {
		return c | 0x20
	}
	return c
}

// flat reports whether the values do not tell the items apart: all equal,
// zero included.
func flat(values []float64) bool {
	if len(values) == 0 {
		return true
	}
	for _, v := range values[1:] {
		if math.Abs(v-values[0]) > 1e-12 {
			return false
		}
	}
	return true
}
