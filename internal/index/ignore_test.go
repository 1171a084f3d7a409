package index

import "testing"

func TestIgnoreRules(t *testing.T) {
	var s ignoreSet
	s.add("", []byte(`# comment
*.log
!keep.log
/build
docs/*.tmp
**/cache/**
out/
\#literal
trailing\ 
`))
	s.add("sub", []byte("local.py\n/anchored.py\n"))
	for _, tt := range []struct {
		path  string
		isDir bool
		want  bool
	}{
		{"app.log", false, true},
		{"deep/dir/app.log", false, true},
		{"keep.log", false, false},
		{"build", true, true},
		{"src/build", true, false}, // anchored to the root
		{"docs/a.tmp", false, true},
		{"docs/x/a.tmp", false, false}, // * does not cross a slash
		{"a/cache/b/c.py", false, true},
		{"out", true, true},
		{"out", false, false}, // dir-only pattern, a file named out
		{"#literal", false, true},
		{"trailing ", false, true},
		{"sub/local.py", false, true},
		{"sub/x/local.py", false, true},
		{"local.py", false, false}, // rules of sub/.gitignore stay in sub/
		{"sub/anchored.py", false, true},
		{"sub/x/anchored.py", false, false},
		{"main.py", false, false},
	} {
		if got := s.match(tt.path, tt.isDir); got != tt.want {
			t.Errorf("match(%q, dir=%v) = %v, want %v", tt.path, tt.isDir, got, tt.want)
		}
	}
	if !s.matchPath("build/gen/x.py") {
		t.Error("a file under an ignored directory is ignored")
	}
}
