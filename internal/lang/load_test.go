package lang

import (
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/symbol"
)

// TestParseWhileLoading parses every golden source with copies of the
// languages whose queries are not compiled yet, on several goroutines at
// once: the first parse of each copy compiles the query while it parses
// (loadAsync), and every parse must extract what a parse with the query
// compiled beforehand does.
func TestParseWhileLoading(t *testing.T) {
	files, langs := goldenSources(t)
	p := NewParser()
	defer p.Close()
	want := make([]*symbol.File, len(files))
	for i, f := range files {
		var err error
		if want[i], err = p.Parse(t.Context(), langs[i], f.Name, f.Data); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
	}
	fresh := make(map[*Language]*Language)
	for _, l := range languages {
		fresh[l] = unloaded(l, false)
	}
	const workers = 3
	got := make([][]*symbol.File, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		got[w] = make([]*symbol.File, len(files))
		wg.Go(func() {
			p := NewParser()
			defer p.Close()
			for i, f := range files {
				if got[w][i], errs[w] = p.Parse(t.Context(), fresh[langs[i]], f.Name, f.Data); errs[w] != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	for w := range workers {
		if errs[w] != nil {
			t.Fatalf("worker %d: %v", w, errs[w])
		}
		for i, f := range files {
			if diff := cmp.Diff(want[i], got[w][i]); diff != "" {
				t.Errorf("%s, worker %d: parsed while the query compiled, differs (-compiled before +meanwhile):\n%s", f.Name, w, diff)
			}
		}
	}
}

// TestParseBrokenQuery: a query that does not load fails the parse, now
// and on every later parse, though the file parsed meanwhile.
func TestParseBrokenQuery(t *testing.T) {
	l := unloaded(pythonLang, false)
	l.queries = []string{"python", "no-such-query"}
	p := NewParser()
	defer p.Close()
	for range 2 {
		f, err := p.Parse(t.Context(), l, "a.py", []byte("import os\n\ndef f():\n    return os.sep\n"))
		if err == nil || errors.Is(err, ErrParse) {
			t.Fatalf("Parse with a missing query file = %v, %v; want the query's error", f, err)
		}
	}
}
