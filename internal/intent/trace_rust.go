package intent

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// rustPanic parses the panic line, the innermost frame of a Rust panic,
// in the format of Rust 1.73 and later and in the older one:
//
//	thread 'main' panicked at src/main.rs:10:5:
//	thread 'main' panicked at 'index out of bounds', src/main.rs:10:5
func (p *traceParser) rustPanic(t string) {
	p.endBlock()
	_, rest, _ := strings.Cut(t, "' panicked at ")
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return
	}
	path, line, col, ok := splitLoc(strings.TrimSuffix(fields[len(fields)-1], ":"))
	if !ok || langOf(path, "") != "rust" {
		return
	}
	p.rustFn = ""
	p.rustFrame(path, line, col)
	p.endBlock()
}

// rustNumbered reads a numbered line of a Rust backtrace, which names the
// function of the "at path:line:col" line that follows it:
//
//	2: myapp::parse::header
//	          at ./src/parse.rs:12:5
//	8: 0x55d1c - myapp::main::h5f1e0a7b9c2d3e4f
func (p *traceParser) rustNumbered(t string) bool {
	if p.cur < 0 || p.blocks[p.cur].format != rustTrace {
		return false
	}
	_, rest, ok := leadingNumber(t)
	if !ok {
		return false
	}
	rest, ok = strings.CutPrefix(rest, ": ")
	if !ok {
		return false
	}
	if _, fn, ok := strings.Cut(rest, " - "); ok {
		rest = fn
	}
	p.rustFn = strings.TrimSpace(rest)
	return true
}

// rustFrame adds a frame at path:line:col in the function named by the
// last numbered backtrace line, if any. Backtraces print the innermost
// frame first.
func (p *traceParser) rustFrame(path string, line, col int) {
	fn := p.rustFn
	p.rustFn = ""
	p.add(rustTrace, false, Frame{
		File:     path,
		Line:     line,
		Column:   col,
		Function: fn,
		Symbol:   rustSymbol(fn),
		Lang:     "rust",
		Library:  rustLibrary(path, fn),
	})
}

// rustSymbol turns a backtrace function into a name to look up: the hash
// suffix, closures and generic arguments go, a trait impl
// ("<myapp::Foo as core::fmt::Display>::fmt") is named for its type, and
// of the path only a method's type stays: "myapp::parse::Parser::header"
// gives "Parser.header", "myapp::parse::header" gives "header".
func rustSymbol(fn string) string {
	if fn == "" {
		return ""
	}
	if i := strings.LastIndex(fn, "::h"); i >= 0 && len(fn)-i == len("::h")+16 {
		fn = fn[:i]
	}
	if strings.HasPrefix(fn, "<") {
		if end := matchAngle(fn, 0); end > 0 {
			typ, _, _ := strings.Cut(fn[1:end], " as ")
			fn = typ + fn[end+1:]
		}
	}
	var b strings.Builder
	for i := 0; i < len(fn); i++ {
		if fn[i] == '<' {
			if end := matchAngle(fn, i); end > 0 {
				i = end
				continue
			}
		}
		b.WriteByte(fn[i])
	}
	var parts []string
	for seg := range strings.SplitSeq(b.String(), "::") {
		if isIdent(seg) {
			parts = append(parts, seg)
		}
	}
	switch n := len(parts); {
	case n == 0:
		return ""
	case n >= 2 && startsUpper(parts[n-2]):
		return parts[n-2] + "." + parts[n-1]
	default:
		return parts[n-1]
	}
}

// matchAngle returns the index of the '>' that closes the '<' at s[i], or
// -1.
func matchAngle(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '<':
			depth++
		case '>':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

func startsUpper(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// rustLibrary: the standard library (built under /rustc/<hash>/) and
// crates from the registry or git.
func rustLibrary(path, fn string) bool {
	p := strings.ReplaceAll(path, `\`, "/")
	return strings.HasPrefix(p, "/rustc/") ||
		containsAny(p, "/.cargo/registry/", "/.cargo/git/", "/library/std/", "/library/core/", "/library/alloc/") ||
		hasAnyPrefix(fn, "std::", "core::", "alloc::", "<std::", "<core::", "<alloc::", "rust_begin_unwind", "__rust")
}
