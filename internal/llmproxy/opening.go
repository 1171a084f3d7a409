package llmproxy

import (
	"bytes"
	"encoding/json"
)

// maxModelLen bounds the model id kept for telemetry; ids are a few dozen bytes.
const maxModelLen = 100

// requestFacts reads what telemetry needs from a request body, without decoding it: the
// "model" member, and the opening of the conversation, the bytes of its message list from
// the first message through the first one whose role is "user" (Anthropic's first
// message; for OpenAI the system or developer messages and the first user message; the
// Responses API's list is "input"). The opening names a conversation: every later request
// of it starts the same way. It walks the top-level members in order and stops once it
// has both, so for a body that names its model first, as every SDK and agent sends it,
// it reads the first messages only.
//
// model is "" unless it is a JSON string of at most maxModelLen bytes made of the
// characters model ids use (letters, digits, and . _ - : @ / [ ]), so that a client
// cannot put text in the telemetry through it. opening is nil when the body is not a
// JSON object or has no message list.
func requestFacts(body []byte) (model string, opening []byte) {
	s := scanner(body)
	i := s.space(0)
	if i >= len(s) || s[i] != '{' {
		return "", nil
	}
	haveModel, haveOpening := false, false
	s.members(i, func(key []byte, vs int) bool {
		switch string(key) {
		case "model":
			if ve, ok := s.value(vs); ok {
				model, haveModel = modelID(s[vs:ve]), true
			}
		case "messages", "input":
			if !haveOpening && vs < len(s) && s[vs] == '[' {
				opening, haveOpening = s.opening(vs), true
			}
		}
		return !haveModel || !haveOpening
	})
	return model, opening
}

// modelID returns the JSON string raw as a model id, or "" if it does not look like one.
func modelID(raw []byte) string {
	if len(raw) < 2 || len(raw) > maxModelLen+2 || raw[0] != '"' {
		return ""
	}
	var id string
	if json.Unmarshal(raw, &id) != nil {
		return ""
	}
	for i := range len(id) {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || bytes.IndexByte([]byte("._-:@/[]"), c) >= 0) {
			return ""
		}
	}
	return id
}

// opening returns the bytes of the array at i from its first element through the first
// element whose role is "user", or through its last well-formed element if none is; nil
// if it has none.
func (s scanner) opening(i int) []byte {
	start, end := -1, -1
	s.elements(i, func(vs, ve int) bool {
		if start < 0 {
			start = vs
		}
		end = ve
		return !s.isUser(vs)
	})
	if start < 0 {
		return nil
	}
	return s[start:end]
}

// isUser reports whether the value at i is an object whose "role" is "user".
func (s scanner) isUser(i int) bool {
	if s[i] != '{' {
		return false
	}
	user := false
	s.members(i, func(key []byte, vs int) bool {
		if string(key) != "role" {
			return true
		}
		ve, ok := s.value(vs)
		user = ok && string(s[vs:ve]) == `"user"`
		return false
	})
	return user
}

// A scanner finds the extent of JSON values in a byte slice without decoding them. Its
// methods take the offset of a value's first byte and return the offset just past it;
// ok is false when the JSON is malformed or cut short there. It checks structure only as
// far as it needs to find where values end.
type scanner []byte

// space returns the offset of the first byte at or after i that is not JSON whitespace.
func (s scanner) space(i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// str returns the end of the string at i (s[i] == '"').
func (s scanner) str(i int) (int, bool) {
	for j := i + 1; j < len(s); {
		k := bytes.IndexAny(s[j:], `"\`)
		if k < 0 {
			return len(s), false
		}
		j += k
		if s[j] == '"' {
			return j + 1, true
		}
		j += 2 // a backslash and the byte it escapes
	}
	return len(s), false
}

// value returns the end of the value at i.
func (s scanner) value(i int) (int, bool) {
	if i >= len(s) {
		return i, false
	}
	switch s[i] {
	case '"':
		return s.str(i)
	case '{':
		return s.members(i, func([]byte, int) bool { return true })
	case '[':
		return s.elements(i, func(int, int) bool { return true })
	}
	j := i
	for j < len(s) && bytes.IndexByte([]byte(" \t\r\n,]}:"), s[j]) < 0 {
		j++
	}
	return j, j > i
}

// members walks the object at i (s[i] == '{'), calling fn with each member's raw key (the
// bytes between its quotes) and the offset of its value, and skipping the value when fn
// returns true. When fn returns false, members stops and returns the value's offset and
// false; otherwise it returns the object's end.
func (s scanner) members(i int, fn func(key []byte, vs int) bool) (int, bool) {
	i = s.space(i + 1)
	if i < len(s) && s[i] == '}' {
		return i + 1, true
	}
	for i < len(s) && s[i] == '"' {
		ke, ok := s.str(i)
		if !ok {
			return ke, false
		}
		c := s.space(ke)
		if c >= len(s) || s[c] != ':' {
			return c, false
		}
		vs := s.space(c + 1)
		if !fn(s[i+1:ke-1], vs) {
			return vs, false
		}
		ve, ok := s.value(vs)
		if !ok {
			return ve, false
		}
		var more bool
		if i, more, ok = s.after(ve, '}'); !more {
			return i, ok
		}
	}
	return i, false
}

// elements walks the array at i (s[i] == '['), calling fn with each element's extent,
// until fn returns false, like members.
func (s scanner) elements(i int, fn func(vs, ve int) bool) (int, bool) {
	i = s.space(i + 1)
	if i < len(s) && s[i] == ']' {
		return i + 1, true
	}
	for i < len(s) {
		ve, ok := s.value(i)
		if !ok || !fn(i, ve) {
			return ve, false
		}
		var more bool
		if i, more, ok = s.after(ve, ']'); !more {
			return i, ok
		}
	}
	return i, false
}

// after reads what follows a member or element of an object or array closed by end,
// whose value ends at i: after a comma it returns the next one's offset and more; at end,
// the container's end and ok; otherwise the offset where the JSON went wrong.
func (s scanner) after(i int, end byte) (next int, more, ok bool) {
	i = s.space(i)
	switch {
	case i < len(s) && s[i] == end:
		return i + 1, false, true
	case i < len(s) && s[i] == ',':
		return s.space(i + 1), true, true
	}
	return i, false, false
}
