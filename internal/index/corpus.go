package index

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/winnowhq/winnow/internal/symbol"
)

// Generation identifies the state of the index: it changes with every
// update that changed anything. Callers that keep derived data in
// memory compare it to know when to rebuild.
func (ix *Index) Generation(ctx context.Context) (_ string, err error) {
	defer ix.classify(&err)
	return generation(ctx, ix.db)
}

func generation(ctx context.Context, q querier) (string, error) {
	var gen string
	err := q.QueryRowContext(ctx, "SELECT coalesce((SELECT value FROM meta WHERE key = 'generation'), '')").Scan(&gen)
	if err != nil {
		return "", fmt.Errorf("read index generation: %w", err)
	}
	return gen, nil
}

// querier is what reads need of a database: the pool, or a read
// transaction for a consistent snapshot.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// A Snapshot reads the index as one committed state: updates that land
// while it is open are not seen. Close it when done.
type Snapshot struct {
	tx *sql.Tx
	ix *Index
}

// Snapshot opens a consistent read view of the index.
func (ix *Index) Snapshot(ctx context.Context) (_ *Snapshot, err error) {
	defer ix.classify(&err)
	tx, err := ix.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("open index snapshot: %w", err)
	}
	// A deferred transaction takes its snapshot at its first read.
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM meta").Scan(&n); err != nil {
		tx.Rollback()
		return nil, fmt.Errorf("open index snapshot: %w", err)
	}
	return &Snapshot{tx: tx, ix: ix}, nil
}

// classify is Index.classify for the snapshot's reads.
func (s *Snapshot) classify(err *error) { s.ix.classify(err) }

// Close ends the snapshot.
func (s *Snapshot) Close() error { return s.tx.Rollback() }

// Generation is Index.Generation as of the snapshot.
func (s *Snapshot) Generation(ctx context.Context) (_ string, err error) {
	defer s.classify(&err)
	return generation(ctx, s.tx)
}

// ForEachBrief is Index.ForEachBrief as of the snapshot.
func (s *Snapshot) ForEachBrief(ctx context.Context, fn func(*Brief) error) (err error) {
	defer s.classify(&err)
	return forEachBrief(ctx, s.tx, fn)
}

// ForEachFileDocs is Index.ForEachFileDocs as of the snapshot.
func (s *Snapshot) ForEachFileDocs(ctx context.Context, fn func(*FileDocs) error) (err error) {
	defer s.classify(&err)
	return forEachFileDocs(ctx, s.tx, fn)
}

// A Brief is a definition without its signature and doc: what ranking
// needs of every definition, cheap to hold for a whole repository.
type Brief struct {
	ID         int64
	FileID     int64
	Name       string
	Qual       string
	Parent     string
	Kind       symbol.Kind
	Visibility symbol.Visibility
	Span       symbol.Span
}

// ForEachBrief calls fn for every definition, in id order.
func (ix *Index) ForEachBrief(ctx context.Context, fn func(*Brief) error) (err error) {
	defer ix.classify(&err)
	return forEachBrief(ctx, ix.db, fn)
}

func forEachBrief(ctx context.Context, q querier, fn func(*Brief) error) error {
	return forEachBriefWhere(ctx, q, "", nil, fn)
}

func forEachBriefWhere(ctx context.Context, q querier, where string, args []any, fn func(*Brief) error) error {
	rows, err := q.QueryContext(ctx, `SELECT id, file_id, name, qual, parent, kind, visibility,
		start_line, end_line, start_byte, end_byte FROM symbols `+where+` ORDER BY id`, args...)
	if err != nil {
		return fmt.Errorf("read symbols: %w", err)
	}
	defer rows.Close()
	var b Brief
	for rows.Next() {
		var kind, vis int
		if err := rows.Scan(&b.ID, &b.FileID, &b.Name, &b.Qual, &b.Parent, &kind, &vis,
			&b.Span.StartLine, &b.Span.EndLine, &b.Span.StartByte, &b.Span.EndByte); err != nil {
			return fmt.Errorf("read symbols: %w", err)
		}
		b.Kind, b.Visibility = symbol.Kind(kind), symbol.Visibility(vis)
		if err := fn(&b); err != nil {
			return err
		}
	}
	return rows.Err()
}

// SymbolsByID returns the full definitions with the given ids.
func (ix *Index) SymbolsByID(ctx context.Context, ids []int64) (_ map[int64]symbol.Symbol, err error) {
	defer ix.classify(&err)
	out := make(map[int64]symbol.Symbol, len(ids))
	for len(ids) > 0 {
		batch := ids[:min(len(ids), 500)]
		ids = ids[len(batch):]
		args := make([]any, len(batch))
		for i, id := range batch {
			args[i] = id
		}
		rows, err := ix.db.QueryContext(ctx, "SELECT "+symbolColumns+symbolsFrom+"WHERE s.id IN ("+placeholders(len(args))+")", args...)
		if err != nil {
			return nil, fmt.Errorf("query symbols: %w", err)
		}
		for rows.Next() {
			id, s, err := scanSymbol(rows)
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("query symbols: %w", err)
			}
			out[id] = s
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// An Edge is an aggregated use of a name inside a definition (or at the
// top level of a file, Scope 0).
type Edge struct {
	FileID int64
	Scope  int64
	Name   string
	Kind   symbol.RefKind
	Line   int
	Count  int
}

// RefsFrom returns the uses inside the given definitions.
func (ix *Index) RefsFrom(ctx context.Context, scopes []int64) (_ []Edge, err error) {
	defer ix.classify(&err)
	args := make([]any, len(scopes))
	for i, id := range scopes {
		args[i] = id
	}
	return ix.edges(ctx, "scope", args)
}

// RefCounts returns how many aggregated uses each of the names has.
func (ix *Index) RefCounts(ctx context.Context, names []string) (_ map[string]int, err error) {
	defer ix.classify(&err)
	out := make(map[string]int, len(names))
	args := anySlice(names)
	for len(args) > 0 {
		batch := args[:min(len(args), 500)]
		args = args[len(batch):]
		rows, err := ix.db.QueryContext(ctx, "SELECT name, count(*) FROM refs WHERE name IN ("+placeholders(len(batch))+") GROUP BY name", batch...)
		if err != nil {
			return nil, fmt.Errorf("count references: %w", err)
		}
		for rows.Next() {
			var name string
			var n int
			if err := rows.Scan(&name, &n); err != nil {
				rows.Close()
				return nil, fmt.Errorf("count references: %w", err)
			}
			out[name] = n
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// RefsTo returns the uses of the given names anywhere.
func (ix *Index) RefsTo(ctx context.Context, names []string) (_ []Edge, err error) {
	defer ix.classify(&err)
	return ix.edges(ctx, "name", anySlice(names))
}

func (ix *Index) edges(ctx context.Context, column string, args []any) ([]Edge, error) {
	var out []Edge
	for len(args) > 0 {
		batch := args[:min(len(args), 500)]
		args = args[len(batch):]
		rows, err := ix.db.QueryContext(ctx, "SELECT file_id, scope, name, kind, line, count FROM refs WHERE "+
			column+" IN ("+placeholders(len(batch))+")", batch...)
		if err != nil {
			return nil, fmt.Errorf("query references: %w", err)
		}
		var sc edgeScanner
		for rows.Next() {
			var e Edge
			if _, err := sc.scan(rows, &e, false); err != nil {
				rows.Close()
				return nil, fmt.Errorf("query references: %w", err)
			}
			out = append(out, e)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// FileImports returns the imports of one file.
func (ix *Index) FileImports(ctx context.Context, file string) (_ []symbol.Import, err error) {
	defer ix.classify(&err)
	rel, err := ix.rel(file)
	if err != nil {
		return nil, err
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT i.module, i.name, i.alias, i.line FROM imports i
		JOIN files f ON f.id = i.file_id WHERE f.path = ? ORDER BY i.line`, rel)
	if err != nil {
		return nil, fmt.Errorf("query imports: %w", err)
	}
	defer rows.Close()
	var out []symbol.Import
	for rows.Next() {
		var imp symbol.Import
		if err := rows.Scan(&imp.Module, &imp.Name, &imp.Alias, &imp.Line); err != nil {
			return nil, fmt.Errorf("query imports: %w", err)
		}
		out = append(out, imp)
	}
	return out, rows.Err()
}

// ReadSource reads a file of the tree by its index path. Paths that
// leave the tree are refused.
func (ix *Index) ReadSource(file string) ([]byte, error) {
	rel, err := ix.rel(file)
	if err != nil {
		return nil, err
	}
	full := filepath.Join(ix.root, filepath.FromSlash(rel))
	resolved, err := filepath.EvalSymlinks(full)
	if err != nil {
		return nil, err
	}
	root, err := filepath.EvalSymlinks(ix.root)
	if err != nil {
		return nil, err
	}
	if r, err := filepath.Rel(root, resolved); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("%s resolves outside the indexed tree", file)
	}
	return os.ReadFile(resolved)
}
