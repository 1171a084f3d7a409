package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/symbol"
)

func (a *app) outlineCommand() *cobra.Command {
	var f indexFlags
	var doc string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "outline <file|dir>",
		Short: "Show the skeleton of a file or directory: signatures and docs, no bodies",
		Long: `Outline prints every definition of a file (or of every file under a
directory) in source order, nested as in the source, with its line, its
signature and its doc comment or docstring, and none of its body.`,
		Example: `  winnow outline internal/index/index.go
  winnow outline sympy/core --doc none
  winnow outline src/parser.ts --json`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if doc != "first" && doc != "full" && doc != "none" {
				return usageError{fmt.Errorf("--doc %q: must be first, full or none", doc)}
			}
			target, err := filepath.Abs(args[0])
			if err != nil {
				return err
			}
			dir, isDir, err := statDir(target)
			if err != nil {
				return err
			}
			var files []fileOutline
			err = a.withIndex(cmd, &f, dir, func(ix *index.Index) (err error) {
				files, err = outlineFiles(cmd, ix, target, isDir)
				return err
			})
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.stdout, orEmpty(files))
			}
			if len(files) == 0 {
				return fmt.Errorf("no indexed files under %s", args[0])
			}
			for i, fo := range files {
				if i > 0 {
					fmt.Fprintln(a.stdout)
				}
				printOutline(a.stdout, fo, doc)
			}
			return nil
		},
	}
	f.register(cmd, true)
	cmd.Flags().StringVar(&doc, "doc", "first", "docs to show: first (line), full, none")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the outline as JSON")
	return cmd
}

type fileOutline struct {
	Path    string          `json:"path"`
	Lang    string          `json:"lang"`
	Skipped index.Reason    `json:"skipped,omitempty"`
	Symbols []symbol.Symbol `json:"symbols"`
}

func outlineFiles(cmd *cobra.Command, ix *index.Index, target string, isDir bool) ([]fileOutline, error) {
	ctx := cmd.Context()
	files, err := ix.Files(ctx, target)
	if err != nil {
		return nil, err
	}
	if !isDir && len(files) == 0 {
		return nil, fmt.Errorf("%s is not indexed (no grammar for it, or skipped by path; see 'winnow index --help')", target)
	}
	out := make([]fileOutline, 0, len(files))
	for _, fi := range files {
		syms, err := ix.FileSymbols(ctx, fi.Path)
		if err != nil {
			return nil, err
		}
		out = append(out, fileOutline{Path: fi.Path, Lang: fi.Lang, Skipped: fi.Skip, Symbols: orEmpty(syms)})
	}
	return out, nil
}

// printOutline prints one file: a header, then each definition at its
// nesting depth with its line, signature and doc.
func printOutline(w io.Writer, fo fileOutline, doc string) {
	fmt.Fprintf(w, "%s\n", fo.Path)
	if fo.Skipped != "" {
		fmt.Fprintf(w, "  (skipped: %s)\n", fo.Skipped)
		return
	}
	depth := make(map[string]int, len(fo.Symbols))
	for _, s := range fo.Symbols {
		d := 0
		if pd, ok := depth[s.Parent]; ok && s.Parent != "" {
			d = pd + 1
		}
		if _, seen := depth[s.Qual]; !seen {
			depth[s.Qual] = d
		}
		indent := strings.Repeat("  ", d+1)
		sig := s.Signature
		if sig == "" {
			sig = s.Kind.String() + " " + s.Name
		}
		lines := strings.Split(sig, "\n")
		fmt.Fprintf(w, "%5d %s%s\n", s.Span.StartLine, indent, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(w, "      %s%s\n", indent, strings.TrimLeft(l, " \t"))
		}
		var docText string
		switch doc {
		case "first":
			docText = s.DocLine()
		case "full":
			docText = s.Doc
		}
		for _, l := range strings.Split(docText, "\n") {
			if docText != "" {
				fmt.Fprintf(w, "      %s  %s\n", indent, l)
			}
		}
	}
}
