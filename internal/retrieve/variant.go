package retrieve

import (
	"math"
	"strings"

	"github.com/winnowhq/winnow/internal/terms"
)

// Variants: a definition whose name is an identifier the task names with
// words added, in one of the leading files. The task names what a user
// calls or sees; the fix is often in the function that does the work,
// named for it: the private half of a public name (sum_of_weights →
// _sum_of_weights), a hook named for the operation (expand_func →
// _eval_expand_func), a variant for a case (tensor_product_simp →
// tensor_product_simp_Mul, world_to_pixel → world_to_pixel_values). No
// reference records that tie, and words alone cannot tell these from
// their neighbours, which share the same words.
//
// Only compound names count (two words or more: snake_case or
// camelCase): a one-word name (subs, run) is part of too many names to
// mean one of them; and only names of the project's callables and types
// count, since a parameter the task sets (keep_attrs=True) is extended
// by every helper about it (merge_keep_attrs). The words added must be
// whole words (world_to_pixel is not in world_to_pixels_x), and only the
// callables and types of the variantFiles leading files are read (and
// those the task's code reaches, hook.go), since a compound name is
// still extended all over a large project (is_subset in every
// is_subset_* handler) and the fix is where the task's files are. Each
// variant scores the mention's weight times its specificity, 1/(1+ln n)
// over the n variants of the name in those files, at most 1.
// It is not scaled to its maximum, as most features are: that would
// give six variants of one name the score of the one variant of another.
// It runs in the second stage (rerank.go), from its file ranking, and
// what it lifts stays below the leader.
const variantFiles = 10

// variants scores the variants of the task's compound names in the
// leading files (the second stage's file ranking, files).
func (r *ranker) variants(files []RankedFile) {
	if r.par.Weights[FeatVariant] == 0 {
		return
	}
	var names []compound
	for _, m := range r.q.idents {
		name := lastSegment(m.text)
		if wordCount(name) >= 2 && r.namesCallable(name) {
			names = append(names, compound{strings.ToLower(strings.Trim(name, "_")), m.weight})
		}
	}
	if len(names) == 0 {
		return
	}
	found := make([][]int32, len(names))
	lead := make(map[int32]bool, variantFiles)
	for _, f := range files[:min(len(files), variantFiles)] {
		lead[f.file] = true
		for _, d := range r.c.files[f.file].defs {
			r.matchVariant(d, names, found)
		}
	}
	r.scoreVariants(names, found)
	r.scoreVariants(names, r.reachedVariants(names, lead))
}

// A compound is a compound name the task names, in lower case, and the
// weight of its mention.
type compound struct {
	name   string
	weight float64
}

// matchVariant adds d to found[i] if it is a callable or type whose name
// extends names[i].
func (r *ranker) matchVariant(d int32, names []compound, found [][]int32) {
	def := &r.c.defs[d]
	if !callableOrType(def.Kind) {
		return
	}
	lower := strings.ToLower(def.Name)
	for i, n := range names {
		if extendsName(lower, n.name) {
			found[i] = append(found[i], d)
		}
	}
}

// scoreVariants gives the variants found[i] of names[i] the mention's
// weight times their specificity, 1/(1+ln n) over the n of them.
func (r *ranker) scoreVariants(names []compound, found [][]int32) {
	feat := r.feat[FeatVariant]
	for i, n := range names {
		spec := 1 / (1 + math.Log(float64(max(len(found[i]), 1))))
		for _, d := range found[i] {
			feat[d] = max(feat[d], min(n.weight*spec, 1))
		}
	}
}

// namesCallable reports whether a callable or a type of the project is
// named name (in any case): a variant is of a function the task calls or
// names, not of a parameter it sets (keep_attrs=True, for which every
// merge_keep_attrs and concat_keep_attrs would be a variant).
func (r *ranker) namesCallable(name string) bool {
	for _, d := range r.c.names.get(strings.ToLower(name)) {
		if callableOrType(r.c.defs[d].Kind) {
			return true
		}
	}
	return false
}

// extendsName reports whether name (lower case) is base with whole words
// added before or after it, or base with leading underscores.
func extendsName(name, base string) bool {
	if len(name) <= len(base) {
		return false
	}
	for from := 0; ; {
		i := strings.Index(name[from:], base)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(base)
		if (i == 0 || name[i-1] == '_') && (end == len(name) || name[end] == '_') {
			return true
		}
		from = i + 1
	}
}

// wordCount is the number of words of an identifier, as
// terms.SplitIdentifier parts it.
func wordCount(s string) int { return len(terms.SplitIdentifier(s)) }
