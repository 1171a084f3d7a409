package lang

// Bracket matching for the passes of languages whose blocks are braces:
// a definition spans from its first token to the bracket that closes its
// body.

// matchBrackets returns, for every token that opens or closes a bracket,
// the index of its partner, and -1 for every other token. A file whose
// brackets do not pair is one the scanner cannot read.
func (s *scanFile) matchBrackets() []int32 {
	match := make([]int32, len(s.toks))
	var stack []int32
	for i := range s.toks {
		match[i] = -1
		t := &s.toks[i]
		if t.kind != tPunct || t.end-t.start != 1 {
			continue
		}
		switch c := s.src[t.start]; c {
		case '(', '[', '{':
			stack = append(stack, int32(i))
		case ')', ']', '}':
			if len(stack) == 0 {
				s.fail("a closing bracket without an opening one")
			}
			open := stack[len(stack)-1]
			if !pairs(s.src[s.toks[open].start], c) {
				s.fail("brackets do not pair")
			}
			stack = stack[:len(stack)-1]
			match[open], match[i] = int32(i), open
		}
	}
	if len(stack) > 0 {
		s.fail("brackets do not balance")
	}
	return match
}

func pairs(open, closing byte) bool {
	return open == '(' && closing == ')' || open == '[' && closing == ']' || open == '{' && closing == '}'
}

// opens reports whether token i opens the bracket c.
func (s *scanFile) opens(i int, c byte) bool { return s.punct(i, c) }

// nextAt returns the first token from i on that is the punctuation c at
// the bracket depth of i, skipping bracketed groups, before limit; -1 if
// none.
func (s *scanFile) nextAt(i, limit int, c byte, match []int32) int {
	for k := i; k < limit && k < len(s.toks); k++ {
		if s.punct(k, c) {
			return k
		}
		if m := match[k]; m > int32(k) {
			k = int(m)
		}
	}
	return -1
}
