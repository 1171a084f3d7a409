package bench

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/bench/measure"
)

var tinyTree = map[string]string{
	"shapes.py": `"""Shapes."""


class Shape:
    def area(self):
        raise NotImplementedError


class Square(Shape):
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side * self.side
`,
	"util.py": `from shapes import Square


def total_area(shapes):
    return sum(s.area() for s in shapes)


def unit_square():
    return Square(1)
`,
	"geo/point.go": `package geo

// Point is a point in the plane.
type Point struct{ X, Y float64 }

// Add returns p+q.
func (p Point) Add(q Point) Point { return Point{p.X + q.X, p.Y + q.Y} }
`,
	"geo/line.go": `package geo

// Line joins two points.
type Line struct{ A, B Point }

// Mid returns the middle of l.
func (l Line) Mid() Point {
	s := l.A.Add(l.B)
	return Point{s.X / 2, s.Y / 2}
}
`,
	"NOTES.txt": "not source\n",
}

// The harness runs end to end on a tiny tree with the real winnow binary
// and the real ctags, and leaves the tree exactly as it found it. No
// assertion is about speed.
func TestIndexEndToEnd(t *testing.T) {
	ctags, err := exec.LookPath("ctags")
	if err != nil {
		t.Fatalf("this test needs Universal Ctags on PATH: install it with `apt-get install universal-ctags` (%v)", err)
	}
	winnow := buildWinnow(t)
	tree := t.TempDir()
	writeTree(t, tree, tinyTree)
	before := snapshot(t, tree)
	work := t.TempDir()
	profile := filepath.Join(t.TempDir(), "cold.pprof")
	var progress bytes.Buffer

	rep, err := Index(t.Context(), []string{tree}, Options{
		Winnow: winnow, Ctags: ctags, Runs: 1, ReopenRuns: 3, UpdateRuns: 2, LookupNames: 20,
		TempDir: work, Progress: &progress, CPUProfile: profile,
	})
	t.Logf("progress:\n%s", progress.String())
	if err != nil {
		t.Fatal(err)
	}

	if diff := cmp.Diff(before, snapshot(t, tree)); diff != "" {
		t.Errorf("the tree changed (-before +after):\n%s", diff)
	}
	if left, _ := os.ReadDir(work); len(left) != 0 {
		t.Errorf("working directory not removed: %v", left)
	}
	if p, err := os.ReadFile(profile); err != nil || !bytes.HasPrefix(p, []byte{0x1f, 0x8b}) {
		t.Errorf("the cold run wrote no gzipped pprof profile to %s: %d bytes, %v", profile, len(p), err)
	}
	if len(rep.Trees) != 1 {
		t.Fatalf("got %d trees, want 1", len(rep.Trees))
	}
	tr := rep.Trees[0]
	c := tr.Cold
	positive := map[string]float64{
		"files": float64(c.Files), "bytes": float64(c.Bytes), "symbols": float64(c.Symbols), "refs": float64(c.Refs),
		"ctags tags": float64(c.Tags), "ctags -R tags": float64(c.CtagsR.Tags),
		"winnow wall": float64(c.Winnow.Wall.P50), "ctags wall": float64(c.Ctags.Wall.P50), "ctags -R wall": float64(c.CtagsR.Wall),
		"winnow peak RSS": float64(c.Winnow.RSS.P50), "ctags peak RSS": float64(c.Ctags.RSS.P50),
		"winnow files/s": c.Winnow.FilesPerSec, "wall ratio": c.WallRatio,
		"reopen":      float64(tr.Reopen.P50),
		"UpdatePaths": float64(tr.Update.Paths.P50), "Update": float64(tr.Update.Full.P50), "winnow index update": float64(tr.Update.CLI.P50),
		"lookups": float64(tr.Lookup.Names), "exact lookup": float64(tr.Lookup.Exact.P50), "default lookup": float64(tr.Lookup.Default.P50),
	}
	for name, v := range positive {
		if !(v > 0) {
			t.Errorf("%s = %v, want > 0", name, v)
		}
	}
	if c.Files != 4 {
		t.Errorf("indexed %d files, want the 4 source files", c.Files)
	}
	if got := []int{tr.Reopen.N, tr.Update.Paths.N, tr.Update.Full.N, tr.Update.CLI.N}; !cmp.Equal(got, []int{3, 2, 2, 2}) {
		t.Errorf("repetitions of reopen and the three updates = %v, want [3 2 2 2]", got)
	}
	if _, ok := tinyTree[tr.Update.File]; !ok {
		t.Errorf("touched %q, not a file of the tree", tr.Update.File)
	}
	if tr.Lookup.Misses != 0 {
		t.Errorf("%d exact lookups of indexed names found nothing", tr.Lookup.Misses)
	}

	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{tree, "cold wall", "ctags -R", "UpdatePaths", "lookup default"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	var decoded struct {
		Trees []struct {
			Reopen struct {
				P50 float64 `json:"p50_ms"`
			} `json:"reopen"`
		} `json:"trees"`
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &decoded); err != nil || len(decoded.Trees) != 1 || decoded.Trees[0].Reopen.P50 <= 0 {
		t.Errorf("JSON report does not carry the reopen p50 in milliseconds (err %v):\n%s", err, b)
	}
}

// buildWinnow builds the winnow binary of this module.
func buildWinnow(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(out)) == "" || strings.TrimSpace(string(out)) == os.DevNull {
		t.Fatalf("find the module root: go env GOMOD: %q, %v", out, err)
	}
	bin := filepath.Join(t.TempDir(), "winnow")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/winnow")
	cmd.Dir = filepath.Dir(strings.TrimSpace(string(out)))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build winnow: %v\n%s", err, out)
	}
	return bin
}

// oldTime is a modification time from the past, with nanoseconds, so
// that a restore that loses precision or takes "now" shows.
var oldTime = time.Date(2020, 1, 2, 3, 4, 5, 123456789, time.UTC)

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(full, oldTime, oldTime); err != nil {
			t.Fatal(err)
		}
	}
}

type fileState struct {
	Content string
	ModTime time.Time
	Mode    fs.FileMode
}

// snapshot records every file's bytes, modification time and mode.
func snapshot(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	files := make(map[string]fileState)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = fileState{string(b), fi.ModTime(), fi.Mode()}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestRestoreLeavesOthersChangesAlone(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.py": "x = 1\n"})
	path := filepath.Join(dir, "a.py")
	before := snapshot(t, dir)
	f, err := measure.SaveFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := f.Touch(); err != nil {
			t.Fatal(err)
		}
		if err := f.Restore(); err != nil {
			t.Fatal(err)
		}
		if err := f.Restore(); err != nil {
			t.Fatalf("second restore: %v", err)
		}
		if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
			t.Fatalf("touch and restore changed the file (-before +after):\n%s", diff)
		}
	}

	const edit = "x = 2\n"
	if err := os.WriteFile(path, []byte(edit), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := f.Restore(); err == nil {
		t.Error("restore over someone else's edit succeeded, want an error")
	}
	if b, _ := os.ReadFile(path); string(b) != edit {
		t.Errorf("restore overwrote someone else's edit: got %q, want %q", b, edit)
	}
}
