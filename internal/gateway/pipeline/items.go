package pipeline

import (
	"errors"
	"fmt"
	"strings"

	"github.com/winnowhq/winnow/internal/trimtree"
)

// An itemList is a response cut into the items package trimtree chooses
// from: the elements of one JSON array, or the lines of a text. The bytes
// before the first item (the prefix), between items (separators) and
// after the last (the suffix) are kept around any selection, so that a
// selection of a JSON document is valid JSON with the same wrapper.
//
// trimtree reports which items it kept (Result.Kept) but not the items
// themselves; listOf finds them again from Result.Path and Result.Format
// (for JSON with a locator that follows the path through text trimtree
// has validated, locate.go), and accepts the list only if rendering the
// kept items reproduces Result.Text byte for byte, so that winnow__more
// pages are exactly the items the agent did not see.
type itemList struct {
	text   string
	format string
	items  []span
}

// listOf returns the items of text that res was a selection of.
func listOf(text string, res trimtree.Result) (*itemList, error) {
	l := &itemList{text: text, format: res.Format}
	switch res.Format {
	case trimtree.FormatLines:
		l.items = lineItems(text)
	case trimtree.FormatJSON:
		items, err := arrayItems(text, res.Path)
		if err != nil {
			return nil, err
		}
		l.items = items
	default:
		return nil, fmt.Errorf("list format %q", res.Format)
	}
	if len(l.items) != res.Total || len(l.items) == 0 {
		return nil, fmt.Errorf("found %d items, trimtree counted %d", len(l.items), res.Total)
	}
	for _, k := range res.Kept {
		if k < 0 || k >= len(l.items) {
			return nil, fmt.Errorf("kept item %d of %d", k, len(l.items))
		}
	}
	if l.render(res.Kept) != res.Text {
		return nil, errors.New("the kept items do not render as trimtree's text")
	}
	return l, nil
}

// lineItems makes every line of text an item, without its line break; a
// final line break belongs to the suffix.
func lineItems(text string) []span {
	body := strings.TrimSuffix(text, "\n")
	items := make([]span, 0, strings.Count(body, "\n")+1)
	start := 0
	for {
		i := strings.IndexByte(body[start:], '\n')
		if i < 0 {
			return append(items, span{start, len(body)})
		}
		items = append(items, span{start, start + i})
		start += i + 1
	}
}

func (l *itemList) prefix() string { return l.text[:l.items[0].start] }

func (l *itemList) suffix() string { return l.text[l.items[len(l.items)-1].end:] }

// segment returns item i with the separator before it.
func (l *itemList) segment(i int) string {
	if i == 0 {
		return l.text[l.items[0].start:l.items[0].end]
	}
	return l.text[l.items[i-1].end:l.items[i].end]
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
			b.WriteString(l.text[l.items[k-1].end:it.start])
		}
		b.WriteString(l.text[it.start:it.end])
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
