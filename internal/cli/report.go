package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/report"
)

// defaultReportFile is where winnow report writes its page unless -o says
// otherwise: the current directory, where the user looks for it.
const defaultReportFile = "winnow-report.html"

func (a *app) reportCommand() *cobra.Command {
	var asJSON, open bool
	var since, file, out string
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Write an HTML page with charts of what the MCP gateway and the LLM proxy saved",
		Long: `Report reads the telemetry file (as winnow stats does) and writes one
self-contained HTML page: the tokens and the dollars saved, over time (by hour
for a day or two of data, by day, by week past six months, by month past four
years), per tool, per gateway layer, per compaction pass, per model and per
client, the prompt-cache hit ratio, and the sessions and conversations that
saved most. The numbers are those of winnow stats; dollars are estimates at
list prices, cache-aware, and a model with no list price is counted apart.

The page loads nothing from the network: its style and its charts (SVG, drawn
by winnow) are inline and need no script. Its size does not grow with the
telemetry: tables list the top entries, and the series has at most 240 steps.

The page goes to winnow-report.html in the current directory unless -o names
another file (-o - writes it to standard output); --open then opens it in the
default browser (xdg-open, or open on macOS). --json prints the data the page
shows instead of writing it.

Telemetry is off unless the configuration says
  [telemetry]
  enabled = true`,
		Example: `  winnow report --open
  winnow report --since 30d -o ~/winnow-month.html
  winnow report --since 7d --json`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			flags := cmd.Flags()
			if asJSON && (open || flags.Changed("out")) {
				return usageError{errors.New("--json prints the report's data instead of writing the page: drop --open and -o, or --json")}
			}
			if open && out == "-" {
				return usageError{errors.New("--open needs a file to open: -o - writes the page to standard output")}
			}
			opts := &report.Options{}
			if since != "" {
				d, err := parseSince(since)
				if err != nil {
					return usageError{err}
				}
				opts.Since = time.Now().Add(-d)
			}
			path := file
			if path == "" {
				var err error
				if path, err = a.telemetryPath(); err != nil {
					return err
				}
			}
			r, err := report.BuildFile(path, opts)
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("no telemetry at %s: the gateway and the proxy record it only when the configuration sets [telemetry] enabled = true (see 'winnow config show')", path)
			}
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.stdout, r)
			}
			return a.writeReport(cmd, r, out, open)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&out, "out", "o", defaultReportFile, "file to write the page to; - for standard output")
	fs.BoolVar(&open, "open", false, "open the page in the default browser")
	fs.BoolVar(&asJSON, "json", false, "print the data the page shows as JSON, instead of writing the page")
	fs.StringVar(&since, "since", "", "only events of this recent period, e.g. 90m, 24h or 7d")
	fs.StringVar(&file, "file", "", "telemetry file to read (default from the configuration)")
	return cmd
}

// writeReport renders r to out ("-": standard output), says where it went,
// and opens it when asked.
func (a *app) writeReport(cmd *cobra.Command, r *report.Report, out string, open bool) error {
	var page bytes.Buffer
	if err := report.Render(&page, r); err != nil {
		return err
	}
	if out == "-" {
		_, err := a.stdout.Write(page.Bytes())
		return err
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if err := os.WriteFile(abs, page.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	events := r.Totals.ToolResults + r.Totals.Requests
	fmt.Fprintf(a.stdout, "wrote %s (%d KB): %d tool results and %d proxy requests", abs, (page.Len()+1023)/1024, r.Totals.ToolResults, r.Totals.Requests)
	if events > 0 {
		fmt.Fprintf(a.stdout, " from %s to %s", r.First.Local().Format(time.DateTime), r.Last.Local().Format(time.DateTime))
	}
	fmt.Fprintln(a.stdout)
	if !open {
		return nil
	}
	opener, err := report.Open(cmd.Context(), abs)
	switch {
	case errors.Is(err, report.ErrNoOpener):
		fmt.Fprintf(a.stdout, "cannot open it here: %s is not installed; open %s in a browser\n", opener, abs)
	case err != nil:
		fmt.Fprintf(a.stderr, "winnow: %v; open %s in a browser\n", err, abs)
	default:
		fmt.Fprintf(a.stdout, "opened it with %s\n", opener)
	}
	return nil
}
