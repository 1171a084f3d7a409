package retrieve

import "strings"

// Hooks: a public method that does its work in a method of the
// receiver's class named for it, with words added (Boolean.as_set calls
// self._eval_as_set, which Relational, And and Not each define). The
// task calls the public method (Eq(…).as_set()); what runs, and what a
// fix edits, is the hook of the receiver's class (Relational's, since Eq
// is an Equality, a Relational), often in a file no word of the task
// leads to (sympy-18211: core/relational.py, 34th).
//
// Two ties follow it. The code's one step from the definitions it
// reaches (codeuse.go) passes a self-call of a hook the caller's whole
// score, codeHookHop, not codeHop: the hook is the operation, for this
// receiver. And a variant of a compound name the task names (variant.go)
// counts outside the leading files when the task's code reaches it,
// with its own specificity among the variants so reached: the receiver's
// class picked it out of the hooks of that name, which the variants of
// the leading files (And's, Or's, Not's, ITE's) share.

// codeHookHop is a hook's share of its caller's code score.
const codeHookHop = 1.0

// isHook reports whether callee, called by caller on its own receiver,
// is caller's hook: caller's name (its leading underscores aside) with
// whole words added (as_set → _eval_as_set).
func isHook(caller, callee string) bool {
	base := strings.ToLower(strings.Trim(caller, "_"))
	return wordCount(base) >= 2 && extendsName(strings.ToLower(callee), base)
}

// reachedVariants are the variants of names outside the leading files
// (lead) that the task's code reaches.
func (r *ranker) reachedVariants(names []compound, lead map[int32]bool) [][]int32 {
	found := make([][]int32, len(names))
	for d, v := range r.feat[FeatCode] {
		if v > 0 && !lead[r.c.defs[d].file] {
			r.matchVariant(int32(d), names, found)
		}
	}
	return found
}
