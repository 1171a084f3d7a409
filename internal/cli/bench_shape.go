package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	benchshape "github.com/winnowhq/winnow/internal/bench/shape"
	"github.com/winnowhq/winnow/internal/shape/shapetest"
	"github.com/winnowhq/winnow/internal/tokens"
)

func (a *app) benchShapeCommand() *cobra.Command {
	var opts benchshape.Options
	var asJSON, noToon bool
	var toon benchshape.Toon
	var encoding string
	cmd := &cobra.Command{
		Use:   "shape [flags] [file.json]...",
		Short: "Count the tokens of winnow's response encodings against compact JSON and TOON",
		Long: `Shape counts the tokens of tool responses in four forms: pretty JSON as a
server sends it, compact JSON, winnow's lossless encoding (what the gateway
sends the agent) and TOON, and checks that winnow's encoding decodes back
to the same JSON (values, key order, number text).

The documents are the devboy fixtures (real GitHub and GitLab tool
responses), generated GitHub- and GitLab-like arrays of --sizes objects,
and the JSON files given as arguments. Ratios are against compact JSON;
the target is at least 25% fewer tokens on arrays of objects, every round
trip exact.

TOON runs through node from the npm package @toon-format/toon, found in
--toon-dir (a node_modules directory) or NODE_PATH; without it the report
says "toon: not available" and why. Install it outside the repository:

  mkdir -p /tmp/toon && cd /tmp/toon && npm i @toon-format/toon@4.4.0`,
		Example: `  winnow bench shape --toon-dir /tmp/toon/node_modules
  winnow bench shape --sizes 10,100 --json response.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			enc, err := tokens.ParseEncoding(encoding)
			if err != nil {
				return usageError{err}
			}
			opts.Encoding = enc
			for _, n := range opts.Sizes {
				if n < 1 {
					return usageError{fmt.Errorf("--sizes: %d is not a positive size", n)}
				}
			}
			for _, path := range args {
				b, err := os.ReadFile(path)
				if err != nil {
					return fmt.Errorf("read document: %w", err)
				}
				opts.Docs = append(opts.Docs, shapetest.Doc{Name: filepath.Base(path), Text: string(b)})
			}
			if !noToon {
				opts.Toon = &toon
			}
			rep, err := benchshape.Run(cmd.Context(), opts)
			if err != nil {
				return err
			}
			return writeReport(a.stdout, rep, asJSON)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&asJSON, "json", false, "print the report as one JSON object")
	fs.IntSliceVar(&opts.Sizes, "sizes", benchshape.DefaultSizes, "lengths of the generated arrays")
	fs.Uint64Var(&opts.Seed, "seed", 1, "seed of the generated arrays")
	fs.StringVar(&encoding, "encoding", string(tokens.O200k), "token encoding to count with (o200k_base or cl100k_base)")
	fs.StringSliceVar(&toon.Dirs, "toon-dir", nil, "node_modules directory holding @toon-format/toon (repeatable; NODE_PATH is searched after)")
	fs.StringVar(&toon.Node, "node", "node", "the node program that runs TOON")
	fs.BoolVar(&noToon, "no-toon", false, "leave TOON out")
	return cmd
}
