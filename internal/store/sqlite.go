package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// scanPage is how many keys Scan reads per query: it holds no read transaction while fn runs.
const scanPage = 512

// expireBatch is how many entries one DELETE of Expire removes, so that other writers wait
// for a short transaction at a time.
const expireBatch = 1000

// sqliteStore is the embedded backend: one SQLite file in WAL mode, which any number of
// processes open at once.
type sqliteStore struct {
	db      *sql.DB
	stmts   sqliteStmts
	path    string
	ttl     time.Duration
	now     func() time.Time
	lookups *lookups
}

// openSQLite opens, creating it if needed, the store in the SQLite file at path.
func openSQLite(ctx context.Context, path string, o Options) (*sqliteStore, error) {
	db, err := openSQLiteDB(ctx, path)
	if err != nil {
		return nil, err
	}
	s := &sqliteStore{db: db, path: path, ttl: o.DefaultTTL, now: o.Now}
	if err := s.stmts.prepare(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite store %s: %w", path, err)
	}
	s.lookups = newLookups(s.addLookups, o.Logger)
	return s, nil
}

// sqliteStmts are the statements of the frequent calls, prepared once: preparing took a
// third of a Get.
type sqliteStmts struct {
	get, put, exists, delete *sql.Stmt
}

func (st *sqliteStmts) prepare(ctx context.Context, db *sql.DB) error {
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&st.get, `SELECT value FROM entries WHERE key = ? AND expires_at >= ?`},
		{&st.put, `
			INSERT INTO entries (key, value, size, expires_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET
				value = excluded.value, size = excluded.size, expires_at = excluded.expires_at`},
		{&st.exists, `SELECT EXISTS (SELECT 1 FROM entries WHERE key = ? AND expires_at >= ?)`},
		{&st.delete, `DELETE FROM entries WHERE key = ?`},
	} {
		stmt, err := db.PrepareContext(ctx, p.sql)
		if err != nil {
			st.close()
			return fmt.Errorf("prepare: %w", err)
		}
		*p.stmt = stmt
	}
	return nil
}

func (st *sqliteStmts) close() {
	for _, stmt := range []*sql.Stmt{st.get, st.put, st.exists, st.delete} {
		if stmt != nil {
			stmt.Close()
		}
	}
}

// millis is t in milliseconds since the Unix epoch, the unit of expires_at.
func (s *sqliteStore) millis() int64 { return s.now().UnixMilli() }

func (s *sqliteStore) wrap(op string, err error) error {
	return fmt.Errorf("sqlite store %s: %s: %w", s.path, op, err)
}

func (s *sqliteStore) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if err := checkKey(key); err != nil {
		return nil, false, err
	}
	var v []byte
	err := s.stmts.get.QueryRowContext(ctx, key, s.millis()).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		s.lookups.record(false)
		return nil, false, nil
	}
	if err != nil {
		return nil, false, s.wrap("get "+quoteKey(key), err)
	}
	s.lookups.record(true)
	if v == nil {
		v = []byte{}
	}
	return v, true, nil
}

func (s *sqliteStore) Put(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	ttl, err := checkPut(key, value, ttl, s.ttl)
	if err != nil {
		return err
	}
	if value == nil {
		value = []byte{}
	}
	_, err = s.stmts.put.ExecContext(ctx, key, value, len(value), s.millis()+ttl.Milliseconds())
	if err != nil {
		return s.wrap("put "+quoteKey(key), err)
	}
	return nil
}

func (s *sqliteStore) Exists(ctx context.Context, key string) (bool, error) {
	if err := checkKey(key); err != nil {
		return false, err
	}
	var found bool
	err := s.stmts.exists.QueryRowContext(ctx, key, s.millis()).Scan(&found)
	if err != nil {
		return false, s.wrap("exists "+quoteKey(key), err)
	}
	return found, nil
}

func (s *sqliteStore) Delete(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if _, err := s.stmts.delete.ExecContext(ctx, key); err != nil {
		return s.wrap("delete "+quoteKey(key), err)
	}
	return nil
}

func (s *sqliteStore) Scan(ctx context.Context, prefix string, fn func(key string) error) error {
	end, bounded := prefixEnd(prefix)
	after, first := prefix, true
	for {
		keys, err := s.scanPage(ctx, after, first, end, bounded)
		if err != nil {
			return s.wrap(fmt.Sprintf("scan %q", prefix), err)
		}
		for _, k := range keys {
			if err := fn(k); err != nil {
				return err
			}
		}
		if len(keys) < scanPage {
			return nil
		}
		after, first = keys[len(keys)-1], false
	}
}

// scanPage returns, in order, up to scanPage keys of unexpired entries from after (included
// if first, since it is then the prefix itself) up to end (excluded, if bounded).
func (s *sqliteStore) scanPage(ctx context.Context, after string, first bool, end string, bounded bool) ([]string, error) {
	var q strings.Builder
	args := []any{s.millis(), after}
	q.WriteString(`SELECT key FROM entries WHERE expires_at >= ? AND key `)
	if first {
		q.WriteString(">= ?")
	} else {
		q.WriteString("> ?")
	}
	if bounded {
		q.WriteString(" AND key < ?")
		args = append(args, end)
	}
	fmt.Fprintf(&q, " ORDER BY key LIMIT %d", scanPage)
	rows, err := s.db.QueryContext(ctx, q.String(), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, rows.Err()
}

// prefixEnd returns the smallest string greater than every string starting with prefix, and
// false when there is none (prefix is empty or all 0xff bytes).
func prefixEnd(prefix string) (string, bool) {
	b := []byte(prefix)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1]), true
		}
	}
	return "", false
}

func (s *sqliteStore) Expire(ctx context.Context) (int, error) {
	now := s.millis()
	removed := 0
	for {
		res, err := s.db.ExecContext(ctx, `
			DELETE FROM entries WHERE rowid IN (
				SELECT rowid FROM entries WHERE expires_at < ? LIMIT ?)`, now, expireBatch)
		if err != nil {
			return removed, s.wrap("expire", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return removed, s.wrap("expire", err)
		}
		removed += int(n)
		if n < expireBatch {
			break
		}
	}
	if removed > 0 {
		// Give the freed pages back to the file system (the file is auto_vacuum=incremental).
		if _, err := s.db.ExecContext(ctx, `PRAGMA incremental_vacuum`); err != nil {
			return removed, s.wrap("expire: vacuum", err)
		}
	}
	return removed, nil
}

func (s *sqliteStore) Stats(ctx context.Context) (Stats, error) {
	if err := s.lookups.flush(ctx); err != nil {
		return Stats{}, s.wrap("stats: record hits and misses", err)
	}
	var st Stats
	err := s.db.QueryRowContext(ctx, `
		SELECT
			COALESCE(SUM(expires_at >= ?1), 0),
			COALESCE(SUM(CASE WHEN expires_at >= ?1 THEN size ELSE 0 END), 0),
			COALESCE(SUM(expires_at < ?1), 0),
			(SELECT COALESCE(SUM(CASE name WHEN 'hits' THEN value END), 0) FROM counters),
			(SELECT COALESCE(SUM(CASE name WHEN 'misses' THEN value END), 0) FROM counters)
		FROM entries`, s.millis()).Scan(&st.Entries, &st.Bytes, &st.Expired, &st.Hits, &st.Misses)
	if err != nil {
		return Stats{}, s.wrap("stats", err)
	}
	return st, nil
}

// addLookups adds a batch of hits and misses to the totals in the file.
func (s *sqliteStore) addLookups(ctx context.Context, hits, misses int64) error {
	_, err := s.db.ExecContext(ctx, `
		INSERT INTO counters (name, value) VALUES ('hits', ?), ('misses', ?)
		ON CONFLICT (name) DO UPDATE SET value = value + excluded.value`, hits, misses)
	return err
}

func (s *sqliteStore) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	errFlush := s.lookups.close(ctx)
	if errFlush != nil {
		errFlush = s.wrap("close: record hits and misses", errFlush)
	}
	s.stmts.close()
	if err := s.db.Close(); err != nil {
		return errors.Join(errFlush, s.wrap("close", err))
	}
	return errFlush
}

// quoteKey quotes a key for an error message, cut to a readable length.
func quoteKey(key string) string {
	const max = 120
	if len(key) > max {
		return fmt.Sprintf("%q…", key[:max])
	}
	return fmt.Sprintf("%q", key)
}
