package lang

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOCamlQueriesMatch keeps the interface query in step with the
// implementation query: below their header comments, the interface
// query is the implementation query without its "implementation only"
// section (top-level let, which the interface grammar cannot parse).
func TestOCamlQueriesMatch(t *testing.T) {
	ml, err := queryFiles.ReadFile("queries/ocaml.scm")
	if err != nil {
		t.Fatal(err)
	}
	mli, err := queryFiles.ReadFile("queries/ocaml_interface.scm")
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "; ---- implementation only ----\n", "; ---- end of implementation only ----\n"
	want := withoutHeader(string(ml))
	i, j := strings.Index(want, begin), strings.Index(want, end)
	if i < 0 || j < i {
		t.Fatalf("queries/ocaml.scm has no %q … %q section", strings.TrimSpace(begin), strings.TrimSpace(end))
	}
	want = want[:i] + strings.TrimLeft(want[j+len(end):], "\n")
	if diff := cmp.Diff(want, withoutHeader(string(mli))); diff != "" {
		t.Errorf("queries/ocaml_interface.scm is out of step with queries/ocaml.scm (-want +got):\n%s", diff)
	}
}

// withoutHeader drops a query file's opening comment paragraph.
func withoutHeader(s string) string {
	if _, rest, ok := strings.Cut(s, "\n\n"); ok {
		return rest
	}
	return s
}
