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

// stop ends the watch of an exited child and returns its own peak RSS
// and, when larger, the peak of the processes it waited for, in KiB.
//
// ru_maxrss covers the child's own children too: winnow index runs git
// log for the history, whose peak (238 MiB on sympy's 20,000 commits)
// was reported as winnow's until it was told apart. The sampled
// high-water mark is the child's own; ru_maxrss counts only when it
// exceeds both that and the benchmark's own peak (which vfork folds in),
// as the peak of a descendant (or of the child's last milliseconds,
// which sampling can miss: then sampled is 0 or ru_maxrss is the
// child's own, and is returned as such when nothing was sampled).
func (w *rssWatch) stop(ps *os.ProcessState) (own, children int64) {
	close(w.done)
	sampled := <-w.peak
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return sampled, 0
	}
	self, err := os.OpenRoot("/proc/self")
	if err != nil {
		return sampled, 0
	}
	defer self.Close()
	parent, ok := readHWM(self)
	if !ok || ru.Maxrss <= parent || ru.Maxrss <= sampled {
		return sampled, 0
	}
	if sampled == 0 {
		return ru.Maxrss, 0
	}
	return sampled, ru.Maxrss
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
