package cli

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestEaseGC: a one-shot update runs with the collector eased (GOGC 800
// under a soft limit) until it turns out to read more than easedFiles
// files, or done is called; a GOGC or GOMEMLIMIT the user set is kept.
func TestEaseGC(t *testing.T) {
	gc := func() (int, int64) {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p, debug.SetMemoryLimit(-1)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))

	wrap, done := easeGC()
	if p, l := gc(); p != 800 || l != easedHeap {
		t.Fatalf("eased: GOGC %d, limit %d", p, l)
	}
	var seen [][2]int
	progress := wrap(func(n, total int) { seen = append(seen, [2]int{n, total}) })
	progress(1, easedFiles)
	if p, _ := gc(); p != 800 {
		t.Errorf("an update of %d files put the collector back (GOGC %d)", easedFiles, p)
	}
	progress(1, easedFiles+1)
	if p, l := gc(); p != 100 || l != math.MaxInt64 {
		t.Errorf("an update of %d files left the collector eased: GOGC %d, limit %d", easedFiles+1, p, l)
	}
	if len(seen) != 2 {
		t.Errorf("the progress bar saw %v", seen)
	}
	done()

	wrap, done = easeGC()
	done()
	if p, l := gc(); p != 100 || l != math.MaxInt64 {
		t.Errorf("done left the collector eased: GOGC %d, limit %d", p, l)
	}
	wrap(nil)(1, 1) // no progress bar: nothing to call

	debug.SetGCPercent(50) // as GOGC=50 would
	_, done = easeGC()
	if p, _ := gc(); p != 50 {
		t.Errorf("easeGC overrode GOGC=50: %d", p)
	}
	done()
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(1 << 30) // as GOMEMLIMIT would
	_, done = easeGC()
	if p, l := gc(); p != 100 || l != 1<<30 {
		t.Errorf("easeGC overrode GOMEMLIMIT: GOGC %d, limit %d", p, l)
	}
	done()
}
