package telescope

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUnder(t *testing.T) {
	paths := []string{"a.go", "src-x/b.go", "src.go", "src/a.go", "src/deep/c.go", "srcs/d.go"}
	tests := []struct {
		name string
		rel  string
		want []string
	}{
		{"root", ".", paths},
		{"directory", "src", []string{"src/a.go", "src/deep/c.go"}},
		{"nested", "src/deep", []string{"src/deep/c.go"}},
		{"no files", "missing", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, under(paths, tt.rel)); diff != "" {
				t.Errorf("under(%q) (-want +got):\n%s", tt.rel, diff)
			}
		})
	}
}

// TestListOutsideGit: outside a git work tree the listing honours .gitignore files and skips
// vendored directories, as an index build does.
func TestListOutsideGit(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".gitignore"), "gen/\n")
	writeFile(t, filepath.Join(root, "main.go"), "package main\n")
	writeFile(t, filepath.Join(root, "gen/out.go"), "package gen\n")
	writeFile(t, filepath.Join(root, "vendor/lib/lib.go"), "package lib\n")
	e, err := New(&Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	l, err := e.list(t.Context(), ".", true)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range l.units {
		got = append(got, u.Path)
	}
	if diff := cmp.Diff([]string{"main.go"}, got); diff != "" {
		t.Errorf("listed units (-want +got):\n%s", diff)
	}
}
