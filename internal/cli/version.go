package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print winnow's version",
		Args:  exactArgs(0),
		Run: func(cmd *cobra.Command, args []string) {
			fmt.Fprintf(a.stdout, "winnow %s\n", version())
		},
	}
}

// version is the module version winnow was built as, or "devel".
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Version == "" || bi.Main.Version == "(devel)" {
		return "devel"
	}
	return bi.Main.Version
}
