package retrieve

import (
	"context"
	"math"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/intent"
)

// Structural signals: what a definition's place in the code says, beyond
// the words it shares with the task. See doc.go, "Signals".

const (
	testVoters       = 12  // test definitions whose uses vote for the code they exercise
	dispatchMinShare = 0.2 // a dispatch name's floor, before its file's relevance lifts it
)

// dispatch scores methods named for a class the task names: printers,
// visitors and converters dispatch on a class name inside the method's
// name (_print_Sum, visit_Tuple, convert_Mod), an edge no reference
// records. "pretty printing of Sum is wrong" is about every _print_Sum
// only as far as its printer is about the task, so the score is the
// name's specificity (1/(1+ln n) over the n methods named for that
// class) times how well the method's file matches the task, with a
// floor of dispatchMinShare.
func (r *ranker) dispatch() {
	if r.par.Weights[FeatDispatch] == 0 {
		return
	}
	for key, w := range r.q.classWords {
		defs := r.c.dispatch[key]
		if len(defs) == 0 {
			continue
		}
		spec := 1 / (1 + math.Log(float64(len(defs))))
		for _, d := range defs {
			def := &r.c.defs[d]
			s := w.weight * spec
			if dispatchClass(def.Name) != w.text {
				s *= 0.6 // "tuple" in prose for visit_Tuple: likely, less sure
			}
			rel := r.file[FeatLexical][def.file]
			s *= dispatchMinShare + (1-dispatchMinShare)*rel
			r.feat[FeatDispatch][d] = max(r.feat[FeatDispatch][d], min(s, 1))
		}
	}
}

// testVotes turns the tests that match the task into votes for the code
// they exercise: the definitions the best-scoring test definitions use,
// outside tests, gain the tests' scores (relative to the best test's),
// split among the definitions a name may mean. The tests themselves are
// then held down by PriorTest: a test names the code at fault more
// often than it is the code at fault.
func (r *ranker) testVotes(ctx context.Context, e *Engine) {
	if r.par.Weights[FeatTestVote] == 0 {
		return
	}
	voters := r.topWhere(testVoters, func(d int32) bool {
		fi := r.c.defFile[d]
		return fi >= 0 && r.c.files[fi].test && r.c.defKind[d].IsCallable()
	})
	if len(voters) == 0 {
		return
	}
	votes := r.feat[FeatTestVote]
	r.followUses(ctx, e, voters, -1, func(_, target int32, _ index.Edge, share float64) {
		votes[target] += share
	})
	scaleMax(votes)
}

// writesTests reports whether the task is to write tests, surely enough
// that tests are what it needs (PriorTestWrite) rather than the code
// they test: a bug report that talks of tests, fixtures and collection
// (every pytest issue) reads weakly as one.
func (r *ranker) writesTests() bool {
	return r.q.intent.Kind == intent.TestWriting && r.q.intent.Confidence >= r.par.TestWriteConfidence
}

// structurePrior is the factor for a definition's file beyond tests and
// docs: vendored copies are held down (the fix is usually in the caller),
// and so are files whose vocabulary is much broader than the median
// file's, which match every task's common words (a module of a hundred
// assumption keys, autodoc's __init__), unless the task names or traces
// the file or names the definition.
func (r *ranker) structurePrior(fi int32, named bool) float64 {
	p := 1.0
	if r.c.vendored[fi] {
		p *= r.par.PriorVendor
	}
	if !named && r.file[FeatPath][fi] == 0 && r.file[FeatTrace][fi] == 0 {
		p /= 1 + r.par.HubPenalty*r.c.breadth[fi]
	}
	return p
}
