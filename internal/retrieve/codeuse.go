package retrieve

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"

	"github.com/winnowhq/winnow/internal/symbol"
)

// Resolving the task's code (issuecode.go) through the index: an import
// or an alias leads to a module and its definition, a class to its
// method or the method it inherits, and one step further, to what the
// reached definitions call, a method looked up first in the receiver's
// own class and its bases (Eq(…).as_set() reaches Boolean.as_set, which
// calls self._eval_as_set: Relational's, since Eq is an Equality, a
// Relational).

const (
	codeHop       = 0.5 // a callee's share of its caller's code score
	codeHopFrom   = 16  // reached definitions whose calls are followed
	maxBaseDepth  = 4   // base classes followed from a receiver's class
	codeCtorShare = 0.6 // a constructor's share of a use that calls a class: Name(…)
	codeTypeShare = 0.3 // a class's own share: a reproducer builds many objects, and a class is rarely the fix
)

// A reach is a definition the code reached, and the class of the
// receiver it was reached through (for self calls inside it).
type reach struct {
	score float64
	mro   []int32 // the receiver's class and its bases, nearest first
}

// code sets FeatCode: the definitions the task's code uses, and what
// they call.
func (r *ranker) code(ctx context.Context, e *Engine) {
	if r.par.Weights[FeatCode] == 0 || len(r.q.uses) == 0 {
		return
	}
	cr := codeResolver{r: r, ctx: ctx, e: e, bases: make(map[int32][]int32), reached: make(map[int32]reach)}
	for _, u := range r.q.uses {
		cr.resolve(u)
	}
	r.codeReached = len(cr.reached) > 0
	cr.hop()
	feat := r.feat[FeatCode]
	for d, rc := range cr.reached {
		feat[d] = max(feat[d], min(rc.score, 1))
	}
}

type codeResolver struct {
	r       *ranker
	ctx     context.Context
	e       *Engine
	bases   map[int32][]int32 // class → its base classes, as read
	reached map[int32]reach
}

func (cr *codeResolver) mark(d int32, s float64, mro []int32) {
	if old, ok := cr.reached[d]; !ok || s > old.score {
		cr.reached[d] = reach{score: s, mro: mro}
	}
}

// resolve marks the definitions one use reaches.
func (cr *codeResolver) resolve(u codeUse) {
	c := cr.r.c
	switch {
	case u.class != "":
		classes := cr.classesNamed(u.class)
		if len(classes) == 0 || len(classes) > maxTargets {
			return
		}
		spec := specificity(len(classes))
		for _, cl := range classes {
			mro := cr.mro(cl)
			if m := cr.method(mro, u.name); m >= 0 {
				cr.mark(m, u.weight*spec, mro)
			}
		}
	case u.module != "":
		defs := cr.defsNamed(u.name, func(d *defEntry) bool {
			return callableOrType(d.Kind) && underModule(c.files[d.file].path, u.module)
		})
		defs = topLevelFirst(c, defs)
		if len(defs) == 0 || len(defs) > maxTargets {
			return
		}
		spec := specificity(len(defs))
		for _, d := range defs {
			cr.markCallable(d, u, u.weight*spec)
		}
	case u.called && u.weight >= weightUseBareCall:
		// f(…) calls a function or a class, never a method.
		defs := cr.defsNamed(u.name, func(d *defEntry) bool { return callableOrType(d.Kind) && d.Parent == "" })
		if len(defs) == 0 || len(defs) > maxTargets {
			return
		}
		spec := specificity(len(defs))
		for _, d := range defs {
			cr.markCallable(d, u, u.weight*spec)
		}
	default: // a method of a receiver the code does not type
		defs := cr.defsNamed(u.name, func(d *defEntry) bool { return d.Kind.IsCallable() && d.Parent != "" })
		if len(defs) == 0 || len(defs) > maxTargets {
			return
		}
		spec := specificity(len(defs))
		for _, d := range defs {
			cr.mark(d, u.weight*spec, nil)
		}
	}
}

// markCallable marks d; a class that is called is constructed, so its
// constructor (its own or inherited) is reached, more than the class.
func (cr *codeResolver) markCallable(d int32, u codeUse, s float64) {
	def := &cr.r.c.defs[d]
	if !def.Kind.IsType() {
		cr.mark(d, s, nil)
		return
	}
	mro := cr.mro(d)
	cr.mark(d, s*codeTypeShare, mro)
	if !u.called {
		return
	}
	for _, ctor := range []string{"__new__", "__init__"} {
		if m := cr.method(mro, ctor); m >= 0 {
			cr.mark(m, s*codeCtorShare, mro)
		}
	}
}

// defsNamed are the definitions named name, outside tests, that keep.
func (cr *codeResolver) defsNamed(name string, keep func(*defEntry) bool) []int32 {
	c := cr.r.c
	var out []int32
	for _, d := range c.names.get(strings.ToLower(name)) {
		def := &c.defs[d]
		if def.Name == name && def.file >= 0 && !c.files[def.file].test && keep(def) {
			out = append(out, d)
		}
	}
	return out
}

// classesNamed are the classes named name, or else those a module-level
// alias of that name stands for (Eq = Equality).
func (cr *codeResolver) classesNamed(name string) []int32 {
	if cls := cr.defsNamed(name, func(d *defEntry) bool { return d.Kind.IsType() }); len(cls) > 0 {
		return cls
	}
	c := cr.r.c
	var out []int32
	for _, v := range cr.defsNamed(name, func(d *defEntry) bool { return d.Parent == "" && !callableOrType(d.Kind) }) {
		def := &c.defs[v]
		edges, err := cr.e.refs(cr.r.c).RefsFrom(cr.ctx, []int64{def.ID})
		if err != nil || len(edges) != 1 || edges[0].Line != def.Span.StartLine {
			continue // an alias is one name on its own line
		}
		for _, t := range c.resolve(edges[0].Name, def.file) {
			if c.defs[t].Kind.IsType() {
				out = append(out, t)
			}
		}
	}
	return out
}

// topLevelFirst keeps the module-level definitions of defs, if any:
// xr.where is the function where, not Dataset.where.
func topLevelFirst(c *corpus, defs []int32) []int32 {
	top := slices.DeleteFunc(slices.Clone(defs), func(d int32) bool { return c.defs[d].Parent != "" })
	if len(top) > 0 {
		return top
	}
	return defs
}

// underModule reports whether file lies in the dotted module or package
// ("xarray" holds xarray/core/computation.py; "sympy.core" holds
// sympy/core/basic.py), wherever the package sits in the tree (src/).
func underModule(file, module string) bool {
	dir := strings.ReplaceAll(module, ".", "/")
	return strings.HasPrefix(file, dir+"/") || strings.Contains(file, "/"+dir+"/") || moduleMatches(file, module)
}

func specificity(n int) float64 { return 1 / (1 + math.Log(float64(max(n, 1)))) }

// mro is a class and its bases, breadth first, nearest first, as far as
// the index resolves them.
func (cr *codeResolver) mro(class int32) []int32 {
	out := []int32{class}
	seen := map[int32]bool{class: true}
	for depth, frontier := 0, []int32{class}; depth < maxBaseDepth && len(frontier) > 0; depth++ {
		var next []int32
		for _, cl := range frontier {
			for _, b := range cr.basesOf(cl) {
				if !seen[b] {
					seen[b] = true
					out = append(out, b)
					next = append(next, b)
				}
			}
		}
		frontier = next
	}
	return out
}

// basesOf reads a class's base classes: the type references of its
// header, resolved by name (same file first).
func (cr *codeResolver) basesOf(class int32) []int32 {
	if bs, ok := cr.bases[class]; ok {
		return bs
	}
	c := cr.r.c
	def := &c.defs[class]
	edges, err := cr.e.refs(cr.r.c).RefsFrom(cr.ctx, []int64{def.ID})
	var bs []int32
	if err == nil {
		for _, edge := range edges {
			if edge.Kind != symbol.RefType || edge.Line < def.Span.StartLine || edge.Line > def.Span.StartLine+2 {
				continue
			}
			for _, b := range c.resolve(edge.Name, def.file) {
				if c.defs[b].Kind.IsType() && b != class {
					bs = append(bs, b)
				}
			}
		}
	}
	cr.bases[class] = bs
	return bs
}

// method finds a method named name in the first class of mro that
// defines it.
func (cr *codeResolver) method(mro []int32, name string) int32 {
	c := cr.r.c
	for _, cl := range mro {
		cls := &c.defs[cl]
		for _, d := range c.names.get(strings.ToLower(name)) {
			def := &c.defs[d]
			if def.Name == name && def.file == cls.file && def.Parent == cls.Qual && def.Kind.IsCallable() {
				return d
			}
		}
	}
	return -1
}

// hop follows the calls of the best reached definitions one step: a
// name is looked up in the receiver's class and bases first, then as
// the reference graph resolves names (same file first, few meanings).
func (cr *codeResolver) hop() {
	c := cr.r.c
	from := make([]int32, 0, len(cr.reached))
	for d := range cr.reached {
		if c.defs[d].Kind.IsCallable() {
			from = append(from, d)
		}
	}
	slices.SortFunc(from, func(a, b int32) int {
		return cmp.Or(cmp.Compare(cr.reached[b].score, cr.reached[a].score), cmp.Compare(a, b))
	})
	from = from[:min(len(from), codeHopFrom)]
	if len(from) == 0 {
		return
	}
	ids := make([]int64, len(from))
	for i, d := range from {
		ids[i] = c.defs[d].ID
	}
	edges, err := cr.e.refs(cr.r.c).RefsFrom(cr.ctx, ids)
	if err != nil {
		return // a refinement: without it, the uses stand
	}
	type hopped struct {
		d int32
		s float64
	}
	var found []hopped
	for _, edge := range edges {
		if edge.Kind != symbol.RefCall && edge.Kind != symbol.RefMember {
			continue
		}
		src, ok := c.defByID[edge.Scope]
		if !ok {
			continue
		}
		rc := cr.reached[src]
		var targets []int32
		share := codeHop
		if m := cr.method(rc.mro, edge.Name); m >= 0 {
			targets = []int32{m}
			if isHook(c.defs[src].Name, c.defs[m].Name) {
				share = codeHookHop
			}
		} else {
			for _, t := range c.resolve(edge.Name, c.defs[src].file) {
				if callableOrType(c.defs[t].Kind) && !c.files[c.defs[t].file].test {
					targets = append(targets, t)
				}
			}
		}
		for _, t := range targets {
			if t != src {
				found = append(found, hopped{t, rc.score * share * refWeight[edge.Kind] / float64(len(targets))})
			}
		}
	}
	for _, h := range found {
		cr.mark(h.d, h.s, nil)
	}
}
