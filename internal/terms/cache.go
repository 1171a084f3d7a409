package terms

import "strings"

// A Cache remembers the terms of the words it has scanned, so that text
// whose words repeat, as code's identifiers do, costs a map lookup per
// word instead of a split and a stem. Its Scan yields exactly what Scan
// yields. It holds at most a fixed number of words, forgetting them all
// when full, and is not safe for concurrent use.
//
// A word's terms are a run of one slice, and each distinct term is one
// string however many words have it: on sympy a worker's cache holds
// some 80,000 words, which as a map of words to slices of their own
// terms was 10 MB of a cold build's live heap, half of it.
type Cache struct {
	words  map[string]uint64 // a word's run in terms: start<<32 | length
	terms  []string
	intern map[string]string // the distinct terms
	max    int
}

// NewCache returns a Cache of at most max words.
func NewCache(max int) *Cache {
	return &Cache{words: make(map[string]uint64), intern: make(map[string]string), max: max}
}

// Scan calls yield for every term of text, in order, as Scan does.
func (c *Cache) Scan(text string, yield func(term string)) {
	for word := range words(text) {
		run, ok := c.words[word]
		if !ok {
			run = c.add(word)
		}
		for _, t := range c.terms[run>>32 : run>>32+run&0xffffffff] {
			yield(t)
		}
	}
}

// add splits and stems a word not in the cache and remembers its terms.
func (c *Cache) add(word string) uint64 {
	if len(c.words) >= c.max {
		clear(c.words)
		clear(c.intern)
		clear(c.terms)
		c.terms = c.terms[:0]
	}
	start := len(c.terms)
	for _, part := range SplitIdentifier(word) {
		t, ok := Normalize(part)
		if !ok {
			continue
		}
		shared, ok := c.intern[t]
		if !ok {
			shared = strings.Clone(t) // not text's bytes: the cache outlives it
			c.intern[shared] = shared
		}
		c.terms = append(c.terms, shared)
	}
	run := uint64(start)<<32 | uint64(len(c.terms)-start)
	c.words[strings.Clone(word)] = run
	return run
}
