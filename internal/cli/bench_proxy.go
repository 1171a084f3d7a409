package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	benchproxy "github.com/winnowhq/winnow/internal/bench/proxy"
	"github.com/winnowhq/winnow/internal/compact"
	"github.com/winnowhq/winnow/internal/llmproxy"
)

func (a *app) benchProxyCommand() *cobra.Command {
	var opts benchproxy.Options
	var asJSON, compaction bool
	cmd := &cobra.Command{
		Use:   "proxy",
		Short: "Benchmark the LLM API proxy against calling the API directly",
		Long: `Proxy runs an in-process fake Anthropic API and 'winnow proxy' in front of
it, both on loopback, and measures side by side, interleaved:

  - a POST /v1/messages with a ~1 MiB coding-agent body, direct and through
    the proxy (target: p50 overhead <= 2 ms);
  - the time to the first byte of a streaming response (target: p50
    overhead <= 1 ms);
  - --streaming concurrent streams through the proxy, all open at once
    (target: every one complete, no error).

It prints p50/p95 of each path, the overheads and ratios, and the machine's
load. Nothing leaves the machine; no API key is needed.`,
		Example: `  winnow bench proxy
  winnow bench proxy --requests 500 --json`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			for name, v := range map[string]int{"requests": opts.Requests, "streams": opts.Streams,
				"streaming": opts.Streaming, "body-bytes": opts.BodyBytes, "warmup": opts.Warmup} {
				if v < 1 {
					return usageError{fmt.Errorf("--%s %d: must be at least 1", name, v)}
				}
			}
			opts.Progress = a.stderr
			if compaction {
				opts.Rewriter = llmproxy.Compaction(compact.New(compact.Options{}))
			}
			rep, err := benchproxy.Run(cmd.Context(), opts)
			if err != nil {
				return err
			}
			return writeReport(a.stdout, rep, asJSON)
		},
	}
	fs := cmd.Flags()
	fs.IntVar(&opts.Requests, "requests", 200, "timed requests per path for the request overhead")
	fs.IntVar(&opts.Streams, "streams", 200, "timed streaming requests per path for the time to first byte")
	fs.IntVar(&opts.Streaming, "streaming", 200, "concurrent streams in the concurrency check")
	fs.IntVar(&opts.BodyBytes, "body-bytes", 1<<20, "request body size for the request overhead")
	fs.IntVar(&opts.Warmup, "warmup", 20, "untimed requests per path before timing")
	fs.BoolVar(&asJSON, "json", false, "print the report as JSON, durations in milliseconds")
	fs.BoolVar(&compaction, "compact", false, "compact request bodies in the proxy, as winnow proxy does by default (measures decode, compaction and encode too)")
	return cmd
}
