package telescope

import (
	"bytes"
	"context"
	"path"
	"strings"
	"sync"

	"github.com/winnowhq/winnow/internal/lang"
	"github.com/winnowhq/winnow/internal/symbol"
)

// A UnitKind is the broad kind of a unit's source, which decides how deterministic
// strategies read it.
type UnitKind string

// The kinds of unit.
const (
	UnitCode UnitKind = "code" // a source file in a language winnow has a grammar for
	UnitDoc  UnitKind = "doc"  // prose: Markdown, reStructuredText, AsciiDoc, plain text
	UnitData UnitKind = "data" // records: CSV, TSV, JSON, JSON Lines, SARIF
)

// docFormats and dataFormats map file extensions to the format recorded as a unit's Lang.
var (
	docFormats = map[string]string{
		".md": "markdown", ".markdown": "markdown", ".mdx": "markdown",
		".rst": "rst", ".txt": "text", ".adoc": "asciidoc", ".asciidoc": "asciidoc", ".org": "org",
	}
	dataFormats = map[string]string{
		".csv": "csv", ".tsv": "tsv", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl",
		".sarif": "json",
	}
	// docNames are extensionless prose files by base name.
	docNames = map[string]bool{"README": true, "LICENSE": true, "CHANGELOG": true, "NOTICE": true,
		"AUTHORS": true, "CONTRIBUTING": true, "SECURITY": true, "COPYING": true}
)

// classify returns the kind and language or format of the file at p (slash-separated); ok
// is false for a file no strategy reads.
func classify(p string) (kind UnitKind, format string, ok bool) {
	if l := lang.ForPath(p); l != nil {
		return UnitCode, l.Name, true
	}
	ext := strings.ToLower(path.Ext(p))
	if f, ok := docFormats[ext]; ok {
		return UnitDoc, f, true
	}
	if f, ok := dataFormats[ext]; ok {
		return UnitData, f, true
	}
	if ext == "" && docNames[strings.ToUpper(path.Base(p))] {
		return UnitDoc, "text", true
	}
	return "", "", false
}

// A Unit is one file of the corpus, read and classified: what an L1 node abstracts.
type Unit struct {
	Path    string   // slash-separated, relative to the root
	Kind    UnitKind // code, doc or data
	Lang    string   // the language (code) or format (doc, data)
	Content []byte
	Hash    string // hex SHA-256 of Content
	// Purpose is the build's --purpose, for strategies that use it; "" when none.
	Purpose string

	symbols SymbolSource
	once    sync.Once
	syms    []symbol.Symbol
	quick   bool // syms came from the index's quick tier (tieredSource)
	symErr  error
	lines   []string
}

// Symbols returns the definitions of a code unit in source order, from the engine's symbol
// source; nil for other units.
func (u *Unit) Symbols(ctx context.Context) ([]symbol.Symbol, error) {
	if u.Kind != UnitCode || u.symbols == nil {
		return nil, nil
	}
	u.once.Do(func() {
		if ts, ok := u.symbols.(tieredSource); ok {
			u.syms, u.quick, u.symErr = ts.tieredSymbols(ctx, u.Path, u.Lang, u.Content)
			return
		}
		u.syms, u.symErr = u.symbols.Symbols(ctx, u.Path, u.Lang, u.Content)
	})
	return u.syms, u.symErr
}

// Lines returns the unit's text split into lines without their newlines. Line n (1-based) is
// Lines()[n-1].
func (u *Unit) Lines() []string {
	if u.lines == nil {
		u.lines = splitLines(u.Content)
	}
	return u.lines
}

// splitLines splits text into lines without their terminators ("\n" or "\r\n"); a final
// newline does not start another line.
func splitLines(b []byte) []string {
	if len(b) == 0 {
		return []string{}
	}
	b = bytes.TrimSuffix(b, []byte("\n"))
	out := strings.Split(string(b), "\n")
	for i, l := range out {
		out[i] = strings.TrimSuffix(l, "\r")
	}
	return out
}
