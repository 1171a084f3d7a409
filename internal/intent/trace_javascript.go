package intent

import "strings"

// atLine parses a line that starts with "at " (rest is what follows). Four
// dialects share the word, told apart by shape:
//
//	at com.example.Foo.bar(Foo.java:42)                  JVM: no space before "("
//	at Ns.Foo.Bar(String s) in /src/Foo.cs:line 42       .NET: " in …:line N"
//	at handle (/srv/app/src/server.js:12:34)             JavaScript (V8)
//	at /srv/app/src/server.js:12:34                      JavaScript, anonymous
//	at ./src/lib.rs:12:5                                 Rust backtrace location
func (p *traceParser) atLine(rest string) bool {
	return p.jvmFrame(rest) || p.dotnetFrame(rest) || p.locFrame(rest)
}

// locFrame parses "fn (path:line:col)" or a bare "path:line:col": a V8
// frame, or the location line of a Rust backtrace frame, whose function
// was on the line before.
func (p *traceParser) locFrame(rest string) bool {
	fn, loc := "", rest
	if strings.HasSuffix(rest, ")") {
		i := strings.Index(rest, " (")
		if i <= 0 {
			return false
		}
		fn, loc = rest[:i], rest[i+2:len(rest)-1]
	}
	if strings.HasPrefix(loc, "eval at ") {
		return false
	}
	path, line, col, ok := splitLoc(loc)
	lang := langOf(path, "")
	if !ok || col == 0 && lang == "" {
		return false
	}
	if lang == "rust" {
		p.rustFrame(path, line, col)
		return true
	}
	if lang == "" {
		lang = "javascript"
	}
	p.add(jsTrace, false, Frame{
		File:     path,
		Line:     line,
		Column:   col,
		Function: fn,
		Symbol:   jsSymbol(fn),
		Lang:     lang,
		Library:  jsLibrary(path),
	})
	return true
}

// firefoxFrame parses a SpiderMonkey or JavaScriptCore frame,
//
//	handleClick@http://localhost:3000/static/js/main.js:12:34
//	@http://localhost:3000/static/js/main.js:40:3
func (p *traceParser) firefoxFrame(t string) bool {
	at := strings.IndexByte(t, '@')
	if at < 0 || strings.ContainsAny(t, " \t") || !strings.Contains(t[at:], "://") {
		return false
	}
	path, line, col, ok := splitLoc(t[at+1:])
	if !ok || col == 0 {
		return false
	}
	fn := t[:at]
	p.add(jsTrace, false, Frame{
		File:     path,
		Line:     line,
		Column:   col,
		Function: fn,
		Symbol:   jsSymbol(fn),
		Lang:     langOf(path, "javascript"),
		Library:  jsLibrary(path),
	})
	return true
}

// jsSymbol turns a V8 or Firefox function name into a name to look up:
// modifiers ("async", "new"), aliases (" [as x]"), ".prototype",
// Firefox's nesting ("outer/inner/<") and the receivers that name no class
// ("Object.", "exports.") go; anonymous functions have no symbol.
func jsSymbol(fn string) string {
	fn = strings.TrimPrefix(fn, "async ")
	fn = strings.TrimPrefix(fn, "new ")
	fn, _, _ = strings.Cut(fn, " [as ")
	fn = strings.ReplaceAll(fn, ".prototype", "")
	for strings.HasSuffix(fn, "/<") {
		fn = fn[:len(fn)-2]
	}
	if i := strings.LastIndexByte(fn, '/'); i >= 0 {
		fn = fn[i+1:]
	}
	fn = strings.TrimRight(fn, "<*")
	if i := strings.Index(fn, ".<"); i >= 0 {
		fn = fn[:i]
	}
	for _, pre := range []string{"module.exports.", "exports.", "Object."} {
		fn = strings.TrimPrefix(fn, pre)
	}
	if fn == "Object" || !isDottedJSName(fn) {
		return ""
	}
	return fn
}

// isDottedJSName reports whether s is a dotted JavaScript identifier.
func isDottedJSName(s string) bool {
	if s == "" {
		return false
	}
	for part := range strings.SplitSeq(s, ".") {
		if part == "" || isDigit(part[0]) {
			return false
		}
		for i := range len(part) {
			if c := part[i]; !isLetter(c) && !isDigit(c) && c != '_' && c != '$' && c < 0x80 {
				return false
			}
		}
	}
	return true
}

// jsLibrary: installed packages and Node's own modules.
func jsLibrary(path string) bool {
	return strings.Contains(path, "node_modules/") || strings.Contains(path, `node_modules\`) ||
		hasAnyPrefix(path, "node:", "internal/", "<", "native")
}
