package mcpserver

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/symbol"
)

const toolOutline = "outline"

//go:embed tools/outline.md
var outlineDoc string

// outlineArgs are the arguments of the outline tool.
type outlineArgs struct {
	Path string `json:"path" jsonschema:"a file or directory, relative to the repository root; \".\" for the whole repository"`
}

func (s *Server) addOutline() {
	add(s, tool[outlineArgs]{
		name:    toolOutline,
		title:   "Outline a file or directory",
		doc:     outlineDoc,
		example: `{"path": "src/cache/store.py"}`,
		more:    "Outline a subdirectory or a single file to see the rest.",
		run:     s.outline,
	})
}

func (s *Server) outline(ctx context.Context, in outlineArgs) (string, error) {
	p, err := resolvePath(s.ix.Root(), in.Path)
	if err != nil {
		return "", err
	}
	files, err := s.ix.Files(ctx, p.rel)
	if err != nil {
		return "", err
	}
	if len(files) == 0 {
		if p.isDir {
			return "", fixable("no indexed source files under %q: winnow indexes source code in the languages it has grammars for, and skips vendored and generated files. Outline \".\" to see what is indexed", in.Path)
		}
		return "", fixable("%q is not indexed: winnow has no grammar for it, or skipped it (vendored, generated, too large). Read the file directly instead", in.Path)
	}
	// Render until well past the cap: the limiter cuts the answer and
	// says how much there was, and a huge tree is not rendered in full.
	maxBytes := s.limit.max * maxBytesPerToken
	var body strings.Builder
	shown, defs := 0, 0
	for _, fi := range files {
		if body.Len() > maxBytes {
			break
		}
		syms, err := s.ix.FileSymbols(ctx, fi.Path)
		if err != nil {
			return "", err
		}
		writeFileOutline(&body, fi, syms)
		shown++
		defs += len(syms)
	}
	var b strings.Builder
	if p.isDir {
		where := p.rel
		if where == "." {
			where = "the repository"
		}
		fmt.Fprintf(&b, "Outline of %s: %d indexed %s", where, len(files), plural(len(files), "file", "files"))
		if shown < len(files) {
			fmt.Fprintf(&b, " (the first %d shown)", shown)
		}
		b.WriteString("; each definition's line, signature and first doc line, nested as in the source, without bodies.\n\n")
	} else {
		fmt.Fprintf(&b, "Outline of %s: %d %s; each one's line, signature and first doc line, without bodies.\n\n", p.rel, defs, plural(defs, "definition", "definitions"))
	}
	b.WriteString(body.String())
	if shown < len(files) {
		fmt.Fprintf(&b, "\n(%d more files under %s not shown: outline a subdirectory.)\n", len(files)-shown, p.rel)
	}
	return b.String(), nil
}

// writeFileOutline writes one file: a header line, then each definition
// indented by its nesting, with its line, signature and first doc line.
func writeFileOutline(b *strings.Builder, fi index.FileInfo, syms []symbol.Symbol) {
	fmt.Fprintf(b, "%s (%s)\n", fi.Path, fi.Lang)
	switch {
	case fi.Skip != "":
		fmt.Fprintf(b, "  (not parsed: %s)\n", fi.Skip)
		return
	case len(syms) == 0:
		b.WriteString("  (no definitions)\n")
		return
	}
	depth := make(map[string]int, len(syms))
	for _, s := range syms {
		d := 0
		if pd, ok := depth[s.Parent]; ok && s.Parent != "" {
			d = pd + 1
		}
		if _, seen := depth[s.Qual]; !seen {
			depth[s.Qual] = d
		}
		indent := strings.Repeat("  ", d)
		sig := strings.TrimSpace(s.Signature)
		if sig == "" {
			sig = s.Kind.String() + " " + s.Name
		}
		lines := strings.Split(sig, "\n")
		fmt.Fprintf(b, "%5d  %s%s\n", s.Span.StartLine, indent, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(b, "       %s  %s\n", indent, strings.TrimSpace(l))
		}
		if doc := s.DocLine(); doc != "" {
			fmt.Fprintf(b, "       %s  doc: %s\n", indent, doc)
		}
	}
}
