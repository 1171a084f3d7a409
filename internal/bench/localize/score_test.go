package localize

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// handInstances and handResults are a made-up run whose every metric was
// computed by hand in wantHand. Five instances over two repositories:
//
//	A  o/p  2 gold files, 3 gold functions (one a constructor);
//	        derived rankings; names a file and a function; traceback
//	B  o/p  1 of its 2 gold files exists; native file ranking that
//	        differs from the derived one
//	C  q/r  its only gold file is added by the fix, no gold functions;
//	        its result failed
//	D  q/r  5 gold functions, 4 of them in the top 5 (|gold| = k)
//	E  q/r  no result at all
var handInstances = []Instance{
	{
		ID: "A", Repo: "o/p", BaseCommit: "aaa",
		ProblemStatement: "Calling Foo() crashes in pkg/a.py\n" +
			"Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\nValueError\n",
		GoldFiles:     []string{"pkg/a.py", "pkg/b.py"},
		EditFunctions: []string{"pkg/a.py:Foo.__init__", "pkg/a.py:bar", "pkg/b.py:Baz.run"},
	},
	{
		ID: "B", Repo: "o/p", BaseCommit: "bbb",
		ProblemStatement: "The parser drops input when feed is called twice.\n",
		GoldFiles:        []string{"lib/new.py", "lib/m.py"},
		EditFunctions:    []string{"lib/m.py:parse", "lib/m.py:Parser.feed"},
		AddedFunctions:   []string{"lib/new.py:helper"},
	},
	{
		ID: "C", Repo: "q/r", BaseCommit: "ccc",
		ProblemStatement: "Add a command-line tool.\n",
		GoldFiles:        []string{"tools/new_tool.py"},
		AddedFunctions:   []string{"tools/new_tool.py:main"},
	},
	{
		ID: "D", Repo: "q/r", BaseCommit: "ddd",
		ProblemStatement: "In s.two, calling g2 returns None:\n  File \"/tmp/t.py\", line 4, in <module>\n",
		GoldFiles:        []string{"s/one.py", "s/two.py"},
		EditFunctions:    []string{"s/one.py:f1", "s/one.py:f2", "s/one.py:K.__init__", "s/two.py:g1", "s/two.py:g2"},
	},
	{
		ID: "E", Repo: "q/r", BaseCommit: "eee",
		ProblemStatement: "The runner hangs.\n",
		GoldFiles:        []string{"e.py"},
		EditFunctions:    []string{"e.py:run"},
	},
}

var handResults = []Result{
	{
		ID: "A",
		// normalised and deduplicated: c:helper, a:Foo, b:Baz.run, b:Baz.stop, a:bar
		FoundEntities: []string{"pkg/c.py:helper", "pkg/a.py:Foo.__init__", "pkg/a.py:Foo",
			"pkg/b.py:Baz.run", "pkg/b.py:Baz.stop", "pkg/a.py:bar"},
		ContextTokens: 1500, LatencyMS: 10, IndexMS: 1000,
		BudgetRecall: map[int]float64{2000: 0, 4000: 1.0 / 3, 8000: 1, 16000: 1},
	},
	{
		ID:            "B",
		FoundFiles:    []string{"lib/z.py", "lib/m.py"}, // derived would be m, z
		FoundEntities: []string{"lib/m.py:Parser.feed", "lib/z.py:zed", "lib/m.py:parse"},
		ContextTokens: 2500, LatencyMS: 30, IndexMS: 0,
		BudgetRecall: map[int]float64{2000: 0.5, 4000: 0.5, 8000: 1, 16000: 1},
	},
	{
		ID:            "C",
		FoundEntities: []string{"tools/cli.py:main"},
		ContextTokens: 500, LatencyMS: 20, IndexMS: 3000,
		BudgetRecall: map[int]float64{2000: 0, 4000: 0, 8000: 0, 16000: 0},
		Error:        "query: boom",
	},
	{
		ID: "D",
		FoundEntities: []string{"s/one.py:f1", "s/one.py:K", "s/two.py:g1", "s/two.py:g2",
			"s/three.py:h", "s/one.py:x", "s/one.py:f2"},
		ContextTokens: 3500, LatencyMS: 40, IndexMS: 2000,
		BudgetRecall: map[int]float64{2000: 0.2, 4000: 0.6, 8000: 0.8}, // no 16000
	},
}

// handTrees are the files at each instance's base commit.
var handTrees = map[string][]string{
	"A": {"pkg/a.py", "pkg/b.py", "pkg/c.py"},
	"B": {"lib/m.py", "lib/z.py"},
	"C": {"tools/cli.py"},
	"D": {"s/one.py", "s/two.py", "s/three.py"},
	"E": {"e.py"},
}

func handExists(in Instance, path string) (bool, error) {
	for _, f := range handTrees[in.ID] {
		if f == path {
			return true, nil
		}
	}
	return false, nil
}

// wantHand is the report of handResults, by hand.
//
// Gold. Files (existing): A {a, b}; B {m} (new.py absent); C none
// (new_tool.py absent: excluded); D {one, two}; E {e}. Functions after
// normalisation: A {a:Foo, a:bar, b:Baz.run}; B {m:parse, m:Parser.feed};
// C none (excluded); D {one:f1, one:f2, one:K, two:g1, two:g2}; E {e:run}.
// Modules: A {a:Foo, a:bar, b:Baz}; B {m:parse, m:Parser}; D = its
// functions; E {e:run}. C failed and E has no result: both rank nothing.
//
// Rankings. A files (derived) c, a, b; modules c:helper, a:Foo, b:Baz,
// a:bar. B files (native) z, m; modules m:Parser, z:zed, m:parse.
// D files one, two, three; modules one:f1, one:K, two:g1, two:g2,
// three:h, one:x, one:f2.
//
// File Acc, n 4 (A B D E), 1 excluded (C):
//
//	@1:  A c∉gold miss; B z∉gold miss; D one∈gold hit (needs min(2,1)=1); E miss → 1/4 = 25%
//	@3:  A {c,a,b} holds 2 = min(2,3) hit; B {z,m} holds 1 hit; D hit; E miss → 3/4
//	@5, @10: the same → 3/4
//
// Module Acc, n 4 (A B D E), 1 excluded (C):
//
//	@5:  A top 4 holds 3 = min(3,5) hit; B holds 2 hit; D holds 4 < min(5,5) miss; E miss → 2/4
//	@10: A, B, D (7 deep, holds 5) hit → 3/4
//
// Function Acc, n 4, 1 excluded:
//
//	@5:  A holds a:Foo, b:Baz.run, a:bar = 3 hit; B 2 hit; D f1 K g1 g2 = 4 < 5 miss; E miss → 2/4
//	@10: A, B, D (f2 at rank 7) hit → 3/4
//
// Recall@1: A 0 (c:helper), B 1/2, D 1/5, E 0 → 0.7/4 = 0.175
// Recall@5: A 3/3, B 2/2, D 4/5, E 0 → 2.8/4 = 0.7
// Recall@10, @50: 1 + 1 + 1 + 0 → 3/4
// MRR: A 1/2 (a:Foo at 2), B 1, D 1, E 0 → 2.5/4 = 0.625
//
// Budget recall over A B D E (C has no gold functions; E and a missing
// budget count 0):
//
//	2000:  0 + .5 + .2 + 0 → 0.7/4 = 0.175, reported by 3
//	4000:  1/3 + .5 + .6 + 0 → (43/30)/4 = 43/120, reported by 3
//	8000:  1 + 1 + .8 + 0 → 2.8/4 = 0.7, reported by 3
//	16000: 1 + 1 + 0 + 0 → 0.5, reported by 2 (D lacks it)
//
// Measurements over results without error (A B D): tokens 1500 2500
// 3500 (mean 2500, p50 = 2nd of 3, p95 = 3rd of 3); latency 10 30 40
// (sum 80, mean 80/3). Index times over IndexMS > 0, failed C included:
// 1000 2000 3000 (sum 6000).
//
// Strata, per instance: file@1 file@5 func@10, and the cues
//
//	A  miss hit hit   names file (pkg/a.py), names function (Foo), traceback
//	B  miss hit hit   names function (feed; "parser" is not "parse")
//	C  -    -   -     nothing (no existing gold file, no gold function)
//	D  hit  hit hit   names file (s.two), names function (g2), traceback (File "…", line 4)
//	E  miss miss miss nothing ("runner" is not "run"; e.py unnamed)
var wantHand = &Report{
	Instances:     5,
	Missing:       []string{"E"},
	Failed:        []string{"C"},
	FileRanking:   Source{Native: 1, Derived: 2},
	ModuleRanking: Source{Native: 0, Derived: 3},
	File:          Level{N: 4, Excluded: 1, Acc: []AtK{{1, 0.25}, {3, 0.75}, {5, 0.75}, {10, 0.75}}},
	Module:        Level{N: 4, Excluded: 1, Acc: []AtK{{5, 0.5}, {10, 0.75}}},
	Function:      Level{N: 4, Excluded: 1, Acc: []AtK{{5, 0.5}, {10, 0.75}}},
	Recall:        []AtK{{1, 0.175}, {5, 0.7}, {10, 0.75}, {50, 0.75}},
	MRR:           0.625,
	Budget: []Budget{
		{Tokens: 2000, N: 4, Reported: 3, Recall: 0.175},
		{Tokens: 4000, N: 4, Reported: 3, Recall: 43.0 / 120},
		{Tokens: 8000, N: 4, Reported: 3, Recall: 0.7},
		{Tokens: 16000, N: 4, Reported: 2, Recall: 0.5},
	},
	ContextTokens: Summary{N: 3, Sum: 7500, Mean: 2500, P50: 2500, P95: 3500, Max: 3500},
	LatencyMS:     Summary{N: 3, Sum: 80, Mean: 80.0 / 3, P50: 30, P95: 40, Max: 40},
	IndexMS:       Summary{N: 3, Sum: 6000, Mean: 2000, P50: 2000, P95: 3000, Max: 3000},
	Strata: []Stratum{
		// A B: file@1 0/2, file@5 2/2, func@10 2/2
		{Name: "repo o/p", N: 2, FileN: 2, FuncN: 2, File1: 0, File5: 1, Func10: 1},
		// C D E, scored D E: D hits, E misses
		{Name: "repo q/r", N: 3, FileN: 2, FuncN: 2, File1: 0.5, File5: 0.5, Func10: 0.5},
		// A D
		{Name: "names a gold file: yes", N: 2, FileN: 2, FuncN: 2, File1: 0.5, File5: 1, Func10: 1},
		// B C E, scored B E: file@1 0/2, file@5 1/2, func@10 1/2
		{Name: "names a gold file: no", N: 3, FileN: 2, FuncN: 2, File1: 0, File5: 0.5, Func10: 0.5},
		// A B D: file@1 1/3
		{Name: "names a gold function: yes", N: 3, FileN: 3, FuncN: 3, File1: 1.0 / 3, File5: 1, Func10: 1},
		// C E, scored E
		{Name: "names a gold function: no", N: 2, FileN: 1, FuncN: 1, File1: 0, File5: 0, Func10: 0},
		// A D
		{Name: "has a traceback: yes", N: 2, FileN: 2, FuncN: 2, File1: 0.5, File5: 1, Func10: 1},
		// B C E
		{Name: "has a traceback: no", N: 3, FileN: 2, FuncN: 2, File1: 0, File5: 0.5, Func10: 0.5},
	},
}

var approx = cmpopts.EquateApprox(0, 1e-12)

func TestScoreByHand(t *testing.T) {
	got, err := Score(handInstances, handResults, handExists)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantHand, got, approx); diff != "" {
		t.Errorf("Score (-want +got):\n%s", diff)
	}
}

// TestScoreDerivedFiles drops B's native file ranking: derived from its
// functions it is m, z, so B hits at file @1, and every figure that
// counts B at file @1 moves.
func TestScoreDerivedFiles(t *testing.T) {
	results := clone(handResults)
	results[1].FoundFiles = nil
	want := *wantHand
	want.FileRanking = Source{Native: 0, Derived: 3}
	want.File.Acc = []AtK{{1, 0.5}, {3, 0.75}, {5, 0.75}, {10, 0.75}} // B and D at @1
	want.Strata = append([]Stratum(nil), wantHand.Strata...)
	want.Strata[0].File1 = 0.5     // repo o/p: B of A B
	want.Strata[3].File1 = 0.5     // names no file: B of B E
	want.Strata[4].File1 = 2.0 / 3 // names a function: B D of A B D
	want.Strata[7].File1 = 0.5     // no traceback: B of B E

	got, err := Score(handInstances, results, handExists)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&want, got, approx); diff != "" {
		t.Errorf("Score (-want +got):\n%s", diff)
	}
}

// TestScoreNativeModules: native modules are normalised to modules too,
// and deduplicated after that.
func TestScoreNativeModules(t *testing.T) {
	results := clone(handResults)
	// A's gold modules are a:Foo, a:bar, b:Baz: all three in the top 5
	// only if a:Foo.__init__ and a:Foo count once.
	results[0].FoundModules = []string{"pkg/a.py:Foo.__init__", "pkg/a.py:Foo", "pkg/c.py:x", "pkg/c.py:y", "pkg/b.py:Baz.run", "pkg/a.py:bar"}
	got, err := Score(handInstances, results, handExists)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Source{Native: 1, Derived: 2}); got.ModuleRanking != want {
		t.Errorf("ModuleRanking = %+v, want %+v", got.ModuleRanking, want)
	}
	if diff := cmp.Diff(wantHand.Module, got.Module, approx); diff != "" {
		t.Errorf("Module (-want +got):\n%s", diff)
	}
}

func TestScoreErrors(t *testing.T) {
	tests := []struct {
		name    string
		results []Result
		exists  Exists
	}{
		{"unknown instance", []Result{{ID: "Z"}}, nil},
		{"result twice", []Result{{ID: "A"}, {ID: "A"}}, nil},
		{"exists fails", nil, func(Instance, string) (bool, error) { return false, os.ErrPermission }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Score(handInstances, tt.results, tt.exists); err == nil {
				t.Error("Score succeeded, want an error")
			}
		})
	}
}

func TestReportText(t *testing.T) {
	var buf bytes.Buffer
	if err := wantHand.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.txt", buf.Bytes())
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

func clone(rs []Result) []Result { return append([]Result(nil), rs...) }
