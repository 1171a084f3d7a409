package bench

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

// rssSampleEvery is how often a child's peak RSS is read while it runs.
// The reading is a cheap /proc read; it can miss growth in the child's
// last few milliseconds only.
const rssSampleEvery = 5 * time.Millisecond

// An rssWatch follows one child's peak resident set size.
//
// The kernel's own account, ru_maxrss from wait4, is not the child's
// alone: Go starts children with vfork, and exec folds the peak of the
// memory it replaces, which is the parent's, into the child's
// (setmax_mm_hiwater_rss in fs/exec.c). A child smaller than the
// benchmark process reports the benchmark's size. So the watch samples
// the child's own high-water mark, VmHWM in /proc/<pid>/status, until it
// exits, and trusts ru_maxrss only when it exceeds the parent's peak,
// which proves it is the child's.
type rssWatch struct {
	done chan struct{}
	peak chan int64
}

// watchRSS starts sampling the child pid. Go's vfork has already waited
// for the child's exec, so the first sample is of the new program.
func watchRSS(pid int) *rssWatch {
	w := &rssWatch{done: make(chan struct{}), peak: make(chan int64, 1)}
	// The directory handle stays bound to this process, so a pid reused
	// after the child is reaped is never read.
	dir, err := os.OpenRoot(fmt.Sprintf("/proc/%d", pid))
	if err != nil {
		w.peak <- 0
		return w
	}
	go func() {
		defer dir.Close()
		var peak int64
		tick := time.NewTicker(rssSampleEvery)
		defer tick.Stop()
		for {
			if kb, ok := readHWM(dir); ok {
				peak = max(peak, kb)
			}
			select {
			case <-w.done:
				w.peak <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

// stop ends the watch of an exited child and returns its peak RSS in KiB.
func (w *rssWatch) stop(ps *os.ProcessState) int64 {
	close(w.done)
	sampled := <-w.peak
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return sampled
	}
	self, err := os.OpenRoot("/proc/self")
	if err != nil {
		return sampled
	}
	defer self.Close()
	if parent, ok := readHWM(self); ok && ru.Maxrss > parent {
		return ru.Maxrss
	}
	return sampled
}

// readHWM reads VmHWM, in KiB, from a /proc/<pid> directory. A process
// that has exited has none.
func readHWM(dir *os.Root) (int64, bool) {
	b, err := dir.ReadFile("status")
	if err != nil {
		return 0, false
	}
	_, rest, ok := bytes.Cut(b, []byte("\nVmHWM:"))
	if !ok {
		return 0, false
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	f := bytes.Fields(line) // "12345", "kB"
	if len(f) == 0 {
		return 0, false
	}
	kb, err := strconv.ParseInt(string(f[0]), 10, 64)
	return kb, err == nil
}
