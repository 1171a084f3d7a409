package cli

import "github.com/spf13/cobra"

func (a *app) benchCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Run winnow's benchmarks against their peers",
	}
	return cmd
}
