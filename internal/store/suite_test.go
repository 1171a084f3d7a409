package store

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// An env is one backend under test: a URL any number of Stores open, and how its time passes.
type env struct {
	url   string
	clock *fakeClock // the SQLite stores' clock; nil for Redis, whose server keeps the time
}

// backends are the constructors the suite runs against: every test below runs on both.
var backends = []struct {
	name  string
	setup func(tb testing.TB) *env
}{
	{"sqlite", func(tb testing.TB) *env { return &env{url: sqliteURL(tempDB(tb)), clock: newFakeClock()} }},
	{"redis", func(tb testing.TB) *env { return &env{url: redisURL(tb)} }},
}

// eachBackend runs fn as a subtest per backend, each on a new, empty store.
func eachBackend(t *testing.T, fn func(t *testing.T, e *env)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { fn(t, b.setup(t)) })
	}
}

// open returns a new Store on e's backend, closed at the end of the test.
func (e *env) open(tb testing.TB, opts *Options) Store {
	tb.Helper()
	var o Options
	if opts != nil {
		o = *opts
	}
	if e.clock != nil {
		o.Now = e.clock.Now
	}
	s, err := Open(tb.Context(), e.url, &o)
	if err != nil {
		tb.Fatalf("open %s: %v", e.url, err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// advance lets d pass: on the fake clock for SQLite, in real time for Redis (real PEXPIRE).
func (e *env) advance(d time.Duration) {
	if e.clock != nil {
		e.clock.Add(d)
		return
	}
	time.Sleep(d)
}

func mustPut(t *testing.T, s Store, key string, value []byte, ttl time.Duration) {
	t.Helper()
	if err := s.Put(t.Context(), key, value, ttl); err != nil {
		t.Fatalf("put %q: %v", key, err)
	}
}

// wantGet checks that key holds want, or is absent when want is nil.
func wantGet(t *testing.T, s Store, key string, want []byte) {
	t.Helper()
	got, ok, err := s.Get(t.Context(), key)
	switch {
	case err != nil:
		t.Fatalf("get %q: %v", key, err)
	case want == nil && ok:
		t.Errorf("get %q: found %d bytes, want a miss", key, len(got))
	case want != nil && !ok:
		t.Errorf("get %q: miss, want %d bytes", key, len(want))
	case want != nil && !bytes.Equal(got, want):
		t.Errorf("get %q: got %d bytes %.40q, want %d bytes %.40q", key, len(got), got, len(want), want)
	}
}

func wantExists(t *testing.T, s Store, key string, want bool) {
	t.Helper()
	got, err := s.Exists(t.Context(), key)
	if err != nil || got != want {
		t.Errorf("exists %q = %v, %v; want %v", key, got, err, want)
	}
}

// scanKeys returns the keys Scan finds under prefix, sorted, failing on a key seen twice.
func scanKeys(t *testing.T, s Store, prefix string) []string {
	t.Helper()
	var keys []string
	err := s.Scan(t.Context(), prefix, func(k string) error {
		keys = append(keys, k)
		return nil
	})
	if err != nil {
		t.Fatalf("scan %q: %v", prefix, err)
	}
	slices.Sort(keys)
	if d := slices.Compact(slices.Clone(keys)); len(d) != len(keys) {
		t.Errorf("scan %q passed a key twice: %q", prefix, keys)
	}
	return keys
}

func stats(t *testing.T, s Store) Stats {
	t.Helper()
	st, err := s.Stats(t.Context())
	if err != nil {
		t.Fatalf("stats: %v", err)
	}
	return st
}

func TestGetPutExistsDelete(t *testing.T) {
	eachBackend(t, func(t *testing.T, e *env) {
		s := e.open(t, nil)
		ctx := t.Context()
		wantGet(t, s, "k", nil)
		wantExists(t, s, "k", false)

		mustPut(t, s, "k", []byte("one"), 0)
		wantGet(t, s, "k", []byte("one"))
		wantExists(t, s, "k", true)

		mustPut(t, s, "k", []byte("two, longer"), time.Hour) // replaces value and TTL
		wantGet(t, s, "k", []byte("two, longer"))

		if err := s.Delete(ctx, "k"); err != nil {
			t.Fatal(err)
		}
		wantGet(t, s, "k", nil)
		wantExists(t, s, "k", false)
		if err := s.Delete(ctx, "never there"); err != nil {
			t.Errorf("delete of an absent key: %v", err)
		}

		mustPut(t, s, "empty", nil, 0) // an empty value is a value, not a miss
		wantGet(t, s, "empty", []byte{})
		wantExists(t, s, "empty", true)

		if d := cmp.Diff(Stats{Entries: 1, Hits: 3, Misses: 2}, stats(t, s)); d != "" {
			t.Errorf("stats (-want +got):\n%s", d)
		}
	})
}

func TestBadInput(t *testing.T) {
	huge := make([]byte, MaxValueBytes+1) // never written to, so the OS hands out no pages
	eachBackend(t, func(t *testing.T, e *env) {
		s := e.open(t, nil)
		ctx := t.Context()
		long := strings.Repeat("k", MaxKeyBytes+1)
		checks := []struct {
			name string
			err  error
		}{
			{"get empty key", func() error { _, _, err := s.Get(ctx, ""); return err }()},
			{"get long key", func() error { _, _, err := s.Get(ctx, long); return err }()},
			{"put empty key", s.Put(ctx, "", []byte("v"), 0)},
			{"put long key", s.Put(ctx, long, []byte("v"), 0)},
			{"put negative TTL", s.Put(ctx, "k", []byte("v"), -time.Second)},
			{"put TTL over MaxTTL", s.Put(ctx, "k", []byte("v"), MaxTTL+time.Hour)},
			{"put value over MaxValueBytes", s.Put(ctx, "k", huge, 0)},
			{"exists empty key", func() error { _, err := s.Exists(ctx, ""); return err }()},
			{"delete empty key", s.Delete(ctx, "")},
		}
		for _, c := range checks {
			if !errors.Is(c.err, ErrInvalid) {
				t.Errorf("%s: error %v, want one wrapping ErrInvalid", c.name, c.err)
			}
		}
		wantExists(t, s, "k", false)
		if st := stats(t, s); st.Entries != 0 || st.Hits+st.Misses != 0 {
			t.Errorf("rejected requests changed the store: %+v", st)
		}
	})
}

func TestTTL(t *testing.T) {
	const short = 50 * time.Millisecond
	eachBackend(t, func(t *testing.T, e *env) {
		s := e.open(t, nil)
		ctx := t.Context()
		mustPut(t, s, "short", []byte("12345"), short)
		mustPut(t, s, "default", []byte("123"), 0)
		mustPut(t, s, "hour", []byte("1234567"), time.Hour)
		e.advance(short + 30*time.Millisecond)

		wantGet(t, s, "short", nil)
		wantExists(t, s, "short", false)
		wantGet(t, s, "default", []byte("123"))
		wantGet(t, s, "hour", []byte("1234567"))
		if d := cmp.Diff([]string{"default", "hour"}, scanKeys(t, s, "")); d != "" {
			t.Errorf("scan sees an expired key (-want +got):\n%s", d)
		}
		want := Stats{Entries: 2, Bytes: 10, Expired: 1, Hits: 2, Misses: 1}
		if d := cmp.Diff(want, stats(t, s)); d != "" {
			t.Errorf("stats before gc (-want +got):\n%s", d)
		}

		if n, err := s.Expire(ctx); n != 1 || err != nil {
			t.Errorf("expire = %d, %v; want 1", n, err)
		}
		want.Expired = 0
		if d := cmp.Diff(want, stats(t, s)); d != "" {
			t.Errorf("stats after gc (-want +got):\n%s", d)
		}
		if n, err := s.Expire(ctx); n != 0 || err != nil {
			t.Errorf("second expire = %d, %v; want 0", n, err)
		}

		mustPut(t, s, "short", []byte("again"), 0) // an expired key can be put again
		wantGet(t, s, "short", []byte("again"))
	})
}

func TestDefaultTTLOption(t *testing.T) {
	eachBackend(t, func(t *testing.T, e *env) {
		s := e.open(t, &Options{DefaultTTL: 50 * time.Millisecond})
		mustPut(t, s, "default", []byte("v"), 0)
		mustPut(t, s, "explicit", []byte("v"), time.Hour)
		e.advance(80 * time.Millisecond)
		wantGet(t, s, "default", nil)
		wantGet(t, s, "explicit", []byte("v"))
	})
}

// TestExpiryBoundary pins the moment of expiry on the SQLite clock: live through put time +
// TTL, gone a millisecond later (Redis's rule for PX).
func TestExpiryBoundary(t *testing.T) {
	e := backends[0].setup(t)
	s := e.open(t, nil)
	mustPut(t, s, "k", []byte("v"), time.Second)
	e.advance(time.Second)
	wantGet(t, s, "k", []byte("v"))
	e.advance(time.Millisecond)
	wantGet(t, s, "k", nil)
	// A TTL below a millisecond is rounded up, never down to nothing.
	mustPut(t, s, "tiny", []byte("v"), time.Microsecond)
	wantGet(t, s, "tiny", []byte("v"))
}

func TestScan(t *testing.T) {
	keys := []string{
		"compact:a:1:sig:00", "compact:a:1:sig:01", "compact:ab:1:sig:00", "compact:b:1:sig:00",
		// Redis glob characters, which SCAN MATCH would interpret.
		`glob*:[x]?\1`, `glob*:[x]?\2`, `glob*:y`, `globz:[x]?\3`, `glob?`, `glob[`,
		// Bytes at the ends of the range.
		"\xff\xffa", "\xff\xff", "\xff\xfe", "nul\x00key",
	}
	cases := []struct {
		prefix string
		want   []string
	}{
		{"compact:a:", []string{"compact:a:1:sig:00", "compact:a:1:sig:01"}},
		{"compact:a", []string{"compact:a:1:sig:00", "compact:a:1:sig:01", "compact:ab:1:sig:00"}},
		{`glob*:[x]?\`, []string{`glob*:[x]?\1`, `glob*:[x]?\2`}},
		{"glob*", []string{`glob*:[x]?\1`, `glob*:[x]?\2`, `glob*:y`}},
		{"glob?", []string{"glob?"}},
		{"glob[", []string{"glob["}},
		{"glob", []string{`glob*:[x]?\1`, `glob*:[x]?\2`, `glob*:y`, "glob?", "glob[", `globz:[x]?\3`}},
		{"\xff\xff", []string{"\xff\xff", "\xff\xffa"}},
		{"nul\x00", []string{"nul\x00key"}},
		{"none", nil},
		{"", slices.Sorted(slices.Values(keys))},
	}
	eachBackend(t, func(t *testing.T, e *env) {
		s := e.open(t, nil)
		for _, k := range keys {
			mustPut(t, s, k, []byte("value of "+k), 0)
		}
		for _, c := range cases {
			if d := cmp.Diff(c.want, scanKeys(t, s, c.prefix)); d != "" {
				t.Errorf("scan %q (-want +got):\n%s", c.prefix, d)
			}
		}
		for _, k := range keys {
			wantGet(t, s, k, []byte("value of "+k))
		}
	})
}

func TestScanPagesAndCallbacks(t *testing.T) {
	const n = 1300 // more than a SQLite page (512) and a Redis SCAN COUNT (1000)
	eachBackend(t, func(t *testing.T, e *env) {
		s := e.open(t, nil)
		ctx := t.Context()
		var want []string
		for i := range n {
			k := fmt.Sprintf("many:%05d", i)
			want = append(want, k)
			mustPut(t, s, k, []byte{byte(i)}, 0)
		}
		mustPut(t, s, "other", []byte("x"), 0)
		if d := cmp.Diff(want, scanKeys(t, s, "many:")); d != "" {
			t.Errorf("scan of %d keys (-want +got):\n%s", n, d)
		}

		stop := errors.New("stop")
		calls := 0
		err := s.Scan(ctx, "many:", func(string) error { calls++; return stop })
		if !errors.Is(err, stop) || calls != 1 {
			t.Errorf("scan with a failing fn: %v after %d calls; want stop after 1", err, calls)
		}

		deleted := 0
		err = s.Scan(ctx, "many:", func(k string) error { deleted++; return s.Delete(ctx, k) })
		if err != nil || deleted != n {
			t.Errorf("scan deleting as it goes: %v after %d keys, want %d", err, deleted, n)
		}
		if got := scanKeys(t, s, ""); !slices.Equal(got, []string{"other"}) {
			t.Errorf("after deleting every many: key, scan finds %d keys: %.5q", len(got), got)
		}
	})
}

// TestStatsAcrossStores opens two Stores on one backend, as two processes would, and a third
// afterwards: each sees the totals of all.
func TestStatsAcrossStores(t *testing.T) {
	eachBackend(t, func(t *testing.T, e *env) {
		a, b := e.open(t, nil), e.open(t, nil)
		mustPut(t, a, "k1", []byte("abc"), 0)
		mustPut(t, b, "k2", []byte("defgh"), 0)
		wantGet(t, a, "k1", []byte("abc"))
		wantGet(t, a, "k2", []byte("defgh")) // written by b
		wantGet(t, a, "absent", nil)
		wantGet(t, b, "k1", []byte("abc")) // written by a
		wantGet(t, b, "absent", nil)
		wantGet(t, b, "absent too", nil)
		wantExists(t, b, "k1", true) // not a lookup

		stats(t, b) // records b's lookups
		want := Stats{Hits: 3, Misses: 3, Entries: 2, Bytes: 8}
		if d := cmp.Diff(want, stats(t, a)); d != "" {
			t.Errorf("a's stats (-want +got):\n%s", d)
		}
		if got := stats(t, a).HitRate(); got != 0.5 {
			t.Errorf("hit rate %v, want 0.5", got)
		}
		a.Close()
		b.Close()
		if d := cmp.Diff(want, stats(t, e.open(t, nil))); d != "" {
			t.Errorf("a new store's stats (-want +got):\n%s", d)
		}
	})
}

func TestConcurrentWriters(t *testing.T) {
	const writers, each = 8, 40
	eachBackend(t, func(t *testing.T, e *env) {
		stores := []Store{e.open(t, nil), e.open(t, nil)}
		ctx := t.Context()
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for w := range writers {
			wg.Go(func() {
				s := stores[w%len(stores)]
				for i := range each {
					k := fmt.Sprintf("w%d/%d", w, i)
					if err := s.Put(ctx, k, []byte(k), 0); err != nil {
						errs <- err
						return
					}
					if err := s.Put(ctx, "shared", []byte(k), 0); err != nil {
						errs <- err
						return
					}
					if v, ok, err := s.Get(ctx, k); err != nil || !ok || string(v) != k {
						errs <- fmt.Errorf("read back %s: %q %v %v", k, v, ok, err)
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		for w := range writers {
			for i := range each {
				k := fmt.Sprintf("w%d/%d", w, i)
				wantGet(t, stores[0], k, []byte(k))
			}
		}
		v, ok, err := stores[1].Get(ctx, "shared")
		if err != nil || !ok || !strings.HasSuffix(string(v), fmt.Sprintf("/%d", each-1)) {
			t.Errorf("shared key holds %q (%v, %v), want the last value of one writer", v, ok, err)
		}
		if st := stats(t, stores[1]); st.Entries != writers*each+1 {
			t.Errorf("entries %d, want %d", st.Entries, writers*each+1)
		}
	})
}

func TestLargeAndBinaryValues(t *testing.T) {
	large := make([]byte, 10<<20)
	rand.Read(large)
	binary := make([]byte, 0, 512)
	for i := range 512 {
		binary = append(binary, byte(i)) // every byte value, NUL and invalid UTF-8 included
	}
	eachBackend(t, func(t *testing.T, e *env) {
		s := e.open(t, nil)
		mustPut(t, s, "large", large, 0)
		mustPut(t, s, "binary", binary, 0)
		mustPut(t, s, "bin\x00key\xff", binary[:3], 0)
		wantGet(t, s, "large", large)
		wantGet(t, s, "binary", binary)
		wantGet(t, s, "bin\x00key\xff", binary[:3])
		wantGet(t, s, "bin\x00key", nil) // a key is all of its bytes
		if st := stats(t, s); st.Bytes != int64(len(large)+len(binary)+3) {
			t.Errorf("bytes %d, want %d", st.Bytes, len(large)+len(binary)+3)
		}
		mustPut(t, s, "large", []byte("small now"), 0)
		if st := stats(t, s); st.Bytes != int64(len("small now")+len(binary)+3) {
			t.Errorf("bytes after replacing the large value: %d", st.Bytes)
		}
	})
}
