package rawjson

import "errors"

// A Request is a request body split at its top level: the object's members
// and the elements of its messages array, as offsets into Obj.Src. A codec
// records it while decoding, so that encoding, and decoding a later body
// that extends this one, need not scan the body again.
type Request struct {
	Obj *Object
	// Key names the member that holds the messages: "messages", or
	// "input" for the Responses API.
	Key string
	// Messages is the index in Obj.Members of the messages member a
	// decoder reads (the last one named Key), or -1 if there is none.
	Messages int
	// Elems are the spans of the messages array's elements in Obj.Src.
	Elems [][2]int
}

// ErrNotExtending reports a body that does not repeat an earlier one up to
// the end of its last message.
var ErrNotExtending = errors.New("body does not extend the earlier request")

// RequestOf returns the Request of a body split as doc by ParseDocument,
// whose messages are the array member key: the last member of that name,
// or -1 if there is none (no error). It fails with ErrNotArray when that
// member is not an array.
func RequestOf(doc *Object, key string) (*Request, error) {
	r := &Request{Obj: doc, Key: key, Messages: doc.Last(key)}
	if r.Messages < 0 {
		return r, nil
	}
	m := doc.Members[r.Messages]
	if m.Array == nil {
		return nil, ErrNotArray
	}
	r.Elems = append([][2]int(nil), m.Array.Spans...)
	shift(r.Elems, m.ValueStart)
	return r, nil
}

// MessagesEnd returns the offset just past r's last message, or -1 when
// it has no messages or more than one messages member: such a request
// cannot be extended.
func (r *Request) MessagesEnd() int {
	if r.Messages < 0 || len(r.Elems) == 0 || countMembers(r.Obj.Members, r.Key) != 1 {
		return -1
	}
	return r.Elems[len(r.Elems)-1][1]
}

// ExtendRequest splits src, a body whose bytes up to prev.MessagesEnd()
// equal prev's (the caller has checked: ExtendRequest does not look at
// them), scanning only what follows: the messages after prev's, and the
// top-level members after the array. New reports the first element of
// the result that prev lacks. It checks what it scans as strictly as
// Valid does, so that src is valid JSON if prev's body was. It
// returns ErrNotExtending when prev cannot be extended or src is too
// short, and ErrSyntax (or ErrNotArray) when what follows is malformed
// or has another messages member.
func ExtendRequest(prev *Request, src []byte) (r *Request, newFrom int, err error) {
	end := prev.MessagesEnd()
	if end < 0 || len(src) <= end {
		return nil, 0, ErrNotExtending
	}
	po := prev.Obj
	mi := prev.Messages
	elems := append(make([][2]int, 0, len(prev.Elems)+4), prev.Elems...)
	i := skipSpace(src, end)
	for i < len(src) && src[i] == ',' {
		i = skipSpace(src, i+1)
		e, ok := validValue(src, i, 2) // in the array, in the object
		if !ok {
			return nil, 0, ErrSyntax
		}
		elems = append(elems, [2]int{i, e})
		i = skipSpace(src, e)
	}
	if i >= len(src) || src[i] != ']' {
		return nil, 0, ErrSyntax
	}
	obj := &Object{Src: src, Open: po.Open}
	obj.Members = append(make([]Member, 0, len(po.Members)), po.Members[:mi+1]...)
	obj.Members[mi].ValueEnd = i + 1
	i = skipSpace(src, i+1)
	for {
		if i >= len(src) {
			return nil, 0, ErrSyntax
		}
		switch src[i] {
		case '}':
			obj.Close = i
			if err := trailing(src, i+1); err != nil {
				return nil, 0, err
			}
			return &Request{Obj: obj, Key: prev.Key, Messages: mi, Elems: elems}, len(prev.Elems), nil
		case ',':
		default:
			return nil, 0, ErrSyntax
		}
		m, next, err := strictMember(src, skipSpace(src, i+1))
		if err != nil {
			return nil, 0, err
		}
		if m.Key == prev.Key {
			return nil, 0, ErrSyntax // a later messages member would replace the array
		}
		obj.Members = append(obj.Members, m)
		i = next
	}
}

// strictMember reads the member "key": value at src[i] and checks it as
// Valid would; next is the offset after it and any space.
func strictMember(src []byte, i int) (Member, int, error) {
	if i >= len(src) || src[i] != '"' {
		return Member{}, 0, ErrSyntax
	}
	keyEnd, ok := validString(src, i)
	if !ok {
		return Member{}, 0, ErrSyntax
	}
	key, err := decodeString(src[i:keyEnd])
	if err != nil {
		return Member{}, 0, err
	}
	j := skipSpace(src, keyEnd)
	if j >= len(src) || src[j] != ':' {
		return Member{}, 0, ErrSyntax
	}
	vs := skipSpace(src, j+1)
	ve, ok := validValue(src, vs, 1) // in the object
	if !ok {
		return Member{}, 0, ErrSyntax
	}
	return Member{Key: key, KeyStart: i, ValueStart: vs, ValueEnd: ve}, skipSpace(src, ve), nil
}

// Element returns the bytes of element k of r's messages, capped.
func (r *Request) Element(k int) []byte {
	s := r.Elems[k]
	return r.Obj.Src[s[0]:s[1]:s[1]]
}

// SpliceBody returns r's body with its messages array replaced by elems,
// laid out as SpliceArray lays them out (from the spans r recorded, not
// scanning the array again), and edits applied to its other members:
// Obj.Splice with the messages among the edits, written in one copy
// rather than two. No edit may name the messages member.
func (r *Request) SpliceBody(elems [][]byte, edits []Edit) []byte {
	return r.Obj.splice(edits, r.Messages, r.messages(elems))
}

func (r *Request) messages(elems [][]byte) layout {
	v := r.Obj.Value(r.Obj.Members[r.Messages])
	spans := make([][2]int, len(r.Elems))
	base := r.Obj.Members[r.Messages].ValueStart
	for k, s := range r.Elems {
		spans[k] = [2]int{s[0] - base, s[1] - base}
	}
	return spliceSpans(v, spans, elems)
}

func countMembers(ms []Member, key string) int {
	n := 0
	for _, m := range ms {
		if m.Key == key {
			n++
		}
	}
	return n
}

func shift(spans [][2]int, by int) {
	for k := range spans {
		spans[k][0] += by
		spans[k][1] += by
	}
}

// ForSource returns layout as a *Request if it is the split of src itself
// (the same bytes in memory) with a messages array, and nil otherwise.
func ForSource(layout any, src []byte) *Request {
	r, ok := layout.(*Request)
	if !ok || r.Messages < 0 || len(src) == 0 || !Same(r.Obj.Src, src) {
		return nil
	}
	return r
}

// FirstElementEnd returns the offset just past the first element of the
// array that src's first member named key holds, scanning src only that
// far, or -1 if there is none. It is a cheap fingerprint of where a
// request starts, not a parse: it does not check the rest of src.
func FirstElementEnd(src []byte, key string) int {
	i := skipSpace(src, 0)
	if i >= len(src) || src[i] != '{' {
		return -1
	}
	i = skipSpace(src, i+1)
	for i < len(src) && src[i] == '"' {
		keyEnd, err := skipString(src, i)
		if err != nil {
			return -1
		}
		match := string(src[i+1:keyEnd-1]) == key
		j := skipSpace(src, keyEnd)
		if j >= len(src) || src[j] != ':' {
			return -1
		}
		vs := skipSpace(src, j+1)
		if match {
			if vs >= len(src) || src[vs] != '[' {
				return -1
			}
			e, err := skipValue(src, skipSpace(src, vs+1))
			if err != nil {
				return -1
			}
			return e
		}
		ve, err := skipValue(src, vs)
		if err != nil {
			return -1
		}
		i = skipSpace(src, ve)
		if i >= len(src) || src[i] != ',' {
			return -1
		}
		i = skipSpace(src, i+1)
	}
	return -1
}
