package cli

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/store"
)

// storeConfig writes a user configuration with the given [store] table (and the cache
// directory in a temporary directory), points WINNOW_CONFIG at it and returns the cache
// directory.
func storeConfig(t *testing.T, table string) string {
	t.Helper()
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	cfg := filepath.Join(dir, "config.toml")
	doc := fmt.Sprintf("[index]\ncache_dir = %q\n\n[store]\n%s", cache, table)
	if err := os.WriteFile(cfg, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WINNOW_CONFIG", cfg)
	t.Chdir(dir)
	return cache
}

// fillStore puts two live entries and one that expired a day ago in the store at url, and
// looks up one present and two absent keys.
func fillStore(t *testing.T, url string) {
	t.Helper()
	ctx := t.Context()
	yesterday := func() time.Time { return time.Now().Add(-48 * time.Hour) }
	old, err := store.Open(ctx, url, &store.Options{Now: yesterday})
	if err != nil {
		t.Fatal(err)
	}
	if err := old.Put(ctx, "old", []byte("expired"), time.Hour); err != nil {
		t.Fatal(err)
	}
	old.Close()
	s, err := store.Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for k, v := range map[string]string{"a": "12345", "b": strings.Repeat("x", 3000)} {
		if err := s.Put(ctx, k, []byte(v), 0); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []string{"a", "absent", "old"} {
		if _, _, err := s.Get(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStoreStatsAndGC(t *testing.T) {
	path := filepath.Join(t.TempDir(), "team.db")
	url := "sqlite://" + path
	storeConfig(t, fmt.Sprintf("url = %q\nttl = \"7d\"\n", url))
	fillStore(t, url)

	code, out, errOut := run(t, "store", "stats")
	if code != 0 {
		t.Fatalf("store stats: exit %d: %s", code, errOut)
	}
	want := "store     " + url + "\n" +
		"entries   2 (2.9 KiB)\n" +
		"expired   1 awaiting gc\n" +
		"hits      1\n" +
		"misses    2\n" +
		"hit rate  33.3%\n"
	if out != want {
		t.Errorf("store stats printed:\n%s\nwant:\n%s", out, want)
	}

	code, out, errOut = run(t, "store", "gc")
	if code != 0 || out != "removed 1 expired entry from "+url+"\n" {
		t.Errorf("store gc: exit %d, %q, %s", code, out, errOut)
	}

	code, out, errOut = run(t, "store", "stats", "--json")
	if code != 0 {
		t.Fatalf("store stats --json: exit %d: %s", code, errOut)
	}
	var got struct {
		Store   string  `json:"store"`
		Hits    int64   `json:"hits"`
		Misses  int64   `json:"misses"`
		Entries int64   `json:"entries"`
		Bytes   int64   `json:"bytes"`
		Expired int64   `json:"expired"`
		HitRate float64 `json:"hit_rate"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("store stats --json: %v: %s", err, out)
	}
	if got.Store != url || got.Entries != 2 || got.Bytes != 3005 || got.Expired != 0 || got.Hits != 1 || got.Misses != 2 || got.HitRate < 0.33 || got.HitRate > 0.34 {
		t.Errorf("store stats --json after gc: %+v", got)
	}

	code, out, _ = run(t, "store", "gc", "--json")
	if code != 0 || strings.TrimSpace(out) != fmt.Sprintf("{\n  \"store\": %q,\n  \"removed\": 0\n}", url) {
		t.Errorf("second store gc --json: exit %d: %s", code, out)
	}
}

// TestStoreDefaultLocation checks that without a URL the store is store.db in the cache
// directory, and that a repository's .winnow.toml cannot move it.
func TestStoreDefaultLocation(t *testing.T) {
	cache := storeConfig(t, "")
	elsewhere := filepath.Join(t.TempDir(), "attacker.db")
	repoFile := fmt.Sprintf("[store]\nurl = %q\n", "sqlite://"+elsewhere)
	if err := os.WriteFile(filepath.Join(".", ".winnow.toml"), []byte(repoFile), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "store", "stats")
	if code != 0 {
		t.Fatalf("store stats: exit %d: %s", code, errOut)
	}
	want := "sqlite://" + filepath.Join(cache, store.DefaultFile)
	if !strings.HasPrefix(out, "store     "+want+"\n") || !strings.Contains(out, "hit rate  n/a (no lookups yet)") {
		t.Errorf("store stats printed:\n%s\nwant the store at %s", out, want)
	}
	if _, err := os.Stat(filepath.Join(cache, store.DefaultFile)); err != nil {
		t.Errorf("no store in the cache directory: %v", err)
	}
	if _, err := os.Stat(elsewhere); err == nil {
		t.Errorf("the repository's .winnow.toml chose the store")
	}
}

func TestStoreBadURLs(t *testing.T) {
	storeConfig(t, "")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // nothing listens there now

	code, _, errOut := run(t, "store", "stats", "--store", fmt.Sprintf("redis://:hunter2@127.0.0.1:%d/0", port))
	if code != exitError || !strings.Contains(errOut, "redis store redis://xxxxx@127.0.0.1:") || strings.Contains(errOut, "hunter2") {
		t.Errorf("stats of an unreachable Redis: exit %d: %s", code, errOut)
	}
	code, _, errOut = run(t, "store", "gc", "--store", "ftp://:hunter2@host/x")
	if code != exitUsage || !strings.Contains(errOut, `store.url = "ftp://xxxxx@host/x"`) || strings.Contains(errOut, "hunter2") {
		t.Errorf("gc with an ftp URL: exit %d: %s", code, errOut)
	}

	storeConfig(t, "ttl = \"forever\"\n")
	code, _, errOut = run(t, "store", "stats")
	if code != exitError || !strings.Contains(errOut, `want a whole number of days`) {
		t.Errorf("stats with a bad ttl: exit %d: %s", code, errOut)
	}
}

func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 3005: "2.9 KiB", 10 << 20: "10.0 MiB", 3 << 30: "3.0 GiB"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}
