package terms

import "strings"

// Stem strips the commonest English inflections from a lower-case word,
// so that "headers", "parsing" and "parsed" meet "header" and "parse"
// halfway. It is deliberately light (no Porter step 2–5): identifiers
// are terse, and over-stemming merges names that differ ("policy",
// "police"). Words of four letters or fewer are kept as they are.
func Stem(w string) string {
	if len(w) <= 4 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 5:
		return w[:len(w)-3] + "y" // dependencies → dependency
	case strings.HasSuffix(w, "sses"):
		return w[:len(w)-2] // classes → class
	case strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		return w[:len(w)-2] // indexes → index, matches → match
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w // class, status, axis
	case strings.HasSuffix(w, "s"):
		w = w[:len(w)-1] // headers → header
	}
	switch {
	case strings.HasSuffix(w, "ing") && len(w) > 6:
		return undouble(w[:len(w)-3]) // parsing → pars, running → run
	case strings.HasSuffix(w, "ed") && len(w) > 5 && !strings.HasSuffix(w, "eed"):
		return undouble(w[:len(w)-2]) // parsed → pars, stopped → stop
	case strings.HasSuffix(w, "e") && len(w) > 4:
		return w[:len(w)-1] // parse → pars, so that it meets parsing
	}
	return w
}

// undouble turns a doubled final consonant back into one: stopp → stop.
func undouble(w string) string {
	n := len(w)
	if n >= 2 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// stopwords are English function words and the keywords common to the
// languages winnow reads: they say nothing about what code does.
var stopwords = func() map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(`
		a an and are as at be been being but by can could did do does doing done
		for from had has have having he her here hers him his how i if in into is
		it its itself just me more most my no nor not now of off on once only
		or other our ours out over own same she should so some such than that the
		their theirs them then there these they this those through to too under
		until up very was we were what when where which while who whom why will
		with would you your yours also any all each few both either via per
		def fn func function return returns self cls class var val let const
		import pass none null nil true false elif else end try except catch
		finally raise throw throws new lambda yield async await void
	`) {
		m[w] = true
	}
	return m
}()

// IsStopword reports whether a lower-case word is a stopword.
func IsStopword(w string) bool { return stopwords[w] }
