package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/telemetry"
)

func (a *app) statsCommand() *cobra.Command {
	var asJSON bool
	var since, file string
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Report the tokens the MCP gateway and the LLM proxy saved, and how well the planner did, from their telemetry",
		Long: `Stats reads the telemetry file and reports, for the MCP gateway, how many
tool results passed through it, the tokens the upstream servers returned (the
baseline, counted with o200k) and the tokens the agent received, and splits
the saving into deduplication, lossless re-encoding and trimming.

When the gateway's planner ran, it reports how well it did, overall and per
tool. A candidate the planner fetched ahead (prefetch) or appended to a result
(inline) is used when the agent calls it itself, with the same key, within
its next 3 calls in the same session: the prefetch hit rate is the share of
prefetches used. The decline recall loss is the share of declined candidates
the agent then called within 3 calls; the cost overrun rate the share of
predicted results that reached 130% of the prediction. Calls saved counts the
agent's calls the upstream did not answer, by what did (an inline, a
prefetch, dedup, fail-fast), with the tokens each saved.

For the LLM proxy (winnow proxy) it reports the requests it could rewrite,
their tokens before and after compaction (o200k) and the ratio, the saving by
compaction pass and by the API's own server-side edits, what the upstreams
billed (input, cache writes, cache reads, output), and what that cost and
saved in dollars at each provider's list prices, cache-aware: the tokens
compaction removed are priced at the mix of cache reads, writes and full-price
input the request was billed at. A model with no list price is reported as
unpriced. It splits all of this by model and by client (Claude Code, Codex,
the Anthropic and OpenAI SDKs).

Telemetry is off unless the configuration says
  [telemetry]
  enabled = true
and is kept in telemetry.jsonl in the cache directory unless telemetry.path
says otherwise, in the user's configuration file (a repository's .winnow.toml
cannot set them). It holds no response text, no argument values and no text of
the conversations the proxy forwards.`,
		Example: `  winnow stats
  winnow stats --since 24h
  winnow stats --since 7d --json`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, from, err := a.telemetryRange(file, since)
			if err != nil {
				return err
			}
			s, err := telemetry.SummarizeFile(path, from)
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("no telemetry at %s: the gateway and the proxy record it only when the configuration sets [telemetry] enabled = true (see 'winnow config show')", path)
			}
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.stdout, s)
			}
			return s.WriteText(a.stdout)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&asJSON, "json", false, "print the summary as JSON")
	fs.StringVar(&since, "since", "", "only results of this recent period, e.g. 90m, 24h or 7d")
	fs.StringVar(&file, "file", "", "telemetry file to read (default from the configuration)")
	return cmd
}

// telemetryPath returns the telemetry file the user's configuration names.
// [telemetry] and index.cache_dir are user-only settings, which no
// repository's .winnow.toml can make, so the user file is all there is to
// read: the file the gateway and the proxy write.
func (a *app) telemetryPath() (string, error) {
	cfg, err := a.loadConfig("")
	if err != nil {
		return "", err
	}
	return cfg.TelemetryPath()
}

// parseSince reads a positive duration: time.ParseDuration's units, or a
// whole number of days ("7d").
func parseSince(s string) (time.Duration, error) {
	var d time.Duration
	var err error
	if days, ok := strings.CutSuffix(s, "d"); ok {
		var n int
		n, err = strconv.Atoi(days)
		d = time.Duration(n) * 24 * time.Hour
	} else {
		d, err = time.ParseDuration(s)
	}
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("--since %q: want a positive duration such as 90m, 24h or 7d", s)
	}
	return d, nil
}

// telemetryRange returns the telemetry file to read, file or the configured one, and the
// time from which to read it: since (24h, 7d) ago, or the beginning.
func (a *app) telemetryRange(file, since string) (path string, from time.Time, err error) {
	if since != "" {
		d, err := parseSince(since)
		if err != nil {
			return "", time.Time{}, usageError{err}
		}
		from = time.Now().Add(-d)
	}
	if file != "" {
		return file, from, nil
	}
	path, err = a.telemetryPath()
	return path, from, err
}
