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

// scanAgreement is the share of the parser's definitions the scanner must
// find with the same qualified name, kind, lines, signature, doc and
// visibility, per language, on the parser's golden files.
var scanAgreement = map[string]float64{
	"python": 1.0,
	"go":     1.0,
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
	found := make(map[string][2]int) // language → matched, parsed
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
			got := make(map[string]bool)
			for _, s := range scanned.Symbols {
				got[symbolKey(s)] = true
			}
			n := found[l.Name]
			for _, s := range parsed.Symbols {
				n[1]++
				if got[symbolKey(s)] {
					n[0]++
				} else {
					t.Logf("%s: the scanner missed or differs on %s", f.Name, symbolKey(s))
				}
			}
			found[l.Name] = n
		}
	}
	for lang, want := range scanAgreement {
		n := found[lang]
		if n[1] == 0 {
			t.Errorf("%s: no golden definitions to compare", lang)
			continue
		}
		if got := float64(n[0]) / float64(n[1]); got < want {
			t.Errorf("%s: the scanner agrees with the parser on %d of %d definitions (%.0f%%), want at least %.0f%%",
				lang, n[0], n[1], 100*got, 100*want)
		}
	}
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
