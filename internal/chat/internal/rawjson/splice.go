package rawjson

import "bytes"

// An Edit changes one member of an object: its value is replaced by Value,
// or, with Delete, every member of that name is removed. An edit for a key
// the object lacks appends a member (a Delete for a missing key does
// nothing).
type Edit struct {
	Key    string
	Value  []byte
	Delete bool
}

// Splice returns a copy of the object with edits applied. Everything the
// edits do not touch is copied byte for byte: the bytes around the object,
// whitespace, separators, other members and their order. A replaced key
// that occurs more than once has its last occurrence replaced, the one a
// JSON decoder reads. Appended members go last, in the order given.
func (o *Object) Splice(edits []Edit) []byte {
	if len(edits) == 0 {
		return bytes.Clone(o.Src)
	}
	return o.splice(edits, -1, layout{})
}

// splice is Splice that also writes v in place of the value of member
// mi, if mi is not -1, without joining v first. No edit may name mi's key.
// It lists the pieces of the result first, so as to allocate it at its
// exact size: a block whose long text is replaced by a short one is short.
func (o *Object) splice(edits []Edit, mi int, v layout) []byte {
	last := make(map[string]int, len(o.Members))
	for i, m := range o.Members {
		last[m.Key] = i
	}
	byKey := make(map[string]Edit, len(edits))
	for _, e := range edits {
		byKey[e.Key] = e
	}
	src := o.Src
	pieces := make([][]byte, 0, 3*len(o.Members)+len(edits)+2)
	pieces = append(pieces, src[:o.Open+1])
	first := true
	for i, m := range o.Members {
		e, edited := byKey[m.Key]
		if edited && e.Delete {
			continue
		}
		if first {
			pieces = append(pieces, src[o.Open+1:o.Members[0].KeyStart])
		} else {
			pieces = append(pieces, src[o.Members[i-1].ValueEnd:m.KeyStart])
		}
		first = false
		pieces = append(pieces, src[m.KeyStart:m.ValueStart])
		switch {
		case i == mi:
			pieces = v.appendPieces(pieces)
		case edited && last[m.Key] == i:
			pieces = append(pieces, e.Value)
		default:
			pieces = append(pieces, src[m.ValueStart:m.ValueEnd])
		}
	}
	for _, e := range edits {
		if _, ok := last[e.Key]; ok || e.Delete {
			continue
		}
		pieces = append(pieces, appendMember(nil, first, e))
		first = false
	}
	tail := o.Open + 1
	if n := len(o.Members); n > 0 {
		tail = o.Members[n-1].ValueEnd
	}
	pieces = append(pieces, src[tail:])
	n := 0
	for _, p := range pieces {
		n += len(p)
	}
	out := make([]byte, 0, n)
	for _, p := range pieces {
		out = append(out, p...)
	}
	return out
}

// appendMember appends e as a compact member, after a comma unless it is
// the first.
func appendMember(out []byte, first bool, e Edit) []byte {
	if !first {
		out = append(out, ',')
	}
	out = append(out, Quote(e.Key)...)
	out = append(out, ':')
	return append(out, e.Value...)
}

// Array joins encoded elements into a compact JSON array.
func Array(elems [][]byte) []byte {
	return compact(elems).bytes()
}

// SpliceArray encodes elems as an array laid out like orig, the array they
// replace: orig's opening and closing bytes and its separators are reused
// (the last separator for elements beyond orig's count), so unchanged
// elements of a pretty-printed array stay where they were. If orig is not
// a non-empty array, the result is compact.
func SpliceArray(orig []byte, elems [][]byte) []byte {
	spans, err := elementSpans(orig)
	if err != nil {
		return Array(elems)
	}
	return spliceSpans(orig, spans, elems).bytes()
}

// SpliceArrayOf is SpliceArray with a, orig's split, if a is not nil and
// is the split of orig itself (the same bytes in memory), so that orig is
// not scanned again.
func SpliceArrayOf(a *ArraySpans, orig []byte, elems [][]byte) []byte {
	if a == nil || !Same(a.Src, orig) {
		return SpliceArray(orig, elems)
	}
	return spliceSpans(orig, a.Spans, elems).bytes()
}

// A layout is an array as the pieces it is written from, in order: lead,
// the elements with sep(i) before element i > 0, trail.
type layout struct {
	lead  []byte
	elems [][]byte
	sep   func(i int) []byte
	trail []byte
}

func compact(elems [][]byte) layout {
	return layout{lead: []byte{'['}, elems: elems, sep: func(int) []byte { return []byte{','} }, trail: []byte{']'}}
}

// spliceSpans is SpliceArray given the spans of orig's elements.
func spliceSpans(orig []byte, spans [][2]int, elems [][]byte) layout {
	if len(spans) == 0 {
		return compact(elems)
	}
	last := len(spans) - 1
	lead, trail := orig[:spans[0][0]], orig[spans[last][1]:]
	if len(elems) == 0 {
		return layout{lead: bytes.TrimRight(lead, " \t\n\r"), trail: bytes.TrimLeft(trail, " \t\n\r")}
	}
	sep := func(i int) []byte {
		switch {
		case i <= last:
			return orig[spans[i-1][1]:spans[i][0]]
		case last > 0:
			return orig[spans[last-1][1]:spans[last][0]]
		}
		return []byte{','}
	}
	return layout{lead: lead, elems: elems, sep: sep, trail: trail}
}

// size returns the length of the array l writes.
func (l layout) size() int {
	n := len(l.lead) + len(l.trail)
	for i, e := range l.elems {
		if i > 0 {
			n += len(l.sep(i))
		}
		n += len(e)
	}
	return n
}

// appendTo appends the array l writes to out.
func (l layout) appendTo(out []byte) []byte {
	out = append(out, l.lead...)
	for i, e := range l.elems {
		if i > 0 {
			out = append(out, l.sep(i)...)
		}
		out = append(out, e...)
	}
	return append(out, l.trail...)
}

// appendPieces appends the pieces of the array l writes to pieces.
func (l layout) appendPieces(pieces [][]byte) [][]byte {
	pieces = append(pieces, l.lead)
	for i, e := range l.elems {
		if i > 0 {
			pieces = append(pieces, l.sep(i))
		}
		pieces = append(pieces, e)
	}
	return append(pieces, l.trail)
}

// bytes returns the array l writes.
func (l layout) bytes() []byte {
	return l.appendTo(make([]byte, 0, l.size()))
}
