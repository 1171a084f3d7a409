package index

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/winnowhq/winnow/internal/symbol"
)

// A file parsed again after an edit mostly extracts what it did before:
// the same definitions, the same references, at lines shifted or not.
// Deleting its rows and inserting them anew rewrote, for a one-file
// update of sympy (sympy/core/basic.py: 113 definitions, 736
// references), 338 pages: each reference's entry in refs_name, refs_scope
// and refs_file and each definition's in symbols_name sits on a page of
// its own among the whole index's, and every one of them went to the
// write-ahead log at commit, and into the database again at checkpoint.
// patchFile writes the difference instead: a row that is still there is
// updated in place, its indexed columns untouched, so that only the
// table's pages of the file change; only rows that appear or vanish touch
// the indexes.
//
// A file keeps the ids of its definitions (first_symbol on) when they
// are the same definitions as before (the same names, qualified names
// and kinds, in the same order), so that the references' scopes, which
// name them, stay the same; their spans, signatures and docs are updated
// in place. Otherwise its definitions get new ids, as before patching:
// an id, once given, names one definition, which a reader holding ids
// across an update (a ranking, then its pack) relies on. References are
// matched by what identifies them within a file: the qualified name of
// their scope, their name and their kind.

// oldSymbol is a stored definition's row, as patchFile compares it.
type oldSymbol struct {
	name, qual, parent, signature, doc string
	kind, visibility                   int64
	startLine, endLine                 int64
	startByte, endByte                 int64
}

// refKey identifies a reference row within its file.
type refKey struct {
	scope string // the qualified name of its scope, "" at the top level
	name  string
	kind  int64
}

// oldRef is a stored reference's row.
type oldRef struct {
	rowid, scope, line, count int64
}

// patchFile rewrites the rows extracted from file fileID, stored at ids
// old.first on (old.nsym of them), as those of f, and returns the id of
// f's first definition.
func (w *writer) patchFile(ctx context.Context, fileID int64, old *fileRow, f *symbol.File) (int64, error) {
	syms, err := w.readSymbols(ctx, fileID)
	if err != nil {
		return 0, err
	}
	first := old.first
	if old.nsym == 0 || old.nsym != len(syms) || !sameDefinitions(syms, old.first, f.Symbols) {
		first = w.nextSym
		w.nextSym += int64(len(f.Symbols))
	}
	// Scope ids, as putSymbols assigns them: the first definition of a
	// qualified name.
	scopes := make(map[string]int64, len(f.Symbols))
	for i := range f.Symbols {
		if _, ok := scopes[f.Symbols[i].Qual]; !ok {
			scopes[f.Symbols[i].Qual] = first + int64(i)
		}
	}
	if err := w.patchRefs(ctx, fileID, syms, scopes, f.Refs); err != nil {
		return 0, err
	}
	if err := w.patchSymbols(ctx, fileID, first, syms, f.Symbols); err != nil {
		return 0, err
	}
	// Imports are few, and indexed by file only: rewritten whole.
	if _, err := w.exec(ctx, "DELETE FROM imports WHERE file_id = ?", fileID); err != nil {
		return 0, wrap("delete imports", err)
	}
	return first, w.queueImports(ctx, fileID, f.Imports)
}

// sameDefinitions reports whether defs are the stored definitions syms,
// at ids from first, by name, qualified name and kind. With as many of
// them as the file's row says it has, the ids from first are then all
// the file's: ids that may be given again.
func sameDefinitions(syms map[int64]*oldSymbol, first int64, defs []symbol.Symbol) bool {
	if len(defs) != len(syms) {
		return false
	}
	for i := range defs {
		o := syms[first+int64(i)]
		if o == nil || o.name != defs[i].Name || o.qual != defs[i].Qual || o.kind != int64(defs[i].Kind) {
			return false
		}
	}
	return true
}

// readSymbols reads the stored definitions of a file by id.
func (w *writer) readSymbols(ctx context.Context, fileID int64) (map[int64]*oldSymbol, error) {
	rows, err := w.query(ctx, `SELECT id, name, qual, kind, parent, start_line, end_line, start_byte, end_byte,
		signature, doc, visibility FROM symbols WHERE file_id = ?`, fileID)
	if err != nil {
		return nil, wrap("read symbols", err)
	}
	defer rows.Close()
	syms := make(map[int64]*oldSymbol)
	for rows.Next() {
		var id int64
		s := new(oldSymbol)
		if err := rows.Scan(&id, &s.name, &s.qual, &s.kind, &s.parent, &s.startLine, &s.endLine, &s.startByte, &s.endByte,
			&s.signature, &s.doc, &s.visibility); err != nil {
			return nil, wrap("read symbols", err)
		}
		syms[id] = s
	}
	return syms, wrap("read symbols", rows.Err())
}

// patchSymbols stores defs under ids first on, over the stored
// definitions syms (which it empties).
func (w *writer) patchSymbols(ctx context.Context, fileID, first int64, syms map[int64]*oldSymbol, defs []symbol.Symbol) error {
	var inserts []int
	for i := range defs {
		s, id := &defs[i], first+int64(i)
		o := syms[id]
		if o == nil {
			inserts = append(inserts, i)
			continue
		}
		delete(syms, id)
		if o.same(s) {
			continue
		}
		// The same definition (sameDefinitions): the name, the one indexed
		// column, is not set, since setting a column moves its index entry,
		// even to where it was.
		_, err := w.exec(ctx, `UPDATE symbols SET qual = ?, kind = ?, parent = ?, start_line = ?, end_line = ?,
			start_byte = ?, end_byte = ?, signature = ?, doc = ?, visibility = ? WHERE id = ?`,
			s.Qual, int(s.Kind), s.Parent, s.Span.StartLine, s.Span.EndLine, s.Span.StartByte, s.Span.EndByte,
			s.Signature, s.Doc, int(s.Visibility), id)
		if err != nil {
			return wrap("update symbol", err)
		}
	}
	for id := range syms {
		if _, err := w.exec(ctx, "DELETE FROM symbols WHERE id = ?", id); err != nil {
			return wrap("delete symbol", err)
		}
	}
	w.symbols += int64(len(inserts) - len(syms))
	for _, i := range inserts {
		if err := w.queueSymbol(ctx, first+int64(i), fileID, &defs[i]); err != nil {
			return err
		}
	}
	return nil
}

// same reports whether the stored row holds s.
func (o *oldSymbol) same(s *symbol.Symbol) bool {
	return o.name == s.Name && o.qual == s.Qual && o.kind == int64(s.Kind) && o.parent == s.Parent &&
		o.startLine == int64(s.Span.StartLine) && o.endLine == int64(s.Span.EndLine) &&
		o.startByte == int64(s.Span.StartByte) && o.endByte == int64(s.Span.EndByte) &&
		o.signature == s.Signature && o.doc == s.Doc && o.visibility == int64(s.Visibility)
}

// patchRefs stores refs over the stored references of the file; syms
// are its stored definitions, which name the stored scopes, and scopes
// the ids of the new ones by qualified name.
func (w *writer) patchRefs(ctx context.Context, fileID int64, syms map[int64]*oldSymbol, scopes map[string]int64, refs []symbol.Ref) error {
	rows, err := w.query(ctx, "SELECT rowid, scope, name, kind, line, count FROM refs WHERE file_id = ?", fileID)
	if err != nil {
		return wrap("read references", err)
	}
	stored := make(map[refKey]oldRef)
	var gone []int64 // rows no new reference can match
	for rows.Next() {
		var k refKey
		var r oldRef
		if err := rows.Scan(&r.rowid, &r.scope, &k.name, &k.kind, &r.line, &r.count); err != nil {
			rows.Close()
			return wrap("read references", err)
		}
		if r.scope != 0 {
			s := syms[r.scope]
			if s == nil {
				gone = append(gone, r.rowid) // a scope that is no definition of the file
				continue
			}
			k.scope = s.qual
		}
		if _, dup := stored[k]; dup {
			gone = append(gone, r.rowid)
			continue
		}
		stored[k] = r
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return wrap("read references", err)
	}
	var inserts []int
	for i := range refs {
		r := &refs[i]
		k := refKey{scope: r.Scope, name: r.Name, kind: int64(r.Kind)}
		o, ok := stored[k]
		if !ok {
			inserts = append(inserts, i)
			continue
		}
		delete(stored, k)
		scope := scopes[r.Scope]
		switch {
		case o.scope != scope:
			_, err = w.exec(ctx, "UPDATE refs SET scope = ?, line = ?, count = ? WHERE rowid = ?", scope, r.Line, r.Count, o.rowid)
		case o.line != int64(r.Line) || o.count != int64(r.Count):
			_, err = w.exec(ctx, "UPDATE refs SET line = ?, count = ? WHERE rowid = ?", r.Line, r.Count, o.rowid)
		}
		if err != nil {
			return wrap("update reference", err)
		}
	}
	for _, o := range stored {
		gone = append(gone, o.rowid)
	}
	for _, row := range gone {
		if _, err := w.exec(ctx, "DELETE FROM refs WHERE rowid = ?", row); err != nil {
			return wrap("delete reference", err)
		}
	}
	w.refs += int64(len(inserts) - len(gone))
	for _, i := range inserts {
		r := &refs[i]
		if err := w.queueRef(ctx, fileID, scopes[r.Scope], r); err != nil {
			return err
		}
	}
	return nil
}

// query runs a query inside the update's transaction.
func (w *writer) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := w.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("query %q: %w", query, err)
	}
	return rows, nil
}
