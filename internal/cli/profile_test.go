package cli

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCPUProfile profiles a winnow index run and a winnow context run:
// the file is a CPU profile go tool pprof reads; a path that cannot be
// written fails the command before it does anything.
func TestCPUProfile(t *testing.T) {
	dir := repo(t)
	for _, args := range [][]string{{"index", dir}, {"context", "--repo", dir, "parse the retry header"}} {
		t.Run(args[0], func(t *testing.T) {
			prof := filepath.Join(t.TempDir(), args[0]+".prof")
			code, _, errOut := run(t, append([]string{args[0], "--cpuprofile", prof}, args[1:]...)...)
			if code != 0 || !strings.Contains(errOut, prof) {
				t.Fatalf("%s --cpuprofile: exit %d, %q", args[0], code, errOut)
			}
			f, err := os.Open(prof)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			// A profile is a gzipped protocol buffer whose string table names
			// the sample types: a CPU profile's are samples/count, cpu/nanoseconds.
			zr, err := gzip.NewReader(f)
			if err != nil {
				t.Fatalf("the profile is not gzipped: %v", err)
			}
			pb, err := io.ReadAll(zr)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{"cpu", "nanoseconds"} {
				if !bytes.Contains(pb, []byte(s)) {
					t.Errorf("the profile names no %q: not a CPU profile", s)
				}
			}

			bad := filepath.Join(t.TempDir(), "missing", args[0]+".prof")
			code, _, errOut = run(t, append([]string{args[0], "--cpuprofile", bad}, args[1:]...)...)
			if code != 1 || !strings.Contains(errOut, "--cpuprofile") || !strings.Contains(errOut, bad) {
				t.Errorf("%s --cpuprofile into a missing directory: exit %d, %q", args[0], code, errOut)
			}
		})
	}
}
