package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/config"
)

func (a *app) configCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Inspect winnow's configuration",
	}
	var repo string
	var asJSON bool
	show := &cobra.Command{
		Use:   "show",
		Short: "Print the effective configuration and the files it came from",
		Long: `Show prints the configuration winnow would use here: the defaults, overridden
by the user file ($WINNOW_CONFIG or ~/.config/winnow/config.toml), overridden by
the repository's .winnow.toml. Unknown keys are reported as warnings on stderr.

Some settings are the user's alone: a repository's .winnow.toml cannot make
them, since a cloned repository must not run programs, send keys or code
anywhere, or have winnow write outside it. They are
  ` + strings.Join(config.UserOnly(), ", ") + `
(a table standing for every key in it, "*" for every tool table), except that
a repository may set index.location = "repo", its own .winnow/ directory,
speculate = false, and a side_effect that is never run ahead. Where
.winnow.toml sets one, it is left out, not checked and not shown here, with a
warning naming the file, line and key. With --json the warnings are listed in "warnings".`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			root := repo
			if root == "" {
				var err error
				if root, err = findRoot("."); err != nil {
					return err
				}
			}
			cfg, warns, err := a.loadConfigWarnings(root)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.stdout, struct {
					*config.Config
					Warnings []config.Warning `json:"warnings"`
				}{cfg, orEmpty(warns)})
			}
			if len(cfg.Sources) == 0 {
				fmt.Fprintln(a.stdout, "# no configuration files; defaults only")
			}
			for _, s := range cfg.Sources {
				fmt.Fprintf(a.stdout, "# from %s\n", s)
			}
			return cfg.WriteTOML(a.stdout)
		},
	}
	show.Flags().StringVar(&repo, "repo", "", "repository whose .winnow.toml applies (default: found from the current directory)")
	show.Flags().BoolVar(&asJSON, "json", false, "print the configuration as JSON")
	cmd.AddCommand(show)
	return cmd
}
