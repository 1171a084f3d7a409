package telescope

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBuildIsIncremental(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			root := fixture(t)
			st := open(t)
			e, c := newEngine(t, root, st)
			first := build(t, e, Request{Strategy: "counted"})
			units := first.Stats.Units
			if units != 9 {
				t.Fatalf("first build: %d units, want 9 (every fixture file)", units)
			}
			if got := int(c.total.Load()); got != units {
				t.Errorf("first build: %d strategy calls, want %d", got, units)
			}
			want := LevelCounts{Units: units, Groups: first.Stats.Groups, Root: 1}
			if diff := cmp.Diff(want, first.Stats.Computed); diff != "" {
				t.Errorf("first build computed (-want +got):\n%s", diff)
			}

			// A second engine over the same store: a second process.
			e2, c2 := newEngine(t, root, st)
			second := build(t, e2, Request{Strategy: "counted"})
			if n := c2.total.Load(); n != 0 {
				t.Errorf("second build: %d strategy calls, want 0", n)
			}
			if second.Stats.Computed != (LevelCounts{}) || second.Stats.HitRate != 1 {
				t.Errorf("second build computed %+v, hit rate %v; want nothing computed, hit rate 1", second.Stats.Computed, second.Stats.HitRate)
			}
			if second.RootID != first.RootID || second.Index != first.Index {
				t.Errorf("second build: root %s, want %s, and the same index", second.RootID, first.RootID)
			}
			if diff := cmp.Diff(first.KeyMap, second.KeyMap); diff != "" {
				t.Errorf("key map differs (-first +second):\n%s", diff)
			}
			if first.Stats.InputTokens != second.Stats.InputTokens || first.Stats.OutputTokens != second.Stats.OutputTokens || second.Stats.Units != units {
				t.Errorf("stats differ: first %+v, second %+v", first.Stats, second.Stats)
			}

			// One file changes: its unit and its ancestors are recomputed, nothing else.
			writeFile(t, filepath.Join(root, "shop/payments/card.py"), "\"\"\"Card payments.\"\"\"\n\n\ndef refund(tx):\n    return tx\n")
			e3, c3 := newEngine(t, root, st)
			third := build(t, e3, Request{Strategy: "counted"})
			if diff := cmp.Diff(map[string]int{"shop/payments/card.py": 1}, c3.calls); diff != "" {
				t.Errorf("rebuild: strategy calls (-want +got):\n%s", diff)
			}
			if want := (LevelCounts{Units: 1, Groups: 1, Root: 1}); third.Stats.Computed != want {
				t.Errorf("rebuild computed %+v, want %+v", third.Stats.Computed, want)
			}
			changed := 0
			for k, id := range third.KeyMap {
				if first.KeyMap[k] != id {
					changed++
				}
			}
			if changed != 3 { // the unit, shop/payments/, the root
				t.Errorf("rebuild changed %d ids, want 3", changed)
			}
		})
	}
}

func TestRebuildLevelThree(t *testing.T) {
	root := fixture(t)
	st := newMemStore()
	e, _ := newEngine(t, root, st)
	first := build(t, e, Request{Strategy: "counted", Levels: 3})
	if _, ok := first.KeyMap["L3:shop/"]; !ok {
		t.Fatalf("no L3 group for shop/: %v", first.KeyMap)
	}
	writeFile(t, filepath.Join(root, "shop/orders.py"), "def f():\n    return 1\n")
	e2, c2 := newEngine(t, root, st)
	res := build(t, e2, Request{Strategy: "counted", Levels: 3})
	if want := (LevelCounts{Units: 1, Groups: 2, Root: 1}); res.Stats.Computed != want {
		t.Errorf("rebuild computed %+v, want %+v (unit, shop/, L3 shop/, root)", res.Stats.Computed, want)
	}
	if c2.total.Load() != 1 {
		t.Errorf("rebuild: %d strategy calls, want 1", c2.total.Load())
	}
}

func TestLevels(t *testing.T) {
	root := fixture(t)
	e, _ := newEngine(t, root, newMemStore())
	one := build(t, e, Request{Levels: 1})
	if one.Level != 2 || one.Stats.Groups != 0 {
		t.Errorf("levels 1: root level %d, %d groups; want 2 and 0", one.Level, one.Stats.Groups)
	}
	if !strings.Contains(one.Index, "shop/orders.py") {
		t.Errorf("levels 1: the root does not list the files:\n%s", one.Index)
	}
	two := build(t, e, Request{})
	if two.Level != 3 || two.Stats.Groups != 7 {
		t.Errorf("levels 2: root level %d, %d groups; want 3 and 7 directories", two.Level, two.Stats.Groups)
	}
	if _, err := e.Build(t.Context(), Request{Levels: 4}); err == nil {
		t.Error("levels 4: no error")
	}
}

func TestBuildSubdirectoryAndFile(t *testing.T) {
	root := fixture(t)
	e, _ := newEngine(t, root, newMemStore())
	res := build(t, e, Request{Path: "shop"})
	var paths []string
	for k := range res.KeyMap {
		if p, ok := strings.CutPrefix(k, "L1:"); ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	if diff := cmp.Diff([]string{"shop/__init__.py", "shop/orders.py", "shop/payments/card.py"}, paths); diff != "" {
		t.Errorf("units of shop (-want +got):\n%s", diff)
	}
	one := build(t, e, Request{Path: filepath.Join(root, "server", "main.go"), Levels: 1})
	if one.Stats.Units != 1 {
		t.Errorf("a file: %d units", one.Stats.Units)
	}
}

func TestPathsOutsideRootAreRefused(t *testing.T) {
	root := fixture(t)
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.py"), "def secret():\n    return 'k'\n")
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.py"), filepath.Join(root, "shop", "link.py")); err != nil {
		t.Fatal(err)
	}
	e, _ := newEngine(t, root, newMemStore())
	for _, p := range []string{"../", "../" + filepath.Base(outside), outside, "escape", "escape/secret.py", "shop/../../x"} {
		if _, err := e.Build(t.Context(), Request{Path: p}); !errors.Is(err, ErrOutsideRoot) {
			t.Errorf("Build(%q) = %v, want ErrOutsideRoot", p, err)
		}
	}
	res := build(t, e, Request{})
	if _, ok := res.KeyMap["L1:shop/link.py"]; ok {
		t.Error("a symbolic link out of the root was read")
	}
	if res.Stats.Skipped[SkipSymlinkOut] == 0 && res.Stats.Skipped[SkipVendored] == 0 {
		t.Logf("skipped: %v", res.Stats.Skipped)
	}
	if !slices.Contains(res.Skipped, Skip{Path: "shop/link.py", Reason: SkipSymlinkOut}) {
		t.Errorf("shop/link.py not skipped as %s: %v", SkipSymlinkOut, res.Skipped)
	}

	// A node from a shared store naming a path outside the root is refused at drilldown.
	bad := &Node{ID: "0123456789ab", Level: 1, Kind: KindUnit, Span: Span{Path: "../" + filepath.Base(outside) + "/secret.py"}}
	if err := e.save(t.Context(), bad); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Drilldown(t.Context(), bad.ID); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("Drilldown of a node outside the root = %v, want ErrOutsideRoot", err)
	}
	bad2 := &Node{ID: "0123456789ac", Level: 1, Kind: KindUnit, Span: Span{Path: "escape/secret.py"}}
	e.save(t.Context(), bad2)
	if _, err := e.Drilldown(t.Context(), bad2.ID); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("Drilldown through a symbolic link out = %v, want ErrOutsideRoot", err)
	}
}

func TestSkippedFiles(t *testing.T) {
	root := fixture(t)
	writeFile(t, filepath.Join(root, "blob.json"), "{\"a\":\x00}")
	writeFile(t, filepath.Join(root, "latin1.txt"), "caf\xe9\n")
	writeFile(t, filepath.Join(root, "huge.md"), strings.Repeat("# big\n", 100))
	writeFile(t, filepath.Join(root, "image.png"), "\x89PNG")
	writeFile(t, filepath.Join(root, "node_modules/x/index.js"), "module.exports = 1\n")
	e, err := New(&Options{Root: root, MaxFileBytes: 500})
	if err != nil {
		t.Fatal(err)
	}
	res := build(t, e, Request{})
	want := map[string]string{"blob.json": SkipBinary, "latin1.txt": SkipInvalidUTF8, "huge.md": SkipTooLarge}
	got := map[string]string{}
	for _, s := range res.Skipped {
		got[s.Path] = s.Reason
	}
	for p, reason := range want {
		if got[p] != reason {
			t.Errorf("%s: skipped as %q, want %q (all: %v)", p, got[p], reason, res.Skipped)
		}
	}
	if res.Stats.Skipped[SkipUnsupported] != 1 {
		t.Errorf("skip counts %v: want 1 unsupported (image.png)", res.Stats.Skipped)
	}
	if _, ok := res.KeyMap["L1:node_modules/x/index.js"]; ok {
		t.Error("a vendored file was read")
	}
}

func TestUnknownStrategyListsKnown(t *testing.T) {
	e, _ := newEngine(t, fixture(t), newMemStore())
	_, err := e.Build(t.Context(), Request{Strategy: "code_signatures"})
	if err == nil {
		t.Fatal("no error")
	}
	for _, name := range []string{"code_signature", "code_security", "narrative_summary", "audit_findings", "llm_summary"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not list %s", err, name)
		}
	}
	if !errors.Is(err, ErrUnknownStrategy) {
		t.Errorf("error %v is not ErrUnknownStrategy", err)
	}
	if _, err := e.Build(t.Context(), Request{Strategy: LLMSummary}); !errors.Is(err, ErrNoModel) {
		t.Errorf("llm strategy without a model: %v", err)
	}
}

func TestBrokenStoreDegradesToNoCache(t *testing.T) {
	root := fixture(t)
	good, _ := newEngine(t, root, newMemStore())
	want := build(t, good, Request{Strategy: "counted"})
	e, c := newEngine(t, root, brokenStore{})
	got := build(t, e, Request{Strategy: "counted"})
	if got.RootID != want.RootID || got.Index != want.Index {
		t.Errorf("with a broken store the telescope differs")
	}
	if got.Stats.StoreErrors == 0 || int(c.total.Load()) != got.Stats.Units {
		t.Errorf("store errors %d, strategy calls %d of %d units", got.Stats.StoreErrors, c.total.Load(), got.Stats.Units)
	}
	// Drilldown still works within the process.
	if _, err := e.Drilldown(t.Context(), got.RootID); err != nil {
		t.Errorf("Drilldown with a broken store: %v", err)
	}
}

func TestPurposeRanksAndFilters(t *testing.T) {
	e, _ := newEngine(t, fixture(t), newMemStore())
	res := build(t, e, Request{Purpose: "card payment pickle receipt", Levels: 1})
	lines := strings.Split(res.Index, "\n")
	first := ""
	for _, l := range lines {
		if strings.Contains(l, "[") {
			first = l
			break
		}
	}
	if !strings.Contains(first, "shop/payments/card.py") {
		t.Errorf("most relevant file is not first:\n%s", res.Index)
	}
	if res.Stats.Filtered == 0 || res.Stats.Units+res.Stats.Filtered != 9 {
		t.Errorf("filtered %d, kept %d; want some left out of 9", res.Stats.Filtered, res.Stats.Units)
	}
	if strings.Contains(res.Index, "data/customers.csv") {
		t.Errorf("an irrelevant file was kept:\n%s", res.Index)
	}
	none := build(t, e, Request{Purpose: "zzqx", Levels: 1})
	if none.Stats.Units != 9 {
		t.Errorf("a purpose matching nothing kept %d units, want all 9", none.Stats.Units)
	}
}

func TestStrategyMetrics(t *testing.T) {
	e, _ := newEngine(t, fixture(t), newMemStore())
	res := build(t, e, Request{})
	st := res.Stats.Strategies[CodeSignature]
	if st == nil || st.Units != 9 || st.Hits != 0 || st.TokensSaved != st.InputTokens-st.OutputTokens {
		t.Fatalf("code_signature stats %+v", st)
	}
	if st.MeanCompression <= 0 || st.MeanCompression > 2 {
		t.Errorf("mean compression ratio %v", st.MeanCompression)
	}
	again := build(t, e, Request{})
	if s := again.Stats.Strategies[CodeSignature]; s.Hits != 9 || s.HitRate != 1 || s.MeanCompression != st.MeanCompression {
		t.Errorf("second build: %+v", s)
	}
	if again.Stats.SavedPct != res.Stats.SavedPct {
		t.Errorf("saved %v then %v", res.Stats.SavedPct, again.Stats.SavedPct)
	}
}
