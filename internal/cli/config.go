package cli

import (
	"fmt"

	"github.com/spf13/cobra"
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
the repository's .winnow.toml. Unknown keys are reported as warnings on stderr.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			root := repo
			if root == "" {
				var err error
				if root, err = findRoot("."); err != nil {
					return err
				}
			}
			cfg, err := a.loadConfig(root)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.stdout, cfg)
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
