package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/symbol"
)

func (a *app) symbolsCommand() *cobra.Command {
	var f indexFlags
	var kinds []string
	var limit int
	var exact, asJSON bool
	cmd := &cobra.Command{
		Use:   "symbols <name>",
		Short: "Find definitions by name: exact, then prefix and fuzzy",
		Long: `Symbols looks a name up in the index: exact matches of the name or of a
qualified name (Class.method, pkg.Func, a::b) first, then the same ignoring
case, then names starting with it, then fuzzy matches (letters in order,
or a typo away). Each match shows its kind, location and signature.

The index is built on first use and refreshed before each lookup.`,
		Example: `  winnow symbols Parser
  winnow symbols Basic.subs --json
  winnow symbols parse --kind function,method --limit 5`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := index.LookupOptions{Limit: limit, Exact: exact}
			for _, k := range kinds {
				kind, ok := symbol.ParseKind(k)
				if !ok || kind == symbol.Unknown {
					return usageError{fmt.Errorf("unknown kind %q; kinds are %s", k, kindList())}
				}
				opts.Kinds = append(opts.Kinds, kind)
			}
			var matches []index.Match
			err := a.withIndex(cmd, &f, ".", func(ix *index.Index) (err error) {
				matches, err = ix.Lookup(cmd.Context(), args[0], opts)
				return err
			})
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.stdout, orEmpty(matches))
			}
			if len(matches) == 0 {
				return fmt.Errorf("no symbol matches %q", args[0])
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			for _, m := range matches {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.Kind, m.Qual, m.Location(), firstLine(m.Signature))
			}
			return tw.Flush()
		},
	}
	f.register(cmd, true)
	fs := cmd.Flags()
	fs.StringSliceVar(&kinds, "kind", nil, "only these kinds (repeatable): "+kindList())
	fs.IntVarP(&limit, "limit", "n", 20, "at most this many matches")
	fs.BoolVar(&exact, "exact", false, "exact matches only (no prefix or fuzzy)")
	fs.BoolVar(&asJSON, "json", false, "print matches as JSON")
	return cmd
}

func kindList() string {
	var names []string
	for _, k := range symbol.Kinds() {
		names = append(names, k.String())
	}
	return strings.Join(names, ", ")
}

func firstLine(s string) string {
	line, rest, _ := strings.Cut(s, "\n")
	if rest != "" {
		return line + " …"
	}
	return line
}

// writeJSON writes v as indented JSON.
func writeJSON(w interface{ Write([]byte) (int, error) }, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// orEmpty makes a nil slice encode as [] rather than null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
