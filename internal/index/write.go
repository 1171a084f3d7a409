package index

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/winnowhq/winnow/internal/symbol"
)

// writer holds the one write transaction of an update and its prepared
// statements. Symbol ids are assigned here, not by SQLite, so that
// references can name their scope without a round trip.
type writer struct {
	tx      *sql.Tx
	stmts   map[string]*sql.Stmt
	nextSym int64
	symbols int64 // change in the number of symbols
	refs    int64 // change in the number of references
	bulk    bool  // secondary indexes dropped until commit
	quick   bool  // a bulk load at the quick tier: commit defers some (createIndexes)

	files         []int64 // ids of the files whose keys (FileKey) may have changed
	before, after string  // the index stamps the transaction went from and to, once committed

	symRows rowBatch // pending symbol rows
	refRows rowBatch // pending reference rows
	impRows rowBatch // pending import rows
}

// A rowBatch gathers the rows of one table, for INSERTs of many rows
// each: large batches save most of the per-statement cost of the SQLite
// driver.
type rowBatch struct {
	insert string // "INSERT INTO t(c1, c2) VALUES "
	cols   int
	args   []any // pending rows, cols values each
}

// batchRows is how many rows one INSERT of a rowBatch carries.
const batchRows = 64

func newRowBatch(table string, cols ...string) rowBatch {
	return rowBatch{insert: "INSERT INTO " + table + "(" + strings.Join(cols, ", ") + ") VALUES ", cols: len(cols)}
}

// full reports whether the batch holds a statement's worth of rows.
func (b *rowBatch) full() bool { return len(b.args) >= batchRows*b.cols }

// flush inserts the pending rows: full batches, then the rest one by
// one through a single prepared statement.
func (b *rowBatch) flush(ctx context.Context, w *writer) error {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", b.cols), ", ") + ")"
	for len(b.args) > 0 {
		n := min(len(b.args)/b.cols, batchRows)
		if n < batchRows {
			n = 1
		}
		q := b.insert + strings.TrimSuffix(strings.Repeat(row+",", n), ",")
		if _, err := w.exec(ctx, q, b.args[:n*b.cols]...); err != nil {
			return err
		}
		b.args = b.args[n*b.cols:]
	}
	b.args = b.args[:0]
	return nil
}

// beginWrite starts the write transaction of an update at tier.
func (ix *Index) beginWrite(ctx context.Context, tier Tier) (*writer, error) {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("begin index update: %w", err)
	}
	w := &writer{tx: tx, stmts: make(map[string]*sql.Stmt),
		symRows: newRowBatch("symbols", "id", "file_id", "name", "qual", "kind", "parent", "start_line", "end_line",
			"start_byte", "end_byte", "signature", "doc", "visibility"),
		refRows: newRowBatch("refs", "file_id", "scope", "name", "kind", "line", "count"),
		impRows: newRowBatch("imports", "file_id", "module", "name", "alias", "line"),
	}
	var files int
	err = tx.QueryRowContext(ctx, "SELECT coalesce(max(id), 0) + 1, (SELECT count(*) FROM files) FROM symbols").Scan(&w.nextSym, &files)
	switch {
	case err != nil:
	case files == 0:
		// A first build: load the tables bare, index them at commit.
		w.bulk, w.quick = true, tier == TierQuick
		_, err = tx.ExecContext(ctx, dropIndexes())
	default:
		// What a first build at the quick tier deferred: a no-op after.
		_, err = tx.ExecContext(ctx, createIndexes(false))
	}
	if err != nil {
		tx.Rollback()
		return nil, fmt.Errorf("begin index update: %w", err)
	}
	return w, nil
}

// exec runs a statement, preparing it on first use.
func (w *writer) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := w.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// stmt returns the statement of query, prepared on first use.
func (w *writer) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	st, ok := w.stmts[query]
	if !ok {
		var err error
		if st, err = w.tx.PrepareContext(ctx, query); err != nil {
			return nil, fmt.Errorf("prepare %q: %w", query, err)
		}
		w.stmts[query] = st
	}
	return st, nil
}

func (w *writer) rollback() {
	for _, st := range w.stmts {
		st.Close()
	}
	w.tx.Rollback()
}

func (w *writer) commit(ctx context.Context) error {
	if err := w.flushRows(ctx); err != nil {
		return err
	}
	if w.bulk {
		if _, err := w.tx.ExecContext(ctx, createIndexes(w.quick)); err != nil {
			return fmt.Errorf("create indexes: %w", err)
		}
	}
	before, err := stamp(ctx, w.tx)
	if err != nil {
		return err
	}
	for key, delta := range map[string]int64{"symbols": w.symbols, "refs": w.refs, "generation": 1} {
		_, err := w.exec(ctx, `INSERT INTO meta(key, value) VALUES (?, ?)
			ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + excluded.value`, key, delta)
		if err != nil {
			return fmt.Errorf("update counts: %w", err)
		}
	}
	if _, err := w.exec(ctx, `INSERT INTO meta(key, value) VALUES ('updated', ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, time.Now().UTC().Format(time.RFC3339)); err != nil {
		return fmt.Errorf("update timestamp: %w", err)
	}
	after, err := stamp(ctx, w.tx)
	if err != nil {
		return err
	}
	if err := w.tx.Commit(); err != nil {
		return fmt.Errorf("commit index update: %w", err)
	}
	w.before, w.after = before, after
	return nil
}

// touchFile records a new stat for content that did not change.
func (w *writer) touchFile(ctx context.Context, id, size, mtime int64) error {
	_, err := w.exec(ctx, "UPDATE files SET size = ?, mtime = ? WHERE id = ?", size, mtime, id)
	return wrap("touch file", err)
}

// moveFile gives a stored file a new path.
func (w *writer) moveFile(ctx context.Context, id int64, path string, size, mtime int64) error {
	w.files = append(w.files, id)
	_, err := w.exec(ctx, "UPDATE files SET path = ?, size = ?, mtime = ? WHERE id = ?", path, size, mtime, id)
	return wrap("move file", err)
}

// deleteFile removes a file and everything extracted from it.
func (w *writer) deleteFile(ctx context.Context, id int64) error {
	w.files = append(w.files, id)
	if err := w.clearFile(ctx, id); err != nil {
		return err
	}
	_, err := w.exec(ctx, "DELETE FROM files WHERE id = ?", id)
	return wrap("delete file", err)
}

// flushRows inserts the pending symbol, reference and import rows.
func (w *writer) flushRows(ctx context.Context) error {
	if err := w.symRows.flush(ctx, w); err != nil {
		return wrap("insert symbols", err)
	}
	if err := w.refRows.flush(ctx, w); err != nil {
		return wrap("insert references", err)
	}
	return wrap("insert imports", w.impRows.flush(ctx, w))
}

// clearFile removes what was extracted from a file, keeping its row.
func (w *writer) clearFile(ctx context.Context, id int64) error {
	if err := w.flushRows(ctx); err != nil {
		return err
	}
	res, err := w.exec(ctx, "DELETE FROM symbols WHERE file_id = ?", id)
	if err != nil {
		return wrap("delete symbols", err)
	}
	n, _ := res.RowsAffected()
	w.symbols -= n
	if res, err = w.exec(ctx, "DELETE FROM refs WHERE file_id = ?", id); err != nil {
		return wrap("delete references", err)
	}
	n, _ = res.RowsAffected()
	w.refs -= n
	_, err = w.exec(ctx, "DELETE FROM imports WHERE file_id = ?", id)
	return wrap("delete imports", err)
}

// putFile stores a file: its row (replacing old, if any) and, when it
// was parsed, its symbols, references and imports.
func (w *writer) putFile(ctx context.Context, old *fileRow, c candidate, hash []byte, skip Reason, f *symbol.File, terms []byte, tier Tier) error {
	var hasError, nsym int
	var pkg string
	if f != nil {
		pkg, nsym = f.Package, len(f.Symbols)
		if f.HasError {
			hasError = 1
		}
	}
	if terms == nil {
		terms = []byte{}
	}
	// A file parsed before and again is patched (patch.go).
	patch := f != nil && old != nil && old.skip == ""
	var id, first int64
	if old != nil {
		id = old.id
		var err error
		if patch {
			first, err = w.patchFile(ctx, id, old, f)
		} else {
			first, err = w.nextSym, w.clearFile(ctx, id)
		}
		if err != nil {
			return err
		}
		_, err = w.exec(ctx, `UPDATE files SET lang = ?, hash = ?, size = ?, mtime = ?, skip = ?, has_error = ?, package = ?,
			first_symbol = ?, nsymbols = ?, terms = ?, tier = ? WHERE id = ?`,
			c.lang.Name, hash, c.size, c.mtime, string(skip), hasError, pkg, first, nsym, terms, int(tier), id)
		if err != nil {
			return wrap("update file", err)
		}
	} else {
		first = w.nextSym // putSymbols numbers the file's symbols from here
		res, err := w.exec(ctx, `INSERT INTO files(path, lang, hash, size, mtime, skip, has_error, package, first_symbol, nsymbols, terms, tier)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, c.path, c.lang.Name, hash, c.size, c.mtime, string(skip), hasError, pkg, first, nsym, terms, int(tier))
		if err != nil {
			return wrap("insert file", err)
		}
		if id, err = res.LastInsertId(); err != nil {
			return wrap("insert file", err)
		}
	}
	w.files = append(w.files, id)
	if f == nil || patch {
		return nil
	}
	return w.putSymbols(ctx, id, f)
}

func (w *writer) putSymbols(ctx context.Context, fileID int64, f *symbol.File) error {
	scopes := make(map[string]int64, len(f.Symbols))
	for i := range f.Symbols {
		s := &f.Symbols[i]
		id := w.nextSym
		w.nextSym++
		if _, ok := scopes[s.Qual]; !ok {
			scopes[s.Qual] = id
		}
		if err := w.queueSymbol(ctx, id, fileID, s); err != nil {
			return err
		}
	}
	w.symbols += int64(len(f.Symbols))
	for i := range f.Refs {
		if err := w.queueRef(ctx, fileID, scopes[f.Refs[i].Scope], &f.Refs[i]); err != nil {
			return err
		}
	}
	w.refs += int64(len(f.Refs))
	return w.queueImports(ctx, fileID, f.Imports)
}

// queueSymbol adds a definition to the pending rows.
func (w *writer) queueSymbol(ctx context.Context, id, fileID int64, s *symbol.Symbol) error {
	w.symRows.args = append(w.symRows.args, id, fileID, s.Name, s.Qual, int(s.Kind), s.Parent, s.Span.StartLine, s.Span.EndLine,
		s.Span.StartByte, s.Span.EndByte, s.Signature, s.Doc, int(s.Visibility))
	if w.symRows.full() {
		return wrap("insert symbols", w.symRows.flush(ctx, w))
	}
	return nil
}

// queueRef adds a reference in scope to the pending rows.
func (w *writer) queueRef(ctx context.Context, fileID, scope int64, r *symbol.Ref) error {
	w.refRows.args = append(w.refRows.args, fileID, scope, r.Name, int(r.Kind), r.Line, r.Count)
	if w.refRows.full() {
		return wrap("insert references", w.refRows.flush(ctx, w))
	}
	return nil
}

// queueImports adds a file's imports to the pending rows.
func (w *writer) queueImports(ctx context.Context, fileID int64, imps []symbol.Import) error {
	for _, imp := range imps {
		w.impRows.args = append(w.impRows.args, fileID, imp.Module, imp.Name, imp.Alias, imp.Line)
		if w.impRows.full() {
			if err := w.impRows.flush(ctx, w); err != nil {
				return wrap("insert imports", err)
			}
		}
	}
	return nil
}

func wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", what, err)
}
