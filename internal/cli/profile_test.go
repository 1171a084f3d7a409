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

// TestIndexCPUProfile profiles a winnow index run: the file is a CPU
// profile go tool pprof reads; a path that cannot be written fails the
// command before it indexes anything.
func TestIndexCPUProfile(t *testing.T) {
	dir := repo(t)
	prof := filepath.Join(t.TempDir(), "index.prof")
	code, _, errOut := run(t, "index", "--cpuprofile", prof, dir)
	if code != 0 || !strings.Contains(errOut, prof) {
		t.Fatalf("index --cpuprofile: exit %d, %q", code, errOut)
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

	bad := filepath.Join(t.TempDir(), "missing", "index.prof")
	code, _, errOut = run(t, "index", "--cpuprofile", bad, dir)
	if code != 1 || !strings.Contains(errOut, "--cpuprofile") || !strings.Contains(errOut, bad) {
		t.Errorf("index --cpuprofile into a missing directory: exit %d, %q", code, errOut)
	}
}
