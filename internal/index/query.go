package index

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"path"
	"strings"

	"github.com/winnowhq/winnow/internal/symbol"
)

// symbolColumns are the columns scanSymbol reads, in order.
const symbolColumns = `s.id, f.path, s.name, s.qual, s.kind, s.parent, s.start_line, s.end_line,
	s.start_byte, s.end_byte, s.signature, s.doc, s.visibility`

const symbolsFrom = " FROM symbols s JOIN files f ON f.id = s.file_id "

func scanSymbol(rows *sql.Rows) (int64, symbol.Symbol, error) {
	var s symbol.Symbol
	var id int64
	var kind, vis int
	err := rows.Scan(&id, &s.Path, &s.Name, &s.Qual, &kind, &s.Parent, &s.Span.StartLine, &s.Span.EndLine,
		&s.Span.StartByte, &s.Span.EndByte, &s.Signature, &s.Doc, &vis)
	s.Kind, s.Visibility = symbol.Kind(kind), symbol.Visibility(vis)
	return id, s, err
}

// querySymbols runs a query selecting symbolColumns.
func (ix *Index) querySymbols(ctx context.Context, query string, args ...any) ([]symbol.Symbol, error) {
	rows, err := ix.db.QueryContext(ctx, "SELECT "+symbolColumns+symbolsFrom+query, args...)
	if err != nil {
		return nil, fmt.Errorf("query symbols: %w", err)
	}
	defer rows.Close()
	var out []symbol.Symbol
	for rows.Next() {
		_, s, err := scanSymbol(rows)
		if err != nil {
			return nil, fmt.Errorf("query symbols: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// FileSymbols returns the definitions of one file in source order.
func (ix *Index) FileSymbols(ctx context.Context, file string) (_ []symbol.Symbol, err error) {
	defer ix.classify(&err)
	rel, err := ix.rel(file)
	if err != nil {
		return nil, err
	}
	return ix.querySymbols(ctx, "WHERE f.path = ? ORDER BY s.start_byte, s.end_byte DESC", rel)
}

// FileInfo describes one indexed file.
type FileInfo struct {
	Path     string `json:"path"`
	Lang     string `json:"lang"`
	Size     int64  `json:"size"`
	Package  string `json:"package,omitempty"`
	HasError bool   `json:"has_error,omitempty"`
	Skip     Reason `json:"skipped,omitempty"`
	Tier     Tier   `json:"tier"` // how its definitions were read
}

// Files lists the files under dir ("" or "." for all), in path order,
// including files that were skipped for their content.
func (ix *Index) Files(ctx context.Context, dir string) (_ []FileInfo, err error) {
	defer ix.classify(&err)
	q := "SELECT path, lang, size, package, has_error, skip, tier FROM files"
	var args []any
	rel := ""
	if dir != "" {
		var err error
		if rel, err = ix.rel(dir); err != nil {
			return nil, err
		}
	}
	if rel != "" && rel != "." {
		q += " WHERE path = ? OR path GLOB ?"
		args = append(args, rel, globEscape(rel)+"/*")
	}
	rows, err := ix.db.QueryContext(ctx, q+" ORDER BY path", args...)
	if err != nil {
		return nil, fmt.Errorf("list files: %w", err)
	}
	defer rows.Close()
	var out []FileInfo
	for rows.Next() {
		var f FileInfo
		if err := rows.Scan(&f.Path, &f.Lang, &f.Size, &f.Package, &f.HasError, &f.Skip, &f.Tier); err != nil {
			return nil, fmt.Errorf("list files: %w", err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// Stats returns the index-wide counts without updating anything.
func (ix *Index) Stats(ctx context.Context) (_ *Stats, err error) {
	defer ix.classify(&err)
	s := &Stats{Skipped: make(map[Reason]int)}
	return s, ix.fillTotals(ctx, s)
}

// A Reference is one aggregated use of a name.
type Reference struct {
	Path  string         `json:"path"`
	Line  int            `json:"line"`
	Kind  symbol.RefKind `json:"kind"`
	Count int            `json:"count"`
	// Scope is the qualified name of the definition the use is in, "" at
	// the top level of the file.
	Scope string `json:"scope,omitempty"`
}

// References returns the uses of name across the index, grouped by the
// definition they occur in.
func (ix *Index) References(ctx context.Context, name string, limit int) (_ []Reference, err error) {
	defer ix.classify(&err)
	if limit <= 0 {
		limit = 100
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT f.path, r.line, r.kind, r.count, coalesce(s.qual, '')
		FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols s ON s.id = r.scope
		WHERE r.name = ? ORDER BY r.kind = 0, f.path, r.line LIMIT ?`, name, limit)
	if err != nil {
		return nil, fmt.Errorf("query references: %w", err)
	}
	defer rows.Close()
	var out []Reference
	for rows.Next() {
		var r Reference
		var kind int
		if err := rows.Scan(&r.Path, &r.Line, &kind, &r.Count, &r.Scope); err != nil {
			return nil, fmt.Errorf("query references: %w", err)
		}
		r.Kind = symbol.RefKind(kind)
		out = append(out, r)
	}
	return out, rows.Err()
}

// isTestPath reports paths that hold tests by the common conventions.
func isTestPath(p string) bool {
	base := path.Base(p)
	return strings.HasPrefix(base, "test_") || strings.Contains(base, "_test.") || strings.Contains(base, ".test.") ||
		strings.Contains(base, ".spec.") || strings.HasSuffix(strings.TrimSuffix(base, path.Ext(base)), "Test") ||
		strings.Contains("/"+p, "/tests/") || strings.Contains("/"+p, "/test/") || strings.Contains("/"+p, "/__tests__/")
}

// kindRank orders kinds for display: types and callables first.
func kindRank(k symbol.Kind) int {
	switch {
	case k.IsType():
		return 0
	case k.IsCallable():
		return 1
	case k == symbol.Type || k == symbol.Module || k == symbol.Namespace:
		return 2
	case k == symbol.Constant:
		return 3
	}
	return 4
}

// compareDefinitions orders symbols of equal match quality: types and
// callables before fields and variables, public before private, code
// before tests, shallow paths before deep ones.
func compareDefinitions(a, b *symbol.Symbol) int {
	if c := cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)); c != 0 {
		return c
	}
	if c := cmp.Compare(b2i(a.Visibility != symbol.Public), b2i(b.Visibility != symbol.Public)); c != 0 {
		return c
	}
	if c := cmp.Compare(b2i(isTestPath(a.Path)), b2i(isTestPath(b.Path))); c != 0 {
		return c
	}
	if c := cmp.Compare(strings.Count(a.Path, "/"), strings.Count(b.Path, "/")); c != 0 {
		return c
	}
	return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Span.StartLine, b.Span.StartLine))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ForEachRef calls fn for every reference of the snapshot with its row
// id, in the order of row ids, which is the order RefsFrom and RefsTo
// give the uses of one scope or of one name in.
func (s *Snapshot) ForEachRef(ctx context.Context, fn func(row int64, e *Edge) error) (err error) {
	defer s.classify(&err)
	return forEachRef(ctx, s.tx, "", nil, fn)
}

// NumRefs returns the number of references in the index (the running
// total, as NumSymbols).
func (s *Snapshot) NumRefs(ctx context.Context) (int, error) {
	return s.runningTotal(ctx, "refs", "count references")
}

// ForEachRefOf is ForEachRef for the references in the given files only.
func (s *Snapshot) ForEachRefOf(ctx context.Context, files []int64, fn func(row int64, e *Edge) error) (err error) {
	defer s.classify(&err)
	if len(files) == 0 {
		return nil
	}
	args := make([]any, len(files))
	for i, id := range files {
		args[i] = id
	}
	return forEachRef(ctx, s.tx, "WHERE file_id IN ("+placeholders(len(files))+")", args, fn)
}

func forEachRef(ctx context.Context, q querier, where string, args []any, fn func(int64, *Edge) error) error {
	rows, err := q.QueryContext(ctx, "SELECT rowid, file_id, scope, name, kind, line, count FROM refs "+where+" ORDER BY rowid", args...)
	if err != nil {
		return fmt.Errorf("read references: %w", err)
	}
	defer rows.Close()
	var sc edgeScanner
	var e Edge
	for rows.Next() {
		row, err := sc.scan(rows, &e, true)
		if err != nil {
			return fmt.Errorf("read references: %w", err)
		}
		if err := fn(row, &e); err != nil {
			return err
		}
	}
	return rows.Err()
}

// An edgeScanner reads rows of refs' (file_id, scope, name, kind, line,
// count), after its rowid if asked, as the driver's values: database/sql
// converts an integer for an int or int64 destination by formatting and
// parsing it, which was a quarter of reading every reference.
type edgeScanner struct {
	v    [7]any
	dest []any
}

// scan reads the current row of rows into e and returns its row id
// (0 without one).
func (s *edgeScanner) scan(rows *sql.Rows, e *Edge, withRow bool) (int64, error) {
	if s.dest == nil {
		for i := range s.v {
			s.dest = append(s.dest, &s.v[i])
		}
	}
	dest, v := s.dest[1:], s.v[1:]
	if withRow {
		dest = s.dest
	}
	if err := rows.Scan(dest...); err != nil {
		return 0, err
	}
	var row int64
	if withRow {
		r, ok := s.v[0].(int64)
		if !ok {
			return 0, fmt.Errorf("row id %v (%T) is not an integer", s.v[0], s.v[0])
		}
		row = r
	}
	e.FileID, _ = v[0].(int64)
	e.Scope, _ = v[1].(int64)
	e.Name, _ = v[2].(string)
	kind, _ := v[3].(int64)
	line, _ := v[4].(int64)
	count, _ := v[5].(int64)
	e.Kind, e.Line, e.Count = symbol.RefKind(kind), int(line), int(count)
	return row, nil
}
