package compact

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/compact/traj"
)

// TestCacheMatchesUncached replays every recorded trajectory of both
// dialects request by request through RewriteCached and through Rewrite,
// and requires the same bytes, summary and error every time, and the
// cache to be hit on the requests that extend the one before.
func TestCacheMatchesUncached(t *testing.T) {
	ts, err := traj.Load(trajectoryDir)
	if err != nil {
		t.Fatal(err)
	}
	c := New(Options{})
	cache := NewCache(nil)
	dialects := map[string]bool{}
	requests := 0
	for _, tr := range ts {
		dialects[tr.Dialect] = true
		for req, err := range traj.Requests(tr, nil) {
			if err != nil {
				t.Fatal(err)
			}
			requests++
			want, wantSum, wantErr := c.Rewrite(tr.Dialect, req.Body)
			got, gotSum, gotErr := c.RewriteCached(cache, tr.Dialect, req.Body)
			if !bytes.Equal(got, want) {
				t.Fatalf("%s turn %d: cached body differs from uncached", tr.Name, req.Turn)
			}
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Fatalf("%s turn %d: error %v, uncached %v", tr.Name, req.Turn, gotErr, wantErr)
			}
			if diff := cmp.Diff(wantSum, gotSum); diff != "" {
				t.Fatalf("%s turn %d: summary (-uncached +cached):\n%s", tr.Name, req.Turn, diff)
			}
		}
	}
	if !dialects[traj.Anthropic] || !dialects[traj.OpenAI] {
		t.Fatalf("the trajectories cover %v; want both dialects", dialects)
	}
	s := cache.Stats()
	t.Logf("%d requests: %+v", requests, s)
	if s.Hits < uint64(requests)/2 {
		t.Errorf("%d hits in %d requests: the cache is not reused", s.Hits, requests)
	}
	if s.Entries > len(ts) {
		t.Errorf("%d entries for %d conversations: extended entries were not replaced", s.Entries, len(ts))
	}
}

// conversation returns the request bodies of the largest recorded
// trajectory, and its dialect.
func conversation(t *testing.T) (string, [][]byte) {
	t.Helper()
	ts, err := traj.Load(trajectoryDir)
	if err != nil {
		t.Fatal(err)
	}
	var dialect string
	var best [][]byte
	for _, tr := range ts {
		var bodies [][]byte
		for req, err := range traj.Requests(tr, nil) {
			if err != nil {
				t.Fatal(err)
			}
			bodies = append(bodies, req.Body)
		}
		if len(bodies) > len(best) {
			dialect, best = tr.Dialect, bodies
		}
	}
	return dialect, best
}

// TestCacheConcurrent rewrites one conversation from many goroutines at
// once, in and out of order, and checks every result against Rewrite.
func TestCacheConcurrent(t *testing.T) {
	dialect, bodies := conversation(t)
	c := New(Options{})
	want := make([][]byte, len(bodies))
	for i, b := range bodies {
		want[i], _, _ = c.Rewrite(dialect, b)
	}
	cache := NewCache(nil)
	var wg sync.WaitGroup
	errs := make(chan error, 8*len(bodies))
	for g := range 8 {
		wg.Go(func() {
			for k := range bodies {
				i := k
				if g%2 == 1 {
					i = len(bodies) - 1 - k
				}
				got, _, err := c.RewriteCached(cache, dialect, bodies[i])
				if err != nil || !bytes.Equal(got, want[i]) {
					errs <- fmt.Errorf("goroutine %d, request %d: err %v, body equal %v", g, i, err, bytes.Equal(got, want[i]))
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if s := cache.Stats(); s.Hits == 0 {
		t.Errorf("no hits: %+v", s)
	}
}

// TestCacheEviction checks the byte bound and the TTL.
func TestCacheEviction(t *testing.T) {
	dialect, bodies := conversation(t)
	c := New(Options{})
	last := bodies[len(bodies)-1]

	t.Run("bytes", func(t *testing.T) {
		// Room for one entry of the last request, not two.
		cache := NewCache(&CacheOptions{MaxBytes: int64(3 * len(last))})
		other := bytes.Replace(last, []byte(`"messages"`), []byte(`"x":1,"messages"`), 1) // another conversation
		if _, _, err := c.RewriteCached(cache, dialect, last); err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.RewriteCached(cache, dialect, other); err != nil {
			t.Fatal(err)
		}
		s := cache.Stats()
		if s.Entries != 1 || s.Evicted != 1 || s.Bytes > int64(3*len(last)) {
			t.Errorf("after two conversations in room for one: %+v", s)
		}
		if _, _, err := c.RewriteCached(cache, dialect, last); err != nil {
			t.Fatal(err)
		}
		if s := cache.Stats(); s.Hits != 0 {
			t.Errorf("the evicted conversation was hit: %+v", s)
		}
	})

	t.Run("ttl", func(t *testing.T) {
		now := time.Unix(0, 0)
		cache := NewCache(&CacheOptions{TTL: time.Minute, Now: func() time.Time { return now }})
		c.RewriteCached(cache, dialect, bodies[0])
		now = now.Add(30 * time.Second)
		c.RewriteCached(cache, dialect, bodies[1])
		if s := cache.Stats(); s.Hits != 1 || s.Entries != 1 {
			t.Fatalf("within the TTL: %+v", s)
		}
		now = now.Add(2 * time.Minute)
		c.RewriteCached(cache, dialect, bodies[2])
		if s := cache.Stats(); s.Hits != 1 || s.Misses != 2 || s.Evicted != 1 {
			t.Errorf("after the TTL: %+v", s)
		}
	})

	t.Run("changed prefix", func(t *testing.T) {
		cache := NewCache(nil)
		c.RewriteCached(cache, dialect, bodies[len(bodies)-2])
		// The same first message, but a byte changed in a later one.
		i := bytes.LastIndex(last, []byte(`"role"`))
		edited := bytes.Clone(last)
		edited[i+1] = 'R'
		want, _, wantErr := c.Rewrite(dialect, edited)
		got, _, err := c.RewriteCached(cache, dialect, edited)
		if !bytes.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("an edited history: cached %v, uncached %v", err, wantErr)
		}
	})
}
