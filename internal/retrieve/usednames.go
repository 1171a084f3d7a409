package retrieve

import (
	"context"
	"math"
	"strings"

	"github.com/winnowhq/winnow/internal/symbol"
)

// Names the project reads and never defines. An identifier of the task
// that no definition has (autodoc_typehints, linkcheck_workers,
// napoleon_include_init_with_doc) is still the project's when its code
// reads it as an attribute: a configuration value read as
// app.config.autodoc_typehints, an option read off its namespace. Those
// reads are where the behaviour the task describes is decided: on the
// dev set, of the 23 such identifiers of compound form (snake_case)
// that code outside tests reads as an attribute, 12 are read in a file
// the fix edited. The definitions that read it score, as a mention, the
// mention's weight times UsedShare times 1/(1+ln n) over the n
// definitions reading it, like a name n definitions share (mentions); a
// name more than maxUsedBy definitions read says nothing in particular.
// Only attribute reads count: a keyword argument (keep_attrs, min_count)
// is a local name in every function that passes it on.
const maxUsedBy = 20

// usedNames scores the definitions that use an identifier of the task
// that nothing defines.
func (r *ranker) usedNames(ctx context.Context, e *Engine) {
	w := r.par.UsedShare
	if w == 0 {
		return
	}
	weight := make(map[string]float64)
	var names []string
	for _, m := range r.q.idents {
		name := lastSegment(m.text)
		if len(name) < 6 || !strings.Contains(strings.Trim(name, "_"), "_") {
			continue // one word: too many things are called that
		}
		if _, ok := weight[name]; !ok {
			if len(r.c.names.get(strings.ToLower(name))) > 0 {
				continue // defined: mentions scores it
			}
			names = append(names, name)
		}
		weight[name] = max(weight[name], m.weight)
	}
	if len(names) == 0 {
		return
	}
	edges, err := e.refs(r.c).RefsTo(ctx, names)
	if err != nil {
		return
	}
	users := make(map[string]map[int32]bool)
	for _, edge := range edges {
		d, ok := r.c.defByID[edge.Scope]
		if !ok || edge.Kind != symbol.RefMember || r.c.defs[d].file < 0 || r.c.files[r.c.defs[d].file].test {
			continue
		}
		if users[edge.Name] == nil {
			users[edge.Name] = make(map[int32]bool)
		}
		users[edge.Name][d] = true
	}
	feat := r.feat[FeatMention]
	for name, ds := range users {
		if len(ds) > maxUsedBy {
			continue
		}
		s := w * weight[name] / (1 + math.Log(float64(len(ds))))
		for d := range ds {
			feat[d] = max(feat[d], s)
		}
	}
}
