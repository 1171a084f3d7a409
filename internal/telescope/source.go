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
	syms, _, err := s.tieredSymbols(ctx, path, language, content)
	return syms, err
}

// A tieredSource is a SymbolSource that also says which files' definitions the index's
// fast scanner read (its quick tier) rather than a parse. A unit abstracted from them has an
// id of its own, so that the build on the complete index abstracts it again.
type tieredSource interface {
	tieredSymbols(ctx context.Context, path, language string, content []byte) (syms []symbol.Symbol, quick bool, err error)
	// quickFiles lists the paths whose definitions are the quick tier's.
	quickFiles(ctx context.Context) (map[string]bool, error)
}

// quickFiles lists the indexed files at the quick tier.
func (s IndexSymbols) quickFiles(ctx context.Context) (map[string]bool, error) {
	files, err := s.Index.Files(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("list the index's files: %w", err)
	}
	out := make(map[string]bool)
	for _, f := range files {
		if f.Skip == "" && f.Tier < index.TierFull {
			out[f.Path] = true
		}
	}
	return out, nil
}

// tieredSymbols is Symbols, saying whether the definitions are the quick tier's.
func (s IndexSymbols) tieredSymbols(ctx context.Context, path, language string, content []byte) ([]symbol.Symbol, bool, error) {
	files, err := s.Index.Files(ctx, path)
	if err != nil {
		return nil, false, fmt.Errorf("symbols of %s: %w", path, err)
	}
	for _, f := range files {
		if f.Path != path || f.Skip != "" || f.Size != int64(len(content)) {
			continue
		}
		syms, err := s.Index.FileSymbols(ctx, path)
		if err != nil {
			return nil, false, fmt.Errorf("symbols of %s: %w", path, err)
		}
		if fits(syms, content) {
			return syms, f.Tier < index.TierFull, nil
		}
	}
	syms, err := ParseSymbols{}.Symbols(ctx, path, language, content)
	return syms, false, err
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
