package index

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestUpgradeLetsWritersIn: an update that waits for the writers' lock
// while an upgrade runs gets it once the upgrade's chunk in progress is
// committed, not after the whole upgrade: from the same Index (a tool
// call's update in winnow mcp) and from another Index of the tree, as
// from another process.
func TestUpgradeLetsWritersIn(t *testing.T) {
	for _, same := range []bool{true, false} {
		t.Run(fmt.Sprintf("same=%v", same), func(t *testing.T) {
			root := t.TempDir()
			n := 8 * upgradeChunk
			manyFiles(t, root, "pkg", n)
			ix := openIndex(t, Options{Root: root, QuickFirst: true})
			update(t, ix)
			writer := ix
			if !same {
				writer = openIndex(t, Options{Root: root, QuickFirst: true})
			}

			var done atomic.Int64
			started := make(chan struct{})
			var once sync.Once
			upgraded := make(chan error, 1)
			go func() {
				_, err := ix.Upgrade(t.Context(), func(d, _ int) {
					done.Store(int64(d))
					once.Do(func() { close(started) })
				})
				upgraded <- err
			}()
			<-started
			if _, err := writer.Update(t.Context(), nil); err != nil {
				t.Fatal(err)
			}
			at := done.Load()
			if err := <-upgraded; err != nil {
				t.Fatal(err)
			}
			if at > 3*upgradeChunk {
				t.Errorf("the update got the writers' lock when %d of %d files were upgraded; want it after the chunk in progress", at, n)
			}
		})
	}
}

// TestChunksBoundSource: a chunk takes upgradeChunk files, fewer when
// they hold more than upgradeChunkBytes, and always one, however large.
func TestChunksBoundSource(t *testing.T) {
	files := func(sizes ...int64) []candidate {
		out := make([]candidate, len(sizes))
		for i, s := range sizes {
			out[i] = candidate{path: fmt.Sprint(i), size: s}
		}
		return out
	}
	many := make([]int64, 3*upgradeChunk)
	for i := range many {
		many[i] = 10
	}
	for _, c := range []struct {
		name  string
		sizes []int64
		want  int
	}{
		{"none", nil, 0},
		{"small", many, upgradeChunk},
		{"one larger than a chunk", []int64{3 * upgradeChunkBytes, 1, 1}, 1},
		{"up to the bytes", []int64{upgradeChunkBytes / 2, upgradeChunkBytes / 2, 1}, 2},
		{"past the bytes", []int64{upgradeChunkBytes / 2, upgradeChunkBytes/2 + 1, 1}, 1},
	} {
		if got := nextChunk(files(c.sizes...)); got != c.want {
			t.Errorf("%s: a chunk of %d files, want %d", c.name, got, c.want)
		}
	}
}

// TestUpgradeChunksBySize: an upgrade of files larger than a chunk's
// bytes commits them in several transactions, though they are fewer than
// upgradeChunk.
func TestUpgradeChunksBySize(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	// A little over half a chunk each, in one string: cheap to parse.
	body := `TEXT = """` + strings.Repeat("a line of text\n", upgradeChunkBytes/15/2+1) + `"""` + "\n"
	for i := range 4 {
		files[fmt.Sprintf("big%d.py", i)] = fmt.Sprintf("def f_%d():\n    pass\n", i) + body
	}
	writeTree(t, root, files)
	ix := openIndex(t, Options{Root: root, QuickFirst: true})
	update(t, ix)
	before, _ := ix.Generation(t.Context())
	st, err := ix.Upgrade(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Tier != TierFull || st.Parsed != 4 {
		t.Errorf("upgrade: %+v", st)
	}
	after, _ := ix.Generation(t.Context())
	var b, a int
	fmt.Sscan(before, &b)
	fmt.Sscan(after, &a)
	if a-b != 4 {
		t.Errorf("generation %d -> %d: want a transaction per file, 4", b, a)
	}
}

// TestWritersTakeTurns: a writer that releases the writers' lock and
// asks for it again at once, as an upgrade does between chunks, gets it
// after the writer of the same process that was waiting, every time.
func TestWritersTakeTurns(t *testing.T) {
	ix := openIndex(t, Options{Root: t.TempDir()})
	for round := range 10 {
		unlock, err := ix.lockWriters(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		var order []string
		var mu sync.Mutex
		waited := make(chan struct{})
		go func() {
			defer close(waited)
			unlock, err := ix.lockWriters(t.Context())
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			order = append(order, "waiter")
			mu.Unlock()
			unlock()
		}()
		time.Sleep(50 * time.Millisecond) // the waiter is waiting by then
		unlock()
		unlock, err = ix.lockWriters(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		order = append(order, "holder")
		mu.Unlock()
		unlock()
		<-waited
		if order[0] != "waiter" {
			t.Fatalf("round %d: the holder took the lock again before the writer waiting for it (%v)", round, order)
		}
	}
}
