package lang

import (
	"errors"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// goldenSources returns every source file of the golden archives with
// its language.
func goldenSources(tb testing.TB) (files []txtar.File, langs []*Language) {
	tb.Helper()
	for _, l := range languages {
		ar, err := txtar.ParseFile("testdata/golden/" + l.Name + ".txtar")
		if err != nil {
			tb.Fatalf("golden archive for %s: %v", l.Name, err)
		}
		for _, f := range ar.Files {
			if !strings.HasSuffix(f.Name, ".want") {
				files = append(files, f)
				langs = append(langs, l)
			}
		}
	}
	return files, langs
}

// FuzzExtract feeds arbitrary bytes to every language. Extraction must
// not fail (except for the parser giving up), must keep every span
// inside the file, and must build each qualified name from its parent's.
func FuzzExtract(f *testing.F) {
	files, langs := goldenSources(f)
	for i, file := range files {
		f.Add(uint8(slicesIndex(langs[i])), file.Data)
	}
	p := NewParser()
	defer p.Close()
	f.Fuzz(func(t *testing.T, which uint8, src []byte) {
		l := languages[int(which)%len(languages)]
		got, err := p.Parse(t.Context(), l, "fuzz", src)
		if errors.Is(err, ErrParse) {
			return
		}
		if err != nil {
			t.Fatalf("%s: %v", l.Name, err)
		}
		checkSpans(t, got, src)
		for _, s := range got.Symbols {
			if s.Name == "" || !strings.HasSuffix(s.Qual, s.Name) {
				t.Fatalf("%s: symbol %q has qualified name %q", l.Name, s.Name, s.Qual)
			}
			if s.Parent != "" && !strings.HasPrefix(s.Qual, s.Parent+".") {
				t.Fatalf("%s: %q is not inside its parent %q", l.Name, s.Qual, s.Parent)
			}
		}
	})
}

func slicesIndex(l *Language) int {
	for i, x := range languages {
		if x == l {
			return i
		}
	}
	return 0
}

// TestMemoryFlat parses thousands of files, opening and closing parsers
// along the way, and checks that the process's resident memory stays
// flat: every tree-sitter object is freed (they have no finalizers).
func TestMemoryFlat(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/statm, which only Linux has")
	}
	files, langs := goldenSources(t)
	const total = 4000
	parse := func(from, to int) {
		var p *Parser
		for i := from; i < to; i++ {
			if i%250 == 0 {
				if p != nil {
					p.Close()
				}
				p = NewParser()
			}
			j := i % len(files)
			if _, err := p.Parse(t.Context(), langs[j], files[j].Name, files[j].Data); err != nil {
				t.Fatal(err)
			}
		}
		p.Close()
	}
	parse(0, 500) // warm up: grammars, queries, Go heap
	before := rss(t)
	parse(500, total)
	after := rss(t)
	t.Logf("resident memory after 500 parses: %d MiB, after %d: %d MiB", before>>20, total, after>>20)
	if after > before+32<<20 {
		t.Errorf("memory grew by %d MiB over %d parses: a tree-sitter object is not closed", (after-before)>>20, total-500)
	}
}

// rss returns the resident set size after a full garbage collection.
func rss(t *testing.T) int64 {
	t.Helper()
	runtime.GC()
	debug.FreeOSMemory()
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(data))
	pages, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return pages * int64(os.Getpagesize())
}
