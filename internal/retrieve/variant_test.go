package retrieve

import (
	"testing"
)

func TestExtendsName(t *testing.T) {
	for _, tc := range []struct {
		name, base string
		want       bool
	}{
		{"_sum_of_weights", "sum_of_weights", true},
		{"world_to_pixel_values", "world_to_pixel", true},
		{"_eval_expand_func", "expand_func", true},
		{"tensor_product_simp_mul", "tensor_product_simp", true},
		{"sum_of_weights", "sum_of_weights", false},                 // the name itself is a mention's
		{"world_to_pixels", "world_to_pixel", false},                // not a whole word
		{"rewrite_to_pixel", "write_to_pixel", false},               // not a whole word
		{"a_write_to_pixel_write_to_pixel", "write_to_pixel", true}, // the second occurrence is whole
	} {
		if got := extendsName(tc.name, tc.base); got != tc.want {
			t.Errorf("extendsName(%q, %q) = %v, want %v", tc.name, tc.base, got, tc.want)
		}
	}
}

func TestWordCount(t *testing.T) {
	for s, want := range map[string]int{
		"run": 1, "_run": 1, "sum_of_weights": 3, "TensorProduct": 2, "HTTPAdapter": 2, "world_to_pixel": 3, "__init__": 1,
	} {
		if got := wordCount(s); got != want {
			t.Errorf("wordCount(%q) = %d, want %d", s, got, want)
		}
	}
}

// variantRepo: the task names the public sum_of_weights; the work, and
// the bug, is in _sum_of_weights, whose words are those of every other
// method of the class. A parameter the task sets (keep_weights=True) has
// no variants: merge_keep_weights is not lifted for it.
var variantRepo = map[string]string{
	"stats/weighted.py": `class Weighted:
    """Weighted reductions of an array by an array of weights."""

    def _sum_of_weights(self, da):
        """Sum of the weights where the data is not missing."""
        mask = da.notnull()
        return dot(mask, self.weights)

    def _weighted_sum(self, da):
        """Sum of the data times the weights."""
        return dot(da, self.weights)

    def _weighted_mean(self, da):
        """Mean of the data weighted by the weights."""
        return self._weighted_sum(da) / self._sum_of_weights(da)

    def sum_of_weights(self):
        """Sum of the weights."""
        return self._implementation(self._sum_of_weights)

    def mean(self, keep_weights=False):
        """Weighted mean of the data by the weights."""
        return self._implementation(self._weighted_mean)
`,
	"stats/merge.py": `def merge_keep_weights(objs, keep_weights):
    """Whether the weights are kept when merging the weights of objects."""
    return keep_weights
`,
}

// TestVariantLiftsThePrivateHalf: with the feature, _sum_of_weights
// ranks above the public sum_of_weights the task names, which it does
// not without; merge_keep_weights is not lifted for keep_weights.
func TestVariantLiftsThePrivateHalf(t *testing.T) {
	const task = "Weighted mean is wrong for boolean weights\n\n" +
		"`da.weighted(w).mean(keep_weights=True)` gives 2, not 1: `sum_of_weights` is a boolean since the dot of two boolean arrays is a boolean."
	root := writeTree(t, variantRepo)
	rankOf := func(r *Ranking, id string) int {
		for i, d := range r.Defs {
			if defID(d) == id {
				return i + 1
			}
		}
		return 0
	}
	const private, public, param = "stats/weighted.py:Weighted._sum_of_weights", "stats/weighted.py:Weighted.sum_of_weights", "stats/merge.py:merge_keep_weights"
	for _, w := range []float64{0, DefaultParams.Weights[FeatVariant]} {
		r, err := weighted(t, root, FeatVariant, w).Rank(t.Context(), task)
		if err != nil {
			t.Fatal(err)
		}
		p, s := rankOf(r, private), rankOf(r, public)
		if lifted := p > 0 && p < s; lifted != (w > 0) {
			t.Errorf("variant weight %g: %s ranks %d, %s %d; want the private half above the public name iff the weight is positive", w, private, p, public, s)
		}
		for _, d := range r.Defs {
			if defID(d) == param && d.Features[FeatVariant] > 0 {
				t.Errorf("variant weight %g: %s scored as a variant of the parameter keep_weights", w, param)
			}
		}
	}
}
