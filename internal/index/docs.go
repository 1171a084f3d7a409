package index

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"unsafe"

	"github.com/winnowhq/winnow/internal/symbol"
	"github.com/winnowhq/winnow/internal/terms"
)

// A Field is the part of a definition a term comes from. Lexical
// retrieval weighs them differently: a term in a name says more than the
// same term deep in a body.
type Field uint8

const (
	FieldName Field = iota // the definition's name, split and whole
	FieldPath              // its file path and its parent's qualified name
	FieldSig               // its signature
	FieldDoc               // its docstring or leading comment
	FieldBody              // its own code: the span, less nested definitions
	NumFields
)

// A Posting is how often a term occurs in one field of a document.
type Posting struct {
	Term  string
	Field Field
	Count int
}

// FileDocs are the lexical documents of one file: one for the file's own
// code (outside every definition) and one per definition.
type FileDocs struct {
	FileID   int64
	Path     string
	File     []Posting   // code outside definitions, and the path
	Symbols  []int64     // symbol ids, in the order of Docs
	Docs     [][]Posting // one per symbol
	Language string
	Hash     string // content hash, as FileKey has it
}

// buildDocs computes the documents of a parsed file. Every body term is
// counted once, in the innermost definition that holds it. cache, which
// may be nil, remembers the terms of words across calls.
func buildDocs(f *symbol.File, src []byte, cache *terms.Cache) (file []Posting, docs [][]Posting) {
	scan := terms.Scan
	if cache != nil {
		scan = cache.Scan
	}
	type bag map[string]*[NumFields]int
	add := func(b bag, term string, field Field) {
		c := b[term]
		if c == nil {
			c = new([NumFields]int)
			b[term] = c
		}
		c[field]++
	}
	flatten := func(b bag) []Posting {
		out := make([]Posting, 0, len(b))
		for term, counts := range b {
			for field, n := range counts {
				if n > 0 {
					out = append(out, Posting{Term: term, Field: Field(field), Count: n})
				}
			}
		}
		slices.SortFunc(out, func(a, b Posting) int { return cmp.Or(strings.Compare(a.Term, b.Term), cmp.Compare(a.Field, b.Field)) })
		return out
	}

	fileBag := make(bag)
	dir, base := path.Split(f.Path)
	scan(dir+strings.TrimSuffix(base, path.Ext(base)), func(t string) { add(fileBag, t, FieldPath) })
	bags := make([]bag, len(f.Symbols))
	for i := range f.Symbols {
		s := &f.Symbols[i]
		b := make(bag)
		scan(s.Name, func(t string) { add(b, t, FieldName) })
		if whole := strings.ToLower(s.Name); len(terms.SplitIdentifier(s.Name)) > 1 && len(whole) <= terms.MaxLen {
			add(b, whole, FieldName) // the whole name, for exact mentions
		}
		scan(s.Parent, func(t string) { add(b, t, FieldPath) })
		scan(dir+strings.TrimSuffix(base, path.Ext(base)), func(t string) { add(b, t, FieldPath) })
		scan(s.Signature, func(t string) { add(b, t, FieldSig) })
		scan(s.Doc, func(t string) { add(b, t, FieldDoc) })
		bags[i] = b
	}
	// Body terms go to the innermost definition around them. Symbols are
	// in source order and nest, so a stack sweeps the file once.
	order := make([]int, len(f.Symbols))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		sa, sb := f.Symbols[a].Span, f.Symbols[b].Span
		return cmp.Or(cmp.Compare(sa.StartByte, sb.StartByte), cmp.Compare(sb.EndByte, sa.EndByte))
	})
	var stack []int
	next := 0
	pos := 0
	scanUpTo := func(end int) {
		if end <= pos {
			return
		}
		b := fileBag
		if len(stack) > 0 {
			b = bags[stack[len(stack)-1]]
		}
		// The file's bytes are not modified while it is indexed: read them
		// in place rather than copy them.
		scan(unsafe.String(&src[pos], end-pos), func(t string) { add(b, t, FieldBody) })
		pos = end
	}
	for pos < len(src) {
		// The next boundary: the end of the innermost open definition, or
		// the start of the next one, whichever comes first.
		end := len(src)
		if len(stack) > 0 {
			end = min(end, f.Symbols[stack[len(stack)-1]].Span.EndByte)
		}
		if next < len(order) {
			end = min(end, f.Symbols[order[next]].Span.StartByte)
		}
		scanUpTo(min(max(end, pos), len(src)))
		switch {
		case len(stack) > 0 && pos >= f.Symbols[stack[len(stack)-1]].Span.EndByte:
			stack = stack[:len(stack)-1]
		case next < len(order) && pos >= f.Symbols[order[next]].Span.StartByte:
			stack = append(stack, order[next])
			next++
		default:
			pos = len(src) // nothing opens or closes: the rest was scanned
		}
	}
	docs = make([][]Posting, len(bags))
	for i, b := range bags {
		docs[i] = flatten(b)
	}
	return flatten(fileBag), docs
}

// encodeDocs packs a file's documents: a dictionary of its distinct
// terms, then each document (the file's first) as a count followed by
// (term index, field, count) triples, all as uvarints.
func encodeDocs(file []Posting, docs [][]Posting) []byte {
	index := make(map[string]int)
	var dict []string
	for _, d := range append([][]Posting{file}, docs...) {
		for _, p := range d {
			if _, ok := index[p.Term]; !ok {
				index[p.Term] = len(dict)
				dict = append(dict, p.Term)
			}
		}
	}
	buf := binary.AppendUvarint(nil, uint64(len(dict)))
	for _, t := range dict {
		buf = binary.AppendUvarint(buf, uint64(len(t)))
		buf = append(buf, t...)
	}
	buf = binary.AppendUvarint(buf, uint64(len(docs)))
	for _, d := range append([][]Posting{file}, docs...) {
		buf = binary.AppendUvarint(buf, uint64(len(d)))
		for _, p := range d {
			buf = binary.AppendUvarint(buf, uint64(index[p.Term]))
			buf = append(buf, byte(p.Field))
			buf = binary.AppendUvarint(buf, uint64(p.Count))
		}
	}
	return buf
}

var errBadDocs = errors.New("malformed term documents")

// decodeDocs reverses encodeDocs.
func decodeDocs(buf []byte) (file []Posting, docs [][]Posting, err error) {
	r := reader{buf: buf}
	// A count is checked against the size of buf before it sizes an allocation: a corrupt
	// one would otherwise ask for gigabytes, a fatal out-of-memory error no recover catches.
	nterms := r.uvarint()
	if r.err != nil || nterms > uint64(len(r.buf)) {
		return nil, nil, errBadDocs
	}
	dict := make([]string, nterms)
	for i := range dict {
		n := r.uvarint()
		dict[i] = r.bytes(n)
	}
	ndocs := r.uvarint()
	if r.err != nil || ndocs > uint64(len(buf)) {
		return nil, nil, errBadDocs
	}
	all := make([][]Posting, ndocs+1)
	for d := range all {
		n := r.uvarint()
		if n > uint64(len(buf)) {
			return nil, nil, errBadDocs
		}
		ps := make([]Posting, n)
		for i := range ps {
			ti := r.uvarint()
			field := r.byte()
			count := r.uvarint()
			if ti >= uint64(len(dict)) || Field(field) >= NumFields {
				return nil, nil, errBadDocs
			}
			ps[i] = Posting{Term: dict[ti], Field: Field(field), Count: int(count)}
		}
		all[d] = ps
	}
	if r.err != nil {
		return nil, nil, r.err
	}
	return all[0], all[1:], nil
}

// reader decodes uvarints, remembering the first error.
type reader struct {
	buf []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.buf)
	if n <= 0 {
		r.err = errBadDocs
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

func (r *reader) byte() byte {
	if r.err != nil || len(r.buf) == 0 {
		r.err = errBadDocs
		return 0
	}
	b := r.buf[0]
	r.buf = r.buf[1:]
	return b
}

func (r *reader) bytes(n uint64) string {
	if r.err != nil || n > uint64(len(r.buf)) {
		r.err = errBadDocs
		return ""
	}
	s := string(r.buf[:n])
	r.buf = r.buf[n:]
	return s
}

// ForEachFileDocs calls fn with the lexical documents of every indexed
// file, in path order.
func (ix *Index) ForEachFileDocs(ctx context.Context, fn func(*FileDocs) error) (err error) {
	defer ix.classify(&err)
	return forEachFileDocs(ctx, ix.db, fn)
}

func forEachFileDocs(ctx context.Context, q querier, fn func(*FileDocs) error) error {
	return forEachFileDocsWhere(ctx, q, "", nil, fn)
}

func forEachFileDocsWhere(ctx context.Context, q querier, where string, args []any, fn func(*FileDocs) error) error {
	rows, err := q.QueryContext(ctx, `SELECT id, path, lang, hash, terms, first_symbol, nsymbols
		FROM files WHERE skip = '' `+where+` ORDER BY path`, args...)
	if err != nil {
		return fmt.Errorf("read documents: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var fd FileDocs
		var blob, hash []byte
		var first int64
		var n int
		if err := rows.Scan(&fd.FileID, &fd.Path, &fd.Language, &hash, &blob, &first, &n); err != nil {
			return fmt.Errorf("read documents: %w", err)
		}
		file, docs, err := decodeDocs(blob)
		if err == nil && len(docs) != n {
			err = fmt.Errorf("%d documents for %d symbols", len(docs), n)
		}
		if err != nil {
			return fmt.Errorf("documents of %s: %w; run `winnow index --rebuild`", fd.Path, err)
		}
		fd.File, fd.Docs, fd.Hash = file, docs, string(hash)
		fd.Symbols = make([]int64, n)
		for i := range fd.Symbols {
			fd.Symbols[i] = first + int64(i)
		}
		if err := fn(&fd); err != nil {
			return err
		}
	}
	return rows.Err()
}
