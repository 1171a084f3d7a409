package shape

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// parseTable reads a header line and its rows into an array of objects.
func parseTable(line string, rows []string) (value, error) {
	h, err := parseHeader(line)
	if err != nil {
		return value{}, err
	}
	arr := value{kind: kindArray, elems: make([]value, len(rows))}
	cells := make([]cellValue, len(h.same))
	for i, row := range rows {
		if err := h.splitCells(row, cells); err != nil {
			return value{}, fmt.Errorf("table row %d: %w", i+1, err)
		}
		arr.elems[i] = buildObject(h.cols, cells)
	}
	return arr, nil
}

// A header is a parsed header line.
type header struct {
	cols []column
	same []*value // per leaf column: the value of a name=value column, else nil
	p    parser   // parses the JSON in cells
}

// parseHeader reads a header line written by appendHeader.
func parseHeader(line string) (*header, error) {
	h := new(header)
	for s := line; ; {
		var path []string
		for {
			key, n, err := parseKey(s, headerSpecial)
			if err != nil {
				return nil, fmt.Errorf("table header, column %d: %w", len(h.same)+1, err)
			}
			path = append(path, key)
			s = s[n:]
			if s == "" || s[0] != '.' {
				break
			}
			s = s[1:]
		}
		h.cols = addPath(h.cols, path)
		var same *value
		if s != "" && s[0] == '=' {
			v, n, err := parseCell(&h.p, s[1:], true)
			if errors.Is(err, errAbsent) {
				err = errors.New("empty value after '='")
			}
			if err != nil {
				return nil, fmt.Errorf("table header, column %d: value: %w", len(h.same)+1, err)
			}
			same = &v
			s = s[1+n:]
		}
		h.same = append(h.same, same)
		if s == "" {
			return h, nil
		}
		if s[0] != cellSep {
			return nil, fmt.Errorf("table header: unexpected %q after column %d", clip(s), len(h.same))
		}
		s = s[1:]
	}
}

// addPath adds a leaf column named by path to cols: into the last column
// when that is the group the path starts with, else as new columns.
func addPath(cols []column, path []string) []column {
	if len(path) == 1 {
		return append(cols, column{key: path[0], leaves: 1})
	}
	if n := len(cols); n > 0 && cols[n-1].group != nil && cols[n-1].key == path[0] {
		cols[n-1].group = addPath(cols[n-1].group, path[1:])
		cols[n-1].leaves++
		return cols
	}
	return append(cols, column{key: path[0], group: addPath(nil, path[1:]), leaves: 1})
}

// A cellValue is one cell of a row: a value, or nothing for an empty
// cell.
type cellValue struct {
	val    value
	absent bool
}

// splitCells reads a row's cells into cells, which has one entry per leaf
// column. The empty cell of a name=value column reads as its value.
func (h *header) splitCells(line string, cells []cellValue) error {
	s := line
	for j := range cells {
		if j > 0 {
			if s == "" {
				return fmt.Errorf("%d cells, want %d", j, len(cells))
			}
			if s[0] != cellSep {
				return fmt.Errorf("unexpected %q after cell %d", clip(s), j)
			}
			s = s[1:]
		}
		v, n, err := parseCell(&h.p, s, true)
		switch {
		case errors.Is(err, errAbsent) && h.same[j] != nil:
			cells[j] = cellValue{val: *h.same[j]}
		case errors.Is(err, errAbsent):
			cells[j] = cellValue{absent: true}
		case err != nil:
			return fmt.Errorf("cell %d: %w", j+1, err)
		case h.same[j] != nil:
			return fmt.Errorf("cell %d: a value under a name=value column", j+1)
		default:
			cells[j] = cellValue{val: v}
			s = s[n:]
		}
	}
	if s != "" {
		return fmt.Errorf("unexpected %q after the last cell", clip(s))
	}
	return nil
}

// buildObject builds one row's object from its cells, one per leaf
// column. Under a group, all cells empty mean the key is missing and all
// cells null mean its value is null; anything else is an object.
func buildObject(cols []column, cells []cellValue) value {
	obj := value{kind: kindObject, members: make([]member, 0, len(cols))}
	for _, c := range cols {
		own := cells[:c.leaves]
		cells = cells[c.leaves:]
		switch {
		case c.group == nil && own[0].absent, c.group != nil && allCells(own, absentCell):
		case c.group == nil:
			obj.members = append(obj.members, member{key: c.key, val: own[0].val})
		case allCells(own, nullCell):
			obj.members = append(obj.members, member{key: c.key, val: value{kind: kindNull}})
		default:
			obj.members = append(obj.members, member{key: c.key, val: buildObject(c.group, own)})
		}
	}
	return obj
}

func absentCell(c cellValue) bool { return c.absent }

func nullCell(c cellValue) bool { return !c.absent && c.val.kind == kindNull }

func allCells(cells []cellValue, f func(cellValue) bool) bool {
	for _, c := range cells {
		if !f(c) {
			return false
		}
	}
	return true
}

// blockLine parses the line that opens a table: a key (none for a table
// at the top), then "[rows]:" with at least one row.
func blockLine(line string) (key string, rows int, ok bool) {
	body, found := strings.CutSuffix(line, "]:")
	open := strings.LastIndexByte(body, '[')
	if !found || open < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(body[open+1:])
	if err != nil || n < 1 || body[open+1] == '+' || body[open+1] == '0' {
		return "", 0, false
	}
	if open == 0 {
		return "", n, true
	}
	key, used, err := parseKey(body[:open], ":")
	if err != nil || used != open {
		return "", 0, false
	}
	return key, n, true
}

// clip shortens s for an error message.
func clip(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}
