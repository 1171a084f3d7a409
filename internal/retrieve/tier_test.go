package retrieve

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/index"
)

// TestPackNamesItsTier checks that a pack says which tier of the index
// it came from, in each format, whether the corpus was built, patched or
// read from its file, and that the same query after the upgrade says full.
func TestPackNamesItsTier(t *testing.T) {
	root := writeTree(t, map[string]string{
		"billing/invoice.py": "class Invoice:\n    def total(self):\n        \"\"\"Sum the lines.\"\"\"\n        return sum(l.amount for l in self.lines)\n",
		"billing/tax.py":     "def tax_rate(region):\n    return RATES[region]\n",
	})
	ix, err := index.Open(t.Context(), index.Options{Root: root, Dir: t.TempDir(), QuickFirst: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	ask := func(e *Engine, f Format) (*Pack, string) {
		t.Helper()
		p, err := e.Context(t.Context(), Request{Task: "the invoice total is wrong", Format: f})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := p.Render(&b, f); err != nil {
			t.Fatal(err)
		}
		return p, b.String()
	}
	wantTier := func(e *Engine, want index.Tier) {
		t.Helper()
		p, xml := ask(e, XML)
		if p.Index != want || !strings.Contains(xml, `index="`+want.String()+`"`) {
			t.Errorf("pack index %s, header %q; want %s", p.Index, strings.SplitN(xml, "\n", 2)[0], want)
		}
		_, md := ask(e, Markdown)
		if !strings.Contains(md, "Index: "+want.String()+".") {
			t.Errorf("markdown header does not name the %s index:\n%s", want, md)
		}
		_, js := ask(e, JSON)
		var v struct{ Index string }
		if err := json.Unmarshal([]byte(js), &v); err != nil || v.Index != want.String() {
			t.Errorf("JSON index %q (%v), want %s", v.Index, err, want)
		}
	}

	e := New(ix, nil)
	wantTier(e, index.TierQuick) // built from the index
	if _, err := e.SaveCorpus(t.Context()); err != nil {
		t.Fatal(err)
	}
	wantTier(New(ix, &Options{MapCorpus: true}), index.TierQuick) // read from the corpus file

	if _, err := ix.Upgrade(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	wantTier(e, index.TierFull) // patched from the quick corpus in memory
}

// TestFileMatchWithoutDefinitions asks for a task that only a file
// without definitions matches, as a file of a language without a fast
// scanner is at the quick tier: the ranking has files and no definition,
// and the pack says so rather than failing.
func TestFileMatchWithoutDefinitions(t *testing.T) {
	root := writeTree(t, map[string]string{
		"deploy/release.sh": "#!/bin/sh\n# publish the release tarball\npublish_tarball() {\n  scp release.tar.gz host:\n}\n",
		"app/main.py":       "def main():\n    return 0\n",
	})
	ix, err := index.Open(t.Context(), index.Options{Root: root, Dir: t.TempDir(), QuickFirst: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	r, err := New(ix, nil).Rank(t.Context(), "publish_tarball fails to publish the release tarball")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Files) == 0 || r.Files[0].Path != "deploy/release.sh" {
		t.Errorf("files ranked: %+v", r.Files)
	}
}
