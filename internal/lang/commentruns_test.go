package lang

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func TestBlankCommentRuns(t *testing.T) {
	long := func(indent string, n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%s# note %d\n", indent, i)
			if i%10 == 0 {
				b.WriteString("\n") // blank lines go on a run
			}
		}
		return b.String()
	}
	short := "x = 1\n" + long("", maxCommentRun) + "y = 2\n"
	if got := blankCommentRuns([]byte(short), '#'); !bytes.Equal(got, []byte(short)) {
		t.Errorf("a run of %d comment lines was changed", maxCommentRun)
	}

	src := "def f():\n    x = 1  # a comment after code\n" + long("    ", 1000) + "    return x\n" +
		long("", 300) + "\r\n# kept\r\ndef g():\n    pass\n"
	got := blankCommentRuns([]byte(src), '#')
	if len(got) != len(src) || bytes.Count(got, []byte("\n")) != strings.Count(src, "\n") {
		t.Fatalf("length %d -> %d, lines %d -> %d: want the same", len(src), len(got), strings.Count(src, "\n"), bytes.Count(got, []byte("\n")))
	}
	if &got[0] == &[]byte(src)[0] {
		t.Fatal("not a copy")
	}
	lines, orig := strings.Split(string(got), "\n"), strings.Split(src, "\n")
	comments, blanked := 0, 0
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(strings.TrimSpace(orig[i]), "#"):
			comments++
			if trimmed == "" {
				blanked++
			} else if line != orig[i] {
				t.Errorf("line %d: %q -> %q, want it whole or blank", i+1, orig[i], line)
			}
		case line != orig[i]:
			t.Errorf("line %d, not a comment, changed: %q -> %q", i+1, orig[i], line)
		}
	}
	// Both runs lose all but their last keepCommentRun comments; the
	// comment after code and the last run ("# kept") keep theirs.
	if want := 1000 - keepCommentRun + 300 + 1 - keepCommentRun; blanked != want {
		t.Errorf("%d of %d comment lines blanked, want %d", blanked, comments, want)
	}
	if !strings.Contains(string(got), "# kept\r\n") || !strings.Contains(string(got), "# note 999\n") {
		t.Error("the last lines of a run were blanked")
	}
}

// TestLongCommentRun: a Python file with a run of comment lines long
// enough to outlast its parse's timeout, tree-sitter-python reading
// ahead past all of them at every one (some 4.6 s for these 40,000, past
// 15 s to parse), keeps its definitions, and a definition's leading
// comment at the end of the run.
func TestLongCommentRun(t *testing.T) {
	src := "def before():\n    pass\n" + strings.Repeat("# x\n", 40000) +
		"\n# Leading comment of after.\ndef after():\n    return before()\n"
	p := NewParser()
	defer p.Close()
	f, err := p.Parse(t.Context(), ByName("python"), "long.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range f.Symbols {
		names = append(names, s.Name)
		if s.Name == "after" && s.Doc != "Leading comment of after." {
			t.Errorf("after's doc = %q", s.Doc)
		}
	}
	if fmt.Sprint(names) != "[before after]" {
		t.Errorf("definitions %v, want [before after]", names)
	}
}
