package shape

// A kind is the JSON type of a value.
type kind uint8

const (
	kindNull kind = iota
	kindFalse
	kindTrue
	kindNumber
	kindString
	kindArray
	kindObject
)

// A value is one parsed JSON value. It keeps what map[string]any loses:
// the order of an object's members (and duplicate keys, should a document
// have them) and the exact text of every number, so that "1e400" and
// "0.10" survive a re-encoding unchanged.
type value struct {
	kind    kind
	text    string   // a number's literal text, or a string's decoded contents
	elems   []value  // an array's elements
	members []member // an object's members, in document order
}

// A member is one key and value of an object.
type member struct {
	key string
	val value
}

// isContainer reports whether v is an array or an object.
func (v *value) isContainer() bool {
	return v.kind == kindArray || v.kind == kindObject
}

// equal reports whether a and b are the same JSON: the same types, the
// same string contents, the same number text, the same elements and the
// same members in the same order.
func equal(a, b *value) bool {
	if a.kind != b.kind || a.text != b.text || len(a.elems) != len(b.elems) || len(a.members) != len(b.members) {
		return false
	}
	for i := range a.elems {
		if !equal(&a.elems[i], &b.elems[i]) {
			return false
		}
	}
	for i := range a.members {
		if a.members[i].key != b.members[i].key || !equal(&a.members[i].val, &b.members[i].val) {
			return false
		}
	}
	return true
}
