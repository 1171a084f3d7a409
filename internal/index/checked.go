package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Which index files need Check. Check reads every page of the database
// (up to checkBudget, half a second): on a one-file update of sympy it
// was 200 of the command's 430 ms of CPU, for damage that, on almost
// every run, cannot have happened since the last run. An index file is
// damaged by what is not winnow: a disk, a copy or a sync of the file
// while it was written, a program writing into it. So winnow remembers
// the database file as the last winnow process to trust it left it (its
// size and modification time, and its write-ahead log's), in a file
// beside it (checkedName); an index whose files still look the same was
// not touched by anything else, and is not checked again. It is checked
// when the record is missing or differs: a file changed behind winnow's
// back, a process killed while it wrote (it left no record of what it
// wrote), an index from before the record existed.
//
// The modification time alone would miss a write that lands in the same
// tick of the file system's clock as winnow's last one (a few
// milliseconds): so when it records the state, winnow sets the files'
// modification times a second back, a time no later write can stamp
// (git's "racy clean" problem, solved the other way round).
//
// A process trusts the file when it opened it looking as recorded, when
// its Check went through every table, or when it built the file itself;
// only then does it record the state it leaves: after each of its
// updates, and at Close. Damage found any
// other way (a query meeting a malformed page, classify) deletes the
// record, so that the next `winnow index` checks the file, and rebuilds
// it.

// checkedName is the file, in the index directory, that records the
// database as the last process that trusted it left it.
const checkedName = "checked"

// fileState describes the database and its write-ahead log as the file
// system sees them; two equal states mean nothing wrote in between.
func (ix *Index) fileState() string {
	state := func(path string) string {
		fi, err := os.Stat(path)
		if err != nil {
			return "-"
		}
		return fmt.Sprintf("%d@%d", fi.Size(), fi.ModTime().UnixNano())
	}
	return fmt.Sprintf("winnow index state 1: %s %s\n", state(ix.file()), state(ix.file()+"-wal"))
}

// trustOnOpen trusts the index when its files are as the record says,
// before the database is opened (opening it makes a write-ahead log).
func (ix *Index) trustOnOpen() {
	rec, err := os.ReadFile(filepath.Join(ix.dir, checkedName))
	ix.trusted.Store(err == nil && string(rec) == ix.fileState())
}

// Checked reports whether the index needs no Check: its files are as
// winnow last left them, or this process checked or built it.
func (ix *Index) Checked() bool { return ix.trusted.Load() }

// recordState writes the record of a trusted index as its files are
// now, their modification times set back a second first. A record that
// cannot be written only costs the next run a Check.
func (ix *Index) recordState() {
	if !ix.trusted.Swap(false) { // once: a second Close records nothing
		return
	}
	ix.writeRecord()
}

// recordCommit records the state of a trusted index after one of its own
// updates, under the writers' lock, so that no other writer can have
// written since. A process that keeps the index open (a watcher, winnow
// mcp, winnow bench index) recorded only when it closed it: every
// winnow index run meanwhile found the files changed since the record
// and checked them (quick_check, up to half a second; 260-340 ms of
// each one-file winnow index that winnow bench index timed on sympy).
func (ix *Index) recordCommit() {
	if ix.trusted.Load() {
		ix.writeRecord()
	}
}

func (ix *Index) writeRecord() {
	back := time.Now().Add(-time.Second).Truncate(time.Second)
	for _, f := range []string{ix.file(), ix.file() + "-wal"} {
		if err := os.Chtimes(f, time.Time{}, back); err != nil && !errors.Is(err, os.ErrNotExist) {
			ix.log.Debug("record the index state", "err", err)
			return
		}
	}
	if err := writeAtomic(filepath.Join(ix.dir, checkedName), []byte(ix.fileState())); err != nil {
		ix.log.Debug("record the index state", "err", err)
	}
}

// distrust forgets that the index was ever checked: it is damaged.
func (ix *Index) distrust() {
	ix.trusted.Store(false)
	if err := os.Remove(filepath.Join(ix.dir, checkedName)); err != nil && !errors.Is(err, os.ErrNotExist) {
		ix.log.Debug("remove the check record", "err", err)
	}
}
