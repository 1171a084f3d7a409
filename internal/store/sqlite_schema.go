package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"modernc.org/sqlite"
)

// The header of a winnow store file: application_id tells it apart from every other SQLite
// file (the index among them), user_version is the version of the schema below.
const (
	applicationID = 0x776e7773 // "wnws"
	schemaVersion = 1
)

// schema creates the tables of a new store. It is idempotent, so that several processes may
// create the same new file at once. Values live in an ordinary rowid table, with the key in
// a separate index: WITHOUT ROWID was 4–5× slower for 1 KB values.
const schema = `
CREATE TABLE IF NOT EXISTS entries (
	key        TEXT PRIMARY KEY,
	value      BLOB NOT NULL,
	size       INTEGER NOT NULL,
	expires_at INTEGER NOT NULL -- Unix milliseconds; the entry is live while now <= expires_at
);
CREATE INDEX IF NOT EXISTS entries_expires_at ON entries (expires_at);
CREATE TABLE IF NOT EXISTS counters (
	name  TEXT PRIMARY KEY,
	value INTEGER NOT NULL
);
`

// SQLite primary result codes that mean the file is not a usable database.
const (
	sqliteCorrupt = 11 // SQLITE_CORRUPT
	sqliteNotADB  = 26 // SQLITE_NOTADB
)

// sqliteDSN is the data source name of the file at path: WAL so that readers never wait for
// the writer and several processes share the file, a busy timeout so that writers queue
// instead of failing, and incremental auto-vacuum so that Expire can shrink the file.
func sqliteDSN(path string) string {
	u := url.URL{Scheme: "file", Path: path}
	return u.String() + "?_busy_timeout=10000&_auto_vacuum=2" +
		"&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)"
}

// openSQLiteDB opens the store file at path, creating it and its directory if needed, and
// checks that it is a store this winnow can read.
func openSQLiteDB(ctx context.Context, path string) (*sql.DB, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("sqlite store %s: the path must be absolute", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("sqlite store %s: %w", path, err)
	}
	db, err := sql.Open("sqlite", sqliteDSN(path))
	if err != nil {
		return nil, fmt.Errorf("sqlite store %s: %w", path, err)
	}
	if err := initSQLite(ctx, db); err != nil {
		db.Close()
		if isCorrupt(err) {
			return nil, fmt.Errorf("sqlite store %s: %w (%v); it holds only a cache: move it away or delete it and winnow starts a new one", path, ErrCorrupt, err)
		}
		return nil, fmt.Errorf("sqlite store %s: %w", path, err)
	}
	return db, nil
}

// initSQLite creates the schema in a new file and refuses a file that is some other
// SQLite database or a store of a newer schema.
func initSQLite(ctx context.Context, db *sql.DB) error {
	var appID, version int64
	if err := db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&appID); err != nil {
		return err
	}
	switch appID {
	case applicationID:
	case 0:
		var foreign string
		err := db.QueryRowContext(ctx, `
			SELECT name FROM sqlite_schema
			WHERE type = 'table' AND name NOT IN ('entries', 'counters') AND name NOT LIKE 'sqlite_%'
			LIMIT 1`).Scan(&foreign)
		if err == nil {
			return fmt.Errorf("not a winnow store: the file holds other tables (%s); point the store at a file of its own", foreign)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
	default:
		return fmt.Errorf("not a winnow store: application_id is %#x; point the store at a file of its own", appID)
	}
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return err
	}
	if version > schemaVersion {
		return fmt.Errorf("store schema version %d is newer than this winnow's (%d): upgrade winnow or use another file", version, schemaVersion)
	}
	header := fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = %d;", applicationID, schemaVersion)
	if _, err := db.ExecContext(ctx, schema+header); err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	return nil
}

// isCorrupt reports whether err says the file is damaged or not a database.
func isCorrupt(err error) bool {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return false
	}
	code := e.Code() & 0xff
	return code == sqliteCorrupt || code == sqliteNotADB
}
