package index

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// A CorruptError reports an index file that is damaged: SQLite found a
// malformed page or no database at all, or the path holds something
// other than a file. It matches ErrCorrupt with errors.Is. Only a
// rebuild repairs the index; the tree it was built from is untouched.
type CorruptError struct {
	File string // the index file
	Err  error  // what failed, as SQLite or the file system said it
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("index %s is corrupt: %v; run `winnow index --rebuild` to build it again (or delete the file)", e.File, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// Is makes every CorruptError match ErrCorrupt.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// corruption returns err as a *CorruptError of file when it is SQLite's
// SQLITE_CORRUPT or SQLITE_NOTADB (or one of their extended codes), and
// err itself otherwise.
func corruption(file string, err error) error {
	var se *sqlite.Error
	if err == nil || errors.As(err, new(*CorruptError)) || !errors.As(err, &se) {
		return err
	}
	switch se.Code() & 0xff { // the primary code under an extended one
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return &CorruptError{File: file, Err: err}
	}
	return err
}

// classify turns *err into a *CorruptError when it means the index file
// is damaged. Every exported method that reads or writes the database
// defers it, so that no query path reports the damage without the way
// to repair it.
func (ix *Index) classify(err *error) {
	*err = corruption(ix.file(), *err)
	if errors.Is(*err, ErrCorrupt) {
		ix.distrust()
	}
}

// checkBudget bounds Check. PRAGMA quick_check reads every page of the
// file: about 0.4 s for the 110 MB index of Go's standard library (6,500
// files, 134,000 definitions, a million references), where an update that
// finds nothing changed takes 0.2 s; a few milliseconds for an index of a
// few hundred files. Within the budget an index of about 100 MB is
// checked whole, a larger one in part.
const checkBudget = 500 * time.Millisecond

// checkOrder is the order in which Check goes through the tables, each
// with its indexes: the small ones every query reads first and refs, the
// largest by far, last, so that a check cut short has covered whole
// tables. (Checking table by table leaves out only the accounting of
// free pages, whose damage harms nothing.)
var checkOrder = []string{"meta", "files", "symbols", "imports", "refs"}

// Check looks the index over for damage with SQLite's quick_check: the
// structure of every b-tree and every page in it, without
// integrity_check's slower cross-checks of indexes against tables. It
// returns a *CorruptError when the file is damaged. It stops after a time
// budget (checkBudget) and then returns nil: the tables left unchecked
// are guarded, like all of them, by the queries, which report a damaged
// page when they meet one. An index checked whole is trusted (Checked)
// until something other than winnow changes its files.
func (ix *Index) Check(ctx context.Context) error { return ix.check(ctx, checkBudget) }

func (ix *Index) check(ctx context.Context, budget time.Duration) (err error) {
	defer ix.classify(&err)
	cctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	for i, table := range checkOrder {
		var verdict string
		err := ix.db.QueryRowContext(cctx, "PRAGMA quick_check("+table+")").Scan(&verdict)
		switch {
		case err == nil && verdict != "ok":
			// "*** in database main ***\nTree 6 page 15: btreeInitPage() returns error code 11"
			verdict = strings.ReplaceAll(strings.TrimPrefix(verdict, "*** in database main ***\n"), "\n", "; ")
			return &CorruptError{File: ix.file(), Err: fmt.Errorf("quick_check of %s: %s", table, verdict)}
		case err == nil:
			continue
		case errors.Is(corruption(ix.file(), err), ErrCorrupt):
			return err
		case ctx.Err() != nil:
			return ctx.Err()
		case cctx.Err() != nil:
			ix.log.Debug("index check out of time", "budget", budget, "checked", checkOrder[:i])
			return nil
		}
		return fmt.Errorf("check index: %w", err)
	}
	ix.trusted.Store(true)
	return nil
}
