package telescope

import (
	"regexp"
	"sync"
)

// A lazyRegexp is a regular expression compiled on its first use. The
// package's patterns are many and long, and compiling them all when the
// program starts cost every winnow process some 0.6 ms, though most
// (winnow index, winnow context) never build a telescope.
type lazyRegexp struct {
	expr string
	re   func() *regexp.Regexp
}

// lazy returns expr to compile on first use; an expression that does not
// compile panics then, as regexp.MustCompile would have at start
// (TestLazyPatternsCompile compiles them all).
func lazy(expr string) *lazyRegexp {
	return &lazyRegexp{expr: expr, re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

func (l *lazyRegexp) MatchString(s string) bool { return l.re().MatchString(s) }

func (l *lazyRegexp) FindStringSubmatch(s string) []string { return l.re().FindStringSubmatch(s) }

func (l *lazyRegexp) FindAllString(s string, n int) []string { return l.re().FindAllString(s, n) }
