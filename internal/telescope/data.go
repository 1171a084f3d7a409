package telescope

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// rowsPerPart is how many data rows one L0 part holds.
const rowsPerPart = 100

// dataShape is the abstract of a data file: for tables, the columns, the row count and the
// first rows; for JSON Lines, the keys and the first record; for JSON, its structure.
func dataShape(u *Unit) Abstract {
	switch u.Lang {
	case "csv", "tsv":
		return tableShape(u)
	case "jsonl":
		return jsonlShape(u)
	default:
		return jsonShape(u)
	}
}

// records reads a CSV or TSV unit: its rows and the line each starts on.
func records(u *Unit) (rows [][]string, lines []int, err error) {
	r := csv.NewReader(bytes.NewReader(u.Content))
	if u.Lang == "tsv" {
		r.Comma = '\t'
	}
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.ReuseRecord = false
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return rows, lines, nil
		}
		if err != nil {
			return rows, lines, err
		}
		line, _ := r.FieldPos(0)
		rows = append(rows, rec)
		lines = append(lines, line)
	}
}

func tableShape(u *Unit) Abstract {
	rows, lines, err := records(u)
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s, %s)\n", u.Path, u.Lang, plural(max(len(rows)-1, 0), "row", "rows"))
	if err != nil {
		fmt.Fprintf(&b, "  unreadable after %s: %v\n", plural(len(rows), "row", "rows"), err)
	}
	if len(rows) == 0 {
		return Abstract{Text: b.String(), Headline: "empty table"}
	}
	fmt.Fprintf(&b, "  columns: %s\n", clip(strings.Join(rows[0], ", "), 600))
	for i, row := range rows[1:min(len(rows), 4)] {
		fmt.Fprintf(&b, "  %d: %s\n", lines[i+1], clip(strings.Join(row, " | "), 200))
	}
	var parts []Part
	for i := 1; i < len(rows); i += rowsPerPart {
		j := min(i+rowsPerPart, len(rows))
		end := len(u.Lines())
		if j < len(rows) {
			end = lines[j] - 1
		}
		parts = append(parts, Part{Title: fmt.Sprintf("rows %d-%d", i, j-1), StartLine: lines[i], EndLine: end})
	}
	head := fmt.Sprintf("%s × %s", plural(len(rows)-1, "row", "rows"), plural(len(rows[0]), "column", "columns"))
	return Abstract{Text: b.String(), Headline: head, Parts: parts}
}

func jsonlShape(u *Unit) Abstract {
	lines := u.Lines()
	var keys []string
	seen := map[string]bool{}
	n, bad, first := 0, 0, ""
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		n++
		if n > 1000 {
			continue // keys from the first thousand records are enough
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(t), &obj); err != nil {
			bad++
			continue
		}
		if first == "" {
			first = clip(t, 240)
		}
		for _, k := range sortedKeys(obj) {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (jsonl, %s)\n", u.Path, plural(n, "record", "records"))
	if len(keys) > 0 {
		fmt.Fprintf(&b, "  keys: %s\n", clip(strings.Join(keys, ", "), 600))
	}
	if bad > 0 {
		fmt.Fprintf(&b, "  %s not JSON objects\n", plural(bad, "line is", "lines are"))
	}
	if first != "" {
		fmt.Fprintf(&b, "  first: %s\n", first)
	}
	var parts []Part
	for i := 0; i < len(lines); i += rowsPerPart {
		j := min(i+rowsPerPart, len(lines))
		parts = append(parts, Part{Title: fmt.Sprintf("records on lines %d-%d", i+1, j), StartLine: i + 1, EndLine: j})
	}
	return Abstract{Text: b.String(), Headline: fmt.Sprintf("%s with keys %s", plural(n, "record", "records"), clip(strings.Join(keys, ", "), 80)), Parts: parts}
}

func jsonShape(u *Unit) Abstract {
	var v any
	dec := json.NewDecoder(bytes.NewReader(u.Content))
	dec.UseNumber()
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s, %s)\n", u.Path, u.Lang, plural(len(u.Lines()), "line", "lines"))
	if err := dec.Decode(&v); err != nil {
		fmt.Fprintf(&b, "  not valid JSON: %v\n", err)
		return Abstract{Text: b.String(), Headline: "invalid JSON"}
	}
	describe(&b, v, 1, 0)
	return Abstract{Text: b.String(), Headline: clip(firstLine(shapeLine(v)), 120)}
}

// describe writes the structure of v: objects' keys and the shapes of their values, arrays'
// lengths and the shape of their first element, to depth 3 and about 60 lines.
func describe(b *strings.Builder, v any, depth int, lines int) int {
	if depth > 3 || lines > 60 {
		return lines
	}
	indent := strings.Repeat("  ", depth)
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			fmt.Fprintf(b, "%s%s: %s\n", indent, k, shapeLine(x[k]))
			lines++
			if lines > 60 {
				fmt.Fprintf(b, "%s…\n", indent)
				return lines
			}
			lines = describe(b, x[k], depth+1, lines)
		}
	case []any:
		if len(x) > 0 {
			if _, ok := x[0].(map[string]any); ok {
				lines = describe(b, x[0], depth, lines)
			}
		}
	}
	return lines
}

// shapeLine names v's type in a few words.
func shapeLine(v any) string {
	switch x := v.(type) {
	case map[string]any:
		return fmt.Sprintf("object with %s", plural(len(x), "key", "keys"))
	case []any:
		if len(x) == 0 {
			return "empty array"
		}
		return fmt.Sprintf("array of %d × %s", len(x), shapeLine(x[0]))
	case string:
		return fmt.Sprintf("string %q", clip(x, 60))
	case json.Number:
		return "number " + x.String()
	case bool:
		return fmt.Sprintf("bool %t", x)
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
