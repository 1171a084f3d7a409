package index

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// dumpIndex describes every indexed file's rows independently of row
// ids: its definitions in id order, its references with their scope as
// the position of the definition among the file's (-1 at the top
// level), its imports; and the running totals (Stats, Snapshot's
// NumSymbols and NumRefs) against a recount. It
// fails the test when a file's definitions are not at consecutive ids
// from its first_symbol.
func dumpIndex(t *testing.T, ix *Index) []string {
	t.Helper()
	db := ix.db
	var out []string
	rows, err := db.Query("SELECT id, path, first_symbol, nsymbols FROM files WHERE skip = '' ORDER BY path")
	if err != nil {
		t.Fatal(err)
	}
	type file struct {
		id, first int64
		path      string
		n         int
	}
	var files []file
	for rows.Next() {
		var f file
		if err := rows.Scan(&f.id, &f.path, &f.first, &f.n); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	rows.Close()
	strs := func(q string, args ...any) []string {
		rows, err := db.Query(q, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		var out []string
		for rows.Next() {
			v := make([]any, len(cols))
			p := make([]any, len(cols))
			for i := range v {
				p[i] = &v[i]
			}
			if err := rows.Scan(p...); err != nil {
				t.Fatal(err)
			}
			s := make([]string, len(v))
			for i := range v {
				s[i] = fmt.Sprint(v[i])
			}
			out = append(out, strings.Join(s, " "))
		}
		return out
	}
	for _, f := range files {
		ids := strs("SELECT id FROM symbols WHERE file_id = ? ORDER BY id", f.id)
		var want []string
		for i := range f.n {
			want = append(want, fmt.Sprint(f.first+int64(i)))
		}
		if !slices.Equal(ids, want) {
			t.Errorf("%s: definitions at ids %v, want %d from %d", f.path, ids, f.n, f.first)
		}
		out = append(out, "file "+f.path)
		for _, s := range strs(`SELECT name, qual, kind, parent, start_line, end_line, start_byte, end_byte, signature, doc, visibility
			FROM symbols WHERE file_id = ? ORDER BY id`, f.id) {
			out = append(out, "  def "+s)
		}
		refs := strs("SELECT CASE WHEN scope = 0 THEN -1 ELSE scope - ? END, name, kind, line, count FROM refs WHERE file_id = ?", f.first, f.id)
		slices.Sort(refs)
		for _, r := range refs {
			out = append(out, "  ref "+r)
		}
		imps := strs("SELECT module, name, alias, line FROM imports WHERE file_id = ?", f.id)
		slices.Sort(imps)
		for _, imp := range imps {
			out = append(out, "  import "+imp)
		}
	}
	st, err := ix.Stats(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, fmt.Sprintf("totals %d symbols, %d refs", st.Symbols, st.Refs))
	snap, err := ix.Snapshot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	nsym, err := snap.NumSymbols(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	nrefs, err := snap.NumRefs(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, fmt.Sprintf("snapshot %d symbols, %d refs", nsym, nrefs))
	out = append(out, strs("SELECT 'count', (SELECT count(*) FROM symbols), (SELECT count(*) FROM refs)")...)
	return out
}

// TestPatchedUpdateMatchesBuild edits files at random, a few at a time
// (definitions added, removed, renamed, moved; bodies and imports
// changed), and after each update compares the index, row by row but
// for row ids, with a fresh build of the same tree: patching a file's
// rows (patch.go) must leave what writing them anew would.
func TestPatchedUpdateMatchesBuild(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 1))
	root := t.TempDir()
	names := []string{"alpha", "beta", "gamma", "delta", "eps"}
	// A module: up to 5 functions and a class with methods, in an order,
	// each calling others, with imports.
	module := func() string {
		var b strings.Builder
		for _, m := range []string{"os", "sys", "re", "json"} {
			if rng.IntN(2) == 0 {
				fmt.Fprintf(&b, "import %s\n", m)
			}
		}
		b.WriteString("\n")
		for _, i := range rng.Perm(len(names))[:1+rng.IntN(len(names))] {
			fmt.Fprintf(&b, "def %s(x):\n", names[i])
			for range rng.IntN(4) {
				fmt.Fprintf(&b, "    x = %s(x) + %d\n", names[rng.IntN(len(names))], rng.IntN(3))
			}
			b.WriteString("    return x\n\n")
			if rng.IntN(3) == 0 {
				b.WriteString("# a comment that moves the lines below\n")
			}
		}
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "class K%d:\n", rng.IntN(2))
			for _, i := range rng.Perm(len(names))[:1+rng.IntN(3)] {
				fmt.Fprintf(&b, "    def m_%s(self):\n        return %s(self)\n\n", names[i], names[rng.IntN(len(names))])
			}
		}
		fmt.Fprintf(&b, "%s(1)\n", names[rng.IntN(len(names))])
		return b.String()
	}
	files := map[string]string{}
	for i := range 6 {
		files[fmt.Sprintf("m%d.py", i)] = module()
	}
	writeTree(t, root, files)
	ix := openIndex(t, Options{Root: root})
	update(t, ix)
	for round := range 25 {
		edits := map[string]string{}
		for range 1 + rng.IntN(3) {
			edits[fmt.Sprintf("m%d.py", rng.IntN(6))] = module()
		}
		writeTree(t, root, edits)
		for name := range edits {
			bumpMtime(t, filepath.Join(root, name))
		}
		before := symbolIDs(t, ix)
		update(t, ix)
		// An id that outlives an update names the definition it named.
		for id, def := range symbolIDs(t, ix) {
			if was, ok := before[id]; ok && was != def {
				t.Fatalf("round %d: symbol id %d named %s, now %s", round, id, was, def)
			}
		}
		fresh := openIndex(t, Options{Root: root, Dir: t.TempDir()})
		update(t, fresh)
		if diff := cmp.Diff(dumpIndex(t, fresh), dumpIndex(t, ix)); diff != "" {
			t.Fatalf("round %d: the updated index differs from a fresh build (-fresh +updated):\n%s", round, diff)
		}
		fresh.Close()
	}
}

// symbolIDs maps every definition's id to its file, qualified name and
// kind.
func symbolIDs(t *testing.T, ix *Index) map[int64]string {
	t.Helper()
	rows, err := ix.db.Query("SELECT s.id, f.path, s.qual, s.kind FROM symbols s JOIN files f ON f.id = s.file_id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := make(map[int64]string)
	for rows.Next() {
		var id, kind int64
		var path, qual string
		if err := rows.Scan(&id, &path, &qual, &kind); err != nil {
			t.Fatal(err)
		}
		out[id] = fmt.Sprintf("%s %s (kind %d)", path, qual, kind)
	}
	return out
}

// TestPatchKeepsIDs: a file whose definitions stay the same ones (a
// body edited, lines moved) keeps their ids; one whose definitions
// change gets new ones. TestPatchedUpdateMatchesBuild checks only that
// a kept id names what it named, which giving every update new ids
// would pass too.
func TestPatchKeepsIDs(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "m.py")
	writeTree(t, root, map[string]string{"m.py": "def a(x):\n    return x\n\nclass K:\n    def m(self):\n        return a(self)\n"})
	ix := openIndex(t, Options{Root: root})
	update(t, ix)
	before := symbolIDs(t, ix)
	writeTree(t, root, map[string]string{"m.py": "# moved\n\ndef a(x):\n    return x + 1\n\nclass K:\n    def m(self):\n        return a(a(self))\n"})
	bumpMtime(t, file)
	update(t, ix)
	if after := symbolIDs(t, ix); !maps.Equal(before, after) {
		t.Errorf("the same definitions, edited: ids %v, were %v", after, before)
	}
	writeTree(t, root, map[string]string{"m.py": "def b(x):\n    return x\n\nclass K:\n    def m(self):\n        return b(self)\n"})
	bumpMtime(t, file)
	update(t, ix)
	for id := range symbolIDs(t, ix) {
		if _, ok := before[id]; ok {
			t.Errorf("a definition renamed: id %d given again", id)
		}
	}
}
