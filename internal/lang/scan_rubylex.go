package lang

// Ruby's lexical oddities for the fast scanner's lexer: =begin/=end
// comments, heredocs, %-literals, symbols, instance and global
// variables.

// rubyBegin skips a =begin … =end comment that starts at i, the start of
// a line, and returns where lexing resumes.
func (l *lexer) rubyBegin(i int) int {
	src := l.src
	if !hasPrefixAt(src, i, "=begin") || i+6 < len(src) && isNameByte(src[i+6]) {
		return i
	}
	for k := i; k < len(src); {
		nl := indexByteFrom(src, k, '\n')
		if k > i && hasPrefixAt(src, k, "=end") {
			l.comment(i, nl)
			return nl
		}
		k = nl + 1
	}
	l.unclosed = true
	l.comment(i, len(src))
	return len(src)
}

// rubyLineStart is called at the start of each line: it skips the bodies
// of heredocs opened on the line before, then a =begin comment.
func (l *lexer) rubyLineStart(i int) int {
	src := l.src
	for len(l.heredocs) > 0 {
		term := l.heredocs[0]
		start := i
		for i < len(src) {
			nl := indexByteFrom(src, i, '\n')
			line := trimSpaceBytes(src[i:nl])
			i = min(nl+1, len(src))
			if string(line) == term {
				break
			}
		}
		l.emit(tString, start, max(start, i-1))
		l.afterMultiline(start, i)
		l.newline(i)
		l.heredocs = l.heredocs[1:]
	}
	return l.rubyBegin(i)
}

// rubySpecial reports whether the byte c at i opens one of Ruby's own
// literals: a symbol, an instance, class or global variable, a
// %-literal or a heredoc.
func (l *lexer) rubySpecial(c byte, i int) bool {
	src := l.src
	next := byte(0)
	if i+1 < len(src) {
		next = src[i+1]
	}
	switch c {
	case ':':
		return (isIdentStart(next) || next == '"') && (i == 0 || src[i-1] != ':') && next != ':'
	case '@', '$':
		return isIdentStart(next) || next == '@' || c == '$' && next != 0 && !isSpaceByte(next)
	case '%':
		if !l.regexDue() {
			return false
		}
		if containsByte("wWiIqQrs", next) && i+2 < len(src) && containsByte("([{<|!/", src[i+2]) {
			return true
		}
		return containsByte("([{<|!", next)
	case '<':
		if next != '<' || i+2 >= len(src) {
			return false
		}
		k := src[i+2]
		if k == '~' || k == '-' {
			return i+3 < len(src) && (isIdentStart(src[i+3]) || src[i+3] == '\'' || src[i+3] == '"')
		}
		return (k >= 'A' && k <= 'Z' || k == '\'' || k == '"') && l.regexDue()
	}
	return false
}

// rubyLiteral consumes the literal rubySpecial found at i.
func (l *lexer) rubyLiteral(c byte, i int) int {
	src := l.src
	switch c {
	case ':':
		if src[i+1] == '"' {
			end := l.quotedEnd(i+1, '"', true)
			l.emit(tString, i, end)
			return end
		}
		j := i + 1
		for j < len(src) && isNameByte(src[j]) {
			j++
		}
		if j < len(src) && (src[j] == '?' || src[j] == '!' || src[j] == '=') {
			j++
		}
		l.emit(tString, i, j)
		return j
	case '@', '$':
		j := i + 1
		for j < len(src) && (src[j] == '@' || isNameByte(src[j])) {
			j++
		}
		if j == i+1 {
			j++ // $!, $0 and the like
		}
		l.emit(tPunct, i, j)
		return j
	case '%':
		k := i + 1
		if isNameByte(src[k]) {
			k++
		}
		open := src[k]
		closing := open
		switch open {
		case '(':
			closing = ')'
		case '[':
			closing = ']'
		case '{':
			closing = '}'
		case '<':
			closing = '>'
		}
		depth := 0
		for j := k + 1; j < len(src); j++ {
			switch src[j] {
			case '\\':
				j++
			case open:
				if open != closing {
					depth++
				}
			case closing:
				if depth == 0 {
					l.emitMultiline(tString, i, j+1)
					return j + 1
				}
				depth--
			}
		}
		return l.eof(i)
	}
	// A heredoc: the opener is a string; its body follows the line.
	k := i + 2
	squiggly := src[k] == '~' || src[k] == '-'
	if squiggly {
		k++
	}
	var term []byte
	end := k
	if src[k] == '\'' || src[k] == '"' {
		q := src[k]
		close := indexByteFrom(src, k+1, q)
		term = src[k+1 : close]
		end = min(close+1, len(src))
	} else {
		for end < len(src) && isNameByte(src[end]) {
			end++
		}
		term = src[k:end]
	}
	_ = squiggly // the terminator is matched with its indentation trimmed either way
	l.emit(tString, i, end)
	l.heredocs = append(l.heredocs, string(term))
	return end
}

func hasPrefixAt(src []byte, i int, p string) bool {
	return i+len(p) <= len(src) && string(src[i:i+len(p)]) == p
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func trimSpaceBytes(b []byte) []byte {
	for len(b) > 0 && isSpaceByte(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpaceByte(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}
