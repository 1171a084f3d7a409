package shape

// A column is one key of a table's objects. A leaf column holds the
// key's values in its cells. A group column holds no cells itself: the
// key's values are objects, spread over sub-columns named by path in the
// header ("user.login|user.id"). In a row where the key is missing every
// cell under the group is empty; where its value is null every cell under
// the group is null.
type column struct {
	key    string
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

// tableColumns returns the columns of a table over arr's objects, and
// false when arr has no table: when its objects order their keys in
// contradicting ways, when one repeats a key, or when they have no keys.
func tableColumns(arr *value) ([]column, bool) {
	rows := make([]*value, len(arr.elems))
	for i := range arr.elems {
		rows[i] = &arr.elems[i]
	}
	return columnsOf(rows, 0)
}

// columnsOf returns the columns of objs: the union of their keys, in an
// order consistent with each object's own order, each a group when
// groupOf says so.
func columnsOf(objs []*value, depth int) ([]column, bool) {
	keys, ok := unionKeys(objs)
	if !ok {
		return nil, false
	}
	cols := make([]column, len(keys))
	cursor := make([]int, len(objs))
	vals := make([]*value, len(objs))
	for j, key := range keys {
		// Each object has its keys in column order, so a cursor per
		// object finds its member for this column, if any.
		for i, o := range objs {
			vals[i] = nil
			if k := cursor[i]; k < len(o.members) && o.members[k].key == key {
				vals[i] = &o.members[k].val
				cursor[i]++
			}
		}
		cols[j] = column{key: key, leaves: 1, width: len(key) + 1}
		if depth < maxGroupDepth {
			if group, ok := groupOf(vals, key, depth); ok {
				cols[j].group = group
				cols[j].leaves = countLeaves(group)
				cols[j].width = cols[j].leaves*(len(key)+1) + widthOf(group)
			}
		}
	}
	return cols, true
}

// groupOf returns the sub-columns of key, given its value in each row
// (nil where missing), when spreading them is possible and shorter: every
// value is a non-empty object, null or missing, at least one is an
// object, those objects have columns, and no object would read as null
// (every cell under the group null).
func groupOf(vals []*value, key string, depth int) ([]column, bool) {
	var subs []*value
	nulls, missing, saved := 0, 0, 0
	for _, v := range vals {
		switch {
		case v == nil:
			missing++
		case v.kind == kindNull:
			nulls++
		case v.kind == kindObject && len(v.members) > 0:
			subs = append(subs, v)
			for _, m := range v.members {
				saved += len(m.key) + keyCost
			}
		default:
			return nil, false
		}
	}
	if len(subs) == 0 {
		return nil, false
	}
	group, ok := columnsOf(subs, depth+1)
	if !ok {
		return nil, false
	}
	leaves := countLeaves(group)
	if saved <= nulls*leaves*nullCost+missing*leaves*emptyCost+leaves*(len(key)+1)+widthOf(group) {
		return nil, false
	}
	for _, s := range subs {
		if readsAsNull(s, group) {
			return nil, false
		}
	}
	return group, true
}

// readsAsNull reports whether every cell object o writes under cols is
// null, so that the row would read back as a null group.
func readsAsNull(o *value, cols []column) bool {
	k := 0
	for _, c := range cols {
		var m *member
		if k < len(o.members) && o.members[k].key == c.key {
			m = &o.members[k]
			k++
		}
		switch {
		case m == nil:
			return false
		case m.val.kind == kindNull:
		case c.group != nil && !readsAsNull(&m.val, c.group):
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

// unionKeys returns the union of the objects' keys in an order
// consistent with each object's own key order; false when there is no
// such order, when an object repeats a key, or when there are no keys.
//
// A key first seen in some object goes right after the key that precedes
// it there. The order is kept as a linked list, so that inserting is
// constant time however wide the objects are.
func unionKeys(objs []*value) ([]string, bool) {
	names := []string{""} // node 0 is the list's head
	next := []int{-1}
	node := make(map[string]int)
	var seen []member // the last object's members: most arrays repeat them
	for _, o := range objs {
		if sameKeys(o.members, seen) {
			continue
		}
		seen = o.members
		prev := 0
		for _, m := range o.members {
			if n, ok := node[m.key]; ok {
				prev = n
				continue
			}
			n := len(names)
			names = append(names, m.key)
			next = append(next, next[prev])
			next[prev] = n
			node[m.key] = n
			prev = n
		}
	}
	if len(names) == 1 {
		return nil, false
	}
	keys := make([]string, 0, len(names)-1)
	index := make(map[string]int, len(names)-1)
	for n := next[0]; n >= 0; n = next[n] {
		index[names[n]] = len(keys)
		keys = append(keys, names[n])
	}
	seen = nil
	for _, o := range objs {
		if sameKeys(o.members, seen) {
			continue
		}
		seen = o.members
		last := -1
		for _, m := range o.members {
			j := index[m.key]
			if j <= last {
				return nil, false
			}
			last = j
		}
	}
	return keys, true
}

// sameKeys reports whether a and b have the same keys in the same order.
func sameKeys(a, b []member) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if a[i].key != b[i].key {
			return false
		}
	}
	return true
}
