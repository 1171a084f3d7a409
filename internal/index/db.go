package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite" // also registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/winnowhq/winnow/internal/lang"
)

// schemaVersion is stored in PRAGMA user_version. Bump it whenever the
// tables or the meaning of a column change: an index with an older
// version is rebuilt from scratch (or migrated, see migrations), one
// with a newer version is refused.
const schemaVersion = 4

// applicationID marks a SQLite file as a winnow index ("WNNW").
const applicationID = 0x574e4e57

// dbName is the index file inside the index directory.
const dbName = "index.db"

var (
	// ErrCorrupt means the index file is damaged; the errors that carry it
	// are *CorruptError.
	ErrCorrupt = errors.New("index is corrupt")
	// ErrForeign means the file is a database, but not a winnow index.
	ErrForeign = errors.New("not a winnow index")
	// ErrNewer means a newer winnow wrote the index.
	ErrNewer = errors.New("index was written by a newer winnow")
)

const schema = `
CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE files (
	id       INTEGER PRIMARY KEY,
	path     TEXT NOT NULL UNIQUE,
	lang     TEXT NOT NULL,
	hash     BLOB NOT NULL,
	size     INTEGER NOT NULL,
	mtime    INTEGER NOT NULL,
	skip     TEXT NOT NULL DEFAULT '',
	has_error INTEGER NOT NULL DEFAULT 0,
	package  TEXT NOT NULL DEFAULT '',
	first_symbol INTEGER NOT NULL DEFAULT 0, -- symbols of a file have consecutive ids
	nsymbols INTEGER NOT NULL DEFAULT 0,
	terms    BLOB NOT NULL DEFAULT x'',      -- lexical documents, see docs.go
	tier     INTEGER NOT NULL DEFAULT 2      -- how the file was read: 1 scanned, 2 parsed (tier.go)
);
CREATE TABLE symbols (
	id         INTEGER PRIMARY KEY,
	file_id    INTEGER NOT NULL,
	name       TEXT NOT NULL,
	qual       TEXT NOT NULL,
	kind       INTEGER NOT NULL,
	parent     TEXT NOT NULL,
	start_line INTEGER NOT NULL,
	end_line   INTEGER NOT NULL,
	start_byte INTEGER NOT NULL,
	end_byte   INTEGER NOT NULL,
	signature  TEXT NOT NULL,
	doc        TEXT NOT NULL,
	visibility INTEGER NOT NULL
);
CREATE TABLE refs (
	file_id INTEGER NOT NULL,
	scope   INTEGER NOT NULL, -- symbols.id of the enclosing definition, 0 for top level
	name    TEXT NOT NULL,
	kind    INTEGER NOT NULL,
	line    INTEGER NOT NULL,
	count   INTEGER NOT NULL
);
CREATE TABLE imports (
	file_id INTEGER NOT NULL,
	module  TEXT NOT NULL,
	name    TEXT NOT NULL,
	alias   TEXT NOT NULL,
	line    INTEGER NOT NULL
);
`

// secondaryIndexes are created with the schema. A first build drops and
// recreates them around its bulk insert, which is several times faster
// than maintaining them row by row. A first build at the quick tier,
// which is there to answer a query in seconds, leaves out those of the
// references (deferred), the larger half of the work: IndexRefs creates
// them, in a transaction of its own while the caller does something else
// (winnow context loads the corpus meanwhile), and every update creates
// whatever is missing before anything else.
var secondaryIndexes = []struct {
	name, def string
	deferred  bool
}{
	{"files_hash", "files(hash)", false},
	// Every update reads every file's row but its documents (loadAllFiles),
	// and so do the corpus files' writer (FileKeys) and the totals: from
	// the table that is 400 pages of sympy, the documents filling them,
	// and the tier stored past the documents in overflow pages; from this
	// index 40 (loadAllFiles 5-8 -> 2-3 ms, FileKeys 3-4 -> 2 ms).
	{"files_keys", "files(path, id, lang, hash, size, mtime, skip, has_error, first_symbol, nsymbols, tier)", false},
	{"symbols_name", "symbols(name COLLATE NOCASE)", false},
	{"symbols_file", "symbols(file_id)", false},
	{"refs_name", "refs(name)", true},
	{"refs_file", "refs(file_id)", true},
	{"refs_scope", "refs(scope)", true},
	{"imports_file", "imports(file_id)", false},
}

// IndexRefs creates the secondary indexes a first build at the quick
// tier deferred (secondaryIndexes), under the writers' lock; it does
// nothing when they exist. Queries answer without them, more slowly.
func (ix *Index) IndexRefs(ctx context.Context) (err error) {
	defer ix.classify(&err)
	unlock, err := ix.lockWriters(ctx)
	if err != nil {
		return fmt.Errorf("index references: %w", err)
	}
	defer unlock()
	return ix.createMissingIndexes(ctx)
}

// createMissingIndexes creates the secondary indexes that are missing;
// the caller holds the writers' lock.
func (ix *Index) createMissingIndexes(ctx context.Context) error {
	var n int
	if err := ix.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").Scan(&n); err != nil {
		return fmt.Errorf("list the index's indexes: %w", err)
	}
	if n >= len(secondaryIndexes) {
		return nil
	}
	if _, err := ix.db.ExecContext(ctx, createIndexes(false)); err != nil {
		return fmt.Errorf("create the index's indexes: %w", err)
	}
	return nil
}

// createIndexes creates the secondary indexes that are missing; with
// deferring, not the deferred ones.
func createIndexes(deferring bool) string {
	var b strings.Builder
	for _, ix := range secondaryIndexes {
		if ix.deferred && deferring {
			continue
		}
		fmt.Fprintf(&b, "CREATE INDEX IF NOT EXISTS %s ON %s;\n", ix.name, ix.def)
	}
	return b.String()
}

func dropIndexes() string {
	var b strings.Builder
	for _, ix := range secondaryIndexes {
		fmt.Fprintf(&b, "DROP INDEX IF EXISTS %s;\n", ix.name)
	}
	return b.String()
}

// busyTimeout is how long a statement waits for another connection's
// lock (SQLite's busy_timeout), and openDB for a busy open.
const busyTimeout = 10 * time.Second

// isBusy reports whether err is SQLite's SQLITE_BUSY, or one of its
// extended codes.
func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// dsn is the connection string of an index file. Each connection's page
// cache is 8 MB: a cold build on sympy (52 MB file) takes no more CPU
// than with 32 MB, and the writer's cache, full of the bulk load, and the
// reader's, full of every file's term documents, were 45 MB of its peak
// resident memory.
func dsn(file string) string {
	return "file:" + file + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(" + strconv.Itoa(int(busyTimeout/time.Millisecond)) + ")" +
		"&_pragma=synchronous(NORMAL)&_pragma=temp_store(MEMORY)&_pragma=cache_size(-8000)&_txlock=immediate"
}

// openDB opens the index database in dir, creating it when absent. An
// index with an older schema is deleted and created again; a corrupt,
// foreign or newer one is an error that says how to recover. With
// rebuild, whatever is there is deleted first.
func openDB(ctx context.Context, dir string, rebuild bool) (*sql.DB, error) {
	file := filepath.Join(dir, dbName)
	if rebuild {
		if err := removeDB(file); err != nil {
			return nil, err
		}
	} else if err := statDB(file); err != nil {
		return nil, err
	}
	// Processes that look for a current index without the writers' lock
	// (openCurrent) open the same new file meanwhile, and this
	// connection's first statements can then meet SQLITE_BUSY without
	// SQLite calling the busy handler (TestConcurrentUpdates failed so
	// in checkDB about once in 150 runs, though the driver sets
	// busy_timeout before the other pragmas): the open is tried again
	// until the busy timeout would have passed.
	for wait, waited := 5*time.Millisecond, time.Duration(0); ; wait = min(2*wait, 100*time.Millisecond) {
		db, err := openDBOnce(ctx, dir, file)
		if !isBusy(err) || waited >= busyTimeout {
			return db, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(wait):
			waited += wait
		}
	}
}

// openDBOnce is one attempt of openDB at a database file that is not to
// be rebuilt.
func openDBOnce(ctx context.Context, dir, file string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", dsn(file))
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", file, err)
	}
	version, tables, err := checkDB(ctx, db)
	if err == nil && tables > 0 && migrations[version] != "" {
		// An index one schema behind that a statement brings up to date:
		// keep it rather than rebuild it.
		if err = migrate(ctx, db, version); err == nil {
			version, tables, err = checkDB(ctx, db)
		}
	}
	if err == nil && version < schemaVersion {
		if tables > 0 {
			// An index from an older winnow (or one whose creation never
			// finished): rebuild rather than misread it.
			db.Close()
			if err := removeDB(file); err != nil {
				return nil, err
			}
			return openDB(ctx, dir, false)
		}
		err = initDB(ctx, db)
	}
	if err != nil {
		db.Close()
		if err = corruption(file, err); errors.Is(err, ErrCorrupt) {
			return nil, err
		}
		return nil, fmt.Errorf("open index %s: %w", file, err)
	}
	return db, nil
}

// statDB reports a path that holds something SQLite can only fail to
// open, a directory say, as a *CorruptError. A missing file is fine: it
// is created.
func statDB(file string) error {
	fi, err := os.Stat(file)
	switch {
	case err != nil, fi.Mode().IsRegular():
		return nil
	case fi.IsDir():
		return &CorruptError{File: file, Err: errors.New("it is a directory, not a database file")}
	}
	return &CorruptError{File: file, Err: fmt.Errorf("it is a %s, not a database file", fi.Mode().Type())}
}

// openCurrent opens an existing index whose schema is the current one.
// Anything else (no index yet, an old, foreign or broken one) reports
// false, for openDB to handle under the writers' lock.
func openCurrent(ctx context.Context, dir string) (*sql.DB, bool) {
	file := filepath.Join(dir, dbName)
	if fi, err := os.Stat(file); err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	db, err := sql.Open("sqlite", dsn(file))
	if err != nil {
		return nil, false
	}
	if version, _, err := checkDB(ctx, db); err != nil || version != schemaVersion {
		db.Close()
		return nil, false
	}
	return db, true
}

// checkDB returns the schema version of an existing index and its number
// of tables; both are 0 for an empty database.
func checkDB(ctx context.Context, db *sql.DB) (version, tables int, err error) {
	var appID int
	err = db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID)
	if err == nil {
		err = db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version)
	}
	if err == nil {
		err = db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&tables)
	}
	switch {
	case err != nil:
		return 0, 0, err
	case appID == 0 && tables == 0:
		return 0, 0, nil
	case appID != applicationID:
		return 0, 0, fmt.Errorf("%w: the file holds another application's database; move it away or run `winnow index --rebuild` to replace it", ErrForeign)
	case version > schemaVersion:
		return 0, 0, fmt.Errorf("%w (schema %d, this winnow reads %d); upgrade winnow or run `winnow index --rebuild`", ErrNewer, version, schemaVersion)
	}
	if version == schemaVersion {
		// The same tables filled by another extractor: as good as an old
		// schema, since unchanged files would keep stale symbols.
		var extractor string
		err := db.QueryRowContext(ctx, "SELECT coalesce((SELECT value FROM meta WHERE key = 'extractor'), '')").Scan(&extractor)
		if err != nil {
			return 0, 0, err
		}
		if extractor != strconv.Itoa(lang.Version) {
			return 0, tables, nil // no migration: rebuilt
		}
	}
	return version, tables, nil
}

func initDB(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Another process may have initialised the database since we looked.
	var tables int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&tables); err != nil {
		return err
	}
	if tables > 0 {
		return nil
	}
	stmts := schema + createIndexes(false) + fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = %d;", applicationID, schemaVersion) +
		fmt.Sprintf("INSERT INTO meta(key, value) VALUES ('extractor', '%d');", lang.Version) +
		"INSERT INTO meta(key, value) VALUES ('instance', lower(hex(randomblob(8))));" // corpusfile.go: Stamp
	if _, err := tx.ExecContext(ctx, stmts); err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	return tx.Commit()
}

// migrations bring an index of an older schema, by its version, to the
// next one, when that adds without changing what is there. Version 2
// had no tiers: every file in it was parsed, so every file is at the full
// tier and so is the index. Version 3 could lack the instance id.
var migrations = map[int]string{
	2: `ALTER TABLE files ADD COLUMN tier INTEGER NOT NULL DEFAULT 2;
		INSERT INTO meta(key, value) SELECT 'tier', '2' WHERE EXISTS (SELECT 1 FROM meta WHERE key = 'generation')
			ON CONFLICT(key) DO NOTHING;`,
	// An index created before the instance id existed has none, and the corpus
	// file of an index without one is never patched (every one-file update
	// rebuilt it whole): it gets one.
	3: `INSERT INTO meta(key, value) VALUES ('instance', lower(hex(randomblob(8)))) ON CONFLICT(key) DO NOTHING;`,
}

// migrate applies the migrations from version on, in one transaction;
// the caller holds the writers' lock.
func migrate(ctx context.Context, db *sql.DB, version int) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for v := version; migrations[v] != ""; v++ {
		if _, err := tx.ExecContext(ctx, migrations[v]+fmt.Sprintf("PRAGMA user_version = %d;", v+1)); err != nil {
			return fmt.Errorf("migrate the index from schema %d: %w", v, err)
		}
	}
	return tx.Commit()
}

// removeDB deletes a database file and its WAL companions. An empty
// directory in their place goes too; one that holds files is refused:
// it is not winnow's to delete.
func removeDB(file string) error {
	for _, f := range []string{file, file + "-wal", file + "-shm"} {
		err := os.Remove(f)
		switch {
		case err == nil, errors.Is(err, os.ErrNotExist):
		case isDir(f):
			return fmt.Errorf("index %s is a directory that holds files: move it away, then run winnow again", f)
		default:
			return fmt.Errorf("remove old index: %w", err)
		}
	}
	return nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
