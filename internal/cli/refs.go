package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/index"
)

func (a *app) refsCommand() *cobra.Command {
	var f indexFlags
	var limit int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "refs <name>",
		Short: "List where a name is used: calls, type uses, member accesses",
		Long: `Refs lists the uses of a name across the index, one line per definition
that uses it (or per file, for top-level uses), with the line of the first use
and the number of uses. Calls, type uses and member accesses come before plain
identifier uses. Matching is by name: it does not resolve which definition a
use refers to.`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var refs []index.Reference
			err := a.withIndex(cmd, &f, ".", func(ix *index.Index) (err error) {
				refs, err = ix.References(cmd.Context(), args[0], limit)
				return err
			})
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.stdout, orEmpty(refs))
			}
			if len(refs) == 0 {
				return fmt.Errorf("no uses of %q in the index", args[0])
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			for _, r := range refs {
				scope := r.Scope
				if scope == "" {
					scope = "(top level)"
				}
				fmt.Fprintf(tw, "%s:%d\t%s\t%s\t×%d\n", r.Path, r.Line, r.Kind, scope, r.Count)
			}
			return tw.Flush()
		},
	}
	f.register(cmd, true)
	cmd.Flags().IntVarP(&limit, "limit", "n", 100, "at most this many lines")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print uses as JSON")
	return cmd
}
