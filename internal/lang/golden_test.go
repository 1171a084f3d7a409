package lang

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/winnowhq/winnow/internal/symbol"
)

var update = flag.Bool("update", false, "rewrite golden files with the current output")

// TestGolden parses every source file in testdata/golden/*.txtar and
// compares what was extracted with the archive's "<file>.want" section.
// One archive per language; run with -update to rewrite the wants, then
// review the diff.
func TestGolden(t *testing.T) {
	archives, err := filepath.Glob("testdata/golden/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(archives) == 0 {
		t.Fatal("no golden archives in testdata/golden")
	}
	for _, name := range archives {
		t.Run(strings.TrimSuffix(filepath.Base(name), ".txtar"), func(t *testing.T) {
			testGoldenArchive(t, name)
		})
	}
}

func testGoldenArchive(t *testing.T, name string) {
	ar, err := txtar.ParseFile(name)
	if err != nil {
		t.Fatal(err)
	}
	p := NewParser()
	defer p.Close()
	wants := make(map[string]int)
	for i, f := range ar.Files {
		if src, ok := strings.CutSuffix(f.Name, ".want"); ok {
			wants[src] = i
		}
	}
	var out []txtar.File
	for _, f := range ar.Files {
		if strings.HasSuffix(f.Name, ".want") {
			continue
		}
		l := ForPath(f.Name)
		if l == nil {
			t.Fatalf("%s: no language for this file name", f.Name)
		}
		got, err := p.Parse(t.Context(), l, f.Name, f.Data)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		checkSpans(t, got, f.Data)
		rendered := renderFile(got)
		out = append(out, f, txtar.File{Name: f.Name + ".want", Data: []byte(rendered)})
		if *update {
			continue
		}
		i, ok := wants[f.Name]
		if !ok {
			t.Errorf("%s: no %s.want section (run with -update)", f.Name, f.Name)
			continue
		}
		if diff := cmp.Diff(string(ar.Files[i].Data), rendered); diff != "" {
			t.Errorf("%s: extraction differs (-want +got):\n%s", f.Name, diff)
		}
	}
	if *update {
		ar.Files = out
		if err := os.WriteFile(name, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkSpans asserts the invariants every extraction keeps: spans lie
// inside the file and a child lies inside its parent.
func checkSpans(t *testing.T, f *symbol.File, src []byte) {
	t.Helper()
	lines := bytes.Count(src, []byte("\n")) + 1
	byQual := make(map[string]symbol.Span)
	for _, s := range f.Symbols {
		sp := s.Span
		if sp.StartByte < 0 || sp.StartByte > sp.EndByte || sp.EndByte > len(src) {
			t.Errorf("%s: %s: byte span %d-%d outside file of %d bytes", f.Path, s.Qual, sp.StartByte, sp.EndByte, len(src))
		}
		if sp.StartLine < 1 || sp.StartLine > sp.EndLine || sp.EndLine > lines {
			t.Errorf("%s: %s: line span %d-%d outside file of %d lines", f.Path, s.Qual, sp.StartLine, sp.EndLine, lines)
		}
		byQual[s.Qual] = sp
	}
	for _, r := range f.Refs {
		if r.Line < 1 || r.Line > lines || r.Count < 1 {
			t.Errorf("%s: reference %s at line %d count %d", f.Path, r.Name, r.Line, r.Count)
		}
	}
}

// renderFile prints an extraction in a form meant for review: one block
// per symbol, then imports, then references grouped by scope.
func renderFile(f *symbol.File) string {
	var b strings.Builder
	if f.Package != "" {
		fmt.Fprintf(&b, "package %s\n", f.Package)
	}
	if f.HasError {
		b.WriteString("has_error\n")
	}
	for _, s := range f.Symbols {
		fmt.Fprintf(&b, "%s %s %d-%d %s", s.Kind, s.Qual, s.Span.StartLine, s.Span.EndLine, s.Visibility)
		if s.Parent != "" {
			fmt.Fprintf(&b, " parent=%s", s.Parent)
		}
		b.WriteByte('\n')
		if s.Signature != "" {
			fmt.Fprintf(&b, "  sig: %s\n", strings.ReplaceAll(s.Signature, "\n", "\n       "))
		}
		if d := s.DocLine(); d != "" {
			fmt.Fprintf(&b, "  doc: %s\n", d)
		}
	}
	for _, imp := range f.Imports {
		fmt.Fprintf(&b, "import %s", imp.Module)
		if imp.Name != "" {
			fmt.Fprintf(&b, " name=%s", imp.Name)
		}
		if imp.Alias != "" {
			fmt.Fprintf(&b, " as=%s", imp.Alias)
		}
		fmt.Fprintf(&b, " line=%d\n", imp.Line)
	}
	type group struct {
		scope string
		parts map[symbol.RefKind][]string
	}
	var groups []*group
	byScope := make(map[string]*group)
	for _, r := range f.Refs {
		g := byScope[r.Scope]
		if g == nil {
			g = &group{scope: r.Scope, parts: make(map[symbol.RefKind][]string)}
			byScope[r.Scope] = g
			groups = append(groups, g)
		}
		name := r.Name
		if r.Count > 1 {
			name = fmt.Sprintf("%s×%d", r.Name, r.Count)
		}
		g.parts[r.Kind] = append(g.parts[r.Kind], name)
	}
	for _, g := range groups {
		scope := g.scope
		if scope == "" {
			scope = "<top>"
		}
		fmt.Fprintf(&b, "refs %s:", scope)
		for _, k := range []symbol.RefKind{symbol.RefCall, symbol.RefType, symbol.RefMember, symbol.RefName} {
			if names := g.parts[k]; len(names) > 0 {
				slices.Sort(names)
				fmt.Fprintf(&b, " %s(%s)", k, strings.Join(names, " "))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
