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
	"sync"
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
	b := docBuilders.Get().(*docBuilder)
	defer b.release()
	// Document 0 is the file's, document i+1 the ith symbol's.
	doc := 0
	field := FieldPath
	add := func(t string) { b.add(doc, t, field) }
	dir, base := path.Split(f.Path)
	pathText := dir + strings.TrimSuffix(base, path.Ext(base))
	scan(pathText, add)
	for i := range f.Symbols {
		s := &f.Symbols[i]
		doc = i + 1
		field = FieldName
		scan(s.Name, add)
		if whole := strings.ToLower(s.Name); len(terms.SplitIdentifier(s.Name)) > 1 && len(whole) <= terms.MaxLen {
			add(whole) // the whole name, for exact mentions
		}
		field = FieldPath
		scan(s.Parent, add)
		scan(pathText, add)
		field = FieldSig
		scan(s.Signature, add)
		field = FieldDoc
		scan(s.Doc, add)
	}
	// Body terms go to the innermost definition around them. Symbols are
	// in source order and nest, so a stack sweeps the file once.
	field = FieldBody
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
		doc = 0
		if len(stack) > 0 {
			doc = stack[len(stack)-1] + 1
		}
		// The file's bytes are not modified while it is indexed: read them
		// in place rather than copy them.
		scan(unsafe.String(&src[pos], end-pos), add)
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
	all := b.postings(len(f.Symbols) + 1)
	return all[0], all[1:]
}

// A docBuilder gathers the postings of one file's documents: every term
// occurrence is an event (document, term, field) in one slice, sorted and
// counted at the end, instead of a count in a map per document. Its
// memory is reused from file to file (docBuilders).
type docBuilder struct {
	ids    map[string]uint32 // a number per distinct term of the file
	terms  []string          // by number
	byName []uint32          // numbers in the terms' sorted order
	rank   []uint32          // by number: the place in byName
	events []uint64          // document<<40 | term<<8 | field
}

var docBuilders = sync.Pool{New: func() any { return &docBuilder{ids: make(map[string]uint32)} }}

// maxDocs bounds a file's documents (2^24: 16 million definitions, in a
// file of more than 50 MB): events hold a document's number in their top
// 24 bits. The terms of definitions past it are dropped.
const maxDocs = 1 << 24

func (b *docBuilder) add(doc int, term string, field Field) {
	if doc >= maxDocs {
		return
	}
	id, ok := b.ids[term]
	if !ok {
		id = uint32(len(b.terms))
		b.ids[term] = id
		b.terms = append(b.terms, term)
	}
	b.events = append(b.events, uint64(doc)<<40|uint64(id)<<8|uint64(field))
}

// postings returns the postings of documents 0..n-1, each sorted by term
// and field.
func (b *docBuilder) postings(n int) [][]Posting {
	// Number the terms in sorted order, so that events sort as postings do.
	b.byName = b.byName[:0]
	for i := range b.terms {
		b.byName = append(b.byName, uint32(i))
	}
	slices.SortFunc(b.byName, func(x, y uint32) int { return strings.Compare(b.terms[x], b.terms[y]) })
	b.rank = slices.Grow(b.rank[:0], len(b.terms))[:len(b.terms)]
	for r, id := range b.byName {
		b.rank[id] = uint32(r)
	}
	const termBits = 0xffffffff << 8
	for i, e := range b.events {
		b.events[i] = e&^termBits | uint64(b.rank[(e&termBits)>>8])<<8
	}
	slices.Sort(b.events)
	distinct := 0
	for i, e := range b.events {
		if i == 0 || e != b.events[i-1] {
			distinct++
		}
	}
	// Events sort by document first: each document's postings are a run
	// of one array.
	all := make([]Posting, 0, distinct)
	docs := make([][]Posting, n)
	doc, start := 0, 0
	for i := 0; i < len(b.events); {
		e := b.events[i]
		j := i + 1
		for j < len(b.events) && b.events[j] == e {
			j++
		}
		if d := int(e >> 40); d != doc {
			docs[doc] = all[start:len(all):len(all)]
			doc, start = d, len(all)
		}
		all = append(all, Posting{Term: b.terms[b.byName[(e&termBits)>>8]], Field: Field(e & 0xff), Count: j - i})
		i = j
	}
	docs[doc] = all[start:len(all):len(all)]
	return docs
}

// release empties b and puts it back in docBuilders.
func (b *docBuilder) release() {
	clear(b.ids)
	clear(b.terms) // no strings kept alive
	b.terms = b.terms[:0]
	b.events = b.events[:0]
	docBuilders.Put(b)
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

// reader decodes the varint layouts of the term documents and the git
// listing (listing.go), remembering the first error: errBadDocs, which
// a decoder of another layout answers with its own.
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

func (r *reader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.buf)
	if n <= 0 {
		r.err = errBadDocs
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

// count reads a number of items that take a byte each at least, so that
// a damaged count cannot ask for more memory than buf holds.
func (r *reader) count() int {
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.buf)) {
		r.err = errBadDocs
		return 0
	}
	return int(n)
}

// string reads a string as appendString lays it out (cutString).
func (r *reader) string() string {
	if r.err != nil {
		return ""
	}
	s, rest, ok := cutString(r.buf)
	if !ok {
		r.err = errBadDocs
		return ""
	}
	r.buf = rest
	return s
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
