package retrieve

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

// TestNearNames: nearNames, which looks only at the names of the right
// first letter and length, finds what comparing the candidate with every
// name of the corpus finds, for every name of the eval's repository, cut
// short or lengthened.
func TestNearNames(t *testing.T) {
	e, _ := e2eEngine(t)
	c, err := e.corpus(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	everyName := func(cand string) []nearName {
		var out []nearName
		for _, n := range c.norm.keys {
			if n == "" || n[0] != cand[0] || len(n) < len(cand)*3/4 || len(n) > len(cand)*4/3+1 {
				continue
			}
			if r := ratio(cand, n); r >= ratioThreshold {
				out = append(out, nearName{n, r})
			}
		}
		slices.SortFunc(out, func(a, b nearName) int { return cmp.Or(cmp.Compare(b.ratio, a.ratio), strings.Compare(a.name, b.name)) })
		return out[:min(len(out), ratioMaxNames)]
	}
	found := 0
	for _, n := range c.norm.keys {
		if len(n) < minPhraseLen {
			continue
		}
		for _, cand := range []string{n, n[:len(n)-1], n + "s", n[:len(n)/2] + "x" + n[len(n)/2:]} {
			want := everyName(cand)
			found += len(want)
			if diff := gocmp.Diff(want, c.nearNames(cand), gocmp.AllowUnexported(nearName{})); diff != "" {
				t.Errorf("nearNames(%q) (-every name +nearNames):\n%s", cand, diff)
			}
		}
	}
	if found == 0 {
		t.Fatal("no candidate had a near name")
	}
}
