package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/winnowhq/winnow/internal/lang"
)

// Options configure an Index. The zero value of each field means its
// default.
type Options struct {
	// Root is the directory to index. Required.
	Root string
	// Dir is where the index lives; default Root/.winnow.
	Dir string
	// Rebuild makes the next Update build the index from scratch, in a
	// new file that replaces the current one once complete: until then
	// the index answers as it was, here and in other processes. An index
	// that cannot be read at all is deleted by Open and built in place.
	Rebuild bool
	// MaxFileBytes skips larger files; default 1 MiB.
	MaxFileBytes int64
	// Exclude holds gitignore-style patterns of paths not to index.
	Exclude []string
	// Languages restricts indexing to these language names.
	Languages []string
	// Workers is the number of parsing goroutines; default GOMAXPROCS.
	Workers int
	// IncludeVendored indexes vendor/, node_modules/ and the like.
	IncludeVendored bool
	// IncludeGenerated indexes files marked as generated.
	IncludeGenerated bool
	// QuickFirst makes Update read new and changed files with the fast
	// scanner (TierQuick) until the index has been brought to the full
	// tier by Upgrade: a first query on a large tree is answered in
	// seconds. Without it Update parses everything (TierFull).
	QuickFirst bool
	// Logger receives debug events; default discards.
	Logger *slog.Logger
}

const defaultMaxFileBytes = 1 << 20

// errLocked means another process is updating the index.
var errLocked = errors.New("index is being updated by another process")

// An Index is an open symbol index. Its query methods are safe for
// concurrent use; updates are serialised, across processes too.
type Index struct {
	root string
	dir  string
	opts Options
	db   *sql.DB
	log  *slog.Logger

	rebuild   atomic.Bool // the next update builds a new index (Options.Rebuild)
	trusted   atomic.Bool // no Check needed (checked.go)
	nameCache nameCache
	commits   commitLog     // this process's last updates (corpusdelta.go)
	writers   chan struct{} // this process's turn at the writers' lock (writers.go)
}

// Open opens the index of opts.Root, creating an empty one if there is
// none. It does not read the tree; call Update for that.
func Open(ctx context.Context, opts Options) (*Index, error) {
	if opts.Root == "" {
		return nil, errors.New("open index: no root directory")
	}
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	if fi, err := os.Stat(root); err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("open index: %s is not a directory", root)
	}
	if err := opts.normalize(root); err != nil {
		return nil, err
	}
	dir := opts.Dir
	if err := makeIndexDir(root, dir); err != nil {
		return nil, err
	}
	ix := &Index{root: root, dir: dir, opts: opts, log: opts.Logger, writers: make(chan struct{}, 1)}
	ix.trustOnOpen()
	// An index of this schema opens without waiting for a writer:
	// readers see the last committed update. Being rebuilt, it still
	// answers until the new one replaces it.
	if db, ok := openCurrent(ctx, dir); ok {
		ix.db = db
		ix.rebuild.Store(opts.Rebuild)
		return ix, nil
	}
	// Creating, migrating or replacing an unreadable database is a write:
	// take the writers' lock so that a concurrent Update never sees it
	// half made. There is nothing to keep answering from, so a rebuild
	// deletes what is there and builds in place.
	lock, err := lockFile(filepath.Join(dir, "lock"), true)
	if err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	if opts.Rebuild {
		if db, ok := openCurrent(ctx, dir); ok {
			// Another process built a readable index since we looked.
			lock.unlock()
			ix.db = db
			ix.rebuild.Store(true)
			return ix, nil
		}
	}
	ix.db, err = openDB(ctx, dir, opts.Rebuild)
	lock.unlock()
	if err != nil {
		return nil, err
	}
	return ix, nil
}

func (o *Options) normalize(root string) error {
	o.Root = root
	if o.Dir == "" {
		o.Dir = filepath.Join(root, ".winnow")
	}
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return fmt.Errorf("open index: %w", err)
	}
	o.Dir = dir
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = defaultMaxFileBytes
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	for _, name := range o.Languages {
		if lang.ByName(name) == nil {
			return fmt.Errorf("open index: unknown language %q (known: %v)", name, lang.Names())
		}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return nil
}

// makeIndexDir creates the index directory. Under the root it also
// writes a .gitignore so that the index never shows up in git status.
func makeIndexDir(root, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create index directory: %w", err)
	}
	if filepath.Dir(dir) == root {
		ignore := filepath.Join(dir, ".gitignore")
		if _, err := os.Stat(ignore); errors.Is(err, os.ErrNotExist) {
			os.WriteFile(ignore, []byte("# winnow's index; safe to delete.\n*\n"), 0o644)
		}
	}
	return nil
}

// Root returns the absolute directory the index covers.
func (ix *Index) Root() string { return ix.root }

// Dir returns the directory holding the index files.
func (ix *Index) Dir() string { return ix.dir }

// file is the index database.
func (ix *Index) file() string { return filepath.Join(ix.dir, dbName) }

// Close closes the database and, if the index was trusted, records the
// state it leaves its files in (see Checked).
func (ix *Index) Close() error {
	err := ix.db.Close()
	if err == nil {
		ix.recordState()
	}
	return err
}

// Stats describe an index and what the last Update did to it.
type Stats struct {
	Files      int            `json:"files"`       // files in the index
	Symbols    int            `json:"symbols"`     // definitions in the index
	Refs       int            `json:"refs"`        // aggregated references in the index
	Tier       Tier           `json:"tier"`        // the index's tier after the update
	Parsed     int            `json:"parsed"`      // files parsed by this update
	Scanned    int            `json:"scanned"`     // files read by the fast scanner (the quick tier)
	ScanFailed int            `json:"scan_failed"` // of those, files it could not read, left to the parser
	Upgraded   int            `json:"upgraded"`    // files parsed again to leave the quick tier, content unchanged
	Unchanged  int            `json:"unchanged"`   // files whose content had not changed
	Renamed    int            `json:"renamed"`     // files recognised by content under a new path
	Removed    int            `json:"removed"`     // files gone from the tree
	Bytes      int64          `json:"bytes"`       // bytes read by this update
	Skipped    map[Reason]int `json:"skipped"`     // files not indexed, by reason
	Errors     int            `json:"files_with_syntax_errors"`
	Duration   time.Duration  `json:"duration_ns"`

	jobs int // files this update read, for progress across transactions
}

// add counts what another transaction of the same update did.
func (s *Stats) add(o *Stats) {
	s.Parsed += o.Parsed
	s.Scanned += o.Scanned
	s.ScanFailed += o.ScanFailed
	s.Upgraded += o.Upgraded
	s.Renamed += o.Renamed
	s.Removed += o.Removed
	s.Bytes += o.Bytes
	for r, n := range o.Skipped {
		s.Skipped[r] += n
	}
}

// SkippedTotal is the number of skipped files.
func (s *Stats) SkippedTotal() int {
	n := 0
	for _, c := range s.Skipped {
		n += c
	}
	return n
}
