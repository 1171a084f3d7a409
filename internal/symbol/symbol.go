// Package symbol is the vocabulary of code that the rest of winnow shares:
// a definition (Symbol) with its Kind, Span and Visibility, the identifier
// uses of a file (Ref) and its imports (Import), and the per-file result
// of extraction (File).
//
// It holds data only. Parsing lives in package lang, storage in package
// index. It imports nothing but the standard library.
package symbol

import (
	"fmt"
	"strings"
)

// A Span locates a piece of a file. Lines are 1-based and inclusive;
// bytes are 0-based offsets with an exclusive end.
type Span struct {
	StartLine int `json:"start_line"`
	EndLine   int `json:"end_line"`
	StartByte int `json:"start_byte"`
	EndByte   int `json:"end_byte"`
}

// Contains reports whether o lies within s.
func (s Span) Contains(o Span) bool {
	return s.StartByte <= o.StartByte && o.EndByte <= s.EndByte
}

// Lines returns the number of lines s covers.
func (s Span) Lines() int { return s.EndLine - s.StartLine + 1 }

// A Symbol is one definition in a file.
type Symbol struct {
	Name string `json:"name"`
	// Qual is the name a caller would write to reach the symbol from
	// outside its container: "Class.method", "pkg.Func", "Outer.Inner".
	Qual       string     `json:"qualified_name"`
	Kind       Kind       `json:"kind"`
	Path       string     `json:"path"` // slash-separated, relative to the index root
	Span       Span       `json:"span"`
	Signature  string     `json:"signature,omitempty"` // the header without the body
	Doc        string     `json:"doc,omitempty"`       // docstring or leading comment, markers stripped
	Parent     string     `json:"parent,omitempty"`    // qualified name of the enclosing definition
	Visibility Visibility `json:"visibility"`
}

// Location is the path:line form editors and agents understand.
func (s Symbol) Location() string { return fmt.Sprintf("%s:%d", s.Path, s.Span.StartLine) }

// DocLine returns the first non-empty line of the symbol's doc.
func (s Symbol) DocLine() string {
	for line := range strings.Lines(s.Doc) {
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return ""
}

// A Ref records that a definition (or the file's top level) uses a name.
// Uses are aggregated: one Ref per scope, name and kind, with the line of
// the first use and how many uses there were.
type Ref struct {
	Name string  `json:"name"`
	Kind RefKind `json:"kind"`
	// Scope is the qualified name of the innermost enclosing definition,
	// or "" for the top level of the file.
	Scope string `json:"scope,omitempty"`
	Line  int    `json:"line"`
	Count int    `json:"count"`
}

// An Import is one imported module or name.
type Import struct {
	Module string `json:"module"`          // "os.path", "fmt", "./util"
	Name   string `json:"name,omitempty"`  // the imported name, for from-imports
	Alias  string `json:"alias,omitempty"` // local name, when renamed
	Line   int    `json:"line"`
}

// File is what extraction yields for one source file.
type File struct {
	Path     string   `json:"path"`
	Lang     string   `json:"lang"`
	Package  string   `json:"package,omitempty"` // declared package or namespace, where the language has one
	Symbols  []Symbol `json:"symbols"`
	Refs     []Ref    `json:"refs,omitempty"`
	Imports  []Import `json:"imports,omitempty"`
	HasError bool     `json:"has_error,omitempty"` // the parser met a syntax error; Symbols hold what parsed
}
