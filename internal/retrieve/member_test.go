package retrieve

import "testing"

// memberRepo: the task names the class CDS, whose parser is at fault,
// and speaks of tables as the CDS table reader does.
var memberRepo = map[string]string{
	"units/cds.py": `class CDS:
    """The CDS unit format of astronomical catalogues."""

    def _make_lexer(self):
        """Tokens of a unit string: numbers, names, signs."""
        return lex()

    def _make_parser(self):
        """Grammar of composite units: products, division and powers."""
        return yacc()

    def _reset(self):
        """Forget the cached lookups."""
        self._cache = {}
`,
	"io/cds_table.py": `class CdsTableReader:
    """Read a table in the CDS format: its header and its data."""

    def read_units(self, lines):
        """Read the units of the columns of a table."""
        return [line.split()[2] for line in lines]

    def read_labels(self, lines):
        """Read the labels of the columns of a table."""
        return [line.split()[3] for line in lines]
`,
}

// TestMemberLiftsTheMethodThatReadsLikeTheTask: the method of the named
// class that matches the task best rises with the feature; the methods
// of a class the task does not name score nothing, and a method of the
// named class that shares only the class's name with the task (its
// document holds its parent's name) little.
func TestMemberLiftsTheMethodThatReadsLikeTheTask(t *testing.T) {
	const task = "Composite units of CDS tables are read in the wrong order\n\n" +
		"`CDS` reads `10+3J/m/s/kpc2` with the division of composite units in the wrong order, so the units of the table are wrong."
	root := writeTree(t, memberRepo)
	const parser = "units/cds.py:CDS._make_parser"
	rank := func(w float64) (*Ranking, int) {
		r, err := weighted(t, root, FeatMember, w).Rank(t.Context(), task)
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range r.Defs {
			if defID(d) == parser {
				return r, i + 1
			}
		}
		return r, 0
	}
	_, without := rank(0)
	r, with := rank(DefaultParams.Weights[FeatMember])
	if with == 0 || with >= without && with != 1 {
		t.Errorf("%s ranks %d with the feature, %d without; want it higher with", parser, with, without)
	}
	score := make(map[string]float64)
	for _, d := range r.Defs {
		score[defID(d)] = d.Features[FeatMember]
	}
	for _, id := range []string{"io/cds_table.py:CdsTableReader.read_units", "io/cds_table.py:CdsTableReader.read_labels"} {
		if score[id] != 0 {
			t.Errorf("%s, of a class the task does not name, has member score %g, want 0", id, score[id])
		}
	}
	if p, o := score[parser], score["units/cds.py:CDS._reset"]; p <= 2*o {
		t.Errorf("member score of %s %g, of CDS._reset %g: want the method that reads like the task far ahead", parser, p, o)
	}
}
