package telescope

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"pkg/a.py":   "\"\"\"Module a.\"\"\"\n\n\ndef f(x,\n      y):\n    \"\"\"Add.\"\"\"\n    z = x + y\n    z *= 2\n    z -= 1\n    return z\n\n\nclass K:\n    def m(self):\n        return 1\n",
		"pkg/b.go":   "package pkg\n\n// G greets.\nfunc G(name string) string {\n\ts := \"hi \" + name\n\ts += \"!\"\n\treturn s\n}\n",
		"docs/x.md":  "# X\n\nAbout x.\n",
		"main.go":    "package main\n\nfunc main() {}\n",
		"data/t.csv": "a,b\n1,2\n",
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	touched := filepath.Join(root, "pkg/a.py")
	before, _ := os.Stat(touched)
	var progress bytes.Buffer
	rep, err := Run(t.Context(), []string{root}, Options{Touch: "pkg/a.py", WarmRuns: 2, Progress: &progress, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	tr := rep.Trees[0]
	if tr.Files != 5 || tr.CodeFiles != 3 {
		t.Errorf("files %d, code %d", tr.Files, tr.CodeFiles)
	}
	if tr.Signatures.Checked != 5 || tr.Signatures.Kept != 5 || tr.Signatures.Pct != 100 {
		t.Errorf("signatures %+v (f, K, K.m, G, main)", tr.Signatures)
	}
	if tr.Recomputed != tr.Expected || tr.Expected.Units != 1 || tr.Expected.Groups != 1 || tr.Expected.Root != 1 {
		t.Errorf("recomputed %+v, expected %+v", tr.Recomputed, tr.Expected)
	}
	if tr.WarmHitRate != 1 || len(tr.WarmAll) != 2 || tr.Cold <= 0 || tr.Speedup <= 0 {
		t.Errorf("warm %+v", tr)
	}
	got, _ := os.ReadFile(touched)
	after, _ := os.Stat(touched)
	if string(got) != files["pkg/a.py"] || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the touched file was not restored: %q, mtime %v → %v", got, before.ModTime(), after.ModTime())
	}
	var out bytes.Buffer
	if err := rep.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"signatures kept", "5 / 5", "speedup cold/warm", "computed 1 unit, 1 groups, 1 root"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(progress.String(), "cold build") {
		t.Errorf("progress: %s", progress.String())
	}
}
