package store

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestSQLiteCorruptFile(t *testing.T) {
	path := tempDB(t)
	garbage := []byte(strings.Repeat("this is not a SQLite database\n", 300))
	if err := os.WriteFile(path, garbage, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(t.Context(), sqliteURL(path), nil)
	if err == nil {
		s.Close()
		t.Fatal("opened a file of garbage")
	}
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "delete it") {
		t.Errorf("error %q: want ErrCorrupt, naming the file and what to do", err)
	}
}

// TestSQLiteDamagedPages overwrites the pages after the header of a store with data in it:
// the store opens (the header is intact) and a read fails with an error, which Degrade turns
// into a miss; a value is never made up.
func TestSQLiteDamagedPages(t *testing.T) {
	path := tempDB(t)
	s, err := Open(t.Context(), sqliteURL(path), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		mustPut(t, s, fmt.Sprintf("k%03d", i), []byte(strings.Repeat("v", 500)), 0)
	}
	s.Close()
	os.Remove(path + "-wal") // checkpointed on close
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	junk := []byte(strings.Repeat("\xde\xad\xbe\xef", int(fi.Size()-4096)/4))
	if _, err := f.WriteAt(junk, 4096); err != nil {
		t.Fatal(err)
	}
	f.Close()

	s, err = Open(t.Context(), sqliteURL(path), nil)
	if err != nil {
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("open of a damaged file: %v, want ErrCorrupt", err)
		}
		return // found at open: as good
	}
	defer s.Close()
	v, ok, err := s.Get(t.Context(), "k007")
	if err == nil {
		t.Errorf("get from damaged pages: %q, %v, no error", v, ok)
	}
	d := Degrade(s, nil)
	if v, ok, err := d.Get(t.Context(), "k007"); ok || err != nil || v != nil {
		t.Errorf("degraded get from damaged pages: %q, %v, %v; want a miss", v, ok, err)
	}
}

func TestSQLiteForeignFiles(t *testing.T) {
	ctx := t.Context()
	foreign := tempDB(t)
	db, err := sql.Open("sqlite", foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE files (path TEXT)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if s, err := Open(ctx, sqliteURL(foreign), nil); err == nil || !strings.Contains(err.Error(), "not a winnow store") {
		if s != nil {
			s.Close()
		}
		t.Errorf("open of another application's database: %v, want not a winnow store", err)
	}

	newer := tempDB(t)
	s, err := Open(ctx, sqliteURL(newer), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err = sql.Open("sqlite", newer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if s, err := Open(ctx, sqliteURL(newer), nil); err == nil || !strings.Contains(err.Error(), "newer") {
		if s != nil {
			s.Close()
		}
		t.Errorf("open of a newer store: %v, want an error saying it is newer", err)
	}
}

// TestSQLiteReopen checks that entries and totals persist in the file.
func TestSQLiteReopen(t *testing.T) {
	ctx := t.Context()
	url := sqliteURL(tempDB(t))
	s, err := Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustPut(t, s, "k", []byte("v"), 0)
	wantGet(t, s, "k", []byte("v"))
	wantGet(t, s, "absent", nil)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	wantGet(t, s, "k", []byte("v"))
	if st := stats(t, s); st != (Stats{Hits: 2, Misses: 1, Entries: 1, Bytes: 1}) {
		t.Errorf("stats after reopening: %+v", st)
	}
}

// TestSQLiteTwoProcesses runs this test binary again as a second process: both write to one
// file at the same moment, from several goroutines in this one, and each reads its own and
// the other's values back.
func TestSQLiteTwoProcesses(t *testing.T) {
	path := tempDB(t)
	ctx := t.Context()
	s, err := Open(ctx, sqliteURL(path), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), childEnv+"="+path)
	stdin, _ := child.StdinPipe()
	stdout, _ := child.StdoutPipe()
	child.Stderr = os.Stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(stdout)
	if line, _ := out.ReadString('\n'); line != "ready\n" {
		child.Process.Kill()
		child.Wait()
		t.Fatalf("child: %q", line)
	}
	io.WriteString(stdin, "go\n") // both processes start writing now

	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for _, id := range []string{"p0", "p2"} {
		wg.Go(func() { errs <- writeAndCheck(ctx, s, id) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	rest, _ := io.ReadAll(out)
	if err := child.Wait(); err != nil {
		t.Fatalf("child: %v: %s", err, rest)
	}

	for _, id := range []string{"p0", "p1", "p2"} {
		for i := range procKeys {
			wantGet(t, s, procKey(id, i), procValue(id, i))
		}
	}
	v, ok, err := s.Get(ctx, "proc/shared")
	if err != nil || !ok || !strings.HasPrefix(string(v), "value ") {
		t.Errorf("shared key: %q %v %v", v, ok, err)
	}
	// Each process's lookups reach the totals: 3 writers' reads and misses, then ours above.
	st := stats(t, s)
	wantHits := int64(3*procKeys + 3*procKeys + 1)
	if st.Hits != wantHits || st.Misses != 3*procMisses || st.Entries != 3*procKeys+1 {
		t.Errorf("stats %+v: want %d hits, %d misses, %d entries", st, wantHits, 3*procMisses, 3*procKeys+1)
	}
}

func TestOpenDefaultLocation(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "made", "for", "it")
	s, err := Open(t.Context(), "", &Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mustPut(t, s, "k", []byte("v"), 0)
	if _, err := os.Stat(filepath.Join(dir, DefaultFile)); err != nil {
		t.Errorf("no store file in the cache directory: %v", err)
	}
}

func TestOpenBadURLs(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		url, want string
	}{
		{"sqlite://relative.db", "absolute"},
		{"sqlite:relative.db", "absolute"},
		{"sqlite:///" + dir + "/x.db?mode=ro", "no user, query"},
		{"sqlite:///" + dir + "/", "directory"},
		{"mysql://localhost/db", `"sqlite", "redis" or "rediss"`},
		{"redis://user:s3cret@127.0.0.1:1/notadb", "invalid database number"},
		{"redis://:s3cret@127.0.0.1:1/0?no_such_option=1", "no_such_option"},
		{"redis://:s3cret@127.0.0.1:port/0", "not a valid URL"},
		{"redis://s3cret@[::1/0", "not a valid URL"},
	}
	for _, c := range cases {
		s, err := Open(t.Context(), c.url, nil)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", c.url)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("Open(%q): %q, want it to mention %q", c.url, err, c.want)
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Open(%q): the error shows the password: %q", c.url, err)
		}
	}
	if _, err := Open(t.Context(), "", &Options{DefaultTTL: -1, CacheDir: dir}); !errors.Is(err, ErrInvalid) {
		t.Errorf("negative default TTL: %v", err)
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"redis://127.0.0.1:6379/0":                "redis://127.0.0.1:6379/0",
		"redis://user:pass@host:6379/1":           "redis://xxxxx@host:6379/1",
		"redis://lonepassword@host":               "redis://xxxxx@host",
		"rediss://:p%40ss@host:6380/2?x=1":        "rediss://xxxxx@host:6380/2?x=1",
		"redis://:pa/ss@host:port":                "redis://xxxxx@host:port",
		"redis://:secret@host:bad-port/0":         "redis://xxxxx@host:bad-port/0",
		"sqlite:///home/u/.cache/winnow/store.db": "sqlite:///home/u/.cache/winnow/store.db",
		"": "",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSQLiteExpireShrinks checks that gc gives the space of expired values back to the file
// system.
func TestSQLiteExpireShrinks(t *testing.T) {
	e := backends[0].setup(t)
	s := e.open(t, nil)
	ctx := context.Background()
	big := []byte(strings.Repeat("x", 64<<10))
	for i := range 64 {
		mustPut(t, s, fmt.Sprintf("big%d", i), big, time.Second)
	}
	path := strings.TrimPrefix(e.url, "sqlite://")
	size := func() int64 {
		if _, err := s.(*sqliteStore).db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	before := size()
	e.advance(2 * time.Second)
	if n, err := s.Expire(ctx); n != 64 || err != nil {
		t.Fatalf("expire = %d, %v", n, err)
	}
	if after := size(); after > before/4 {
		t.Errorf("file of %d bytes is %d bytes after expiring every entry", before, after)
	}
}
