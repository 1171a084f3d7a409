package cli

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFuzzSeedCorpora checks that every fuzz target of the module has a committed seed
// corpus, which `go test` replays on every run (CI's included): files in Go's corpus format
// in its package's testdata/fuzz/<Target>/. It also checks that no corpus outlives its
// target (renamed or removed), since nothing would replay it.
func TestFuzzSeedCorpora(t *testing.T) {
	root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	out, err := exec.Command("go", "list", "-e", "-f",
		`{{.Dir}}{{range .TestGoFiles}} {{.}}{{end}}{{range .XTestGoFiles}} {{.}}{{end}}`,
		"github.com/winnowhq/winnow/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	total := 0
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		dir, files := fields[0], fields[1:]
		rel, err := filepath.Rel(strings.TrimSpace(string(root)), dir)
		if err != nil {
			t.Fatal(err)
		}
		targets := fuzzTargets(t, dir, files)
		total += len(targets)
		for _, name := range targets {
			checkSeedCorpus(t, rel, dir, name)
		}
		seeded, _ := os.ReadDir(filepath.Join(dir, "testdata", "fuzz"))
		for _, e := range seeded {
			if !slices.Contains(targets, e.Name()) {
				t.Errorf("%s/testdata/fuzz/%s: no fuzz target %s in %s replays it; rename it after the target it seeds, or remove it",
					rel, e.Name(), e.Name(), rel)
			}
		}
	}
	if total == 0 {
		t.Fatal("found no fuzz targets: the go list query or the parsing is broken")
	}
}

// fuzzTargets returns the names of the fuzz targets in the test files of the package in dir.
func fuzzTargets(t *testing.T, dir string, files []string) []string {
	t.Helper()
	var names []string
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Fuzz") && takesTestingF(fn) {
				names = append(names, fn.Name.Name)
			}
		}
	}
	return names
}

// takesTestingF reports whether fn's only parameter is a *testing.F.
func takesTestingF(fn *ast.FuncDecl) bool {
	params := fn.Type.Params.List
	if len(params) != 1 || len(params[0].Names) > 1 {
		return false
	}
	star, ok := params[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "testing" && sel.Sel.Name == "F"
}

// checkSeedCorpus checks that the target name of the package in dir (rel from the module
// root) has at least one seed, and that each of its seeds is a Go corpus file.
func checkSeedCorpus(t *testing.T, rel, dir, name string) {
	t.Helper()
	corpus := filepath.Join(dir, "testdata", "fuzz", name)
	entries, err := os.ReadDir(corpus)
	if err != nil && !os.IsNotExist(err) {
		t.Errorf("%s: read the seed corpus of %s: %v", rel, name, err)
		return
	}
	if len(entries) == 0 {
		t.Errorf("%s: %s has no seed corpus in %s/testdata/fuzz/%s: run `scripts/fuzz.sh -t 30s -k 5 %s`, which puts inputs that reach new code there, add edge cases by hand (empty, large, binary, invalid UTF-8) and commit them (README, \"Tests, CI and fuzzing\")",
			rel, name, rel, name, name)
		return
	}
	for _, e := range entries {
		path := filepath.Join(corpus, e.Name())
		if !e.Type().IsRegular() {
			t.Errorf("%s/testdata/fuzz/%s/%s is not a file; a seed corpus holds only corpus files", rel, name, e.Name())
			continue
		}
		if first := corpusHeader(t, path); first != "go test fuzz v1" {
			t.Errorf("%s/testdata/fuzz/%s/%s starts with %q, not \"go test fuzz v1\": not a corpus file go test can replay", rel, name, e.Name(), first)
		}
	}
}

// corpusHeader returns the first line of the file at path.
func corpusHeader(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Scan()
	return s.Text()
}
