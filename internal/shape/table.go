package shape

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
)

// EncoderTable names the table encoder: an array of objects as a line giving the
// number of rows, a header line naming the columns, and one line per
// object, cells separated by '|':
//
//	[3]:
//	number|title|user.login|user.id|labels|state=open|closed_at
//	7|Crash on start|ana|17|["bug"]||null
//	8|Docs: typo, page 2|bo|21|[]||
//	9|"a|b"|ana|17|[]||2025-03-01
//
// What a reader sees:
//
//   - The columns are the union of the objects' keys, in the order the
//     objects have them. A cell holds the object's value for its column in
//     the value syntax (17 is a number, "17" a string, "a|b" quoted for its
//     '|'; arrays and objects inline as compact JSON; see the package
//     documentation). An empty cell means the object has no such
//     key, which is neither null (written null) nor the empty string
//     (written "").
//   - A dotted name is a path into a nested object: user.login is the
//     login of the object under "user". An object spread this way is
//     missing in a row where all its cells are empty, and null where they
//     are all null.
//   - A name=value header means that column holds the same value in every
//     row; its cells are left empty.
//
// Header names are quoted like JSON strings when they hold '.', '=' or
// '|' or are not plain text. An array whose objects order their keys in
// contradicting ways, or repeat a key, has no table.
const EncoderTable = "table"

// encodeTable writes array node i, of objects, as a table.
func encodeTable(t *tape, i int) (string, bool) {
	if t.nodes[i].kind != kindArray || arrayShape(t, i) != JSONArrayObjects {
		return "", false
	}
	cols, ok := tableColumns(t, i)
	if !ok {
		return "", false
	}
	dst := make([]byte, 0, sizeHint(t, i)*3/4)
	dst = appendRowCount(dst, t.count(i))
	dst = appendTable(dst, t, i, cols)
	return bytesString(dst), true
}

// decodeTable makes t the tape of the table text, reusing t's memory.
func (t *tape) decodeTable(text string) error {
	t.reset(text)
	lines := splitLines(text)
	p := parser{t: t}
	first := text[:lines[0].end]
	n, ok := blockLine(&p, first, 0)
	if !ok || len(t.nodes) > 0 && t.nodes[0].a != t.nodes[0].b {
		return fmt.Errorf("table: first line %q is not [rows]:", clip(first))
	}
	t.nodes = t.nodes[:0] // an empty quoted key, if any
	if len(lines) != n+2 {
		return fmt.Errorf("table: %d rows announced, %d lines follow the header", n, len(lines)-2)
	}
	if err := parseTable(&p, text, lines[1], lines[2:]); err != nil {
		return err
	}
	t.finish()
	return nil
}

// A grid is a table's cells as written, row after row: cell k is
// text[ends[k-1]:ends[k]]. An empty cell is a missing key; no value
// writes as nothing.
type grid struct {
	text []byte
	ends []int
	cols int // leaf columns per row
}

func (g *grid) cell(row, col int) []byte {
	k := row*g.cols + col
	start := 0
	if k > 0 {
		start = g.ends[k-1]
	}
	return g.text[start:g.ends[k]]
}

// appendTable appends the header line and one line per element of array
// node arr.
func appendTable(dst []byte, t *tape, arr int, cols []column) []byte {
	rows := t.count(arr)
	g := grid{cols: countLeaves(cols)}
	g.text = slices.Grow(t.cells[:0], sizeHint(t, arr))
	g.ends = slices.Grow(t.ends[:0], g.cols*rows)
	defer func() { t.cells, t.ends = g.text[:0], g.ends[:0] }()
	for e := range t.elems(arr) {
		g.addRow(t, e, cols)
	}
	same := g.constants(rows)
	dst, _ = appendHeader(dst, cols, nil, same, 0)
	for i := range rows {
		dst = append(dst, '\n')
		for j := range g.cols {
			if j > 0 {
				dst = append(dst, cellSep)
			}
			if same[j] == nil {
				dst = append(dst, g.cell(i, j)...)
			}
		}
	}
	return dst
}

// addRow writes the cells of object node o under cols. The object's
// members are in column order (tableColumns checked that), so one pass
// pairs them.
func (g *grid) addRow(t *tape, o int, cols []column) {
	k, end := o+1, t.end(o)
	for _, c := range cols {
		v := -1
		if k < end && t.text(k) == c.key {
			v = k + 1
			k = t.end(v)
		}
		switch {
		case c.group != nil && v >= 0 && t.nodes[v].kind == kindObject:
			g.addRow(t, v, c.group)
		case c.group != nil:
			for range c.leaves {
				if v >= 0 { // null
					g.text = append(g.text, "null"...)
				}
				g.ends = append(g.ends, len(g.text))
			}
		default:
			if v >= 0 {
				g.text = appendCell(g.text, t, v, true)
			}
			g.ends = append(g.ends, len(g.text))
		}
	}
}

// constants returns, per leaf column, the cell every row has in it, or
// nil when the rows differ, a row lacks the key, or writing the value
// once in the header would not be shorter.
func (g *grid) constants(rows int) [][]byte {
	same := make([][]byte, g.cols)
	if rows < 2 {
		return same
	}
	for j := range g.cols {
		first := g.cell(0, j)
		if len(first) == 0 || (rows-1)*len(first) <= 2 {
			continue
		}
		i := 1
		for i < rows && bytes.Equal(g.cell(i, j), first) {
			i++
		}
		if i == rows {
			same[j] = first
		}
	}
	return same
}

// appendHeader appends the names of the leaf columns from the leaf
// numbered at on, each as its path from the top (the keys of its groups
// and its own, joined by '.'), followed by "=value" when the column holds
// one value in every row. It returns the number of the next leaf.
func appendHeader(dst []byte, cols []column, path []string, same [][]byte, at int) ([]byte, int) {
	for _, c := range cols {
		if c.group != nil {
			dst, at = appendHeader(dst, c.group, append(path, c.key), same, at)
			continue
		}
		if at > 0 {
			dst = append(dst, cellSep)
		}
		for _, k := range path {
			dst = appendKey(dst, k, headerSpecial)
			dst = append(dst, '.')
		}
		dst = appendKey(dst, c.key, headerSpecial)
		if same[at] != nil {
			dst = append(dst, '=')
			dst = append(dst, same[at]...)
		}
		at++
	}
	return dst, at
}

// appendRowCount appends the "[rows]:" line that opens a table; in a
// wrapper the array's key comes before it.
func appendRowCount(dst []byte, rows int) []byte {
	dst = append(dst, '[')
	dst = strconv.AppendInt(dst, int64(rows), 10)
	return append(dst, "]:\n"...)
}
