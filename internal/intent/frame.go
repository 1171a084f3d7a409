package intent

import "strings"

// A Frame is one stack frame found in a task text: a place in the code that
// a trace says was running when something went wrong.
type Frame struct {
	// File is the path as the trace wrote it: absolute, relative, a URL or
	// a bare file name (Java). Empty when the trace gives no file ("Native
	// Method"). PathSuffixes turns it into candidate repository paths.
	File string `json:"file,omitempty"`
	// Line is 1-based; 0 when the trace gives no line.
	Line int `json:"line,omitempty"`
	// Column is 1-based; 0 when the trace gives none (only JavaScript and
	// Rust traces do).
	Column int `json:"column,omitempty"`
	// Function is the function as the trace wrote it, without arguments:
	// "main.(*Server).Serve", "com.example.Foo.bar", "async handler".
	// Empty for module-level Python code and anonymous JavaScript.
	Function string `json:"function,omitempty"`
	// Symbol is Function in the form the index uses for qualified names,
	// for symbol lookup: "main.Server.Serve" (Go keeps the package name),
	// "Foo.bar" (Java, C#, JavaScript and Rust drop packages, modules and
	// namespaces), "parse_header" (Python). Empty when there is nothing to
	// look up (anonymous functions, lambdas, module-level code).
	Symbol string `json:"symbol,omitempty"`
	// Lang is the language of the frame, as package lang names languages:
	// "python", "javascript", "typescript", "java", "kotlin", "scala",
	// "go", "rust", "csharp".
	Lang string `json:"lang"`
	// Library reports that the frame is in code the project does not own:
	// site-packages, node_modules, the Go root and module cache, the JDK,
	// the Rust standard library. Detect lists project frames first and
	// leaves the choice of dropping library frames to the caller.
	Library bool `json:"library,omitempty"`
}

// PathSuffixes returns the candidate repository-relative paths of f.File,
// longest first: "/home/u/proj/sympy/core/basic.py" gives
// "home/u/proj/sympy/core/basic.py", …, "sympy/core/basic.py",
// "core/basic.py", "basic.py". The caller keeps the longest one its index
// knows.
//
// Before splitting, backslashes become slashes; a URL loses its scheme and
// host ("webpack:///./src/a.js", "http://host:3000/static/a.js"), its query
// and fragment; a Windows drive letter and leading "./" are dropped; and
// everything up to the last site-packages/, dist-packages/, node_modules/
// or Go module version ("@v1.2.3/") goes, since what follows is a path
// inside that package. Pseudo-files such as "<stdin>" have no suffixes.
func (f Frame) PathSuffixes() []string {
	p := cleanPath(f.File)
	if p == "" {
		return nil
	}
	var out []string
	for {
		out = append(out, p)
		i := strings.IndexByte(p, '/')
		if i < 0 {
			return out
		}
		p = p[i+1:]
	}
}

// packageRoots end the part of a path that belongs to an installation
// rather than to a package.
var packageRoots = []string{"site-packages/", "dist-packages/", "node_modules/"}

func cleanPath(p string) string {
	if p == "" || p[0] == '<' {
		return ""
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if i := strings.Index(p, "://"); i >= 0 {
		p = p[i+3:]
		if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, ".") {
			// A host: "localhost:3000/static/a.js".
			_, p, _ = strings.Cut(p, "/")
		}
	}
	p, _, _ = strings.Cut(p, "?")
	p, _, _ = strings.Cut(p, "#")
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) {
		p = p[2:]
	}
	for _, root := range packageRoots {
		if i := strings.LastIndex(p, root); i >= 0 {
			p = p[i+len(root):]
		}
	}
	if i := strings.LastIndex(p, "@v"); i >= 0 {
		if j := strings.IndexByte(p[i:], '/'); j >= 0 {
			p = p[i+j+1:]
		}
	}
	for {
		switch {
		case strings.HasPrefix(p, "./"):
			p = p[2:]
		case strings.HasPrefix(p, "/"):
			p = p[1:]
		default:
			return p
		}
	}
}

func isLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }
func isDigit(b byte) bool  { return b >= '0' && b <= '9' }

// extLang maps a file extension to the name package lang gives its
// language.
var extLang = map[string]string{
	".py": "python", ".pyx": "python", ".pyi": "python",
	".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
	".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
	".java": "java", ".kt": "kotlin", ".kts": "kotlin", ".scala": "scala", ".groovy": "groovy",
	".go": "go", ".rs": "rust", ".cs": "csharp", ".fs": "fsharp", ".vb": "vb",
}

// langOf returns the language of file by its extension, or fallback.
func langOf(file, fallback string) string {
	file, _, _ = strings.Cut(file, "?")
	if i := strings.LastIndexByte(file, '.'); i >= 0 && !strings.ContainsAny(file[i:], `/\`) {
		if l, ok := extLang[strings.ToLower(file[i:])]; ok {
			return l
		}
	}
	return fallback
}
