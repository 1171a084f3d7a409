package index

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/winnowhq/winnow/internal/lang"
	"github.com/winnowhq/winnow/internal/symbol"
	"github.com/winnowhq/winnow/internal/terms"
)

// Progress reports how far an update is: files processed out of the
// files that needed reading.
type Progress func(done, total int)

// fileRow is a file as the index last saw it.
type fileRow struct {
	id    int64
	path  string
	hash  []byte
	size  int64
	mtime int64
	skip  Reason
	tier  Tier
	first int64 // the id of its first definition
	nsym  int   // its number of definitions
	// keyOnly: only path, size, mtime, skip and tier were read
	// (loadAllFiles); completeRows reads the rest.
	keyOnly bool
}

// An upgrade re-parses upgradeChunk files per transaction, fewer when
// they hold more than upgradeChunkBytes of source (nextChunk): a few
// tenths of a second of parsing on two cores, so that a watcher's
// update, a tool call's or another process's waits at most that long
// for the writers' lock. By count alone the chunk of sympy's that holds
// its generated integration rules and their tests held some 11 MB and
// took 6.5 s.
const (
	upgradeChunk      = 256
	upgradeChunkBytes = 1 << 20
)

// nextChunk returns how many of the files left to upgrade the next
// transaction takes (fitsChunk).
func nextChunk(rest []candidate) int {
	n, size := 0, int64(0)
	for n < len(rest) && fitsChunk(n, size, rest[n].size) {
		size += rest[n].size
		n++
	}
	return n
}

// fitsChunk reports whether a file of size joins a chunk of n files
// holding bytes of source: a chunk is upgradeChunk files, fewer when
// they would hold more than upgradeChunkBytes, and at least one.
func fitsChunk(n int, bytes, size int64) bool {
	return n == 0 || n < upgradeChunk && bytes+size <= upgradeChunkBytes
}

// Update brings the index in step with the whole tree: new and changed
// files are parsed, vanished ones removed, renamed ones recognised by
// content. Files whose size and modification time are unchanged are not
// read at all. All changes land in one transaction, so an interrupted
// update leaves the previous index intact. Concurrent updates, from this
// or other processes, run one after the other.
//
// An index opened with Options.Rebuild is instead built anew, whole, in
// a file beside it that replaces it when complete.
//
// New and changed files are parsed, and files at the quick tier are
// parsed again even when their content is unchanged, as by Upgrade;
// but with Options.QuickFirst, an index that is not at the full tier
// (one never built, or built by the fast scanner) reads new and changed
// files with the fast scanner and leaves the rest as they are, which
// answers a first query in seconds: Upgrade completes it.
func (ix *Index) Update(ctx context.Context, progress Progress) (_ *Stats, err error) {
	defer ix.classify(&err)
	return ix.update(ctx, nil, TierNone, progress)
}

// Upgrade brings the index to the full tier: what Update does without
// Options.QuickFirst. Files at the quick tier are parsed again a chunk at
// a time, each chunk its own transaction, so that readers see the index
// grow more precise chunk by chunk and writers (a watcher, another
// process) wait for one chunk at most; killed at any point, it leaves an
// index that answers, which the next Upgrade completes. Changes to the
// tree since the last update land in the first transaction, whole.
func (ix *Index) Upgrade(ctx context.Context, progress Progress) (_ *Stats, err error) {
	defer ix.classify(&err)
	return ix.update(ctx, nil, TierFull, progress)
}

// UpgradeWhole is Upgrade for a process that waits for it anyway (winnow
// index in the foreground): an index with no file at the full tier yet (a
// first build at the quick tier) is built whole at the full tier beside
// it and replaces it at once, as by a rebuild (Options.Rebuild) — the
// cheapest way, a bulk load, while readers answer from the quick tier —
// at the cost of holding the writers' lock throughout. Otherwise it is
// Upgrade.
func (ix *Index) UpgradeWhole(ctx context.Context, progress Progress) (_ *Stats, err error) {
	defer ix.classify(&err)
	none, err := ix.noneFull(ctx)
	if err != nil {
		return nil, err
	}
	if none {
		prev := ix.rebuild.Swap(true)
		defer func() {
			if err != nil {
				ix.rebuild.Store(prev) // the next update is an update again
			}
		}()
	}
	return ix.update(ctx, nil, TierFull, progress)
}

// noneFull reports whether no indexed file is at the full tier.
func (ix *Index) noneFull(ctx context.Context) (bool, error) {
	var some bool
	err := ix.db.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM files WHERE skip = '' AND tier >= ?)", int(TierFull)).Scan(&some)
	if err != nil {
		return false, fmt.Errorf("read file tiers: %w", err)
	}
	return !some, nil
}

// UpdatePaths is Update restricted to the given paths (relative to the
// root, or absolute inside it): each is re-indexed, skipped or removed
// as it now stands. A watcher calls it with the files that changed. An
// index opened with Options.Rebuild is built anew, whole, as by Update.
func (ix *Index) UpdatePaths(ctx context.Context, paths []string) (_ *Stats, err error) {
	defer ix.classify(&err)
	rels := make([]string, 0, len(paths))
	for _, p := range paths {
		rel, err := ix.rel(p)
		if err != nil {
			return nil, err
		}
		rels = append(rels, rel)
	}
	return ix.update(ctx, rels, TierFull, nil)
}

// rel turns a path into the slash-separated form stored in the index,
// refusing paths outside the root.
func (ix *Index) rel(p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(ix.root, p)
	}
	rel, err := filepath.Rel(ix.root, filepath.Clean(p))
	if err != nil || rel == ".." || len(rel) > 2 && rel[:3] == ".."+string(filepath.Separator) {
		return "", fmt.Errorf("%s is outside the indexed tree %s", p, ix.root)
	}
	return filepath.ToSlash(rel), nil
}

// update brings the files in only (all, when nil) to tier: TierNone
// means as the options say (Update).
func (ix *Index) update(ctx context.Context, only []string, tier Tier, progress Progress) (*Stats, error) {
	start := time.Now()
	unlock, err := ix.lockWriters(ctx)
	if err != nil {
		return nil, fmt.Errorf("update index: %w", err)
	}
	locked := true
	defer func() {
		if locked {
			unlock()
		}
	}()
	// A rebuild that crashed left its file behind; none runs now that we
	// hold the lock.
	if err := removeDB(ix.file() + newSuffix); err != nil {
		return nil, err
	}
	var st *Stats
	var rest []candidate
	rebuild := ix.rebuild.Load()
	// What a quick first build deferred, if no one has made it since (and
	// the index is not about to be replaced).
	if !rebuild {
		if err := ix.createMissingIndexes(ctx); err != nil {
			return nil, err
		}
	}
	if rebuild {
		ix.commits.reset() // the index is replaced, by no update of this Index
		if st, err = ix.rebuildLocked(ctx, progress); err != nil {
			return nil, err
		}
		ix.updateHistory(ctx, TierFull) // under the lock
		tier = TierFull
	} else {
		if tier, err = ix.targetTier(ctx, tier); err != nil {
			return nil, err
		}
		// The history has nothing to do with the files: its git runs while
		// they are listed and read (3 ms of a one-file update of sympy),
		// under the lock all the same.
		var history sync.WaitGroup
		history.Go(func() { ix.updateHistory(ctx, tier) })
		st, rest, err = ix.updateLocked(ctx, only, tier, true, progress)
		history.Wait()
		if err != nil {
			return nil, err
		}
	}
	ix.recordCommit()
	unlock()
	locked = false
	// The files left to upgrade, a transaction each chunk, the lock
	// released in between for whoever waits for it (lockWriters).
	done := st.jobs
	total := done + len(rest)
	for len(rest) > 0 {
		select {
		case <-time.After(chunkYield):
		case <-ctx.Done():
			return nil, fmt.Errorf("update index: %w", ctx.Err())
		}
		n := nextChunk(rest)
		chunk := make([]string, n)
		for i, c := range rest[:n] {
			chunk[i] = c.path
		}
		rest = rest[n:]
		var p Progress
		if progress != nil {
			base := done
			p = func(d, _ int) { progress(base+d, total) }
		}
		cst, err := ix.updateChunk(ctx, chunk, p)
		if err != nil {
			return nil, err
		}
		st.add(cst)
		done += len(chunk)
	}
	if err := ix.fillTotals(ctx, st); err != nil {
		return nil, err
	}
	st.Duration = time.Since(start)
	return st, nil
}

// targetTier is the tier an update brings new and changed files to:
// want, or, for TierNone, the full tier unless Options.QuickFirst and the
// index is not complete yet.
func (ix *Index) targetTier(ctx context.Context, want Tier) (Tier, error) {
	if want != TierNone {
		return want, nil
	}
	if !ix.opts.QuickFirst {
		return TierFull, nil
	}
	cur, err := readTier(ctx, ix.db)
	if err != nil || cur == TierFull {
		return TierFull, err
	}
	return TierQuick, nil
}

// updateChunk parses one chunk of an upgrade under the writers' lock.
func (ix *Index) updateChunk(ctx context.Context, paths []string, progress Progress) (*Stats, error) {
	unlock, err := ix.lockWriters(ctx)
	if err != nil {
		return nil, fmt.Errorf("update index: %w", err)
	}
	defer unlock()
	st, _, err := ix.updateLocked(ctx, paths, TierFull, false, progress)
	if err == nil {
		ix.recordCommit()
	}
	return st, err
}

// updateLocked is update once the writers' lock is held: one
// transaction that brings the files of only (all, when nil) to tier.
// Files whose content is unchanged but whose tier is lower take part, a
// chunk of them when chunked (nextChunk), all of them otherwise; the
// others are returned, for later transactions.
func (ix *Index) updateLocked(ctx context.Context, only []string, tier Tier, chunked bool, progress Progress) (*Stats, []candidate, error) {
	start := time.Now()
	var err error
	l := newLister(ix.root, &ix.opts)
	var cands []candidate
	var prev map[string]*fileRow
	was, err := readTier(ctx, ix.db)
	if err != nil {
		return nil, nil, err
	}
	if only == nil {
		// The stored rows are read while git lists the tree.
		var rowsErr error
		var rows sync.WaitGroup
		rows.Go(func() { prev, rowsErr = ix.loadAllFiles(ctx, was) })
		cands, err = l.list(ctx)
		rows.Wait()
		if err != nil {
			return nil, nil, fmt.Errorf("list files: %w", err)
		}
		err = rowsErr
	} else {
		for _, p := range only {
			if c, ok := l.consider(p); ok {
				cands = append(cands, c)
			}
		}
		prev, err = ix.loadFiles(ctx, only)
	}
	if err != nil {
		return nil, nil, err
	}
	listed := time.Now()
	u := &updater{ix: ix, tier: tier, was: was, chunked: chunked, stats: &Stats{Skipped: l.skipped}}
	if err := u.run(ctx, cands, prev, progress); err != nil {
		return nil, nil, err
	}
	ix.log.Debug("update", "tier", tier, "list", listed.Sub(start), "parse_write", time.Since(listed),
		"parsed", u.stats.Parsed, "scanned", u.stats.Scanned, "unchanged", u.stats.Unchanged, "upgrades_left", len(u.rest))
	return u.stats, u.rest, nil
}

// loadAllFiles reads the stored rows of all files, for an index at tier
// was. A row's tier is stored after its lexical documents, and SQLite
// walks a row's overflow pages to reach it: on sympy, 1,542 rows read in
// 4 ms without their tiers and 10-13 ms with them, on every update and
// every winnow context. An index at the full tier has every indexed file
// at the full tier (its tier is their lowest), so only the rows of
// skipped files are read for theirs.
//
// Of an index at the full tier, it reads what tells whether a file
// changed (path, size, mtime, skip, tier) and leaves the rest of the row
// (keyOnly) to completeRows, for the few files that did: a column more
// of every row costs database/sql some 0.15 ms on sympy (1,970 rows: 2.5
// ms for the nine columns, 1.2 for these five).
func (ix *Index) loadAllFiles(ctx context.Context, was Tier) (map[string]*fileRow, error) {
	if was != TierFull {
		return ix.loadFiles(ctx, nil)
	}
	rows := make(map[string]*fileRow)
	rs, err := ix.db.QueryContext(ctx, `SELECT path, size, mtime, skip,
		CASE WHEN skip = '' THEN ? ELSE tier END FROM files`, int(TierFull))
	if err != nil {
		return nil, fmt.Errorf("read files: %w", err)
	}
	defer rs.Close()
	for rs.Next() {
		r := &fileRow{keyOnly: true}
		if err := rs.Scan(&r.path, &r.size, &r.mtime, &r.skip, &r.tier); err != nil {
			return nil, fmt.Errorf("read files: %w", err)
		}
		rows[r.path] = r
	}
	return rows, rs.Err()
}

// completeOne is the most rows completeRows reads by their paths; more
// are read in one pass over all files.
const completeOne = 32

// completeRows reads the rest of the rows that loadAllFiles read in
// part. The caller holds the writers' lock: the rows are as they were.
func (ix *Index) completeRows(ctx context.Context, rows []*fileRow) error {
	rows = slices.DeleteFunc(rows, func(r *fileRow) bool { return r == nil || !r.keyOnly })
	if len(rows) == 0 {
		return nil
	}
	byPath := make(map[string]*fileRow, len(rows))
	paths := make([]string, 0, len(rows))
	for _, r := range rows {
		byPath[r.path] = r
		paths = append(paths, r.path)
	}
	query, args := "SELECT path, id, hash, first_symbol, nsymbols FROM files", []any(nil)
	if len(rows) <= completeOne {
		query += " WHERE path IN (" + placeholders(len(paths)) + ")"
		args = anySlice(paths)
	}
	rs, err := ix.db.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("read files: %w", err)
	}
	defer rs.Close()
	for rs.Next() {
		var (
			path      string
			id, first int64
			hash      []byte
			nsym      int
		)
		if err := rs.Scan(&path, &id, &hash, &first, &nsym); err != nil {
			return fmt.Errorf("read files: %w", err)
		}
		if r := byPath[path]; r != nil {
			r.id, r.hash, r.first, r.nsym, r.keyOnly = id, hash, first, nsym, false
		}
	}
	if err := rs.Err(); err != nil {
		return fmt.Errorf("read files: %w", err)
	}
	for _, r := range rows {
		if r.keyOnly {
			return fmt.Errorf("read files: %s is gone from the index", r.path)
		}
	}
	return nil
}

// loadFiles reads the stored rows of the given paths, or of all files.
func (ix *Index) loadFiles(ctx context.Context, paths []string) (map[string]*fileRow, error) {
	rows := make(map[string]*fileRow)
	scan := func(query string, args ...any) error {
		rs, err := ix.db.QueryContext(ctx, query, args...)
		if err != nil {
			return fmt.Errorf("read files: %w", err)
		}
		defer rs.Close()
		for rs.Next() {
			r := new(fileRow)
			if err := rs.Scan(&r.id, &r.path, &r.hash, &r.size, &r.mtime, &r.skip, &r.first, &r.nsym, &r.tier); err != nil {
				return fmt.Errorf("read files: %w", err)
			}
			rows[r.path] = r
		}
		return rs.Err()
	}
	const q = "SELECT id, path, hash, size, mtime, skip, first_symbol, nsymbols, tier FROM files"
	if paths == nil {
		return rows, scan(q)
	}
	for _, p := range paths {
		// A path may name a directory that vanished: take what was under it too.
		if err := scan(q+" WHERE path = ? OR path GLOB ?", p, globEscape(p)+"/*"); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// globEscape quotes the GLOB metacharacters of a literal path.
func globEscape(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '*', '?', '[':
			b.WriteByte('[')
			b.WriteRune(r)
			b.WriteByte(']')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// updater carries one update from candidates to a committed transaction.
type updater struct {
	ix      *Index
	tier    Tier // what new and changed files are read to
	was     Tier // the index's tier before the update
	chunked bool // of the files at a lower tier, unchanged, this transaction takes a chunk, not all
	stats   *Stats
	rest    []candidate // the upgrades left for later transactions

	mu      sync.Mutex
	renames map[string]*fileRow // content hash of a vanished file → its row
}

type job struct {
	seq  int // its place among the update's jobs, the order results are written in
	cand candidate
	old  *fileRow // the row at this path, if any
}

// result is what a worker learned about one job.
type result struct {
	job
	hash    []byte
	skip    Reason
	file    *symbol.File
	renamed *fileRow // the vanished row this file's content came from
	touched bool     // same content as stored: only the stat changed
	bytes   int
	terms   []byte // encoded lexical documents of file
	tier    Tier   // how file was read
	failed  bool   // the fast scanner could not read it: file holds no definitions
}

func (u *updater) run(ctx context.Context, cands []candidate, prev map[string]*fileRow, progress Progress) error {
	var jobs []job
	upgrades, upgradeBytes := 0, int64(0) // of this transaction
	for _, c := range cands {
		old := prev[c.path]
		delete(prev, c.path)
		if old != nil && old.size == c.size && old.mtime == c.mtime && !u.readableAgain(old) {
			if old.tier < u.tier {
				// Read before, less well: parse it again, now or in a later
				// transaction.
				if u.chunked && (len(u.rest) > 0 || !fitsChunk(upgrades, upgradeBytes, c.size)) {
					u.rest = append(u.rest, c)
					continue
				}
				upgrades++
				upgradeBytes += c.size
				jobs = append(jobs, job{seq: len(jobs), cand: c, old: old})
				continue
			}
			if old.skip == "" {
				u.stats.Unchanged++ // a file skipped for its content stays counted as skipped
			}
			continue
		}
		jobs = append(jobs, job{seq: len(jobs), cand: c, old: old})
	}
	gone := prev // what is left was not listed: deleted, now ignored or skipped by path
	olds := make([]*fileRow, 0, len(jobs)+len(gone))
	for _, j := range jobs {
		olds = append(olds, j.old)
	}
	for _, r := range gone {
		olds = append(olds, r)
	}
	if err := u.ix.completeRows(ctx, olds); err != nil {
		return err
	}
	u.renames = make(map[string]*fileRow)
	for _, r := range gone {
		if r.skip == "" && r.tier >= u.tier {
			u.renames[string(r.hash)] = r
		}
	}

	u.stats.jobs = len(jobs)
	if len(jobs) == 0 && len(gone) == 0 {
		return nil // nothing changed: no transaction, and the generation stays
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The files are read and parsed while the transaction begins.
	results := u.parseAll(ctx, jobs)
	w, err := u.ix.beginWrite(ctx, u.tier)
	if err != nil {
		cancel()
		for range results { // the workers stop with ctx
		}
		return err
	}
	defer w.rollback()
	done := 0
	total := len(jobs) + len(u.rest)
	var werr error
	for r := range results {
		if werr == nil {
			werr = u.write(ctx, w, r)
		}
		if werr != nil {
			cancel() // drain the workers, then report
			continue
		}
		done++
		if progress != nil {
			progress(done, total)
		}
	}
	// A cancelled update fails its statements too ("statement is
	// closed"): report the cancellation, which is the cause.
	if err := parent.Err(); err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	for _, r := range gone {
		if r.id == 0 {
			continue // claimed by a rename
		}
		if err := w.deleteFile(ctx, r.id); err != nil {
			return err
		}
		u.stats.Removed++
	}
	// The index's tier is the lowest of its files': one at the full tier
	// that gets files at the full tier only stays there, and need not
	// read every file's tier again to know it (a scan of their overflow
	// pages, 9 ms on sympy).
	if u.was != TierFull || u.tier != TierFull {
		if err := w.setTier(ctx, u.tier); err != nil {
			return err
		}
	}
	if err := w.commit(ctx); err != nil {
		return err
	}
	u.ix.commits.note(w.before, w.after, w.files)
	if w.bulk {
		// A first build: every row of the file is this process's, as after
		// a rebuild, and the state it leaves is recorded (checked.go).
		// Unrecorded, the next winnow index checked the whole file (300-500
		// ms on sympy), and so did every one after it while a process that
		// opened it unrecorded kept it open and updated it.
		u.ix.trusted.Store(true)
	}
	return nil
}

// readableAgain reports a file skipped as unreadable that can now be
// opened. Permissions and ownership change without touching the size or
// the modification time, so the stat check alone would keep such a file
// skipped for good; retrying the open costs a system call per unreadable
// file and writes nothing while it keeps failing.
func (u *updater) readableAgain(old *fileRow) bool {
	if old.skip != ReasonUnreadable {
		return false
	}
	f, err := os.Open(filepath.Join(u.ix.root, filepath.FromSlash(old.path)))
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// parseAll reads, classifies and parses the jobs on Options.Workers
// goroutines, and hands the results over in the order of the jobs, so
// that an index built from the same tree is the same index (row ids
// included) however the workers were scheduled. At most readAhead jobs
// per worker are out at a time, which bounds the results held back
// behind a slow file. The channel closes when all are done or ctx is
// cancelled.
func (u *updater) parseAll(ctx context.Context, jobs []job) <-chan result {
	const readAhead = 8
	workers := min(u.ix.opts.Workers, max(len(jobs), 1))
	in := make(chan job)
	parsed := make(chan result, 4*workers)
	out := make(chan result)
	slots := make(chan struct{}, readAhead*workers) // a slot per job out
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			rd := &fileReader{terms: terms.NewCache(termCacheWords)}
			defer rd.close()
			for j := range in {
				r := u.process(ctx, rd, j)
				select {
				case parsed <- r:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	go func() {
		defer close(in)
		for _, j := range jobs {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case in <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(parsed)
	}()
	go func() {
		defer close(out)
		held := make(map[int]result, cap(slots))
		next := 0
		for r := range parsed {
			held[r.seq] = r
			for r, ok := held[next]; ok; r, ok = held[next] {
				delete(held, next)
				out <- r // the caller reads until out closes
				next++
				<-slots
			}
		}
	}()
	return out
}

// process handles one file: unchanged content, a rename, a skip or a
// parse (or scan).
func (u *updater) process(ctx context.Context, rd *fileReader, j job) result {
	r := result{job: j, tier: u.tier}
	src, err := os.ReadFile(filepath.Join(u.ix.root, filepath.FromSlash(j.cand.path)))
	if err != nil {
		r.skip = ReasonUnreadable
		r.hash = []byte{}
		return r
	}
	r.bytes = len(src)
	r.cand.size = int64(len(src))
	sum := sha256.Sum256(src)
	r.hash = sum[:16]
	if j.old != nil && j.old.skip == "" && j.old.tier >= u.tier && bytes.Equal(j.old.hash, r.hash) {
		r.touched = true
		return r
	}
	if int64(len(src)) > u.ix.opts.MaxFileBytes {
		r.skip = ReasonTooLarge
		return r
	}
	if r.renamed = u.claimRename(r.hash); r.renamed != nil {
		return r
	}
	if r.skip = contentReason(src, u.ix.opts.IncludeGenerated); r.skip != "" {
		return r
	}
	if u.tier == TierQuick {
		r.file, r.failed = rd.scan(j.cand.lang, j.cand.path, src)
	} else {
		f, err := rd.parser().Parse(ctx, j.cand.lang, j.cand.path, src)
		switch {
		case errors.Is(err, lang.ErrParse):
			r.skip = ReasonParseFailed
		case err != nil:
			// A broken query or grammar for the language: the file is not
			// lost, it is skipped and counted, and the next run tries again.
			u.ix.log.Warn("parse failed", "path", j.cand.path, "err", err)
			r.skip = ReasonParseFailed
		default:
			r.file = f
		}
	}
	if r.file != nil {
		fileDocs, docs := buildDocs(r.file, src, rd.terms)
		r.terms = encodeDocs(fileDocs, docs)
	}
	return r
}

// A fileReader reads the files of one worker: a parser for the full
// tier, made on first use, and a fast scanner for the quick tier.
type fileReader struct {
	p     *lang.Parser
	sc    lang.Scanner
	terms *terms.Cache
}

// termCacheWords bounds the words a worker's term cache holds: about the
// distinct identifiers of a large repository, a few megabytes.
const termCacheWords = 100_000

func (rd *fileReader) parser() *lang.Parser {
	if rd.p == nil {
		rd.p = lang.NewParser()
	}
	return rd.p
}

func (rd *fileReader) close() {
	if rd.p != nil {
		rd.p.Close()
	}
}

// scan reads a file with the fast scanner. A language without one, or a
// file the scanner cannot read (failed), yields a file without
// definitions, which still has the lexical document of its whole text;
// the full tier parses it.
func (rd *fileReader) scan(l *lang.Language, path string, src []byte) (f *symbol.File, failed bool) {
	f, err := rd.sc.Scan(l, path, src)
	if err != nil {
		return &symbol.File{Path: path, Lang: l.Name}, errors.Is(err, lang.ErrScan)
	}
	return f, false
}

// claimRename hands out each vanished row at most once.
func (u *updater) claimRename(hash []byte) *fileRow {
	u.mu.Lock()
	defer u.mu.Unlock()
	r := u.renames[string(hash)]
	if r != nil {
		delete(u.renames, string(hash))
	}
	return r
}

// write applies one result inside the update's transaction.
func (u *updater) write(ctx context.Context, w *writer, r result) error {
	u.stats.Bytes += int64(r.bytes)
	c := r.cand
	switch {
	case r.touched:
		u.stats.Unchanged++
		return w.touchFile(ctx, r.old.id, c.size, c.mtime)
	case r.renamed != nil:
		u.stats.Renamed++
		if r.old != nil {
			if err := w.deleteFile(ctx, r.old.id); err != nil {
				return err
			}
		}
		id := r.renamed.id
		r.renamed.id = 0 // no longer gone
		return w.moveFile(ctx, id, c.path, c.size, c.mtime)
	case r.skip != "":
		return w.putFile(ctx, r.old, c, r.hash, r.skip, nil, nil, r.tier)
	default:
		if r.tier == TierQuick {
			u.stats.Scanned++
		} else {
			u.stats.Parsed++
		}
		if r.failed {
			u.stats.ScanFailed++
		}
		if r.old != nil && r.old.tier < r.tier && bytes.Equal(r.old.hash, r.hash) {
			u.stats.Upgraded++
		}
		return w.putFile(ctx, r.old, c, r.hash, "", r.file, r.terms, r.tier)
	}
}

// fillTotals sets the index-wide counts of s and adds the files skipped
// for their content, which the index remembers, to those the listing
// skipped by path.
func (ix *Index) fillTotals(ctx context.Context, s *Stats) error {
	err := ix.db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM files WHERE skip = ''),
		(SELECT count(*) FROM files WHERE has_error != 0),
		coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'symbols'), 0),
		coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'refs'), 0),
		coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'tier'), 0)`).Scan(&s.Files, &s.Errors, &s.Symbols, &s.Refs, &s.Tier)
	if err != nil {
		return fmt.Errorf("count index: %w", err)
	}
	rows, err := ix.db.QueryContext(ctx, "SELECT skip, count(*) FROM files WHERE skip != '' GROUP BY skip")
	if err != nil {
		return fmt.Errorf("count skipped files: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var reason Reason
		var n int
		if err := rows.Scan(&reason, &n); err != nil {
			return fmt.Errorf("count skipped files: %w", err)
		}
		s.Skipped[reason] += n
	}
	return rows.Err()
}
