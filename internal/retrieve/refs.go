package retrieve

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/symbol"
)

// The references in memory. Ranking and packing read the references of
// a few dozen definitions and names per task, about 1,500 rows on sympy,
// and through SQLite a row costs ~1.7 µs: a sixth of a warm Context. A
// long-lived engine (winnow mcp) asks for them to be kept in memory
// (Engine.KeepReferences): a refTable holds every reference of one
// generation of the index, a column per field, grouped by name and by
// enclosing definition, and answers as the index would, the same rows in
// the same order, so that rankings do not change by a bit. It is built
// once (sympy's 498K references: see BenchmarkReferenceTable) and, after
// an update, made anew from the old one and the references of the files
// that changed. A one-shot process never builds it: it reads the few
// rows it needs from the index.

// A refSource answers the reference queries of ranking and packing: the
// index itself, or a refTable of the generation being ranked.
type refSource interface {
	RefsFrom(ctx context.Context, scopes []int64) ([]index.Edge, error)
	RefsTo(ctx context.Context, names []string) ([]index.Edge, error)
	RefCounts(ctx context.Context, names []string) (map[string]int, error)
}

// refCache is an Engine's refTable, once KeepReferences has been called.
type refCache struct {
	mu    sync.Mutex // held while a table is built
	table atomic.Pointer[refTable]
	// reading is the read of every reference in flight (readBeside),
	// which the calls that want one share: winnow mcp keeps the
	// references as it starts and again after its first update, at once.
	reading atomic.Pointer[refRead]
}

// refs returns where ranking and packing on c read references: the
// table kept in memory if it was made for c, else the index.
func (e *Engine) refs(c *corpus) refSource {
	if t := e.refCache.table.Load(); t != nil && t.c == c {
		return t
	}
	return e.ix
}

// KeepReferences keeps the references of the index as it is now in
// memory, for the queries that follow: it makes a table for the current
// corpus (loading the corpus if need be), from the table it kept before
// and the files that changed since when it can, and again if the index
// moved on meanwhile. Queries on another generation read the index, so a
// caller keeps the table current by calling it after every update. It
// costs memory (~50 bytes a reference: 24 MB on sympy) and, the first
// time, a read of every reference (~0.4 s on sympy): for long-lived
// processes.
func (e *Engine) KeepReferences(ctx context.Context) error {
	for range 3 {
		pre := e.readBeside(ctx)
		c, err := e.corpus(ctx)
		if err != nil {
			pre.wait()
			return err
		}
		if done, err := e.keepReferences(ctx, c, pre); done || err != nil {
			return err
		}
	}
	return nil // the index keeps moving: the call after the next update catches up
}

// A refRead is every reference of the index read while the corpus loads
// (readBeside), for the table that keepReferences then makes.
type refRead struct {
	done chan struct{}
	gen  string    // the generation read
	t    *refTable // without a corpus, nor its groups
	err  error
	used bool // t went into a table; guarded by refCache.mu
}

// readBeside starts reading every reference of the index, when the next
// table is to be read whole (none is kept yet, or the one kept is
// empty: the first KeepReferences, and the first after a new index's
// first update), and returns nil otherwise. The read then runs while the
// corpus loads, on the other core, rather than after it: on a new index
// of sympy the corpus is built (0.74 s) and the references read (0.49 s)
// before winnow mcp's first call answers (the timestamps of winnow mcp
// -v, one run at load 1).
func (e *Engine) readBeside(ctx context.Context) *refRead {
	rc := &e.refCache
	if old := rc.table.Load(); old != nil && len(old.row) > 0 {
		return nil
	}
	if r := rc.reading.Load(); r != nil {
		return r
	}
	r := &refRead{done: make(chan struct{})}
	if !rc.reading.CompareAndSwap(nil, r) {
		return rc.reading.Load() // another call's, or nil if it just ended: read after
	}
	go func() {
		defer close(r.done)
		snap, err := e.ix.Snapshot(ctx)
		if err != nil {
			r.err = err
			return
		}
		defer snap.Close()
		if r.gen, r.err = snap.Stamp(ctx); r.err == nil {
			r.t, r.err = readRefs(ctx, snap)
		}
	}()
	return r
}

// wait waits for the read, if any, to end.
func (r *refRead) wait() {
	if r != nil {
		<-r.done
	}
}

// ReferencesKept reports whether KeepReferences has kept a table, of any
// generation.
func (e *Engine) ReferencesKept() bool { return e.refCache.table.Load() != nil }

// keepReferences makes the table for c, unless the index has moved past
// it; it reports whether the table kept is c's. pre, if not nil, is a
// read of every reference begun meanwhile (readBeside), which the table
// is made from when it is of c's generation and the table is to be read
// whole (makeRefTable).
func (e *Engine) keepReferences(ctx context.Context, c *corpus, pre *refRead) (bool, error) {
	pre.wait()
	rc := &e.refCache
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if pre != nil {
		rc.reading.CompareAndSwap(pre, nil) // done: the next call that wants one reads anew
	}
	old := rc.table.Load()
	if old != nil && old.c == c {
		return true, nil
	}
	snap, err := e.ix.Snapshot(ctx)
	if err != nil {
		return false, err
	}
	defer snap.Close()
	if stamp, err := snap.Stamp(ctx); err != nil || stamp != c.gen {
		return false, err
	}
	start := time.Now()
	var read *refTable
	if pre != nil && !pre.used && pre.err == nil && pre.gen == c.gen {
		read, pre.used = pre.t, true
	}
	t, err := makeRefTable(ctx, snap, c, old, read)
	if err != nil {
		return false, fmt.Errorf("keep the references in memory: %w", err)
	}
	rc.table.Store(t)
	e.log.DebugContext(ctx, "references kept in memory", "references", len(t.file), "patched", t.patched, "duration", time.Since(start))
	// The index may have moved on while the table was made: the caller looks again.
	return false, nil
}

// refPatchMaxFiles is the most changed files a table is patched for:
// past it, reading every reference again costs little more.
const refPatchMaxFiles = 500

// refBatch is how many keys the index looks up per query (index.edges):
// its answer is sorted and deduplicated batch by batch, and so is the
// table's.
const refBatch = 500

// A refTable holds the references of one generation of the index.
type refTable struct {
	c       *corpus // the corpus of the generation, whose definitions byScope is by
	patched bool    // made from an earlier table, not read whole

	// The references in the index's order, a column per field.
	row   []int64 // the row id, which orders them
	file  []int64
	scope []int64
	name  []int32 // into names
	kind  []symbol.RefKind
	line  []int32
	count []int32

	names   []string // every name a reference had, since the table was first built
	nameIDs map[string]int32

	byName  []int32 // the rows of name n are byName[nameAt[n]:nameAt[n+1]], in order
	nameAt  []int32
	byScope []int32 // the rows in definition d are byScope[scopeAt[d]:scopeAt[d+1]], in order;
	scopeAt []int32 // the rows past scopeAt[len(c.defs)] are in scopes outside c (0: top level)
}

// fileKeys returns the key of each file of c by id, as index.FileKey
// gives it, which pins down its definitions and content: a file whose
// key is unchanged has the same references. A file whose definitions'
// ids are not consecutive gets Symbols -1, a key no file keeps.
func fileKeys(c *corpus) map[int64]index.FileKey {
	keys := make(map[int64]index.FileKey, len(c.files))
	for i := range c.files {
		f := &c.files[i]
		k := index.FileKey{ID: f.id, Path: f.path, Language: f.lang, Hash: f.hash, Symbols: len(f.defs)}
		for j, d := range f.defs {
			if j == 0 {
				k.First = c.defs[d].ID
			} else if c.defs[d].ID != k.First+int64(j) {
				k.Symbols = -1
				break
			}
		}
		keys[f.id] = k
	}
	return keys
}

// makeRefTable makes the table of the snapshot, whose corpus is c: from
// old, the table of an earlier generation of the same index instance,
// and the references of the files whose key changed, or else from every
// reference: read, a read of all of them at the snapshot's generation
// (readBeside), if not nil, or read now. An empty old table has nothing
// to keep: the table is read whole.
func makeRefTable(ctx context.Context, snap *index.Snapshot, c *corpus, old, read *refTable) (*refTable, error) {
	t := &refTable{c: c}
	keys := fileKeys(c)
	var changed []int64
	if old != nil && len(old.row) > 0 && instance(old.c.gen) == instance(c.gen) && instance(c.gen) != "" {
		oldKeys := fileKeys(old.c)
		for id, k := range keys {
			if was, ok := oldKeys[id]; !ok || was != k || k.Symbols < 0 {
				changed = append(changed, id)
			}
		}
		gone := make(map[int64]bool, len(changed))
		for _, id := range changed {
			gone[id] = true
		}
		for id := range oldKeys {
			if _, ok := keys[id]; !ok {
				gone[id] = true
			}
		}
		if len(gone) > refPatchMaxFiles {
			old = nil
		} else {
			// The names are shared with old, which may still answer a
			// query: new names go to copies.
			t.names, t.nameIDs = slices.Clip(old.names), copyNames(old.nameIDs, len(changed))
			t.keepRows(old, gone)
		}
	} else {
		old = nil
	}
	if old == nil {
		whole := read
		if whole == nil {
			var err error
			if whole, err = readRefs(ctx, snap); err != nil {
				return nil, err
			}
		}
		whole.c = c
		whole.group(keys)
		return whole, nil
	}
	t.patched = true
	kept := len(t.row)
	slices.Sort(changed)
	if err := snap.ForEachRefOf(ctx, changed, func(row int64, e *index.Edge) error { t.add(row, e); return nil }); err != nil {
		return nil, err
	}
	t.merge(kept)
	t.group(keys)
	return t, nil
}

// readRefs reads every reference of snap into a table, which group then
// completes for the snapshot's corpus.
func readRefs(ctx context.Context, snap *index.Snapshot) (*refTable, error) {
	t := &refTable{nameIDs: make(map[string]int32)}
	// Sized once: growing the columns by appending allocated several
	// times the table (150 MB for sympy's 24) and left the process that
	// much larger.
	n, err := snap.NumRefs(ctx)
	if err != nil {
		return nil, err
	}
	t.grow(n)
	err = snap.ForEachRef(ctx, func(row int64, e *index.Edge) error { t.add(row, e); return nil })
	return t, err
}

// copyNames copies the name table, with room for the names of a few
// files more.
func copyNames(m map[string]int32, files int) map[string]int32 {
	out := make(map[string]int32, len(m)+files*32)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// keepRows copies old's rows outside the files gone, in order.
func (t *refTable) keepRows(old *refTable, gone map[int64]bool) {
	n := len(old.file)
	t.row, t.file, t.scope, t.name = make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n), make([]int32, 0, n)
	t.kind, t.line, t.count = make([]symbol.RefKind, 0, n), make([]int32, 0, n), make([]int32, 0, n)
	for i := 0; i < n; {
		// Rows of one file come together: keep or drop them as a run.
		j := i + 1
		for j < n && old.file[j] == old.file[i] {
			j++
		}
		if !gone[old.file[i]] {
			t.row = append(t.row, old.row[i:j]...)
			t.file = append(t.file, old.file[i:j]...)
			t.scope = append(t.scope, old.scope[i:j]...)
			t.name = append(t.name, old.name[i:j]...)
			t.kind = append(t.kind, old.kind[i:j]...)
			t.line = append(t.line, old.line[i:j]...)
			t.count = append(t.count, old.count[i:j]...)
		}
		i = j
	}
}

// grow makes room for n more references.
func (t *refTable) grow(n int) {
	t.row, t.file, t.scope = slices.Grow(t.row, n), slices.Grow(t.file, n), slices.Grow(t.scope, n)
	t.name, t.kind = slices.Grow(t.name, n), slices.Grow(t.kind, n)
	t.line, t.count = slices.Grow(t.line, n), slices.Grow(t.count, n)
}

// add appends a reference read from the index.
func (t *refTable) add(row int64, e *index.Edge) {
	id, ok := t.nameIDs[e.Name]
	if !ok {
		id = int32(len(t.names))
		t.names = append(t.names, e.Name)
		t.nameIDs[e.Name] = id
	}
	t.row = append(t.row, row)
	t.file = append(t.file, e.FileID)
	t.scope = append(t.scope, e.Scope)
	t.name = append(t.name, id)
	t.kind = append(t.kind, e.Kind)
	t.line = append(t.line, int32(e.Line))
	t.count = append(t.count, int32(e.Count))
}

// merge puts the rows in row id order again, the first kept and the rest
// each in order: the references of a changed file usually come after
// the others, since the index wrote them last, but a file renamed keeps
// its rows.
func (t *refTable) merge(kept int) {
	n := len(t.row)
	if kept == 0 || kept == n || t.row[kept-1] < t.row[kept] {
		return
	}
	order := make([]int32, 0, n)
	i, j := 0, kept
	for i < kept || j < n {
		if j == n || i < kept && t.row[i] < t.row[j] {
			order = append(order, int32(i))
			i++
		} else {
			order = append(order, int32(j))
			j++
		}
	}
	t.row, t.file, t.scope = permute(t.row, order), permute(t.file, order), permute(t.scope, order)
	t.name, t.kind = permute(t.name, order), permute(t.kind, order)
	t.line, t.count = permute(t.line, order), permute(t.count, order)
}

func permute[T any](xs []T, order []int32) []T {
	out := make([]T, len(order))
	for i, j := range order {
		out[i] = xs[j]
	}
	return out
}

// group builds byName and byScope, counting sorts that keep the rows'
// order within a group; keys are t.c's file keys (fileKeys).
func (t *refTable) group(keys map[int64]index.FileKey) {
	t.byName, t.nameAt = groupRows(t.name, len(t.names))
	scopes := make([]int32, len(t.scope)) // definition of each row's scope; len(c.defs) for none
	outside := int32(len(t.c.defs))
	var fileID int64 = -1
	var first, base int64
	n := -1
	for i, s := range t.scope {
		if f := t.file[i]; f != fileID {
			// The scopes of a file's rows are its definitions, whose ids
			// are consecutive, as are their indexes in c.defs.
			fileID, n = f, -1
			if k, ok := keys[f]; ok && k.Symbols > 0 {
				if d, ok := t.c.defByID[k.First]; ok && int(d)+k.Symbols <= len(t.c.defs) && t.c.defs[int(d)+k.Symbols-1].ID == k.First+int64(k.Symbols-1) {
					first, n, base = k.First, k.Symbols, int64(d)
				}
			}
		}
		switch {
		case s >= first && s < first+int64(n):
			scopes[i] = int32(base + s - first)
		case s == 0:
			scopes[i] = outside
		default:
			d, ok := t.c.defByID[s]
			if !ok {
				d = outside
			}
			scopes[i] = d
		}
	}
	t.byScope, t.scopeAt = groupRows(scopes, len(t.c.defs)+1)
}

// groupRows returns the rows grouped by key (keys[row] < n), in order
// within a group, and where each group starts; a last entry ends them.
func groupRows(keys []int32, n int) (rows, at []int32) {
	at = make([]int32, n+1)
	for _, k := range keys {
		at[k+1]++
	}
	for k := range n {
		at[k+1] += at[k]
	}
	rows = make([]int32, len(keys))
	next := slices.Clone(at[:n])
	for row, k := range keys {
		rows[next[k]] = int32(row)
		next[k]++
	}
	return rows, at
}

func (t *refTable) edge(row int32) index.Edge {
	return index.Edge{FileID: t.file[row], Scope: t.scope[row], Name: t.names[t.name[row]],
		Kind: t.kind[row], Line: int(t.line[row]), Count: int(t.count[row])}
}

// RefsFrom is index.Index.RefsFrom.
func (t *refTable) RefsFrom(_ context.Context, scopes []int64) ([]index.Edge, error) {
	var out []index.Edge
	outside := t.byScope[t.scopeAt[len(t.c.defs)]:]
	for batch := range slices.Chunk(scopes, refBatch) {
		for _, s := range sortedSet(batch) {
			if d, ok := t.c.defByID[s]; ok && s != 0 {
				for _, row := range t.byScope[t.scopeAt[d]:t.scopeAt[d+1]] {
					out = append(out, t.edge(row))
				}
				continue
			}
			for _, row := range outside {
				if t.scope[row] == s {
					out = append(out, t.edge(row))
				}
			}
		}
	}
	return out, nil
}

// RefsTo is index.Index.RefsTo.
func (t *refTable) RefsTo(_ context.Context, names []string) ([]index.Edge, error) {
	var out []index.Edge
	for batch := range slices.Chunk(names, refBatch) {
		for _, name := range sortedSet(batch) {
			if n, ok := t.nameIDs[name]; ok {
				for _, row := range t.byName[t.nameAt[n]:t.nameAt[n+1]] {
					out = append(out, t.edge(row))
				}
			}
		}
	}
	return out, nil
}

// RefCounts is index.Index.RefCounts.
func (t *refTable) RefCounts(_ context.Context, names []string) (map[string]int, error) {
	out := make(map[string]int, len(names))
	for _, name := range names {
		if n, ok := t.nameIDs[name]; ok {
			if k := t.nameAt[n+1] - t.nameAt[n]; k > 0 {
				out[name] = int(k)
			}
		}
	}
	return out, nil
}

// sortedSet returns xs sorted, without duplicates, as the index looks up
// the keys of an IN list.
func sortedSet[T int64 | string](xs []T) []T {
	return slices.Compact(slices.Sorted(slices.Values(xs)))
}
