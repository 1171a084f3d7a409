package index

import (
	"context"
	"fmt"
)

// The reads below let a reader of the whole index (package retrieve's
// corpus) bring what it derived at one generation up to another without
// reading everything again: the list of files with what identifies their
// content, then the definitions and documents of only the files that
// differ from what it holds.

// A FileKey identifies what the index holds of one file: a file whose
// key is unchanged has the same definitions (ids included) and the same
// documents.
type FileKey struct {
	ID       int64
	Path     string
	Language string
	Hash     string // content hash
	First    int64  // id of its first definition; its definitions have consecutive ids
	Symbols  int    // number of definitions
}

// FileKeys returns the key of every indexed file (the files
// ForEachFileDocs reads), in path order.
func (s *Snapshot) FileKeys(ctx context.Context) (_ []FileKey, err error) {
	defer s.classify(&err)
	rows, err := s.tx.QueryContext(ctx, `SELECT id, path, lang, hash, first_symbol, nsymbols
		FROM files WHERE skip = '' ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("read files: %w", err)
	}
	defer rows.Close()
	var out []FileKey
	for rows.Next() {
		var k FileKey
		var hash []byte
		if err := rows.Scan(&k.ID, &k.Path, &k.Language, &hash, &k.First, &k.Symbols); err != nil {
			return nil, fmt.Errorf("read files: %w", err)
		}
		k.Hash = string(hash)
		out = append(out, k)
	}
	return out, rows.Err()
}

// NumSymbols returns the number of definitions in the index.
func (s *Snapshot) NumSymbols(ctx context.Context) (_ int, err error) {
	defer s.classify(&err)
	var n int
	if err := s.tx.QueryRowContext(ctx, "SELECT count(*) FROM symbols").Scan(&n); err != nil {
		return 0, fmt.Errorf("count symbols: %w", err)
	}
	return n, nil
}

// ForEachBriefOf is ForEachBrief for the definitions of the given files
// only, in id order.
func (s *Snapshot) ForEachBriefOf(ctx context.Context, files []int64, fn func(*Brief) error) (err error) {
	defer s.classify(&err)
	if len(files) == 0 {
		return nil
	}
	return forEachBriefWhere(ctx, s.tx, "WHERE file_id IN ("+placeholders(len(files))+")", int64Args(files), fn)
}

// ForEachFileDocsOf is ForEachFileDocs for the given files only, in
// path order.
func (s *Snapshot) ForEachFileDocsOf(ctx context.Context, files []int64, fn func(*FileDocs) error) (err error) {
	defer s.classify(&err)
	if len(files) == 0 {
		return nil
	}
	return forEachFileDocsWhere(ctx, s.tx, "AND id IN ("+placeholders(len(files))+")", int64Args(files), fn)
}

func int64Args(xs []int64) []any {
	args := make([]any, len(xs))
	for i, x := range xs {
		args[i] = x
	}
	return args
}
