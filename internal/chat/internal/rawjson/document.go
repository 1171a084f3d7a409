package rawjson

// ParseDocument splits src, a JSON object with optional surrounding
// whitespace, as ParseObject does, and every object and array inside it
// too (Member.Object and Member.Array, ArraySpans.Objects), in one pass
// that checks src exactly as Valid does. A decoder that would otherwise
// validate a request, split it, then split each message and each block
// of it, scanning every string once per level, scans it once. It fails
// with ErrSyntax when src is not valid JSON and with ErrNotObject when it
// is valid but not an object.
//
// Each nested object and array is split as ParseObject and ParseArray
// split its exact bytes (Src starts at its '{' or '['); the top-level
// object's Src is src.
func ParseDocument(src []byte) (*Object, error) {
	i := skipSpace(src, 0)
	if i >= len(src) || src[i] != '{' {
		if Valid(src) {
			return nil, ErrNotObject
		}
		return nil, ErrSyntax
	}
	end, v, ok := parseValue(src, i, 0, true)
	if !ok || skipSpace(src, end) != len(src) {
		return nil, ErrSyntax
	}
	return v.obj, nil
}

// A parsed is a value parseValue went into: an object or an array.
type parsed struct {
	obj *Object
	arr *ArraySpans
}

// A container is an object or array parseValue has opened and not yet
// closed.
type container struct {
	start   int // offset of '{' or '['
	obj     *Object
	arr     *ArraySpans
	key     string // the member being read, in an object
	keyAt   int
	valueAt int // the value being read: its offset
}

// parseValue checks the value at b[i], inside depth arrays and objects of
// its document, exactly as validValue does, and splits every object and
// array in it. It returns the offset just past the value and the value
// split, if it is an object or an array. With top, the object at b[i] is
// the document: its Src is all of b and its offsets are b's.
func parseValue(b []byte, i, depth int, top bool) (int, parsed, bool) {
	var open []container
	for {
		if i >= len(b) {
			return 0, parsed{}, false
		}
		var ok bool
		var v parsed // the value, if it is an object or an array
		switch c := b[i]; c {
		case '"':
			if i, ok = validString(b, i); !ok {
				return 0, parsed{}, false
			}
		case '{', '[':
			if depth+len(open)+1 > maxDepth {
				return 0, parsed{}, false
			}
			k := container{start: i}
			if c == '{' {
				k.obj = &Object{}
			} else {
				k.arr = &ArraySpans{}
			}
			open = append(open, k)
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == c+2 { // '}' or ']'
				v, i = closeContainer(b, &open, i, top)
				break
			}
			if c == '{' {
				if i, ok = openMember(b, &open[len(open)-1], i); !ok {
					return 0, parsed{}, false
				}
			} else {
				open[len(open)-1].valueAt = i
			}
			continue
		case 't':
			if i, ok = literal(b, i, "true"); !ok {
				return 0, parsed{}, false
			}
		case 'f':
			if i, ok = literal(b, i, "false"); !ok {
				return 0, parsed{}, false
			}
		case 'n':
			if i, ok = literal(b, i, "null"); !ok {
				return 0, parsed{}, false
			}
		default:
			if i, ok = validNumber(b, i); !ok {
				return 0, parsed{}, false
			}
		}
		// A value ends at b[i]: add it to the container it is in, and
		// close containers until one goes on.
		for {
			if len(open) == 0 {
				return i, v, true
			}
			addValue(&open[len(open)-1], i, v, top && len(open) == 1)
			i = skipSpace(b, i)
			if i >= len(b) {
				return 0, parsed{}, false
			}
			k := &open[len(open)-1]
			close := byte(']')
			if k.obj != nil {
				close = '}'
			}
			if b[i] == close {
				v, i = closeContainer(b, &open, i, top)
				continue
			}
			if b[i] != ',' {
				return 0, parsed{}, false
			}
			i = skipSpace(b, i+1)
			if k.obj != nil {
				if i, ok = openMember(b, k, i); !ok {
					return 0, parsed{}, false
				}
			} else {
				k.valueAt = i
			}
			break
		}
	}
}

// openMember reads the key and colon of the member of k at b[i] and
// returns the offset of its value.
func openMember(b []byte, k *container, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	keyEnd, ok := validString(b, i)
	if !ok {
		return 0, false
	}
	key, err := decodeString(b[i:keyEnd])
	if err != nil {
		return 0, false
	}
	j := skipSpace(b, keyEnd)
	if j >= len(b) || b[j] != ':' {
		return 0, false
	}
	k.key, k.keyAt = key, i
	k.valueAt = skipSpace(b, j+1)
	return k.valueAt, true
}

// addValue adds the value k is reading, which ends at end and is v if it
// is an object or an array, to k. The offsets are k's own (its Src starts
// at its '{' or '['), or b's for the document itself (doc).
func addValue(k *container, end int, v parsed, doc bool) {
	base := k.start
	if doc {
		base = 0
	}
	if k.obj != nil {
		k.obj.Members = append(k.obj.Members, Member{Key: k.key, KeyStart: k.keyAt - base,
			ValueStart: k.valueAt - base, ValueEnd: end - base, Object: v.obj, Array: v.arr})
		return
	}
	a := k.arr
	if v.obj != nil && a.Objects == nil {
		a.Objects = make([]*Object, len(a.Spans), cap(a.Spans)+1)
	}
	a.Spans = append(a.Spans, [2]int{k.valueAt - base, end - base})
	if a.Objects != nil {
		a.Objects = append(a.Objects, v.obj)
	}
}

// closeContainer closes the innermost open container, whose closing
// bracket is at b[i], and returns it, split, and the offset past it.
func closeContainer(b []byte, open *[]container, i int, top bool) (parsed, int) {
	k := (*open)[len(*open)-1]
	*open = (*open)[:len(*open)-1]
	end := i + 1
	if k.obj != nil {
		o := k.obj
		if top && len(*open) == 0 {
			o.Src, o.Open, o.Close = b, k.start, i
		} else {
			o.Src, o.Open, o.Close = b[k.start:end:end], 0, i-k.start
		}
		return parsed{obj: o}, end
	}
	k.arr.Src = b[k.start:end:end]
	return parsed{arr: k.arr}, end
}
