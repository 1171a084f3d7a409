package telescope

import (
	"context"
	"fmt"
	"strings"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/lang"
	"github.com/winnowhq/winnow/internal/symbol"
)

// A SymbolSource gives the definitions of a source file whose bytes are content. It must be
// safe for concurrent use.
type SymbolSource interface {
	Symbols(ctx context.Context, path, language string, content []byte) ([]symbol.Symbol, error)
}

// IndexSymbols reads definitions from the repository's code index, and parses a file itself
// when the index does not match the bytes being abstracted (a file changed since the index
// was updated, or one the index skipped): an abstract is cached under the hash of those
// bytes, so it must describe them and nothing else.
type IndexSymbols struct {
	Index *index.Index // open while the IndexSymbols is used
}

// Symbols returns the indexed definitions of path if they fit content, else parses content.
func (s IndexSymbols) Symbols(ctx context.Context, path, language string, content []byte) ([]symbol.Symbol, error) {
	files, err := s.Index.Files(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("symbols of %s: %w", path, err)
	}
	for _, f := range files {
		if f.Path != path || f.Skip != "" || f.Size != int64(len(content)) {
			continue
		}
		syms, err := s.Index.FileSymbols(ctx, path)
		if err != nil {
			return nil, fmt.Errorf("symbols of %s: %w", path, err)
		}
		if fits(syms, content) {
			return syms, nil
		}
	}
	return ParseSymbols{}.Symbols(ctx, path, language, content)
}

// fits reports whether every definition's span lies in content and its text there names it:
// the index was built from these bytes, or from bytes indistinguishable from them here.
func fits(syms []symbol.Symbol, content []byte) bool {
	for _, s := range syms {
		sp := s.Span
		if sp.StartByte < 0 || sp.EndByte > len(content) || sp.StartByte > sp.EndByte {
			return false
		}
		if s.Name != "" && !strings.Contains(string(content[sp.StartByte:sp.EndByte]), s.Name) {
			return false
		}
	}
	return true
}

// ParseSymbols parses each file with tree-sitter, without an index.
type ParseSymbols struct{}

// Symbols parses content as language.
func (ParseSymbols) Symbols(ctx context.Context, path, language string, content []byte) ([]symbol.Symbol, error) {
	l := lang.ByName(language)
	if l == nil {
		return nil, fmt.Errorf("symbols of %s: no grammar for %q", path, language)
	}
	p := lang.NewParser()
	defer p.Close()
	f, err := p.Parse(ctx, l, path, content)
	if err != nil {
		return nil, fmt.Errorf("symbols of %s: %w", path, err)
	}
	return f.Symbols, nil
}
