package rawjson

import "bytes"

// StringEdit returns the edit that makes member key of o hold the string
// cur, and false when none is needed: the member already decodes to cur,
// or it is absent and cur is empty. Keeping an equal member keeps its
// exact bytes, escapes included.
func StringEdit(o *Object, key, cur string) (Edit, bool) {
	if v, ok := o.Get(key); ok {
		if s, isStr := String(v); isStr && s == cur {
			return Edit{}, false
		}
	} else if cur == "" {
		return Edit{}, false
	}
	return Edit{Key: key, Value: Quote(cur)}, true
}

// BoolEdit returns the edit that makes member key of o hold cur, and false
// when none is needed: the member already holds cur, or it is absent (or
// null) and cur is false.
func BoolEdit(o *Object, key string, cur bool) (Edit, bool) {
	v, _ := o.Get(key)
	switch {
	case cur && string(v) == "true", !cur && string(v) == "false", !cur && IsNull(v):
		return Edit{}, false
	case cur:
		return Edit{Key: key, Value: []byte("true")}, true
	}
	return Edit{Key: key, Value: []byte("false")}, true
}

// ValueEdit returns the edit that makes member key of o hold the encoded
// value cur, and false when none is needed: the member's bytes already
// equal cur, or it is absent and cur is nil. A nil cur deletes the member.
func ValueEdit(o *Object, key string, cur []byte) (Edit, bool) {
	v, ok := o.Get(key)
	switch {
	case !ok && cur == nil, ok && cur != nil && bytes.Equal(v, cur):
		return Edit{}, false
	case cur == nil:
		return Edit{Key: key, Delete: true}, true
	}
	return Edit{Key: key, Value: cur}, true
}

// NewObject encodes members, in order, as a compact JSON object. Deletes
// are skipped.
func NewObject(members ...Edit) []byte {
	out := []byte{'{'}
	first := true
	for _, m := range members {
		if m.Delete {
			continue
		}
		out = appendMember(out, first, m)
		first = false
	}
	return append(out, '}')
}

// MemberEdits returns the edits that bring o's members, other than those
// named in skip, in line with a list of named values: names are the list's
// names in order (repeats allowed) and value returns the current value of
// a name. Members whose name is gone are deleted, members whose value
// differs are replaced, and names o lacks are appended in list order.
func MemberEdits(o *Object, names []string, value func(name string) ([]byte, bool), skip ...string) []Edit {
	seen := make(map[string]bool, len(o.Members)+len(skip))
	for _, s := range skip {
		seen[s] = true
	}
	var edits []Edit
	for _, m := range o.Members {
		if seen[m.Key] {
			continue
		}
		seen[m.Key] = true
		cur, ok := value(m.Key)
		if !ok {
			edits = append(edits, Edit{Key: m.Key, Delete: true})
		} else if e, ok := ValueEdit(o, m.Key, cur); ok {
			edits = append(edits, e)
		}
	}
	for _, name := range names {
		if !seen[name] {
			seen[name] = true
			cur, _ := value(name)
			edits = append(edits, Edit{Key: name, Value: cur})
		}
	}
	return edits
}
