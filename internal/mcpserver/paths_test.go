package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolvePath(t *testing.T) {
	root := fixture(t)
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "x.py"), "x = 1\n")
	for _, link := range []struct{ name, target string }{
		{"out", outside},
		{"pkg/out.py", filepath.Join(outside, "x.py")},
		{"alias", filepath.Join(root, "pkg")}, // a link that stays inside
		{"relative", "pkg"},
		{"dotdot", "../" + filepath.Base(outside)},
	} {
		if err := os.Symlink(link.target, filepath.Join(root, link.name)); err != nil {
			t.Skipf("symbolic links: %v", err)
		}
	}
	for _, c := range []struct {
		arg   string
		rel   string // "" when refused
		isDir bool
		err   string
	}{
		{arg: ".", rel: ".", isDir: true},
		{arg: "pkg", rel: "pkg", isDir: true},
		{arg: "pkg/", rel: "pkg", isDir: true},
		{arg: " pkg/headers.py ", rel: "pkg/headers.py"},
		{arg: "pkg/./../pkg/headers.py", rel: "pkg/headers.py"},
		{arg: filepath.Join(root, "store", "store.go"), rel: "store/store.go"},
		{arg: "alias/headers.py", rel: "pkg/headers.py"},
		{arg: "relative", rel: "pkg", isDir: true},
		{arg: "..", err: "is outside the repository"},
		{arg: "../..", err: "is outside the repository"},
		{arg: "pkg/../..", err: "is outside the repository"},
		{arg: "/", err: "is outside the repository"},
		{arg: filepath.Dir(root), err: "is outside the repository"},
		{arg: root + "-sibling", err: "is outside the repository"},
		{arg: "out", err: "symbolic link"},
		{arg: "out/x.py", err: "symbolic link"},
		{arg: "pkg/out.py", err: "symbolic link"},
		{arg: "dotdot/x.py", err: "symbolic link"},
		{arg: "nope", err: "does not exist"},
		{arg: "", err: "the path is empty"},
	} {
		got, err := resolvePath(root, c.arg)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("resolvePath(%q) = %+v, %v; want an error saying %q", c.arg, got, err, c.err)
			}
		case err != nil:
			t.Errorf("resolvePath(%q): %v", c.arg, err)
		case got.rel != c.rel || got.isDir != c.isDir:
			t.Errorf("resolvePath(%q) = %+v, want %q (dir %v)", c.arg, got, c.rel, c.isDir)
		}
	}
}
