package pipeline

import (
	"fmt"
	"strings"

	"github.com/winnowhq/winnow/internal/trimtree"
)

// An itemList is a response cut into the items package trimtree chose
// from (Result.Items): the elements of one JSON array, or the lines of a
// text. The bytes before the first item (the prefix), between items
// (separators) and after the last (the suffix) are kept around any
// selection, so that a selection of a JSON document is valid JSON with the
// same wrapper, and winnow__more pages are exactly the items the agent did
// not see.
type itemList struct {
	text   string
	format string
	items  []trimtree.Span
}

// listOf returns the items of text that res, a trimmed Result of text, was
// a selection of.
func listOf(text string, res trimtree.Result) (*itemList, error) {
	if len(res.Items) != res.Total || len(res.Items) == 0 {
		return nil, fmt.Errorf("trimtree gave %d items of %d", len(res.Items), res.Total)
	}
	for _, k := range res.Kept {
		if k < 0 || k >= len(res.Items) {
			return nil, fmt.Errorf("kept item %d of %d", k, len(res.Items))
		}
	}
	return &itemList{text: text, format: res.Format, items: res.Items}, nil
}

func (l *itemList) prefix() string { return l.text[:l.items[0].Start] }

func (l *itemList) suffix() string { return l.text[l.items[len(l.items)-1].End:] }

// segment returns item i with the separator before it.
func (l *itemList) segment(i int) string {
	if i == 0 {
		return l.text[l.items[0].Start:l.items[0].End]
	}
	return l.text[l.items[i-1].End:l.items[i].End]
}

// render returns the prefix, the items with the indexes given (in
// increasing order), each after the separator that preceded it in the
// source, and the suffix.
func (l *itemList) render(idx []int) string {
	var b strings.Builder
	b.WriteString(l.prefix())
	for j, k := range idx {
		it := l.items[k]
		if j > 0 {
			b.WriteString(l.text[l.items[k-1].End:it.Start])
		}
		b.WriteString(l.text[it.Start:it.End])
	}
	b.WriteString(l.suffix())
	return b.String()
}

// unit names the items for hints.
func (l *itemList) unit() string {
	if l.format == trimtree.FormatLines {
		return "lines"
	}
	return "items"
}

// complement returns the indexes below n that are not in kept (sorted).
func complement(kept []int, n int) []int {
	out := make([]int, 0, n-len(kept))
	j := 0
	for i := 0; i < n; i++ {
		if j < len(kept) && kept[j] == i {
			j++
			continue
		}
		out = append(out, i)
	}
	return out
}
