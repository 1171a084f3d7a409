package index

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"modernc.org/sqlite"
)

// newSuffix names the file a rebuild fills, beside the index: index.db.new.
const newSuffix = ".new"

// rebuildLocked builds the whole index, at the full tier, from scratch
// into index.db.new
// and, once it is complete, copies it over index.db (publish). Readers
// answer from the previous index throughout. A rebuild that fails, is
// cancelled or is killed leaves the previous index as it was; the next
// update deletes the half-built file. The caller holds the writers' lock.
func (ix *Index) rebuildLocked(ctx context.Context, progress Progress) (*Stats, error) {
	tmp := ix.file() + newSuffix
	db, err := ix.createNext(ctx, tmp)
	if err != nil {
		return nil, err
	}
	next := &Index{root: ix.root, dir: ix.dir, opts: ix.opts, db: db, log: ix.log, writers: ix.writers}
	st, _, err := next.updateLocked(ctx, nil, TierFull, false, progress)
	if err == nil {
		err = publish(ctx, db, ix.file())
	}
	db.Close()
	if rmErr := removeDB(tmp); err == nil {
		err = rmErr
	}
	if err != nil {
		return nil, err
	}
	ix.rebuild.Store(false)
	ix.trusted.Store(true) // built whole by this process
	// Move the copied pages from the WAL into the file now rather than at
	// some later commit; a reader still on the old pages makes this stop
	// short, which is harmless.
	ix.db.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
	return st, nil
}

// createNext creates the empty index a rebuild fills, at file. Its
// generation continues from the current index's, so that everyone who
// keeps data derived from the index by Generation sees it change.
func (ix *Index) createNext(ctx context.Context, file string) (*sql.DB, error) {
	if err := removeDB(file); err != nil {
		return nil, err
	}
	gen := time.Now().Unix() // the current index is unreadable: no small counter it could have
	if g, err := generation(ctx, ix.db); err == nil {
		gen, _ = strconv.ParseInt(g, 10, 64) // "" in an index never updated
	}
	db, err := sql.Open("sqlite", dsn(file))
	if err == nil {
		if err = initDB(ctx, db); err == nil {
			_, err = db.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES ('generation', ?)", strconv.FormatInt(gen+1, 10))
		}
		if err != nil {
			db.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", file, err)
	}
	return db, nil
}

// publish copies the database src over the index file dst with SQLite's
// online backup, as one write transaction of dst: readers of dst, in this
// process or another, see the previous index until it commits and the
// new one after, like after any update, and a crash before the commit
// leaves dst as it was. Renaming src over dst would not do in WAL mode:
// dst-wal and dst-shm belong to the old file, and a reader opening the
// renamed one would take the old file's pages from them.
func publish(ctx context.Context, src *sql.DB, dst string) error {
	conn, err := src.Conn(ctx)
	if err != nil {
		return fmt.Errorf("replace %s with the rebuilt index: %w", dst, err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		b, ok := dc.(interface {
			NewBackup(dstURI string) (*sqlite.Backup, error)
		})
		if !ok {
			return fmt.Errorf("the SQLite driver (%T) cannot copy a database", dc)
		}
		bk, err := b.NewBackup(dsn(dst))
		if err != nil {
			return err
		}
		if _, err := bk.Step(-1); err != nil {
			bk.Finish()
			return err
		}
		return bk.Finish()
	})
	if err != nil {
		return fmt.Errorf("replace %s with the rebuilt index: %w", dst, err)
	}
	return nil
}
