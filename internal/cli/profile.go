package cli

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startCPUProfile writes a CPU profile of the rest of the command to
// path (nothing when path is empty); the returned stop ends it, and
// says on stderr where it is.
func (a *app) startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile %s: %w", path, err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(a.stderr, "winnow: --cpuprofile %s: %v\n", path, err)
			return
		}
		fmt.Fprintf(a.stderr, "CPU profile written to %s (go tool pprof %s)\n", path, path)
	}, nil
}
