package shape

// A column is one key of a table's objects. A leaf column holds the
// key's values in its cells. A group column holds no cells itself: the
// key's values are objects, spread over sub-columns named by path in the
// header ("user.login|user.id"). In a row where the key is missing every
// cell under the group is empty; where its value is null every cell under
// the group is null.
type column struct {
	key    string
	name   node     // the key's node, in a column read from a header
	group  []column // the sub-columns of a group column; nil for a leaf
	leaves int      // the number of leaf columns under a group, or 1
	width  int      // about the bytes the column's names take in the header
}

// Spreading a key's objects over sub-columns removes the keys from every
// row but costs a header entry per leaf and, in rows where the value is
// null or missing, a cell per leaf. The byte costs below decide, per key,
// which layout is shorter; either is exact. Objects nested deeper than
// maxGroupDepth stay inline: paths that long are hard to read.
const (
	keyCost       = 4 // bytes per key in inline JSON: two quotes, colon, comma
	nullCost      = 5 // bytes per leaf in a null row: "|null"
	emptyCost     = 1 // bytes per leaf in a row without the key: "|"
	maxGroupDepth = 6
)

// tableColumns returns the columns of a table over the objects of array
// node arr, and false when it has no table: when its objects order their
// keys in contradicting ways, when one repeats a key, or when they have
// no keys.
func tableColumns(t *tape, arr int) ([]column, bool) {
	rows := make([]int, 0, t.count(arr))
	for e := range t.elems(arr) {
		rows = append(rows, e)
	}
	return columnsOf(t, rows, 0)
}

// columnsOf returns the columns of the object nodes objs: the union of
// their keys, in an order consistent with each object's own order, each
// a group when groupOf says so.
func columnsOf(t *tape, objs []int, depth int) ([]column, bool) {
	keys, ok := unionKeys(t, objs)
	if !ok {
		return nil, false
	}
	cols := make([]column, len(keys))
	// Each object has its keys in column order, so a cursor per object
	// (the index of its next key node) finds its member for this column,
	// if any.
	cursor := make([]int, len(objs))
	for i, o := range objs {
		cursor[i] = o + 1
	}
	vals := make([]int, len(objs))
	for j, key := range keys {
		for i, o := range objs {
			vals[i] = -1
			if k := cursor[i]; k < t.end(o) && t.text(k) == key {
				vals[i] = k + 1
				cursor[i] = t.end(k + 1)
			}
		}
		cols[j] = column{key: key, leaves: 1, width: len(key) + 1}
		if depth < maxGroupDepth {
			if group, ok := groupOf(t, vals, key, depth); ok {
				cols[j].group = group
				cols[j].leaves = countLeaves(group)
				cols[j].width = cols[j].leaves*(len(key)+1) + widthOf(group)
			}
		}
	}
	return cols, true
}

// groupOf returns the sub-columns of key, given its value node in each
// row (-1 where missing), when spreading them is possible and shorter:
// every value is a non-empty object, null or missing, at least one is an
// object, those objects have columns, and no object would read as null
// (every cell under the group null).
func groupOf(t *tape, vals []int, key string, depth int) ([]column, bool) {
	var subs []int
	nulls, missing, saved := 0, 0, 0
	for _, v := range vals {
		switch {
		case v < 0:
			missing++
		case t.nodes[v].kind == kindNull:
			nulls++
		case t.nodes[v].kind == kindObject && t.count(v) > 0:
			subs = append(subs, v)
			for k := range t.members(v) {
				saved += int(t.nodes[k].b-t.nodes[k].a) + keyCost
			}
		default:
			return nil, false
		}
	}
	if len(subs) == 0 {
		return nil, false
	}
	group, ok := columnsOf(t, subs, depth+1)
	if !ok {
		return nil, false
	}
	leaves := countLeaves(group)
	if saved <= nulls*leaves*nullCost+missing*leaves*emptyCost+leaves*(len(key)+1)+widthOf(group) {
		return nil, false
	}
	for _, s := range subs {
		if readsAsNull(t, s, group) {
			return nil, false
		}
	}
	return group, true
}

// readsAsNull reports whether every cell object node o writes under cols
// is null, so that the row would read back as a null group.
func readsAsNull(t *tape, o int, cols []column) bool {
	k, end := o+1, t.end(o)
	for _, c := range cols {
		v := -1
		if k < end && t.text(k) == c.key {
			v = k + 1
			k = t.end(v)
		}
		switch {
		case v < 0:
			return false
		case t.nodes[v].kind == kindNull:
		case c.group != nil && !readsAsNull(t, v, c.group):
			return false
		case c.group == nil:
			return false
		}
	}
	return true
}

func countLeaves(cols []column) int {
	n := 0
	for _, c := range cols {
		n += c.leaves
	}
	return n
}

func widthOf(cols []column) int {
	n := 0
	for _, c := range cols {
		n += c.width
	}
	return n
}

// unionKeys returns the union of the object nodes' keys in an order
// consistent with each object's own key order; false when there is no
// such order, when an object repeats a key, or when there are no keys.
//
// A key first seen in some object goes right after the key that precedes
// it there. The order is kept as a linked list, so that inserting is
// constant time however wide the objects are.
func unionKeys(t *tape, objs []int) ([]string, bool) {
	var keys keySet
	// next[0] is the list's head; key n of keys is node n+1.
	next := []int{-1}
	// repeats[i] says that objs[i] has the keys of the object before it,
	// which most arrays' objects do: both passes skip it.
	repeats := make([]bool, len(objs))
	for i, o := range objs {
		if i > 0 && sameKeys(t, o, objs[i-1]) {
			repeats[i] = true
			continue
		}
		prev := 0
		for k := range t.members(o) {
			key := t.text(k)
			if n, ok := keys.find(key); ok {
				prev = n + 1
				continue
			}
			n := keys.add(key) + 1
			next = append(next, next[prev])
			next[prev] = n
			prev = n
		}
	}
	if len(keys.names) == 0 {
		return nil, false
	}
	order := make([]string, 0, len(keys.names))
	pos := make([]int, len(keys.names)) // key n is order[pos[n]]
	for n := next[0]; n >= 0; n = next[n] {
		pos[n-1] = len(order)
		order = append(order, keys.names[n-1])
	}
	for i, o := range objs {
		if repeats[i] {
			continue
		}
		last := -1
		for k := range t.members(o) {
			n, _ := keys.find(t.text(k))
			if pos[n] <= last {
				return nil, false
			}
			last = pos[n]
		}
	}
	return order, true
}

// A keySet numbers distinct keys in the order they are added. It finds
// them by a linear search while there are few, which costs less than a
// map, and by a map beyond maxLinearKeys.
type keySet struct {
	names []string
	index map[string]int
}

const maxLinearKeys = 32

// find returns the number of key, if it was added.
func (ks *keySet) find(key string) (int, bool) {
	if ks.index != nil {
		n, ok := ks.index[key]
		return n, ok
	}
	for n, name := range ks.names {
		if name == key {
			return n, true
		}
	}
	return 0, false
}

// add adds key, which must not be in the set, and returns its number.
func (ks *keySet) add(key string) int {
	n := len(ks.names)
	ks.names = append(ks.names, key)
	switch {
	case ks.index != nil:
		ks.index[key] = n
	case len(ks.names) > maxLinearKeys:
		ks.index = make(map[string]int, 2*len(ks.names))
		for i, name := range ks.names {
			ks.index[name] = i
		}
	}
	return n
}

// sameKeys reports whether object nodes a and b have the same keys in the
// same order, and at least one.
func sameKeys(t *tape, a, b int) bool {
	if t.count(a) != t.count(b) || t.count(a) == 0 {
		return false
	}
	ka, kb := a+1, b+1
	for range t.count(a) {
		if t.text(ka) != t.text(kb) {
			return false
		}
		ka, kb = t.end(ka+1), t.end(kb+1)
	}
	return true
}
