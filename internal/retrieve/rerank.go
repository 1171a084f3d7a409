package retrieve

import (
	"context"
	"math"
	"slices"

	"github.com/winnowhq/winnow/internal/index"
)

// The second stage. Once every first-stage feature is in, the leading
// file is usually right (file Acc@1 ~64% on the dev set, Acc@3 ~70%),
// and a fix that spans files most often spans the leading file and the
// files it leads to: Dataset.quantile hands the work to
// Variable.quantile, PyXrefMixin.make_xref to its base's make_xref in
// docfields.py, ModuleDocumenter.get_object_members to
// importer.get_module_members. The first stage scores each file on its
// own words and sees none of these ties; the second stage reads them
// from the anchors, the leading file's best definitions, and lifts what
// they reach: what the anchors call or use, in other files, resolved by
// name (a name defined in more than maxTargets places says nothing),
// split among the definitions a name may mean, the anchor's own name
// (delegation to a sibling's method of the same name) counting
// delegateSameName times more.
//
// That is a feature of the definitions it lifts (weight FeatDelegate,
// scaled to [0, 1] like the others), so --explain shows it. The second
// stage fills the places below the leader and never takes the lead: what
// it lifts stays below the leading file and the leading definition
// (rerank.cap), since a tie read from the leader cannot be worth more
// than the leader. (Files the git history changed together with the
// leading file were tried as a second lift, and lost file Acc@5 at every
// weight on the dev set; see doc.go.)
//
// The second stage also lifts the callables around the leading ones
// (weight FeatEnclose): a closure or local helper that matches the task
// (check_thread.check_uri, a nested register) is part of the function it
// is defined in, which a fix inside it edits and whose source shows it,
// while the function's own name and words may say nothing of the task.
// Only the encloseFrom best definitions lift: further down, closures of
// generic names (every register of a decorator method) lift functions
// that have nothing to do with the task.
const (
	rerankAnchors    = 3   // the leading file's best definitions the second stage follows
	rerankDefs       = 50  // the leading definitions anchors are picked from
	delegateSameName = 2.0 // a call to the anchor's own name on another receiver: delegation
	encloseFrom      = 10  // the leading definitions whose enclosing callables the second stage lifts
)

// rerank runs the second stage and scores again.
func (r *ranker) rerank(ctx context.Context, e *Engine) {
	if !slices.ContainsFunc(secondStage, func(f Feature) bool { return r.par.Weights[f] != 0 }) {
		return
	}
	files := r.rankFiles()
	if len(files) == 0 {
		return
	}
	lead := files[0].file
	best := r.top(1)
	if len(best) == 0 {
		return // files matched, no definition did (a file of the quick tier without a scanner)
	}
	r.cap = &rerankCap{file: lead, fileScore: files[0].Score, def: best[0], defScore: r.score[best[0]]}
	r.enclosing()
	r.delegate(ctx, e, lead)
	r.variants(files)
	r.members()
	r.rescore(secondStage...)
}

// secondStage are the features the second stage scores.
var secondStage = []Feature{FeatDelegate, FeatEnclose, FeatVariant, FeatMember}

// anchors are the leading file's best definitions among the leading
// definitions: callables and types, best first.
func (r *ranker) anchors(lead int32) []int32 {
	var out []int32
	for _, d := range r.top(rerankDefs) {
		def := &r.c.defs[d]
		if def.file == lead && callableOrType(def.Kind) {
			out = append(out, d)
			if len(out) == rerankAnchors {
				break
			}
		}
	}
	return out
}

// delegate scores what the anchors use outside the leading file: each
// use gives its targets the anchor's score relative to the best
// anchor's, times the use's weight, split among the targets.
func (r *ranker) delegate(ctx context.Context, e *Engine, lead int32) {
	anchors := r.anchors(lead)
	if len(anchors) == 0 {
		return
	}
	feat := r.feat[FeatDelegate]
	r.followUses(ctx, e, anchors, lead, func(anchor, target int32, edge index.Edge, share float64) {
		if edge.Name == r.c.defs[anchor].Name {
			share *= delegateSameName
		}
		feat[target] = max(feat[target], share)
	})
	scaleMax(feat)
}

// enclosing scores the callables around the leading definitions: a
// closure or a local helper is part of the function it is defined in,
// which a fix inside it edits, and whose source shows it. Each callable
// around one of the rerankDefs best callables gets that callable's
// score relative to the best definition's.
func (r *ranker) enclosing() {
	if r.par.Weights[FeatEnclose] == 0 {
		return
	}
	top := r.top(encloseFrom)
	if len(top) == 0 {
		return
	}
	lead, feat := r.score[top[0]], r.feat[FeatEnclose]
	for _, d := range top {
		def := &r.c.defs[d]
		if !def.Kind.IsCallable() {
			continue
		}
		for _, o := range r.c.files[def.file].defs {
			out := &r.c.defs[o]
			if o != d && out.Kind.IsCallable() && out.Span.StartByte <= def.Span.StartByte && def.Span.EndByte <= out.Span.EndByte &&
				out.Span.EndByte-out.Span.StartByte > def.Span.EndByte-def.Span.StartByte {
				feat[o] = max(feat[o], r.score[d]/lead)
			}
		}
	}
}

// rerankCap bounds what the second stage lifts: below the leading file
// and the leading definition of the first stage.
type rerankCap struct {
	file      int32
	fileScore float64
	def       int32
	defScore  float64
}

// below is the bound for a score the leader's s must stay above.
func below(s float64) float64 { return math.Nextafter(s, 0) }

// followUses resolves by name what the definitions from (best first) use,
// to the callables and types outside tests and outside the file skip (-1
// for none) that a name may mean, leaving out a name defined in more
// than maxTargets places, and calls fn with each use's source, target and
// share: the source's score relative to from[0]'s, times the use's
// weight, split among the targets. It is a refinement: without the
// references, it calls nothing.
func (r *ranker) followUses(ctx context.Context, e *Engine, from []int32, skip int32, fn func(source, target int32, edge index.Edge, share float64)) {
	ids := make([]int64, len(from))
	source := make(map[int64]int32, len(from))
	for i, d := range from {
		ids[i] = r.c.defs[d].ID
		source[ids[i]] = d
	}
	edges, err := e.refs(r.c).RefsFrom(ctx, ids)
	if err != nil {
		return
	}
	named := namedDefs{} // the sources share many names
	for _, edge := range edges {
		if r.builtinUse(source[edge.Scope], edge.Name) {
			continue
		}
		var targets []int32
		for _, d := range named.of(r.c, edge.Name) {
			if fi := r.c.defFile[d]; fi >= 0 && fi != skip && !r.c.files[fi].test && callableOrType(r.c.defKind[d]) {
				targets = append(targets, d)
			}
		}
		if len(targets) == 0 || len(targets) > maxTargets {
			continue
		}
		src := source[edge.Scope]
		share := r.score[src] / r.score[from[0]] * refWeight[edge.Kind] / float64(len(targets))
		for _, d := range targets {
			fn(src, d, edge, share)
		}
	}
}
