package lang

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/winnowhq/winnow/internal/symbol"
)

// TestScanGolden scans every source file in testdata/scan/*.txtar and
// compares the result with the archive's "<file>.want" section, rendered
// as the parser's goldens are; a file the scanner refuses wants
// "error: <why>". Run with -update to rewrite the wants, then review.
func TestScanGolden(t *testing.T) {
	archives, err := filepath.Glob("testdata/scan/*.txtar")
	if err != nil || len(archives) == 0 {
		t.Fatalf("no archives in testdata/scan: %v", err)
	}
	for _, name := range archives {
		t.Run(strings.TrimSuffix(filepath.Base(name), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(name)
			if err != nil {
				t.Fatal(err)
			}
			wants := make(map[string][]byte)
			for _, f := range ar.Files {
				if src, ok := strings.CutSuffix(f.Name, ".want"); ok {
					wants[src] = f.Data
				}
			}
			var sc Scanner
			var out []txtar.File
			for _, f := range ar.Files {
				if strings.HasSuffix(f.Name, ".want") {
					continue
				}
				l := ForPath(f.Name)
				if l == nil || !l.HasScanner() {
					t.Fatalf("%s: no scanner for this file name", f.Name)
				}
				got := renderScan(t, &sc, l, f.Name, f.Data)
				out = append(out, f, txtar.File{Name: f.Name + ".want", Data: []byte(got)})
				if *update {
					continue
				}
				want, ok := wants[f.Name]
				if !ok {
					t.Errorf("%s: no %s.want section (run with -update)", f.Name, f.Name)
					continue
				}
				if diff := cmp.Diff(string(want), got); diff != "" {
					t.Errorf("%s: scan differs (-want +got):\n%s", f.Name, diff)
				}
			}
			if *update {
				ar.Files = out
				if err := os.WriteFile(name, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// renderScan scans one file and renders the result, or the reason the
// scanner refused it.
func renderScan(t *testing.T, sc *Scanner, l *Language, name string, src []byte) string {
	t.Helper()
	f, err := sc.Scan(l, name, src)
	if err != nil {
		if !errors.Is(err, ErrScan) || strings.Contains(err.Error(), "internal error") {
			t.Fatalf("%s: %v", name, err)
		}
		_, why, _ := strings.Cut(err.Error(), ErrScan.Error()+": ")
		return "error: " + why + "\n"
	}
	checkSpans(t, f, src)
	return renderFile(f)
}

// scanAgreement is, per language, the share of the parser's definitions
// (on the parser's golden files) the scanner must find with the same
// kind, qualified name and lines, and the share it must find exactly so,
// signature, doc and visibility too. Python and Go are read as the
// parser reads them; the other passes follow their languages' keywords
// and shapes, and leave out rarer forms (a second declarator, local
// functions of C#, C++'s access sections).
var scanAgreement = map[string][2]float64{
	"python":     {1, 1},
	"go":         {1, 1},
	"javascript": {1, 0.9},
	"typescript": {1, 0.85},
	"tsx":        {1, 0.85},
	"java":       {0.95, 0.75},
	"csharp":     {0.75, 0.5},
	"kotlin":     {0.85, 0.6},
	"rust":       {0.9, 0.7},
	"c":          {0.85, 0.6},
	"cpp":        {0.9, 0.8},
	"ruby":       {0.9, 0.7},
}

// TestScanAgreesWithParser scans the sources of the parser's golden
// archives and compares what the scanner finds with what the parser
// does: the scanner is a stand-in for the parser until the full tier
// runs, so where it differs it must be rare and on purpose.
func TestScanAgreesWithParser(t *testing.T) {
	archives, err := filepath.Glob("testdata/golden/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	p := NewParser()
	defer p.Close()
	var sc Scanner
	type count struct{ loose, exact, parsed int }
	found := make(map[string]count)
	for _, name := range archives {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			l := ForPath(f.Name)
			if strings.HasSuffix(f.Name, ".want") || l == nil || !l.HasScanner() {
				continue
			}
			parsed, err := p.Parse(t.Context(), l, f.Name, f.Data)
			if err != nil {
				t.Fatal(err)
			}
			if parsed.HasError {
				continue // the scanner refuses what does not balance; the parser recovers
			}
			scanned, err := sc.Scan(l, f.Name, f.Data)
			if err != nil {
				t.Errorf("%s: %v", f.Name, err)
				continue
			}
			loose, exact := make(map[string]bool), make(map[string]bool)
			for _, s := range scanned.Symbols {
				loose[looseKey(s)] = true
				exact[symbolKey(s)] = true
			}
			n := found[l.Name]
			for _, s := range parsed.Symbols {
				n.parsed++
				switch {
				case exact[symbolKey(s)]:
					n.exact++
					n.loose++
				case loose[looseKey(s)]:
					n.loose++
					t.Logf("%s: the scanner differs on %s", f.Name, symbolKey(s))
				default:
					t.Logf("%s: the scanner missed %s", f.Name, looseKey(s))
				}
			}
			found[l.Name] = n
		}
	}
	for lang, want := range scanAgreement {
		n := found[lang]
		if n.parsed == 0 {
			t.Errorf("%s: no golden definitions to compare", lang)
			continue
		}
		loose, exact := float64(n.loose)/float64(n.parsed), float64(n.exact)/float64(n.parsed)
		t.Logf("%-10s %3d definitions: %5.1f%% found, %5.1f%% exactly", lang, n.parsed, 100*loose, 100*exact)
		if loose < want[0] || exact < want[1] {
			t.Errorf("%s: the scanner finds %.0f%% of the parser's %d definitions (%.0f%% exactly), want at least %.0f%% (%.0f%%)",
				lang, 100*loose, n.parsed, 100*exact, 100*want[0], 100*want[1])
		}
	}
}

// looseKey identifies a definition by its kind, qualified name and lines.
func looseKey(s symbol.Symbol) string {
	return fmt.Sprintf("%s %s %d-%d", s.Kind, s.Qual, s.Span.StartLine, s.Span.EndLine)
}

func symbolKey(s symbol.Symbol) string {
	return fmt.Sprintf("%s %s %d-%d %s sig=%q doc=%q", s.Kind, s.Qual, s.Span.StartLine, s.Span.EndLine, s.Visibility, s.Signature, s.Doc)
}

// FuzzScan checks, for any input, that the scanner either refuses the
// file on purpose or returns spans inside the file, nested inside their
// parents, and references with valid lines; never an internal error.
func FuzzScan(f *testing.F) {
	for _, seed := range []string{
		"def f(a,\n      b):\n    '''doc'''\n    return a\n",
		"class A:\n    x = 1\n    @d\n    def m(self): pass\n",
		"s = '''\ndef x(): pass\n'''\nif a: \\\n  b\n",
		"import a.b as c\nfrom .x import (y as z,\n w)\n",
		"@\ndef\nclass\n(:\n",
	} {
		f.Add("x.py", seed)
	}
	for name, seed := range map[string]string{
		"x.go":   "package p\ntype T[K any] struct{ a, b int `tag:\"{\"` }\nfunc (t *T[K]) M() (int, error) { return 0, nil }\n",
		"x.js":   "export class A extends B { #x = 1; get y() { return `${this.#x}${`n${1}`}` } }\nconst f = (a) => /[}]/.test(a);\n",
		"x.ts":   "export type T<U = string> = { a: U; b(): void };\nenum E { A, \"B\" }\ndeclare module \"m\" { function f(): void }\n",
		"x.tsx":  "export default class C extends React.Component<{}, { n: number }> { render() { return <a>{1}</a>; } }\n",
		"x.java": "public record R<K>(K key) implements X { public R { } enum E { A(1) { void f() {} }; E(int x) {} } }\n",
		"x.cs":   "namespace N; public class C { public int P { get; set; } = 1; public static C operator +(C a, C b) => a; }\n",
		"x.kt":   "enum class E { A, B { override fun f() = 1 } }\nclass C(private val x: Int) { companion object { const val V = 1 } }\n",
		"x.rs":   "pub struct S<'a> { pub x: &'a str }\nimpl<T> Tr for S<T> { fn f(&self) -> u8 { b'x' } }\nmacro_rules! m { () => {} }\n",
		"x.c":    "typedef struct s { int (*f)(int); } s_t;\nenum e {\n#ifdef X\n A,\n#endif\n B };\n#define M(x) ((x)+1)\n",
		"x.cc":   "namespace n { template <typename T> C<T>::~C() {} extern \"C\" { int f(); } }\n",
		"x.rb":   "module M\n  X = 1\n  class C < B\n    def f(a) = a\n    def g\n      s = <<~E\n        end\n      E\n      a.each { |x|\n        if x then y end\n      }\n    end\n  end\nend\n",
	} {
		f.Add(name, seed)
	}
	f.Fuzz(func(t *testing.T, name, src string) {
		l := ForPath(name)
		if l == nil || !l.HasScanner() {
			return
		}
		var sc Scanner
		got, err := sc.Scan(l, name, []byte(src))
		if err != nil {
			if !errors.Is(err, ErrScan) || strings.Contains(err.Error(), "internal error") {
				t.Fatalf("%q: %v", src, err)
			}
			return
		}
		checkSpans(t, got, []byte(src))
	})
}
