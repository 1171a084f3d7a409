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
	last := make(map[string]int, len(o.Members))
	for i, m := range o.Members {
		last[m.Key] = i
	}
	byKey := make(map[string]Edit, len(edits))
	for _, e := range edits {
		byKey[e.Key] = e
	}
	src := o.Src
	out := make([]byte, 0, len(src)+editSize(edits))
	out = append(out, src[:o.Open+1]...)
	first := true
	for i, m := range o.Members {
		e, edited := byKey[m.Key]
		if edited && e.Delete {
			continue
		}
		if first {
			out = append(out, src[o.Open+1:o.Members[0].KeyStart]...)
		} else {
			out = append(out, src[o.Members[i-1].ValueEnd:m.KeyStart]...)
		}
		first = false
		out = append(out, src[m.KeyStart:m.ValueStart]...)
		if edited && last[m.Key] == i {
			out = append(out, e.Value...)
		} else {
			out = append(out, src[m.ValueStart:m.ValueEnd]...)
		}
	}
	for _, e := range edits {
		if _, ok := last[e.Key]; ok || e.Delete {
			continue
		}
		out = appendMember(out, first, e)
		first = false
	}
	tail := o.Open + 1
	if n := len(o.Members); n > 0 {
		tail = o.Members[n-1].ValueEnd
	}
	return append(out, src[tail:]...)
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
	return join([]byte{'['}, elems, func(int) []byte { return []byte{','} }, []byte{']'})
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
	return spliceSpans(orig, spans, elems)
}

// spliceSpans is SpliceArray given the spans of orig's elements.
func spliceSpans(orig []byte, spans [][2]int, elems [][]byte) []byte {
	if len(spans) == 0 {
		return Array(elems)
	}
	last := len(spans) - 1
	lead, trail := orig[:spans[0][0]], orig[spans[last][1]:]
	if len(elems) == 0 {
		return append(bytes.TrimRight(bytes.Clone(lead), " \t\n\r"), bytes.TrimLeft(trail, " \t\n\r")...)
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
	return join(lead, elems, sep, trail)
}

func join(lead []byte, elems [][]byte, sep func(i int) []byte, trail []byte) []byte {
	n := len(lead) + len(trail) + len(elems)
	for _, e := range elems {
		n += len(e)
	}
	out := make([]byte, 0, n)
	out = append(out, lead...)
	for i, e := range elems {
		if i > 0 {
			out = append(out, sep(i)...)
		}
		out = append(out, e...)
	}
	return append(out, trail...)
}

func editSize(edits []Edit) int {
	n := 0
	for _, e := range edits {
		n += len(e.Key) + len(e.Value) + 4
	}
	return n
}
