package intent

import "strings"

// goFrame parses the location line of a Go traceback frame; the function
// is on the line before:
//
//	goroutine 1 [running]:
//	main.(*Server).handle(0xc000010000, {0x4b2f60, 0x3})
//		/home/u/proj/server.go:42 +0x1d
//	created by main.main in goroutine 1
//		/home/u/proj/main.go:12 +0x65
//
// Go prints the innermost frame first, and the panicking goroutine first.
func (p *traceParser) goFrame(t string) bool {
	i := strings.Index(t, ".go:")
	path := t[:i+len(".go")]
	line, rest, ok := leadingNumber(t[i+len(".go:"):])
	if !ok || !strings.ContainsAny(path, `/\`) || strings.ContainsAny(path, " \t") ||
		rest != "" && !strings.HasPrefix(rest, " +0x") && !strings.HasPrefix(rest, " fp=") {
		return false
	}
	fn := ""
	if !p.prevConsumed {
		if f, ok := goFunc(p.prevText); ok {
			fn = f
			p.markPrev()
		}
	}
	p.add(goTrace, false, Frame{
		File:     path,
		Line:     line,
		Function: fn,
		Symbol:   goSymbol(fn),
		Lang:     "go",
		Library:  goLibrary(path, fn),
	})
	return true
}

// goFunc returns the function of a traceback function line:
// "pkg.(*T).M(0xc0000, {0x1, 0x2})" gives "pkg.(*T).M", and "created by
// pkg.F in goroutine 7" gives "pkg.F".
func goFunc(line string) (string, bool) {
	if s, ok := strings.CutPrefix(line, "created by "); ok {
		s, _, _ = strings.Cut(s, " in goroutine ")
		return s, s != "" && !strings.ContainsAny(s, " \t")
	}
	if !strings.HasSuffix(line, ")") {
		return "", false
	}
	depth := 0
	for j := len(line) - 1; j >= 0; j-- {
		switch line[j] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				name := line[:j]
				return name, name != "" && !strings.ContainsAny(name, " \t")
			}
		}
	}
	return "", false
}

// goSymbol turns a traceback function into the qualified name the index
// uses: the import path goes but the package name stays, receivers lose
// their parentheses and star, and closures, wrappers and generic shapes
// go: "github.com/x/proj/srv.(*Server[...]).Serve.func1" gives
// "srv.Server.Serve". A major-version suffix is not the package name:
// "github.com/go-chi/chi/v5.(*Mux).ServeHTTP" gives "chi.Mux.ServeHTTP".
func goSymbol(fn string) string {
	if fn == "" {
		return ""
	}
	if i := strings.LastIndexByte(fn, '/'); i >= 0 {
		dir, name := fn[:i], fn[i+1:]
		if v, rest, ok := strings.Cut(name, "."); ok && isMajorVersion(v) {
			name = dir[strings.LastIndexByte(dir, '/')+1:] + "." + rest
		}
		fn = name
	}
	fn = stripReceiver(fn)
	parts := strings.Split(fn, ".")
	for len(parts) > 2 && isGoSynthetic(parts[len(parts)-1]) {
		parts = parts[:len(parts)-1]
	}
	return strings.Join(parts, ".")
}

// stripReceiver removes generic shapes and the parentheses and star of
// receivers: "(*Server[...])" → "Server".
func stripReceiver(fn string) string {
	if !strings.ContainsAny(fn, "([") {
		return fn
	}
	b := make([]byte, 0, len(fn))
	for i := 0; i < len(fn); i++ {
		switch c := fn[i]; {
		case c == '[' && strings.HasPrefix(fn[i:], "[...]"):
			i += len("[...]") - 1
		case c == '(' && i+1 < len(fn) && fn[i+1] == '*':
			i++
		case c == '(', c == ')':
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// isMajorVersion reports whether a path element is a module's major
// version suffix: v2, v3, ….
func isMajorVersion(elem string) bool {
	n, ok := atoi(strings.TrimPrefix(elem, "v"))
	return ok && n >= 2 && elem[0] == 'v'
}

// isGoSynthetic reports whether a name segment is one the compiler made
// up: a closure (func1), a go or defer wrapper, or a closure's nested
// number (the 2 of func1.2).
func isGoSynthetic(seg string) bool {
	for _, pre := range []string{"func", "gowrap", "deferwrap"} {
		if rest, ok := strings.CutPrefix(seg, pre); ok {
			_, ok := atoi(rest)
			return ok
		}
	}
	_, ok := atoi(seg)
	return ok
}

// goStd are the top-level directories of the Go standard library.
var goStd = map[string]bool{
	"archive": true, "bufio": true, "builtin": true, "bytes": true, "cmp": true, "compress": true,
	"container": true, "context": true, "crypto": true, "database": true, "debug": true,
	"embed": true, "encoding": true, "errors": true, "expvar": true, "flag": true, "fmt": true,
	"go": true, "hash": true, "html": true, "image": true, "index": true, "internal": true,
	"io": true, "iter": true, "log": true, "maps": true, "math": true, "mime": true, "net": true,
	"os": true, "path": true, "plugin": true, "reflect": true, "regexp": true, "runtime": true,
	"slices": true, "sort": true, "strconv": true, "strings": true, "structs": true, "sync": true,
	"syscall": true, "testing": true, "text": true, "time": true, "unicode": true, "unique": true,
	"unsafe": true, "weak": true,
}

// goLibrary: the module cache, vendored code, the standard library under a
// Go root ("/usr/local/go/src/net/http/server.go") or under -trimpath
// ("net/http/server.go").
func goLibrary(path, fn string) bool {
	p := strings.ReplaceAll(path, `\`, "/")
	if containsAny(p, "/pkg/mod/", "/vendor/") || hasAnyPrefix(fn, "runtime.", "testing.") {
		return true
	}
	rel := p
	if i := strings.LastIndex(p, "/src/"); i >= 0 && strings.Contains(strings.ToLower(p[:i]), "go") {
		rel = p[i+len("/src/"):]
	} else if strings.HasPrefix(p, "/") || len(p) > 1 && p[1] == ':' {
		return false
	}
	first, _, _ := strings.Cut(rel, "/")
	return goStd[first] && strings.Contains(rel, "/")
}

// goTestHeader follows the test whose output is being read, from
// "=== RUN   TestParse/empty" and "--- FAIL: TestParse (0.00s)".
func (p *traceParser) goTestHeader(t string) {
	rest, fail := strings.CutPrefix(t, "--- FAIL: ")
	if !fail {
		rest = strings.TrimPrefix(t, "=== RUN ")
	}
	p.goTest, _, _ = strings.Cut(strings.TrimLeft(rest, " "), " ")
	p.seen = p.seen || fail
}

// goTestLine parses a failure message of go test, written indented under
// the test it belongs to,
//
//	parse_test.go:42: got 3, want 4
//
// as a frame in that test.
func (p *traceParser) goTestLine(raw, t string) bool {
	if p.goTest == "" || raw == t || raw[0] != ' ' && raw[0] != '\t' {
		return false
	}
	i := strings.Index(t, ".go:")
	path := t[:i+len(".go")]
	line, rest, ok := leadingNumber(t[i+len(".go:"):])
	if !ok || !strings.HasPrefix(rest, ": ") || strings.ContainsAny(path, " \t") {
		return false
	}
	test, _, _ := strings.Cut(p.goTest, "/")
	p.add(goTestTrace, false, Frame{
		File:     path,
		Line:     line,
		Function: p.goTest,
		Symbol:   test,
		Lang:     "go",
	})
	return true
}
