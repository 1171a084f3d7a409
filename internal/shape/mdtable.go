package shape

import "strings"

// An mdTable is the cells of a markdown table: the header row first, then
// the body rows, every row with the header's number of cells. Cell text is
// trimmed and an escaped pipe "\|" is a plain '|'; other markdown (code
// spans, emphasis, backslash escapes) is kept as written. Alignment and
// padding are presentation and are not kept.
type mdTable [][]string

// parseMarkdownTable reads text that is exactly one GitHub-flavoured
// markdown table: a header row, a delimiter row ("---", ":--:", one per
// header cell) and any number of body rows, each holding at least one
// unescaped '|'. A body row with fewer cells than the header gets empty
// ones, as GitHub renders it; a row with more is not a table this
// package can keep whole. Blank lines may surround the table but not
// split it.
func parseMarkdownTable(text string) (mdTable, bool) {
	lines := strings.Split(strings.Trim(text, "\r\n"), "\n")
	if len(lines) < 2 {
		return nil, false
	}
	header, ok := splitRow(lines[0])
	if !ok || !isDelimiterRow(lines[1], len(header)) {
		return nil, false
	}
	t := mdTable{header}
	for _, line := range lines[2:] {
		row, ok := splitRow(line)
		if !ok || len(row) > len(header) {
			return nil, false
		}
		for len(row) < len(header) {
			row = append(row, "")
		}
		t = append(t, row)
	}
	return t, true
}

// splitRow splits a table row into trimmed cells at unescaped pipes,
// dropping one leading and one trailing pipe.
func splitRow(line string) ([]string, bool) {
	s := strings.TrimSpace(line)
	lead := strings.HasPrefix(s, "|")
	if lead {
		s = s[1:]
	}
	var cells []string
	start, pipes := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // the next byte is escaped
		case '|':
			cells = append(cells, cell(s[start:i]))
			start = i + 1
			pipes++
		}
	}
	if start < len(s) || pipes == 0 && !lead {
		cells = append(cells, cell(s[start:]))
	} else if start == len(s) && pipes == 0 {
		cells = append(cells, "")
	}
	return cells, lead || pipes > 0
}

// cell trims a cell and unescapes its pipes.
func cell(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), `\|`, "|")
}

// isDelimiterRow reports whether line is a table's delimiter row with n
// cells.
func isDelimiterRow(line string, n int) bool {
	cells, ok := splitRow(line)
	if !ok || len(cells) != n {
		return false
	}
	for _, c := range cells {
		c = strings.TrimSuffix(strings.TrimPrefix(c, ":"), ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}

// render writes t as a markdown table with left-aligned columns and pipes
// in cells escaped.
func (t mdTable) render() string {
	var b strings.Builder
	for i, row := range t {
		if i == 1 {
			b.WriteByte('|')
			for range row {
				b.WriteString(" --- |")
			}
			b.WriteByte('\n')
		}
		b.WriteByte('|')
		for _, c := range row {
			b.WriteByte(' ')
			b.WriteString(strings.ReplaceAll(c, "|", `\|`))
			b.WriteString(" |")
		}
		b.WriteByte('\n')
	}
	if len(t) == 1 {
		b.WriteByte('|')
		for range t[0] {
			b.WriteString(" --- |")
		}
		b.WriteByte('\n')
	}
	return b.String()
}
