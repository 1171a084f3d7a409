package trimtree

import "strings"

// A list is the sequence of items Trim chooses from, as byte ranges of the
// text it was found in. Everything before the first item is the prefix,
// everything after the last the suffix, and the bytes between two items
// the separator before the second: for JSON the comma and the whitespace
// around it, for lines the line break. Prefix, items and separators
// partition the text, so rendering every item gives the text back.
type list struct {
	text   string
	format string // FormatJSON or FormatLines
	path   string // JSON path of the array; "" for a top-level array and for lines
	items  []span
}

// A span is the byte range text[start:end].
type span struct{ start, end int }

// findList finds the main list of text: the JSON array Trim should trim if
// text is a JSON document (see findJSONList), or its lines if text is not
// JSON and has at least two. Valid JSON without a usable array has no list:
// its lines are not items, since dropping some would break the JSON.
func findList(text string) (*list, bool) {
	if l, isJSON := findJSONList(text); isJSON {
		return l, l != nil
	}
	return findLines(text)
}

// knownList is the list of a JSON array text whose elements are at the
// given ranges.
func knownList(text string, items []Span) *list {
	l := &list{text: text, format: FormatJSON, items: make([]span, len(items))}
	for i, it := range items {
		l.items[i] = span{it.Start, it.End}
	}
	return l
}

// findLines makes every line of text an item, without its line break. A
// final line break belongs to the suffix, so a trimmed text ends with one
// exactly when the input did.
func findLines(text string) (*list, bool) {
	body := strings.TrimSuffix(text, "\n")
	n := strings.Count(body, "\n") + 1
	if n < 2 {
		return nil, false
	}
	items := make([]span, 0, n)
	start := 0
	for {
		i := strings.IndexByte(body[start:], '\n')
		if i < 0 {
			items = append(items, span{start, len(body)})
			break
		}
		items = append(items, span{start, start + i})
		start += i + 1
	}
	return &list{text: text, format: FormatLines, items: items}, true
}

// prefix returns the text before the first item.
func (l *list) prefix() string { return l.text[:l.items[0].start] }

// suffix returns the text after the last item.
func (l *list) suffix() string { return l.text[l.items[len(l.items)-1].end:] }

// segment returns item i with the separator before it (the first item has
// none): what keeping the item adds to the output, in most cases exactly.
func (l *list) segment(i int) string {
	if i == 0 {
		return l.text[l.items[0].start:l.items[0].end]
	}
	return l.text[l.items[i-1].end:l.items[i].end]
}

// costs counts the tokens of every item's segment, once. A negative count
// (a broken counter) is taken as zero; the final count still decides.
func (l *list) costs(count func(string) int) []int {
	c := make([]int, len(l.items))
	for i := range l.items {
		c[i] = max(count(l.segment(i)), 0)
	}
	return c
}

// render returns the text with only the items kept (indexes in increasing
// order): the prefix, the first kept item, each further kept item after
// the separator that preceded it in the source, and the suffix.
func (l *list) render(kept []int) string {
	size := len(l.prefix()) + len(l.suffix())
	for _, k := range kept {
		size += len(l.segment(k))
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteString(l.prefix())
	for j, k := range kept {
		it := l.items[k]
		if j > 0 {
			b.WriteString(l.text[l.items[k-1].end:it.start])
		}
		b.WriteString(l.text[it.start:it.end])
	}
	b.WriteString(l.suffix())
	return b.String()
}
