package shape

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A span is the byte range [start, end) of a text.
type span struct{ start, end int }

// splitLines returns the spans of the lines of text, without their line
// breaks: as many as strings.Split(text, "\n") returns.
func splitLines(text string) []span {
	lines := make([]span, 0, strings.Count(text, "\n")+1)
	start := 0
	for {
		i := strings.IndexByte(text[start:], '\n')
		if i < 0 {
			return append(lines, span{start, len(text)})
		}
		lines = append(lines, span{start, start + i})
		start += i + 1
	}
}

// parseTable reads a header line and its rows, lines of text, onto p's
// tape as an array of objects.
func parseTable(p *parser, text string, head span, rows []span) error {
	h, err := parseHeader(p, text[:head.end], head.start)
	if err != nil {
		return err
	}
	arr := p.t.open(kindArray)
	for i, row := range rows {
		r := rowReader{h: h, p: p, s: text[:row.end], pos: row.start}
		if err := r.object(); err != nil {
			return fmt.Errorf("table row %d: %w", i+1, err)
		}
	}
	p.t.close(arr, len(rows))
	return nil
}

// A header is a parsed header line.
type header struct {
	cols []column
	same []*constant // per leaf column: the value of a name=value column, else nil
}

// A constant is the value of a name=value column: its nodes, cut from the
// tape where they were parsed at index origin.
type constant struct {
	tree   []node
	origin int
}

// parseHeader reads a header line written by appendHeader, s[at:], where
// s ends with the line. Its keys and values are parsed onto p's tape and
// cut from it, to be added to every row.
func parseHeader(p *parser, s string, at int) (*header, error) {
	h := new(header)
	t := p.t
	var path []node // the keys of one column's path; addPath copies them
	for {
		path = path[:0]
		for {
			end, err := parseKey(p, s, at, headerSpecial)
			if err != nil {
				return nil, fmt.Errorf("table header, column %d: %w", len(h.same)+1, err)
			}
			path = append(path, t.nodes[len(t.nodes)-1])
			t.nodes = t.nodes[:len(t.nodes)-1]
			at = end
			if at == len(s) || s[at] != '.' {
				break
			}
			at++
		}
		h.cols = addPath(t, h.cols, path)
		var same *constant
		if at < len(s) && s[at] == '=' {
			origin := len(t.nodes)
			end, err := parseCell(p, s, at+1, true)
			if errors.Is(err, errAbsent) {
				err = errors.New("empty value after '='")
			}
			if err != nil {
				return nil, fmt.Errorf("table header, column %d: value: %w", len(h.same)+1, err)
			}
			same = &constant{tree: append([]node(nil), t.nodes[origin:]...), origin: origin}
			t.nodes = t.nodes[:origin]
			at = end
		}
		h.same = append(h.same, same)
		if at == len(s) {
			return h, nil
		}
		if s[at] != cellSep {
			return nil, fmt.Errorf("table header: unexpected %q after column %d", clip(s[at:]), len(h.same))
		}
		at++
	}
}

// addPath adds a leaf column named by path (key nodes) to cols: into the
// last column when that is the group the path starts with, else as new
// columns.
func addPath(t *tape, cols []column, path []node) []column {
	if len(path) == 1 {
		return append(cols, column{name: path[0], leaves: 1})
	}
	if n := len(cols); n > 0 && cols[n-1].group != nil && t.sameText(cols[n-1].name, path[0]) {
		cols[n-1].group = addPath(t, cols[n-1].group, path[1:])
		cols[n-1].leaves++
		return cols
	}
	return append(cols, column{name: path[0], group: addPath(t, nil, path[1:]), leaves: 1})
}

// A rowReader reads the cells of one row, s[pos:] where s ends with the
// row's line, onto a tape as an object.
type rowReader struct {
	h    *header
	p    *parser
	s    string
	pos  int
	leaf int // the number of the next leaf column
}

// object adds the row's object: its cells, one per leaf column, then
// nothing but the end of the line.
func (r *rowReader) object() error {
	t := r.p.t
	obj := t.open(kindObject)
	n, _, _, err := r.members(r.h.cols)
	if err != nil {
		return err
	}
	if r.pos != len(r.s) {
		return fmt.Errorf("unexpected %q after the last cell", clip(r.s[r.pos:]))
	}
	t.close(obj, n)
	return nil
}

// members reads the cells of cols and adds the members they give: a key
// and its value for each cell that is not empty, and for a group a key
// and an object of the members its cells give, but nothing when all its
// cells are empty and null when they are all null. It returns the number
// of members added and how many of the leaf cells were empty and null.
func (r *rowReader) members(cols []column) (n, absent, nulls int, err error) {
	t := r.p.t
	for _, c := range cols {
		mark := len(t.nodes)
		t.nodes = append(t.nodes, c.name)
		if c.group == nil {
			present, isNull, err := r.cell()
			switch {
			case err != nil:
				return 0, 0, 0, err
			case !present:
				t.nodes = t.nodes[:mark]
				absent++
				continue
			case isNull:
				nulls++
			}
			n++
			continue
		}
		obj := t.open(kindObject)
		m, a, z, err := r.members(c.group)
		if err != nil {
			return 0, 0, 0, err
		}
		absent, nulls = absent+a, nulls+z
		switch {
		case a == c.leaves:
			t.nodes = t.nodes[:mark]
			continue
		case z == c.leaves:
			t.nodes = t.nodes[:mark+1]
			t.nodes = append(t.nodes, node{kind: kindNull})
		default:
			t.close(obj, m)
		}
		n++
	}
	return n, absent, nulls, nil
}

// cell reads the next leaf column's cell and adds its value, if it has
// one: the cell's own, or the header's for a name=value column. It
// reports whether there is a value and whether it is null.
func (r *rowReader) cell() (present, isNull bool, err error) {
	j := r.leaf
	r.leaf++
	if j > 0 {
		if r.pos == len(r.s) {
			return false, false, fmt.Errorf("%d cells, want %d", j, len(r.h.same))
		}
		if r.s[r.pos] != cellSep {
			return false, false, fmt.Errorf("unexpected %q after cell %d", clip(r.s[r.pos:]), j)
		}
		r.pos++
	}
	t := r.p.t
	at := len(t.nodes)
	end, err := parseCell(r.p, r.s, r.pos, true)
	same := r.h.same[j]
	switch {
	case errors.Is(err, errAbsent) && same != nil:
		t.appendTree(same.tree, same.origin)
	case errors.Is(err, errAbsent):
		return false, false, nil
	case err != nil:
		return false, false, fmt.Errorf("cell %d: %w", j+1, err)
	case same != nil:
		return false, false, fmt.Errorf("cell %d: a value under a name=value column", j+1)
	default:
		r.pos = end
	}
	return true, t.nodes[at].kind == kindNull, nil
}

// blockLine parses the line that opens a table, s[at:] where s ends with
// the line: a key (none for a table at the top), then "[rows]:" with at
// least one row. The key, if any, is added to p's tape.
func blockLine(p *parser, s string, at int) (rows int, ok bool) {
	body, found := strings.CutSuffix(s, "]:")
	open := strings.LastIndexByte(body, '[')
	if !found || open < at {
		return 0, false
	}
	n, err := strconv.Atoi(body[open+1:])
	if err != nil || n < 1 || body[open+1] == '+' || body[open+1] == '0' {
		return 0, false
	}
	if open == at {
		return n, true
	}
	end, err := parseKey(p, body[:open], at, ":")
	if err != nil || end != open {
		return 0, false
	}
	return n, true
}

// clip shortens s for an error message.
func clip(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}
