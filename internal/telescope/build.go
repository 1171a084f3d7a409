package telescope

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultLevels is how many levels of abstracts a build makes when the request says nothing:
// L1 per unit and L2 per directory, under the root index.
const DefaultLevels = 2

// MaxLevels is the deepest telescope: L1 per unit, L2 per directory, L3 per top-level
// directory.
const MaxLevels = 3

// A Request says what to build.
type Request struct {
	// Path is the file or directory to digest, relative to the root (or absolute inside it);
	// "" means the whole root.
	Path string
	// Strategy names a strategy of the registry; Inline, when set, is used instead.
	Strategy string
	Inline   *Spec
	// Levels is 1 (the root lists the units), 2 (units grouped by directory) or 3 (directories
	// grouped by their first path element under Path); 0 means DefaultLevels.
	Levels int
	// Purpose, when set, ranks the units by relevance to it and keeps the relevant ones.
	Purpose string
}

// A Result is a built telescope.
type Result struct {
	// Namespace names the telescope: its strategy and version, path, and purpose.
	Namespace string `json:"namespace"`
	// Level is the root's level: one above the top level of abstracts.
	Level int `json:"level"`
	// RootID is the id of the root index; Index is its text.
	RootID string `json:"root_id"`
	Index  string `json:"index"`
	// KeyMap maps "L1:path", "L2:dir/", "L3:dir/" and "root" to node ids.
	KeyMap  map[string]string `json:"key_map"`
	Stats   Stats             `json:"stats"`
	Skipped []Skip            `json:"skipped,omitempty"`
}

// Build digests the files under req.Path into a telescope.
//
// Every id is computed before the store is read: a unit's from its content hash, a group's
// from its members' ids, the root's from the groups'. The store is then read top-down: when
// the root is there, nothing below it is read at all (its statistics travel with it); when a
// group is missing, its members are looked up, and only the units missing from the store are
// abstracted. After one file changes, a build therefore computes that file's unit node and its
// ancestors, and reads the store only along that path and for their siblings.
func (e *Engine) Build(ctx context.Context, req Request) (*Result, error) {
	start := time.Now()
	levels := req.Levels
	if levels == 0 {
		levels = DefaultLevels
	}
	if levels < 1 || levels > MaxLevels {
		return nil, fmt.Errorf("levels %d: must be between 1 and %d", levels, MaxLevels)
	}
	strat, err := e.strategy(req)
	if err != nil {
		return nil, err
	}
	rel, isDir, err := resolve(e.root, req.Path)
	if err != nil {
		return nil, err
	}
	l, err := e.list(ctx, rel, isDir)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", rel, err)
	}
	b := &builder{e: e, strat: strat, spec: strat.Spec(), purpose: req.Purpose, keyMap: map[string]string{}}
	b.fp = b.spec.fingerprint() + "/" + strconv.Itoa(nodeFormat)
	if b.quick, err = e.quickFiles(ctx, strat); err != nil {
		return nil, err
	}
	b.stats.Strategies = map[string]*StrategyStats{}
	b.stats.Skipped = l.skipped
	units := l.units
	if req.Purpose != "" {
		r := rank(units, req.Purpose)
		b.stats.Filtered = len(units) - len(r.kept)
		units = r.kept
	}
	root := b.plan(units, levels, rel)
	var need []*plan
	if err := b.probe(ctx, root, &need); err != nil {
		return nil, err
	}
	if err := b.units(ctx, need); err != nil {
		return nil, err
	}
	if err := b.assemble(ctx, root); err != nil {
		return nil, err
	}
	b.stats.RootTokens = root.node.OutputTokens
	b.stats.Duration = time.Since(start)
	b.stats.finish()
	return &Result{
		Namespace: namespace(b.spec, rel, req.Purpose),
		Level:     root.level,
		RootID:    root.id,
		Index:     root.node.Text,
		KeyMap:    b.keyMap,
		Stats:     b.stats,
		Skipped:   l.skips,
	}, nil
}

// quickFiles returns the files whose definitions are the index's quick tier, when the
// strategy reads definitions (a model reads the source): their units' ids say so.
func (e *Engine) quickFiles(ctx context.Context, strat Strategy) (map[string]bool, error) {
	ts, ok := e.symbols.(tieredSource)
	if _, llm := strat.(*llmStrategy); !ok || llm {
		return nil, nil
	}
	return ts.quickFiles(ctx)
}

func (e *Engine) strategy(req Request) (Strategy, error) {
	if req.Inline != nil {
		return e.reg.Make(*req.Inline)
	}
	name := req.Strategy
	if name == "" {
		name = CodeSignature
	}
	return e.reg.Lookup(name)
}

func namespace(sp Spec, rel, purpose string) string {
	ns := fmt.Sprintf("telescope:%s@v%d:%s", sp.Name, sp.Version, rel)
	if purpose != "" {
		ns += ":purpose-" + nodeID(purpose)[:8]
	}
	return ns
}

// builder is the state of one build.
type builder struct {
	e       *Engine
	strat   Strategy
	spec    Spec
	fp      string // the strategy's fingerprint and the node format
	purpose string
	quick   map[string]bool // files whose definitions are the index's quick tier (quickFiles)
	mu      sync.Mutex
	stats   Stats
	keyMap  map[string]string
}

// A plan is a node of the telescope before it is found or computed.
type plan struct {
	id       string
	level    int
	kind     NodeKind
	dir      string // a group's directory, the root's path
	unit     *Unit  // a unit's source
	children []*plan
	node     *Node // once found or computed
	hit      bool  // found in the store
	// provisional marks a node written by a fallback, or above one: it is not stored, so
	// that the model gets another chance next time.
	provisional bool
}

// plan lays out the telescope and computes every id, without reading the store.
func (b *builder) plan(units []*Unit, levels int, rel string) *plan {
	top := make([]*plan, 0, len(units))
	for _, u := range units {
		u.Purpose = b.purpose
		p := &plan{id: b.unitID(u), level: 1, kind: KindUnit, unit: u}
		if u.Kind == UnitCode && b.quick[u.Path] {
			b.stats.QuickUnits++
		}
		b.keyMap["L1:"+u.Path] = p.id
		top = append(top, p)
	}
	for lv := 2; lv <= levels; lv++ {
		byDir := map[string]*plan{}
		var groups []*plan
		for _, c := range top {
			d := groupDir(c, lv, rel)
			g := byDir[d]
			if g == nil {
				g = &plan{level: lv, kind: KindGroup, dir: d}
				byDir[d] = g
				groups = append(groups, g)
			}
			g.children = append(g.children, c)
		}
		for _, g := range groups {
			ids := []string{"group", b.fp, strconv.Itoa(lv), g.dir}
			g.id = nodeID(append(ids, childIDs(g)...)...)
			b.keyMap[fmt.Sprintf("L%d:%s/", lv, g.dir)] = g.id
		}
		b.stats.Groups += len(groups)
		top = groups
	}
	root := &plan{level: levels + 1, kind: KindRoot, dir: rel, children: top}
	root.id = nodeID(append([]string{"root", b.fp, rel, strconv.Itoa(levels), b.purpose}, childIDs(root)...)...)
	b.keyMap["root"] = root.id
	return root
}

func childIDs(p *plan) []string {
	ids := make([]string, len(p.children))
	for i, c := range p.children {
		ids[i] = c.id
	}
	return ids
}

// unitID is the id of the unit node of u under the build's strategy.
func (b *builder) unitID(u *Unit) string {
	purpose := ""
	if ls, ok := b.strat.(*llmStrategy); ok && ls.usesPurpose() {
		purpose = u.Purpose
	}
	if u.Kind == UnitCode && b.quick[u.Path] {
		return nodeID("unit", b.fp, u.Path, u.Hash, purpose, "index:quick")
	}
	return nodeID("unit", b.fp, u.Path, u.Hash, purpose)
}

// probe reads the groups and the root top-down: a node found ends the descent; the units
// under a group that is not found are collected in need.
func (b *builder) probe(ctx context.Context, p *plan, need *[]*plan) error {
	if p.kind == KindUnit {
		*need = append(*need, p)
		return nil
	}
	n, hit, err := b.e.load(ctx, p.id)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		b.stats.StoreErrors++
	}
	if hit && n.Subtree != nil {
		p.node, p.hit = n, true
		return nil
	}
	for _, c := range p.children {
		if err := b.probe(ctx, c, need); err != nil {
			return err
		}
	}
	return nil
}

// units finds or computes the node of every unit plan, up to e.workers at once.
func (b *builder) units(ctx context.Context, units []*plan) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan *plan)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for range min(b.e.workers, max(len(units), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range jobs {
				if err := b.unit(ctx, p); err != nil {
					select {
					case errs <- err:
					default:
					}
					cancel()
					return
				}
			}
		}()
	}
feed:
	for _, p := range units {
		select {
		case jobs <- p:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
	}
	return ctx.Err()
}

// unit finds the node of one unit in the store or computes it.
func (b *builder) unit(ctx context.Context, p *plan) error {
	n, hit, loadErr := b.e.load(ctx, p.id)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var a *Abstract
	var saveErr error
	if !hit {
		abs, err := b.strat.Abstract(ctx, p.unit)
		if err != nil {
			return fmt.Errorf("abstract %s with %s: %w", p.unit.Path, b.spec.Name, err)
		}
		a = &abs
		n = b.unitNode(p.id, p.unit, abs)
		n.QuickIndex = p.unit.quick
		if abs.Fallback == "" {
			saveErr = b.e.save(ctx, n)
		} else {
			b.e.remember(n)
			p.provisional = true
		}
	}
	p.node, p.hit = n, hit
	b.mu.Lock()
	defer b.mu.Unlock()
	if loadErr != nil || saveErr != nil {
		b.stats.StoreErrors++
	}
	if a != nil {
		b.stats.addAbstract(a)
	}
	return nil
}

// assemble computes, bottom-up, every group and the root that probe did not find, and adds
// every node to the statistics.
func (b *builder) assemble(ctx context.Context, p *plan) error {
	if p.kind == KindUnit {
		var t Subtree
		t.add(p.node)
		b.count(p, &t)
		return nil
	}
	if p.hit {
		b.count(p, p.node.Subtree)
		return nil
	}
	members := make([]*Node, len(p.children))
	for i, c := range p.children {
		if err := b.assemble(ctx, c); err != nil {
			return err
		}
		members[i] = c.node
		p.provisional = p.provisional || c.provisional
	}
	if p.kind == KindRoot {
		p.node = b.rootNode(p.id, p.level-1, p.dir, members)
		b.stats.Computed.Root++
	} else {
		p.node = b.groupNode(p.id, p.level, p.dir, members)
		b.stats.Computed.Groups++
	}
	if p.provisional {
		b.e.remember(p.node)
	} else if err := b.e.save(ctx, p.node); err != nil {
		b.stats.StoreErrors++
	}
	return nil
}

// count adds a unit, or a reused group or root with everything below it, to the statistics.
func (b *builder) count(p *plan, t *Subtree) {
	for name, tot := range t.Strategies {
		b.stats.addTotals(name, tot, p.hit)
	}
	switch {
	case p.kind == KindUnit && p.hit:
		b.stats.Reused.Units++
	case p.kind == KindUnit:
		b.stats.Computed.Units++
	default: // a reused group or root
		for _, tot := range t.Strategies {
			b.stats.Reused.Units += tot.Units
		}
		b.stats.Reused.Groups += t.Groups
		if p.kind == KindRoot {
			b.stats.Reused.Root++
		} else {
			b.stats.Reused.Groups++
		}
	}
}

// unitNode makes the node of an abstract.
func (b *builder) unitNode(id string, u *Unit, a Abstract) *Node {
	lines := len(u.Lines())
	strategy, version := b.spec.Name, b.spec.Version
	if a.Strategy != "" {
		strategy, version = a.Strategy, 1
	}
	head := a.Headline
	if head == "" {
		head = clip(firstLine(a.Text), 140)
	}
	parts := a.Parts
	if parts == nil && lines > 0 {
		parts = []Part{{Title: "whole file", StartLine: 1, EndLine: lines}}
	}
	return &Node{
		ID: id, Level: 1, Kind: KindUnit,
		Span:     Span{Path: u.Path, StartLine: min(1, lines), EndLine: lines},
		Strategy: strategy, Version: version, Headline: head, Text: a.Text, Parts: parts,
		UnitKind: u.Kind, Lang: u.Lang, Hash: u.Hash,
		InputTokens: b.e.counter.Count(string(u.Content)), OutputTokens: b.e.counter.Count(a.Text),
		Units: 1, Fallback: a.Fallback, LLMInputTokens: a.LLMInputTokens, LLMOutputTokens: a.LLMOutputTokens,
	}
}

// groupDir is the directory of the group of level lv holding p: a unit's directory at level
// 2; at level 3, the first path element below rel.
func groupDir(p *plan, lv int, rel string) string {
	if lv == 2 {
		return path.Dir(p.unit.Path)
	}
	sub := p.dir
	if rel != "." {
		sub = strings.TrimPrefix(strings.TrimPrefix(sub, rel), "/")
	}
	first, _, found := strings.Cut(sub, "/")
	switch {
	case sub == "" || sub == "." || (!found && first == ""):
		return rel
	case rel == ".":
		return first
	}
	return rel + "/" + first
}
