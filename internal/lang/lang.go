package lang

import (
	"embed"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/winnowhq/winnow/internal/symbol"
)

//go:embed queries/*.scm
var queryFiles embed.FS

// Version identifies what extraction produces. Bump it whenever a change
// to a query or to the extractor changes the symbols, references or
// signatures of a file that has not changed: indexes written by another
// version are rebuilt rather than kept half old.
const Version = 2

// A Language is one grammar and the rules winnow applies to its trees.
// Languages are static; their grammars and queries load on first use and
// are then shared by every Parser.
type Language struct {
	Name       string   // stable identifier: "python", "cpp", "tsx"
	Extensions []string // with the dot: ".py"
	Filenames  []string // whole base names, for files without an extension: "Rakefile"

	grammar func() unsafe.Pointer
	rules   rules
	// queries names the files under queries/ whose patterns, in order,
	// make the language's query; nil means just "<Name>.scm". Languages
	// that extend another (TSX) or leave part of one out (OCaml
	// interfaces) share files instead of copying them.
	queries []string

	grammarOnce sync.Once
	ts          *sitter.Language
	// prepare starts load on a goroutine of its own, once (Parser.Parse).
	prepare sync.Once

	once  sync.Once
	query *sitter.Query
	roles []role // per capture index of query
	walk  *walkRules
	// ordinals numbers the query's patterns by their place in the
	// source, as the walk's are; nil: they are the same.
	ordinals []uint
	err      error

	// queryOnly leaves every pattern in the query, none to the walk:
	// tests compare the two.
	queryOnly bool
}

// language returns the language's grammar, which is all a parse needs:
// its query (load) can be compiled meanwhile.
func (l *Language) language() *sitter.Language {
	l.grammarOnce.Do(func() {
		useAllocator()
		l.ts = sitter.NewLanguage(l.grammar())
	})
	return l.ts
}

// loadAsync starts load on a goroutine of its own, unless it was started
// before, so that the query compiles while a first file parses: on
// Python, tree-sitter's analysis of the grammar's parse table, which
// compiling any query begins with, is some 2.5 ms of CPU, as long as
// the parse of a 20 KB file, and a one-file update pays it in full. The
// caller waits for it with load.
func (l *Language) loadAsync() {
	l.prepare.Do(func() { go l.load() })
}

// load compiles the language's query once.
func (l *Language) load() error {
	l.once.Do(func() {
		ts := l.language()
		src, err := l.querySource()
		if err != nil {
			l.err = err
			return
		}
		sp := &split{src: src}
		if !l.queryOnly {
			if sp, err = splitWalk(ts, src); err != nil {
				l.err = fmt.Errorf("query for %s: %w", l.Name, err)
				return
			}
		}
		q, qerr := sitter.NewQuery(ts, sp.src)
		if qerr != nil {
			l.err = fmt.Errorf("compile query for %s: %s", l.Name, qerr)
			return
		}
		names := q.CaptureNames()
		if !l.queryOnly {
			if !rootedAsRead(q, len(sp.ordinals)) {
				sp.roots = nil
			}
			l.walk = newWalkRules(ts, sp.chains, sp.rules, sp.roots, names)
			l.ordinals = sp.ordinals
			names = l.walk.names
		}
		l.roles, l.err = captureRoles(names)
		if l.err != nil {
			q.Close()
			l.walk.close()
			l.err = fmt.Errorf("query for %s: %w", l.Name, l.err)
			return
		}
		l.query = q
	})
	return l.err
}

// querySource concatenates the language's query files.
func (l *Language) querySource() (string, error) {
	names := l.queries
	if names == nil {
		names = []string{l.Name}
	}
	var b strings.Builder
	for _, name := range names {
		src, err := queryFiles.ReadFile("queries/" + name + ".scm")
		if err != nil {
			return "", fmt.Errorf("query for %s: %w", l.Name, err)
		}
		b.Write(src)
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// A split is a query's source cut in two: the patterns the walk
// matches (walk.go), as chains, and the rest, for tree-sitter.
type split struct {
	src      string // the rest, in order
	ordinals []uint // of the rest's patterns: their places in the whole source
	chains   []walkChain
	rules    []walkRule
	roots    []rootKind // where the rest's patterns can start; nil: anywhere
}

// splitWalk takes the patterns a walk matches out of a query's source.
func splitWalk(ts *sitter.Language, src string) (*split, error) {
	pats, err := splitPatterns(src)
	if err != nil {
		return nil, err
	}
	var (
		sp     split
		keep   strings.Builder
		rooted = true
	)
	for k, p := range pats {
		text := src[p.start:p.end]
		cs, rs := walkChains(ts, text)
		if cs == nil {
			sp.ordinals = append(sp.ordinals, uint(k))
			keep.WriteString(text)
			keep.WriteByte('\n')
			kinds, ok := patternRoots(text)
			// A pattern that starts at any node, or one only a query over
			// the whole tree finds.
			if !ok || slices.ContainsFunc(kinds, func(r rootKind) bool { return r.any }) {
				rooted = false
			}
			sp.roots = append(sp.roots, kinds...)
			continue
		}
		for i := range cs {
			cs[i].rule += len(sp.rules)
		}
		for i := range rs {
			rs[i].pattern = uint(k)
		}
		sp.chains = append(sp.chains, cs...)
		sp.rules = append(sp.rules, rs...)
	}
	sp.src = keep.String()
	if !rooted {
		sp.roots = nil
	} else if sp.roots == nil {
		sp.roots = []rootKind{} // rooted, at no node
	}
	return &sp, nil
}

// rootedAsRead reports whether tree-sitter compiled the query into the
// patterns splitWalk read, each with one root.
func rootedAsRead(q *sitter.Query, patterns int) bool {
	if q.PatternCount() != uint(patterns) {
		return false
	}
	for i := range q.PatternCount() {
		if !q.IsPatternRooted(i) {
			return false
		}
	}
	return true
}

// Check loads the language's grammar and compiles its query, reporting
// any error. Parsers do this lazily; Check lets tests and start-up code
// fail early.
func (l *Language) Check() error { return l.load() }

// ForPath returns the language of a file path, or nil when winnow has no
// grammar for it.
func ForPath(p string) *Language {
	base := path.Base(strings.ReplaceAll(p, `\`, "/"))
	ext := strings.ToLower(path.Ext(base))
	for _, l := range languages {
		if ext != "" && slices.Contains(l.Extensions, ext) {
			return l
		}
		if slices.Contains(l.Filenames, base) {
			return l
		}
	}
	return nil
}

// ByName returns the language called name, or nil.
func ByName(name string) *Language {
	for _, l := range languages {
		if l.Name == name {
			return l
		}
	}
	return nil
}

// All returns every language winnow reads, in a stable order.
func All() []*Language { return slices.Clone(languages) }

// Names returns the names of all languages, in a stable order.
func Names() []string {
	names := make([]string, len(languages))
	for i, l := range languages {
		names[i] = l.Name
	}
	return names
}

// rules are the language-specific parts of extraction that queries
// cannot express. The zero value is a reasonable default for C-like
// languages with leading comments as documentation.
type rules struct {
	// comments are node kinds that are comments; adjacent comments
	// right above a definition become its doc.
	comments []string
	// attributes are node kinds that may stand between a doc comment and
	// its definition without breaking adjacency (Rust #[…], C# […]).
	attributes []string
	// wrappers are parent node kinds that belong to the definition they
	// hold: the definition's span and signature start at the wrapper
	// (decorators, export, template<…>).
	wrappers []string
	// bodies are node kinds that hold a definition's body; its signature
	// is everything before the body.
	bodies []string
	// packageQualifies prefixes top-level qualified names with the
	// file's package (Go: pkg.Func), as callers outside it write them.
	packageQualifies bool
	// visibility decides who can use a definition; nil means Public.
	visibility func(c *defContext) symbol.Visibility
	// bodyDoc returns a docstring that lives inside the definition's body
	// (Python); it is preferred to leading comments when non-empty.
	bodyDoc func(c *defContext) string
	// commentRuns is the comment marker of a grammar whose scanner costs
	// the square of a run of comment lines' length, 0 for the others:
	// Parse blanks the long runs (commentruns.go).
	commentRuns byte
	// trailingNewline parses files as if they ended with a newline: the
	// grammar's scanner loops forever on some inputs without one
	// (tree-sitter-kotlin v1.0.1 on a final "@Annotation").
	trailingNewline bool
	// trimSignature is the set of trailing characters removed from a
	// signature after the body is cut off: "{" for C-like, ":" for Python.
	trimSignature string
}
