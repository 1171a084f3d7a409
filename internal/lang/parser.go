package lang

import (
	"context"
	"errors"
	"fmt"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/winnowhq/winnow/internal/symbol"
)

// parseTimeoutMicros bounds one parse. Some grammars loop forever on
// some malformed inputs; a parse normally runs at megabytes per second,
// so this allows a hundred times that and then gives up on the file.
func parseTimeoutMicros(size int) uint64 {
	return 3_000_000 + 10*uint64(size)
}

// ErrParse reports that tree-sitter produced no tree at all (it was
// cancelled or gave up); a tree with syntax errors is not an error.
var ErrParse = errors.New("parser produced no tree")

// A Parser extracts symbols from source files. It holds one tree-sitter
// parser per language, one query cursor and the arena its small files
// are parsed in, so it is not safe for concurrent use: give each
// goroutine its own, and Close it when done.
type Parser struct {
	parsers map[*Language]*sitter.Parser
	cursor  *sitter.QueryCursor
	batch   *matchBatch
	walk    *walkBuf

	// Memory of one file's extraction that the next one reuses: a file
	// has a use per identifier.
	refs  []refUse
	lines lineIndex

	arena   *arena // nil until the first small file, or if none could be made
	noArena bool

	parsed int // bytes parsed
}

// keepUses bounds the uses (and lines) a Parser keeps memory for from
// one file to the next: a file of 100 KB has some 20,000 uses.
const keepUses = 1 << 15

// NewParser returns a Parser for any language.
func NewParser() *Parser {
	cursor := sitter.NewQueryCursor()
	// Bounds the work of one query over one pathological tree.
	cursor.SetMatchLimit(1 << 16)
	return &Parser{
		parsers: make(map[*Language]*sitter.Parser),
		cursor:  cursor,
		batch:   newMatchBatch(),
		walk:    newWalkBuf(),
	}
}

// Close releases the Parser's tree-sitter objects.
func (p *Parser) Close() {
	for _, tp := range p.parsers {
		tp.Close()
	}
	clear(p.parsers)
	if p.cursor != nil {
		p.cursor.Close()
		p.cursor = nil
	}
	if p.batch != nil {
		p.batch.close()
		p.batch = nil
	}
	if p.walk != nil {
		p.walk.close()
		p.walk = nil
	}
	if p.arena != nil {
		p.arena.close()
		p.arena = nil
	}
	if p.parsed >= largeSource {
		// What the Parser's large trees held stays in glibc's arenas,
		// idle, unless handed back (alloc.go).
		trimCHeap()
	}
}

func (p *Parser) parser(l *Language) (*sitter.Parser, error) {
	if tp, ok := p.parsers[l]; ok {
		return tp, nil
	}
	tp := sitter.NewParser()
	if err := tp.SetLanguage(l.language()); err != nil {
		tp.Close()
		return nil, fmt.Errorf("set language %s: %w", l.Name, err)
	}
	p.parsers[l] = tp
	return tp, nil
}

// parse parses src with tp, or in the Parser's arena if src is small
// (arena.go), and returns the tree, nil if none, and what ends it.
func (p *Parser) parse(tp *sitter.Parser, l *Language, src []byte) (tree *sitter.Tree, release func()) {
	timeout := parseTimeoutMicros(len(src))
	if len(src) < largeSource {
		if p.arena == nil && !p.noArena {
			p.arena = newArena()
			p.noArena = p.arena == nil
		}
		if a := p.arena; a != nil {
			tree = a.parse(l.language(), timeout, arenaRoom(len(src)), src)
			return tree, func() { a.reset(tree) }
		}
	}
	tp.SetTimeoutMicros(timeout)
	tree = parseBytes(tp, src)
	if tree == nil {
		return nil, tp.Reset
	}
	return tree, tree.Close
}

// Parse extracts the definitions, references and imports of one file.
// path is recorded in the result as given. A file with syntax errors
// still yields every definition that parsed, with HasError set.
func (p *Parser) Parse(ctx context.Context, l *Language, path string, src []byte) (*symbol.File, error) {
	// The query compiles while the file parses, and is waited for before
	// the tree is read.
	l.loadAsync()
	tp, err := p.parser(l)
	if err != nil {
		return nil, err
	}
	// Files are small (the index skips large ones), so a parse is not
	// worth cancelling midway: ParseCtx's watcher goroutine could also set
	// the cancellation flag after the parse, on a closed parser.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	size := len(src)
	if l.rules.trailingNewline && (size == 0 || src[size-1] != '\n') {
		src = append(src[:size:size], '\n') // a copy: the caller's bytes stay as they are
	}
	p.parsed += len(src)
	end, err := beginParse(ctx, len(src))
	if err != nil {
		return nil, err
	}
	defer end() // after the tree is closed
	parsed := src
	if m := l.rules.commentRuns; m != 0 {
		parsed = blankCommentRuns(src, m) // the same offsets: extraction reads src
	}
	tree, release := p.parse(tp, l, parsed)
	if tree == nil {
		release()
		return nil, fmt.Errorf("parse %s: %w", path, ErrParse)
	}
	closed := false
	defer func() {
		if !closed {
			release()
		}
	}()

	if err := l.load(); err != nil {
		return nil, err
	}
	root := tree.RootNode()
	x := &extraction{
		lang: l,
		src:  src,
		file: &symbol.File{Path: path, Lang: l.Name, HasError: root.HasError()},
		refs: p.refs[:0],

		linesBuf: p.lines,
	}
	defer func() {
		// Not what a large file needed: it would stay for the Parser's life.
		p.refs, p.lines = nil, nil
		if cap(x.refs) <= keepUses {
			p.refs = x.refs[:0]
		}
		if cap(x.lines) <= keepUses {
			p.lines = x.lines[:0]
		}
	}()
	if err := x.collect(p.cursor, p.batch, p.walk, root); err != nil {
		return nil, fmt.Errorf("query %s: %w", path, err)
	}
	x.resolveDefs(x.symbol)
	// The tree goes before the references are aggregated, which take
	// Go heap of their own: 9 MB for sympy's rules/sine.py, whose tree
	// is 70.
	release()
	closed = true
	x.resolveRefs()
	if len(src) != size {
		x.clampSpans(size)
	}
	return x.file, nil
}
