package setup

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var diffCases = []struct {
	name string
	a, b string
}{
	{"one line changed", "a\nb\nc\n", "a\nB\nc\n"},
	{"appended", "a\nb\n", "a\nb\nc\nd\n"},
	{"from nothing", "", "x\ny\n"},
	{"to nothing", "x\ny\n", ""},
	{"no final newline", "a\nb", "a\nb\nc\n"},
	{"final newline removed", "a\nb\n", "a\nb"},
	{"two far apart", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n", "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\nFOURTEEN\n15\n"},
	{"two close together", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\nTWO\n3\n4\n5\n6\n7\nEIGHT\n9\n10\n"},
	{"insert in the middle of a long file", strings.Repeat("same\n", 50) + "end\n", strings.Repeat("same\n", 25) + "new\n" + strings.Repeat("same\n", 25) + "end\n"},
	{"all different", "a\nb\nc\n", "x\ny\n"},
}

// TestUnifiedDiffApplies applies each diff with git apply, a real consumer of unified
// diffs, and wants the new text back.
func TestUnifiedDiffApplies(t *testing.T) {
	for _, tt := range diffCases {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			from := "f"
			if tt.a != "" {
				if err := os.WriteFile(filepath.Join(dir, "f"), []byte(tt.a), 0o644); err != nil {
					t.Fatal(err)
				}
			} else {
				from = "/dev/null"
			}
			patch := unifiedDiff(from, "f", []byte(tt.a), []byte(tt.b))
			cmd := exec.Command("git", "apply", "-p0", "--unsafe-paths", "-")
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader(patch)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git apply: %v\n%s\npatch:\n%s", err, out, patch)
			}
			got, err := os.ReadFile(filepath.Join(dir, "f"))
			if tt.b == "" && os.IsNotExist(err) {
				return // git apply deletes a file diffed to nothing
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.b, string(got)); diff != "" {
				t.Errorf("applied (-want +got):\n%s\npatch:\n%s", diff, patch)
			}
		})
	}
}

func TestUnifiedDiffFormat(t *testing.T) {
	got := unifiedDiff("x", "x", []byte("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n"),
		[]byte("1\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\nsixteen"))
	want := `--- x
+++ x
@@ -1,5 +1,5 @@
 1
-2
+TWO
 3
 4
 5
@@ -13,3 +13,4 @@
 13
 14
 15
+sixteen
\ No newline at end of file
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := unifiedDiff("x", "x", []byte("same\n"), []byte("same\n")); got != "" {
		t.Errorf("equal texts: %q, want no diff", got)
	}
}

// FuzzUnifiedDiff holds that applying the diff of a to b to a gives b.
func FuzzUnifiedDiff(f *testing.F) {
	for _, tt := range diffCases {
		f.Add(tt.a, tt.b)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		d := unifiedDiff("a", "b", []byte(a), []byte(b))
		if a == b {
			if d != "" {
				t.Fatalf("equal texts have a diff:\n%s", d)
			}
			return
		}
		got, err := applyDiff(a, d)
		if err != nil {
			t.Fatalf("%v\n%s", err, d)
		}
		if got != b {
			t.Fatalf("applied diff gives %q, want %q\n%s", got, b, d)
		}
	})
}

// applyDiff applies a unified diff of this package to a, checking every kept and
// removed line and every hunk's counts.
func applyDiff(a, diff string) (string, error) {
	src := splitLines(a)
	lines := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")[2:]
	var out []line
	next := 0 // the next line of src to copy
	for i := 0; i < len(lines); {
		h := lines[i]
		as, an, _, bn, err := parseHunk(h)
		if err != nil {
			return "", fmt.Errorf("hunk header %q: %v", h, err)
		}
		start := as - 1
		if an == 0 {
			start = as
		}
		if start < next || start > len(src) {
			return "", fmt.Errorf("hunk %q out of order", h)
		}
		out = append(out, src[next:start]...)
		next = start
		i++
		gotA, gotB := 0, 0
		for i < len(lines) && !strings.HasPrefix(lines[i], "@@") {
			l := line{text: lines[i][1:]}
			if i+1 < len(lines) && lines[i+1] == noNewlineMark {
				l.noNewline = true
			}
			switch lines[i][0] {
			case ' ', '-':
				if next >= len(src) || src[next] != l {
					return "", fmt.Errorf("line %q does not match line %d of a", lines[i], next+1)
				}
				next++
				gotA++
				if lines[i][0] == ' ' {
					out = append(out, l)
					gotB++
				}
			case '+':
				out = append(out, l)
				gotB++
			default:
				return "", fmt.Errorf("bad diff line %q", lines[i])
			}
			i++
			if l.noNewline {
				i++
			}
		}
		if gotA != an || gotB != bn {
			return "", fmt.Errorf("hunk %q has %d and %d lines", h, gotA, gotB)
		}
	}
	out = append(out, src[next:]...)
	var b strings.Builder
	for _, l := range out {
		b.WriteString(l.text)
		if !l.noNewline {
			b.WriteByte('\n')
		}
	}
	return b.String(), nil
}

// parseHunk reads a hunk header "@@ -a,n +b,m @@", whose counts may be left out for 1.
func parseHunk(h string) (as, an, bs, bn int, err error) {
	f := strings.Fields(h)
	if len(f) != 4 || f[0] != "@@" || f[3] != "@@" {
		return 0, 0, 0, 0, fmt.Errorf("not a hunk header")
	}
	r := func(s string) (int, int, error) {
		start, n, ok := strings.Cut(s[1:], ",")
		st, err := strconv.Atoi(start)
		if err != nil {
			return 0, 0, err
		}
		if !ok {
			return st, 1, nil
		}
		c, err := strconv.Atoi(n)
		return st, c, err
	}
	if as, an, err = r(f[1]); err != nil {
		return
	}
	bs, bn, err = r(f[2])
	return
}
