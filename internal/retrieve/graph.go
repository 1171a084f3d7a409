package retrieve

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/winnowhq/winnow/internal/symbol"
)

// Graph propagation: the reference graph around the strongest
// candidates, walked with a personalised PageRank seeded by their scores.
// A definition that the candidates call, or that calls several of them,
// is likely part of the same change.
const (
	pprDamping    = 0.5 // chance to follow an edge rather than jump back to a seed
	pprIterations = 12
	maxCallers    = 200 // a name used more often than this is too common to follow
	maxTargets    = 6   // a name defined more often than this resolves to nothing in particular
)

// refWeight is how much a use ties two definitions together.
var refWeight = map[symbol.RefKind]float64{
	symbol.RefCall:   1.0,
	symbol.RefType:   0.8,
	symbol.RefMember: 0.5,
	symbol.RefName:   0.4,
}

// graph sets FeatGraph from a personalised PageRank over the references
// of the seeds: what they use, and what uses them.
func (r *ranker) graph(ctx context.Context, e *Engine, seeds []int32) {
	c := r.c
	ids := make([]int64, len(seeds))
	var names []string
	seedByName := make(map[string][]int32)
	for i, d := range seeds {
		ids[i] = c.defs[d].ID
		name := c.defs[d].Name
		if seedByName[name] == nil {
			names = append(names, name)
		}
		seedByName[name] = append(seedByName[name], d)
	}
	out, err := e.refs(c).RefsFrom(ctx, ids)
	if err != nil {
		return // the graph is a refinement: without it, ranking stands
	}
	// Names used everywhere say nothing about any one use: count first,
	// and read the uses of the others only.
	counts, err := e.refs(c).RefCounts(ctx, names)
	if err != nil {
		return
	}
	names = slices.DeleteFunc(names, func(n string) bool { return counts[n] > maxCallers })
	in, err := e.refs(c).RefsTo(ctx, names)
	if err != nil {
		return
	}

	adj := make(map[int32]map[int32]float64)
	link := func(a, b int32, w float64) {
		if a == b {
			return
		}
		for _, pair := range [][2]int32{{a, b}, {b, a}} { // undirected: calling and being called both relate
			m := adj[pair[0]]
			if m == nil {
				m = make(map[int32]float64)
				adj[pair[0]] = m
			}
			m[pair[1]] += w
		}
	}
	named := namedDefs{} // the seeds use many names more than once
	for _, edge := range out {
		from, ok := c.defByID[edge.Scope]
		if !ok {
			continue
		}
		for _, to := range c.resolveAmong(named.of(c, edge.Name), c.defFile[from]) {
			link(from, to, refWeight[edge.Kind])
		}
	}
	for _, edge := range in {
		if edge.Scope == 0 {
			continue
		}
		from, ok := c.defByID[edge.Scope]
		if !ok {
			continue
		}
		targets := seedByName[edge.Name]
		if len(targets) > maxTargets {
			continue
		}
		for _, to := range targets {
			link(from, to, refWeight[edge.Kind]/float64(len(targets)))
		}
	}
	if len(adj) == 0 {
		return
	}

	// Personalised PageRank on the local graph; the feature is the mass
	// that arrived over edges, not the mass a seed started with.
	teleport := make(map[int32]float64)
	var total float64
	for _, d := range seeds {
		total += r.score[d]
	}
	if total <= 0 {
		return
	}
	for _, d := range seeds {
		teleport[d] = r.score[d] / total
	}
	// Sums run over the nodes in one fixed order: added in map order, the
	// same graph gave scores a last bit apart from run to run, enough to
	// swap two definitions of equal rank.
	nodes, nbrs := pprOrder(adj, teleport)
	g := newLocalGraph(nodes, nbrs, adj)
	tele := make([]float64, len(nodes))
	for d, v := range teleport {
		tele[g.pos[d]] = v
	}
	rank, next := slices.Clone(tele), make([]float64, len(nodes))
	for range pprIterations {
		for i, v := range tele {
			next[i] = (1 - pprDamping) * v
		}
		for i, v := range rank {
			if g.out[i] == 0 {
				next[i] += pprDamping * v // a dead end keeps its mass
				continue
			}
			for k := g.start[i]; k < g.start[i+1]; k++ {
				next[g.to[k]] += pprDamping * v * g.w[k] / g.out[i]
			}
		}
		rank, next = next, rank
	}
	feat := r.feat[FeatGraph]
	for i, v := range rank {
		feat[nodes[i]] = max(0, v-(1-pprDamping)*tele[i])
	}
	scaleMax(feat)
}

// pprOrder returns every node of the local graph (with an edge, or a
// seed) in ascending order, and each node's neighbours in ascending order.
func pprOrder(adj map[int32]map[int32]float64, teleport map[int32]float64) (nodes []int32, out map[int32][]int32) {
	seen := make(map[int32]bool, len(adj)+len(teleport))
	add := func(d int32) {
		if !seen[d] {
			seen[d] = true
			nodes = append(nodes, d)
		}
	}
	out = make(map[int32][]int32, len(adj))
	for a, m := range adj {
		add(a)
		out[a] = slices.Sorted(maps.Keys(m))
		for _, b := range out[a] {
			add(b)
		}
	}
	for d := range teleport {
		add(d)
	}
	slices.Sort(nodes)
	return nodes, out
}

// localGraph is the graph of pprOrder's nodes, laid out for the
// iterations of the PageRank: node i (nodes[i]) has the edges
// start[i]:start[i+1] of to and w, in the order of its neighbours, and the
// total weight out, summed in that order.
type localGraph struct {
	pos   map[int32]int32 // definition → node
	start []int32
	to    []int32
	w     []float64
	out   []float64
}

func newLocalGraph(nodes []int32, nbrs map[int32][]int32, adj map[int32]map[int32]float64) *localGraph {
	g := &localGraph{pos: make(map[int32]int32, len(nodes)), start: make([]int32, len(nodes)+1), out: make([]float64, len(nodes))}
	for i, d := range nodes {
		g.pos[d] = int32(i)
	}
	for i, a := range nodes {
		for _, b := range nbrs[a] {
			w := adj[a][b]
			g.to = append(g.to, g.pos[b])
			g.w = append(g.w, w)
			g.out[i] += w
		}
		g.start[i+1] = int32(len(g.to))
	}
	return g
}

// resolve maps a used name to the definitions it may mean, as seen from
// a file: definitions in the same file first; otherwise all definitions
// of the name, when there are few enough to be meaningful.
func (c *corpus) resolve(name string, from int32) []int32 {
	return c.resolveAmong(c.named(name), from)
}

// named returns the definitions of name, as written.
func (c *corpus) named(name string) []int32 {
	var all []int32
	for _, d := range c.names.get(strings.ToLower(name)) {
		if c.defs[d].Name == name {
			all = append(all, d)
		}
	}
	return all
}

// namedDefs holds corpus.named of each name asked for, found once, for
// a loop over references that use many names more than once.
type namedDefs map[string][]int32

// of is c.named(name), found the first time it is asked for.
func (m namedDefs) of(c *corpus, name string) []int32 {
	all, ok := m[name]
	if !ok {
		all = c.named(name)
		m[name] = all
	}
	return all
}

// resolveAmong is resolve of a name whose definitions are all.
func (c *corpus) resolveAmong(all []int32, from int32) []int32 {
	var local []int32
	for _, d := range all {
		if c.defFile[d] == from {
			local = append(local, d)
		}
	}
	if len(local) > 0 {
		return local
	}
	if len(all) > maxTargets {
		return nil
	}
	return all
}
