package retrieve

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseLinks(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []codeLink
	}{
		{"github line", "The logic is here:\nhttps://github.com/pydata/xarray/blob/1be777fe/xarray/core/nanops.py#L35\n\nI think",
			[]codeLink{{"1be777fe/xarray/core/nanops.py", 35, 35}}},
		{"github range", "see [this](https://github.com/pytest-dev/pytest/blob/92d6a05/src/_pytest/reports.py#L129-L149).",
			[]codeLink{{"92d6a05/src/_pytest/reports.py", 129, 149}}},
		{"gitlab range", "https://gitlab.com/group/proj/-/blob/main/pkg/a.py#L10-20",
			[]codeLink{{"main/pkg/a.py", 10, 20}}},
		{"repeated", "a.py#L3 https://github.com/o/r/blob/main/a.py#L3 and again https://github.com/o/r/blob/main/a.py#L3",
			[]codeLink{{"main/a.py", 3, 3}}},
		{"no line", "https://github.com/astropy/astropy/blob/main/CONTRIBUTING.md", nil},
		{"backwards range", "https://github.com/o/r/blob/main/a.py#L9-L3", []codeLink{{"main/a.py", 9, 9}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, parseLinks(tt.text), cmp.AllowUnexported(codeLink{})); diff != "" {
				t.Errorf("parseLinks (-want +got):\n%s", diff)
			}
		})
	}
}

// linkRepo has a module whose words all match the task, and a helper
// whose words do not, which the task links to.
var linkRepo = map[string]string{
	"pkg/reduce.py": `def sum_reduce(values, min_count=None):
    """Sum of the values, or missing below min_count valid values."""
    total = 0
    for v in values:
        total += v
    return total

def mean_reduce(values, min_count=None):
    """Mean of the values; min_count valid values are needed."""
    return sum_reduce(values, min_count) / len(values)
`,
	"pkg/mask.py": `def _null_out(result, mask, axis):
    if axis is not None and getattr(result, "ndim", False):
        null = (mask.shape[axis] - mask.sum(axis)) < 1
        result[null] = float("nan")
    return result

def _other(x):
    return x
`,
}

// TestLinkPinsTheFunction ranks a task whose words are all about
// reductions and whose link points into a helper: the link lifts the
// helper, and at a weight of 2 (eight times the default) it leads.
func TestLinkPinsTheFunction(t *testing.T) {
	const task = "sum: min_count is not available for reduction with more than one dimension\n\n" +
		"The logic to count the valid values is here: https://github.com/o/r/blob/0123abc/pkg/mask.py#L3\n"
	rank := func(w float64) (int, RankedDef) {
		r, err := weighted(t, writeTree(t, linkRepo), FeatLink, w).Rank(t.Context(), task)
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range r.Defs {
			if d.Qual == "_null_out" {
				return i + 1, d
			}
		}
		t.Fatalf("_null_out not ranked at link weight %g", w)
		return 0, RankedDef{}
	}
	without, d0 := rank(0)
	_, d := rank(DefaultParams.Weights[FeatLink])
	strong, _ := rank(2)
	if without == 1 {
		t.Fatalf("without links _null_out already leads; the test needs it not to")
	}
	if d.Features[FeatLink] == 0 || d.Score <= d0.Score {
		t.Errorf("_null_out scores %g with links (link share %g), %g without: want the link to lift it", d.Score, d.Features[FeatLink], d0.Score)
	}
	if strong != 1 {
		t.Errorf("_null_out ranks %d at link weight 2, want 1", strong)
	}
}
