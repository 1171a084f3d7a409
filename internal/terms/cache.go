package terms

import "strings"

// A Cache remembers the terms of the words it has scanned, so that text
// whose words repeat, as code's identifiers do, costs a map lookup per
// word instead of a split and a stem. Its Scan yields exactly what Scan
// yields. It holds at most a fixed number of words, forgetting them all
// when full, and is not safe for concurrent use.
type Cache struct {
	words map[string][]string
	max   int
}

// NewCache returns a Cache of at most max words.
func NewCache(max int) *Cache {
	return &Cache{words: make(map[string][]string), max: max}
}

// Scan calls yield for every term of text, in order, as Scan does.
func (c *Cache) Scan(text string, yield func(term string)) {
	for word := range words(text) {
		ts, ok := c.words[word]
		if !ok {
			for _, part := range SplitIdentifier(word) {
				if t, ok := Normalize(part); ok {
					ts = append(ts, strings.Clone(t)) // not text's bytes: the cache outlives it
				}
			}
			if len(c.words) >= c.max {
				clear(c.words)
			}
			c.words[strings.Clone(word)] = ts
		}
		for _, t := range ts {
			yield(t)
		}
	}
}
