package index

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tierTree writes a tree with a Python file, a file of a language without
// a fast scanner, and a Python file the scanner refuses (its brackets do
// not balance), and returns its root.
func tierTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"shapes.py":  shapesPy,
		"deploy.sh":  "#!/bin/sh\n# deploy the release\nrelease_notes() {\n  echo notes\n}\n",
		"editing.py": "def half_written(a,\n    return a\n\ndef complete(b):\n    return b\n",
	})
	return root
}

func wantTier(t *testing.T, ix *Index, want Tier) {
	t.Helper()
	got, err := ix.Tier(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("index tier %s, want %s", got, want)
	}
}

// fileTiers returns the tier of every indexed file by path.
func fileTiers(t *testing.T, ix *Index) map[string]Tier {
	t.Helper()
	rows, err := ix.db.Query("SELECT path, tier FROM files WHERE skip = ''")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := make(map[string]Tier)
	for rows.Next() {
		var p string
		var tier Tier
		if err := rows.Scan(&p, &tier); err != nil {
			t.Fatal(err)
		}
		out[p] = tier
	}
	return out
}

// TestQuickThenFull walks an index through its tiers: QuickFirst scans a
// new tree, a second update leaves it quick, Upgrade parses every file
// again, content unchanged, and the index is then full.
func TestQuickThenFull(t *testing.T) {
	root := tierTree(t)
	ix := openIndex(t, Options{Root: root, QuickFirst: true})
	wantTier(t, ix, TierNone)

	st := update(t, ix)
	if st.Scanned != 3 || st.Parsed != 0 || st.ScanFailed != 1 || st.Tier != TierQuick {
		t.Errorf("quick update: %+v", st)
	}
	wantTier(t, ix, TierQuick)
	if got := quals(t, ix, "area"); !slices.Equal(got, []string{"Shape.area@shapes.py"}) {
		t.Errorf("the scanner's definitions: %v", got)
	}
	if got := quals(t, ix, "complete"); len(got) != 0 {
		t.Errorf("a file the scanner refused has definitions: %v", got)
	}
	// Every file has its lexical documents, with a scanner or not.
	docs := map[string]int{}
	err := ix.ForEachFileDocs(t.Context(), func(fd *FileDocs) error {
		docs[fd.Path] = len(fd.File)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"shapes.py", "deploy.sh", "editing.py"} {
		if docs[p] == 0 {
			t.Errorf("%s has no lexical document at the quick tier: %v", p, docs)
		}
	}

	// QuickFirst on an index at the quick tier: nothing changed, nothing done.
	gen, _ := ix.Generation(t.Context())
	st = update(t, ix)
	if st.Scanned+st.Parsed != 0 || st.Tier != TierQuick {
		t.Errorf("second quick update: %+v", st)
	}
	if g, _ := ix.Generation(t.Context()); g != gen {
		t.Errorf("an update with nothing to do moved the generation %s -> %s", gen, g)
	}

	st, err = ix.Upgrade(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Parsed != 3 || st.Upgraded != 3 || st.Tier != TierFull {
		t.Errorf("upgrade: %+v", st)
	}
	wantTier(t, ix, TierFull)
	for p, tier := range fileTiers(t, ix) {
		if tier != TierFull {
			t.Errorf("%s is at the %s tier after the upgrade", p, tier)
		}
	}
	if got := quals(t, ix, "complete"); len(got) != 1 {
		t.Errorf("the parser did not read the file the scanner refused: %v", got)
	}
	if got := quals(t, ix, "release_notes"); len(got) != 1 {
		t.Errorf("the parser did not read the file without a scanner: %v", got)
	}

	// Full, the index stays full: QuickFirst parses what changes.
	writeTree(t, root, map[string]string{"more.py": "def more():\n    pass\n"})
	st = update(t, ix)
	if st.Parsed != 1 || st.Scanned != 0 || st.Tier != TierFull {
		t.Errorf("quick-first update of a full index: %+v", st)
	}
}

// TestUpdateUpgradesQuickFiles checks that an Update without QuickFirst
// parses the files at the quick tier whose content did not change.
func TestUpdateUpgradesQuickFiles(t *testing.T) {
	root := tierTree(t)
	quick := openIndex(t, Options{Root: root, QuickFirst: true})
	update(t, quick)
	quick.Close()

	ix := openIndex(t, Options{Root: root})
	st := update(t, ix)
	if st.Parsed != 3 || st.Upgraded != 3 || st.Unchanged != 0 || st.Tier != TierFull {
		t.Errorf("full update of a quick index: %+v", st)
	}
	if st = update(t, ix); st.Parsed != 0 || st.Unchanged != 3 {
		t.Errorf("the next update: %+v", st)
	}
}

// manyFiles writes n small Python files under dir/.
func manyFiles(t *testing.T, root, dir string, n int) {
	t.Helper()
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("%s/m%04d.py", dir, i)] = fmt.Sprintf("def f_%d(x):\n    return g(x)\n", i)
	}
	writeTree(t, root, files)
}

// TestUpgradeInChunks upgrades more files than one chunk holds: one
// transaction per chunk (the generation moves with each), progress
// counts every file once, up to the total, and changes to the tree land
// in the first transaction.
func TestUpgradeInChunks(t *testing.T) {
	root := t.TempDir()
	n := 2*upgradeChunk + 10
	manyFiles(t, root, "pkg", n)
	ix := openIndex(t, Options{Root: root, QuickFirst: true})
	update(t, ix)
	before, _ := ix.Generation(t.Context())

	writeTree(t, root, map[string]string{"pkg/m0000.py": "def changed():\n    pass\n"})
	var seen []int
	total := 0
	st, err := ix.Upgrade(t.Context(), func(done, tot int) {
		seen = append(seen, done)
		total = tot
	})
	if err != nil {
		t.Fatal(err)
	}
	if st.Parsed != n || st.Upgraded != n-1 || st.Tier != TierFull || st.Files != n {
		t.Errorf("upgrade: %+v", st)
	}
	if total != n || len(seen) != n || !slices.IsSorted(seen) || seen[len(seen)-1] != n {
		t.Errorf("progress: %d calls up to %v of %d, want %d calls up to %d", len(seen), seen[len(seen)-1], total, n, n)
	}
	after, _ := ix.Generation(t.Context())
	var b, a int
	fmt.Sscan(before, &b)
	fmt.Sscan(after, &a)
	if a-b != 3 {
		t.Errorf("generation %d -> %d: want one transaction per chunk, 3", b, a)
	}
	if got := quals(t, ix, "changed"); len(got) != 1 {
		t.Errorf("the changed file: %v", got)
	}
}

// TestMigrateFromSchema2 opens an index of schema 2, which had no tiers:
// it is migrated in place (same instance, same rows) and is at the full
// tier, every file parsed.
func TestMigrateFromSchema2(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"shapes.py": shapesPy})
	ix := openIndex(t, Options{Root: root})
	update(t, ix)
	stamp, _ := ix.Stamp(t.Context())
	ix.Close()

	db, err := sql.Open("sqlite", dsn(filepath.Join(root, ".winnow", dbName)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`DROP INDEX IF EXISTS files_hash; DROP INDEX IF EXISTS files_keys; ALTER TABLE files DROP COLUMN tier; CREATE INDEX files_hash ON files(hash);
		DELETE FROM meta WHERE key = 'tier'; PRAGMA user_version = 2`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	ix = openIndex(t, Options{Root: root})
	if got, _ := ix.Stamp(t.Context()); got != stamp {
		t.Errorf("the migrated index is another: stamp %s, was %s", got, stamp)
	}
	wantTier(t, ix, TierFull)
	if tiers := fileTiers(t, ix); tiers["shapes.py"] != TierFull {
		t.Errorf("file tiers after migration: %v", tiers)
	}
	if st := update(t, ix); st.Parsed != 0 || st.Unchanged != 1 {
		t.Errorf("the update after migration parsed again: %+v", st)
	}
	var version int
	ix.db.QueryRow("PRAGMA user_version").Scan(&version)
	if version != schemaVersion {
		t.Errorf("user_version %d after migration, want %d", version, schemaVersion)
	}
}

// TestMigrateAddsInstance opens an index of schema 3 made before the
// instance id existed: the migration gives it one, so that the corpus
// file of its next generation can be patched rather than rebuilt
// (retrieve patches only within one instance), and keeps its rows.
func TestMigrateAddsInstance(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"shapes.py": shapesPy})
	ix := openIndex(t, Options{Root: root})
	update(t, ix)
	ix.Close()

	db, err := sql.Open("sqlite", dsn(filepath.Join(root, ".winnow", dbName)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`DELETE FROM meta WHERE key = 'instance'; PRAGMA user_version = 3`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	ix = openIndex(t, Options{Root: root})
	stamp, err := ix.Stamp(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if inst, _, _ := strings.Cut(stamp, "/"); len(inst) != 16 {
		t.Errorf("stamp %q after migration: want a 16-digit instance id before the slash", stamp)
	}
	if st := update(t, ix); st.Parsed != 0 || st.Unchanged != 1 {
		t.Errorf("the update after migration parsed again: %+v", st)
	}
	if again, _ := ix.Stamp(t.Context()); again != stamp {
		t.Errorf("stamp %q -> %q with nothing changed", stamp, again)
	}
}

// TestCrashMidQuickBuild kills the first build of a tree, at the quick
// tier, halfway: the index opens and answers (with nothing), and the
// next update builds it.
func TestCrashMidQuickBuild(t *testing.T) {
	root := t.TempDir()
	manyFiles(t, root, "pkg", 200)
	killMidway(t, root, false, crashTierEnv+"=quick")

	ix := openIndex(t, Options{Root: root, QuickFirst: true})
	checkIntegrity(t, ix)
	if _, err := ix.Lookup(t.Context(), "f_1", LookupOptions{}); err != nil {
		t.Errorf("the index left by a killed quick build does not answer: %v", err)
	}
	wantTier(t, ix, TierNone)
	if st := update(t, ix); st.Scanned != 200 || st.Tier != TierQuick {
		t.Errorf("the update after the crash: %+v", st)
	}
}

// TestCrashMidUpgrade kills an upgrade halfway, after its first chunk
// committed: the index opens and answers, is still at the quick tier
// (some files parsed, the others scanned), and the next Upgrade parses
// only the files left.
func TestCrashMidUpgrade(t *testing.T) {
	root := t.TempDir()
	n := 2*upgradeChunk + 10
	manyFiles(t, root, "pkg", n)
	ix := openIndex(t, Options{Root: root, QuickFirst: true})
	update(t, ix)
	ix.Close()

	killMidway(t, root, false, crashTierEnv+"=upgrade")

	ix = openIndex(t, Options{Root: root})
	checkIntegrity(t, ix)
	wantTier(t, ix, TierQuick)
	counts := map[Tier]int{}
	for _, tier := range fileTiers(t, ix) {
		counts[tier]++
	}
	if counts[TierFull] < upgradeChunk || counts[TierQuick] == 0 || counts[TierFull]+counts[TierQuick] != n {
		t.Errorf("files by tier after a killed upgrade: %v", counts)
	}
	if got := quals(t, ix, fmt.Sprintf("f_%d", n-1)); len(got) != 1 {
		t.Errorf("a definition is missing after the crash: %v", got)
	}
	st, err := ix.Upgrade(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Parsed != counts[TierQuick] || st.Tier != TierFull {
		t.Errorf("the upgrade after the crash parsed %d files, want the %d left: %+v", st.Parsed, counts[TierQuick], st)
	}
}

func checkIntegrity(t *testing.T, ix *Index) {
	t.Helper()
	var check string
	if err := ix.db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check: %q %v", check, err)
	}
}

// TestTierText round-trips tiers through their names.
func TestTierText(t *testing.T) {
	for _, tier := range []Tier{TierNone, TierQuick, TierFull} {
		b, _ := tier.MarshalText()
		var got Tier
		if err := got.UnmarshalText(b); err != nil || got != tier {
			t.Errorf("%s: %v %v", tier, got, err)
		}
	}
	var got Tier
	if err := got.UnmarshalText([]byte("complete")); err == nil {
		t.Error("an unknown tier name was accepted")
	}
}

// indexNames returns the names of the secondary indexes that exist.
func indexNames(t *testing.T, ix *Index) []string {
	t.Helper()
	rows, err := ix.db.Query("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		out = append(out, n)
	}
	return out
}

// TestDeferredRefIndexes checks that a first build at the quick tier
// leaves the references' indexes out, that queries answer without them,
// and that IndexRefs, or else the next update, creates them.
func TestDeferredRefIndexes(t *testing.T) {
	all := make([]string, 0, len(secondaryIndexes))
	for _, s := range secondaryIndexes {
		all = append(all, s.name)
	}
	slices.Sort(all)
	for _, how := range []string{"IndexRefs", "Update"} {
		t.Run(how, func(t *testing.T) {
			root := tierTree(t)
			ix := openIndex(t, Options{Root: root, QuickFirst: true})
			update(t, ix)
			if got := indexNames(t, ix); len(got) != len(all)-3 || slices.Contains(got, "refs_name") {
				t.Errorf("indexes after a quick first build: %v", got)
			}
			refs, err := ix.References(t.Context(), "Shape", 10)
			if err != nil || len(refs) == 0 {
				t.Errorf("references without their indexes: %v %v", refs, err)
			}
			if how == "IndexRefs" {
				err = ix.IndexRefs(t.Context())
			} else {
				_, err = ix.Update(t.Context(), nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := indexNames(t, ix); !slices.Equal(got, all) {
				t.Errorf("indexes after %s: %v, want %v", how, got, all)
			}
		})
	}
}

// TestUpgradeWhole brings a first build at the quick tier to the full
// tier in one piece, as a rebuild: a new database replaces it (another
// instance), every file parsed; on an index with files at the full tier
// it is Upgrade.
func TestUpgradeWhole(t *testing.T) {
	root := tierTree(t)
	ix := openIndex(t, Options{Root: root, QuickFirst: true})
	update(t, ix)
	before, _ := ix.Stamp(t.Context())
	st, err := ix.UpgradeWhole(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Parsed != 3 || st.Tier != TierFull || st.Files != 3 {
		t.Errorf("whole upgrade: %+v", st)
	}
	after, _ := ix.Stamp(t.Context())
	if instance := func(s string) string { return strings.SplitN(s, "/", 2)[0] }; instance(after) == instance(before) {
		t.Errorf("the index was not replaced: stamp %s -> %s", before, after)
	}
	if got := quals(t, ix, "complete"); len(got) != 1 {
		t.Errorf("after the whole upgrade: %v", got)
	}
	if got := indexNames(t, ix); len(got) != len(secondaryIndexes) {
		t.Errorf("indexes after the whole upgrade: %v", got)
	}

	// Full, it stays full: QuickFirst parses what is new.
	writeTree(t, root, map[string]string{"late.py": "def late():\n    pass\n"})
	quick := openIndex(t, Options{Root: root, QuickFirst: true})
	update(t, quick)
	wantTier(t, quick, TierFull) // a full index stays full: the new file was parsed
	if st = update(t, quick); st.Parsed != 0 {
		t.Errorf("nothing left: %+v", st)
	}
}

// TestCrashMidUpgradeWhole kills a whole upgrade halfway: the quick index
// is intact and answers, and the next update removes the half-built file.
func TestCrashMidUpgradeWhole(t *testing.T) {
	root := t.TempDir()
	manyFiles(t, root, "pkg", 200)
	ix := openIndex(t, Options{Root: root, QuickFirst: true})
	update(t, ix)
	ix.Close()

	killMidway(t, root, false, crashTierEnv+"=whole")

	tmp := filepath.Join(root, ".winnow", dbName+newSuffix)
	if _, err := os.Stat(tmp); err != nil {
		t.Fatalf("the killed upgrade left no file behind, so this test shows nothing: %v", err)
	}
	ix = openIndex(t, Options{Root: root, QuickFirst: true})
	checkIntegrity(t, ix)
	wantTier(t, ix, TierQuick)
	if got := quals(t, ix, "f_199"); len(got) != 1 {
		t.Errorf("the quick index lost a definition: %v", got)
	}
	if st, err := ix.UpgradeWhole(t.Context(), nil); err != nil || st.Parsed != 200 || st.Tier != TierFull {
		t.Fatalf("the upgrade after the crash: %+v %v", st, err)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("%s outlived the next upgrade: %v", tmp, err)
	}
}
