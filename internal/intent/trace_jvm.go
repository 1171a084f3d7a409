package intent

import "strings"

// jvmFrame parses a Java, Kotlin or Scala frame (rest follows "at "),
//
//	com.example.Foo.bar(Foo.java:42)
//	java.base/java.lang.Thread.run(Thread.java:833)
//	com.example.Foo$Inner.lambda$run$0(Foo.kt:7) ~[app.jar:1.0]
//	jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)
//
// JVM traces print the innermost frame first; "Caused by:" blocks follow
// the trace they caused, and the last of them is the root cause.
func (p *traceParser) jvmFrame(rest string) bool {
	open := strings.IndexByte(rest, '(')
	if open <= 0 || strings.ContainsAny(rest[:open], " \t") || !strings.Contains(rest[:open], ".") {
		return false
	}
	end := strings.IndexByte(rest[open:], ')')
	if end < 0 {
		return false
	}
	end += open
	if tail := rest[end+1:]; tail != "" && !strings.HasPrefix(tail, " ~[") && !strings.HasPrefix(tail, " [") {
		return false
	}
	fn, loc := rest[:open], rest[open+1:end]
	file, line := "", 0
	switch {
	case loc == "Native Method", loc == "Unknown Source":
	case strings.HasPrefix(loc, "Unknown Source:"):
		line, _ = atoi(loc[len("Unknown Source:"):])
	default:
		f, n, ok := cutNumber(loc)
		if ok {
			file, line = f, n
		} else {
			file = loc
		}
		if file == "" || strings.ContainsAny(file, " \t(") || !strings.Contains(file, ".") {
			return false
		}
	}
	if p.cur < 0 || p.blocks[p.cur].format != jvmTrace {
		p.startBlock(jvmTrace, false)
		p.chain = p.cur
		p.blocks[p.cur].chain = p.chain
	}
	p.add(jvmTrace, false, Frame{
		File:     file,
		Line:     line,
		Function: fn,
		Symbol:   jvmSymbol(fn),
		Lang:     langOf(file, "java"),
		Library:  loc == "Native Method" || jvmLibrary(fn),
	})
	return true
}

// causedBy opens the block of a "Caused by:" exception in the chain being
// read (a new chain if none is).
func (p *traceParser) causedBy() {
	p.startBlock(jvmTrace, false)
	if p.chain < 0 {
		p.chain = p.cur
	}
	p.blocks[p.cur].chain = p.chain
}

// jvmSymbol turns "com.example.Cache$Entry.lambda$get$0" into
// "Cache.Entry.get": the package and module prefix go, nested classes join
// with dots, anonymous classes ($1) and synthetic names go, a constructor
// (<init>) is named for its class as the index names it ("Cache.Cache"),
// and a static initializer (<clinit>) gives the class.
func jvmSymbol(fn string) string {
	if i := strings.LastIndexByte(fn, '/'); i >= 0 {
		fn = fn[i+1:]
	}
	dot := strings.LastIndexByte(fn, '.')
	if dot < 0 {
		return ""
	}
	class, method := fn[:dot], fn[dot+1:]
	class = class[strings.LastIndexByte(class, '.')+1:]
	var parts []string
	for seg := range strings.SplitSeq(class, "$") {
		if isIdent(seg) && !strings.HasPrefix(seg, "Lambda") && !strings.HasPrefix(seg, "lambda") {
			parts = append(parts, seg)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	switch {
	case method == "<init>":
		method = parts[len(parts)-1]
	case method == "<clinit>":
		method = ""
	case strings.HasPrefix(method, "lambda$"):
		// javac names a lambda lambda$<enclosing method>$<n>.
		method, _, _ = strings.Cut(method[len("lambda$"):], "$")
	case strings.HasPrefix(method, "access$"):
		method = ""
	default:
		method, _, _ = strings.Cut(method, "$") // Kotlin's foo$default
	}
	if method != "" {
		parts = append(parts, method)
	}
	return strings.Join(parts, ".")
}

// jvmPlatform are the package prefixes of the JDK, the Kotlin and Scala
// standard libraries and the common test runners and build tools.
var jvmPlatform = []string{
	"java.", "javax.", "jdk.", "sun.", "com.sun.",
	"kotlin.", "kotlinx.", "scala.",
	"org.junit.", "junit.", "org.gradle.", "worker.org.gradle.", "org.apache.maven.",
}

func jvmLibrary(fn string) bool {
	if i := strings.LastIndexByte(fn, '/'); i >= 0 {
		if hasAnyPrefix(fn, "java.", "jdk.") { // a JDK module: java.base/…
			return true
		}
		fn = fn[i+1:]
	}
	return hasAnyPrefix(fn, jvmPlatform...)
}

// dotnetFrame parses a .NET frame that has a file (rest follows "at "),
//
//	MyApp.Services.Parser.ParseHeader(String line) in /src/MyApp/Services/Parser.cs:line 42
//
// .NET traces print the innermost frame first.
func (p *traceParser) dotnetFrame(rest string) bool {
	in := strings.LastIndex(rest, " in ")
	if in < 0 {
		return false
	}
	loc := rest[in+len(" in "):]
	i := strings.LastIndex(loc, ":line ")
	if i <= 0 {
		return false
	}
	line, ok := atoi(loc[i+len(":line "):])
	if !ok {
		return false
	}
	file := loc[:i]
	fn := rest[:in]
	if open := strings.IndexByte(fn, '('); open > 0 {
		fn = fn[:open]
	}
	if fn == "" || strings.ContainsAny(fn, " \t") {
		return false
	}
	p.add(dotnetTrace, false, Frame{
		File:     file,
		Line:     line,
		Function: fn,
		Symbol:   dotnetSymbol(fn),
		Lang:     langOf(file, "csharp"),
		Library:  hasAnyPrefix(fn, "System.", "Microsoft."),
	})
	return true
}

// dotnetSymbol keeps the class and method: "MyApp.Services.Parser.Parse"
// gives "Parser.Parse", and an async state machine
// ("MyApp.Parser.<LoadAsync>d__4.MoveNext") gives "Parser.LoadAsync".
func dotnetSymbol(fn string) string {
	if i := strings.IndexByte(fn, '<'); i > 0 {
		if j := strings.IndexByte(fn[i:], '>'); j > 1 {
			fn = fn[:i] + fn[i+1:i+j]
		}
	}
	fn, _, _ = strings.Cut(fn, "`") // generic arity: List`1
	parts := strings.Split(fn, ".")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	if !isIdent(parts[len(parts)-1]) {
		return ""
	}
	return strings.Join(parts, ".")
}
