// Package sqlitedamage damages SQLite files the way a failing disk or a
// stray write would, for tests of how the index reports and repairs it.
package sqlitedamage

import (
	"database/sql"
	"math/rand/v2"
	"os"
	"testing"

	_ "modernc.org/sqlite" // the "sqlite" driver, for dbstat
)

// PageSize is the page size of the index's database files.
const PageSize = 4096

// BtreePages returns the pages of the named b-trees (tables or indexes) of
// the SQLite file, from SQLite's dbstat table, and fails the test when
// there are none.
func BtreePages(t testing.TB, file string, names ...string) []int64 {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+file+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var pages []int64
	for _, name := range names {
		rows, err := db.Query("SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno", name)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var p int64
			if err := rows.Scan(&p); err != nil {
				t.Fatal(err)
			}
			pages = append(pages, p)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	if len(pages) == 0 {
		t.Fatalf("no pages for %v in %s", names, file)
	}
	return pages
}

// SmashPages overwrites whole pages (numbered from 1) of the file with
// random bytes, the same bytes for the same pages on every run.
func SmashPages(t testing.TB, file string, pages ...int64) {
	t.Helper()
	f, err := os.OpenFile(file, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rng := rand.New(rand.NewPCG(uint64(len(pages)), 15))
	page := make([]byte, PageSize)
	for _, p := range pages {
		for i := range page {
			page[i] = byte(rng.Uint32())
		}
		if _, err := f.WriteAt(page, (p-1)*PageSize); err != nil {
			t.Fatal(err)
		}
	}
}
