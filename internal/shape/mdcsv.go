package shape

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// EncoderMarkdownCSV names the md_csv encoder: a markdown table as CSV (RFC 4180): the
// header row, then the body rows, cells separated by commas, without the
// delimiter row, the padding and the border pipes. A cell is quoted, with
// its quotes doubled, when it holds a comma or a quote (and a row of one
// empty cell is written "" so that it is not a blank line):
//
//	name,role,notes
//	ana,admin,"ops, on call"
//	bo,dev,"says ""hi"""
const EncoderMarkdownCSV = "md_csv"

// encodeMDCSV writes the cells of a markdown table as CSV.
func encodeMDCSV(t mdTable) (string, bool) {
	if len(t) == 0 {
		return "", false
	}
	var b strings.Builder
	for i, row := range t {
		if i > 0 {
			b.WriteByte('\n')
		}
		for j, c := range row {
			if j > 0 {
				b.WriteByte(',')
			}
			if strings.ContainsAny(c, ",\"\r\n") || c == "" && len(row) == 1 {
				b.WriteByte('"')
				b.WriteString(strings.ReplaceAll(c, `"`, `""`))
				b.WriteByte('"')
				continue
			}
			b.WriteString(c)
		}
	}
	return b.String(), true
}

// decodeMDCSV reads CSV written by encodeMDCSV back into table cells.
func decodeMDCSV(text string) (mdTable, error) {
	r := csv.NewReader(strings.NewReader(text))
	var t mdTable
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("csv: %w", err)
		}
		t = append(t, rec)
	}
	if len(t) == 0 {
		return nil, errors.New("csv: no header row")
	}
	return t, nil
}

// equalTables reports whether a and b have the same cells.
func equalTables(a, b mdTable) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if a[i][j] != b[i][j] {
				return false
			}
		}
	}
	return true
}
