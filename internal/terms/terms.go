// Package terms turns code and prose into the terms lexical retrieval
// matches on: identifiers split at case and separator boundaries
// (parseHTTPHeader, parse_http_header → parse, http, header),
// lower-cased, stemmed lightly (headers, parsing → header, pars), with
// stopwords and keywords left out.
//
// The same functions tokenize documents at index time and queries at
// query time, so the two always agree. It does not weight or rank.
package terms

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxLen bounds a term: longer words (hashes, base64, minified code)
// carry no meaning for retrieval.
const MaxLen = 40

// Scan calls yield for every term of text, in order. Words are split at
// case changes and non-alphanumerics; each part is lower-cased and
// stemmed; stopwords, numbers and one-letter parts are dropped.
func Scan(text string, yield func(term string)) {
	for word := range words(text) {
		for _, part := range SplitIdentifier(word) {
			if t, ok := Normalize(part); ok {
				yield(t)
			}
		}
	}
}

// Terms returns the terms of text in order (see Scan).
func Terms(text string) []string {
	var out []string
	Scan(text, func(t string) { out = append(out, t) })
	return out
}

// Normalize lower-cases and stems one word, reporting false for words
// that are not terms: stopwords, numbers, single letters, overlong.
func Normalize(word string) (string, bool) {
	if len(word) < 2 || len(word) > MaxLen {
		return "", false
	}
	w := strings.ToLower(word)
	if isNumber(w) || stopwords[w] {
		return "", false
	}
	return Stem(w), true
}

// words yields the runs of letters, digits and underscores of text.
func words(text string) func(func(string) bool) {
	return func(yield func(string) bool) {
		start := -1
		for i := 0; i < len(text); {
			r, size := rune(text[i]), 1
			if r >= utf8.RuneSelf {
				r, size = utf8.DecodeRuneInString(text[i:])
			}
			inWord := r == '_' || r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') ||
				r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))
			switch {
			case inWord && start < 0:
				start = i
			case !inWord && start >= 0:
				if !yield(text[start:i]) {
					return
				}
				start = -1
			}
			i += size
		}
		if start >= 0 {
			yield(text[start:])
		}
	}
}

// SplitIdentifier splits an identifier into its parts: at underscores
// and digits boundaries, and at case changes, keeping acronyms whole:
// "parseHTTPHeader2" → parse, HTTP, Header, 2; "__init__" → init.
func SplitIdentifier(id string) []string {
	var parts []string
	start := 0
	runes := []rune(id)
	flush := func(end int) {
		if end > start {
			parts = append(parts, string(runes[start:end]))
		}
		start = end
	}
	for i, r := range runes {
		switch {
		case r == '_' || r == '-' || r == '.':
			flush(i)
			start = i + 1
		case i > start:
			prev := runes[i-1]
			switch {
			case unicode.IsDigit(r) != unicode.IsDigit(prev):
				flush(i)
			case unicode.IsUpper(r) && unicode.IsLower(prev):
				flush(i) // fooBar
			case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(runes) && unicode.IsLower(runes[i+1]):
				flush(i) // HTTPHeader: the H of Header starts a word
			}
		}
	}
	flush(len(runes))
	return parts
}

func isNumber(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}
