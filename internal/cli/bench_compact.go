package cli

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	benchcompact "github.com/winnowhq/winnow/internal/bench/compact"
	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/anthropic"
	"github.com/winnowhq/winnow/internal/chat/openai"
	"github.com/winnowhq/winnow/internal/compact"
	"github.com/winnowhq/winnow/internal/compact/probe"
	"github.com/winnowhq/winnow/internal/compact/traj"
)

// compactVariants are the compactions `winnow bench compact` can measure,
// in report order: the one place a new variant is registered.
func compactVariants() []benchcompact.Variant {
	return append(benchcompact.DefaultVariants(), benchcompact.CompactionVariants(compact.Options{})...)
}

// compactValidator checks compacted bodies for `winnow bench compact`
// with compact.Validate, decoding both bodies with the dialect's codec.
func compactValidator() benchcompact.Validator {
	return func(dialect string, orig, out []byte) ([]string, error) {
		var decode func([]byte) (*chat.Conversation, error)
		switch chat.Dialect(dialect) {
		case chat.OpenAI:
			decode = openai.Decode
		case chat.Anthropic:
			decode = anthropic.Decode
		default:
			return nil, fmt.Errorf("validate: unknown dialect %q", dialect)
		}
		o, err := decode(orig)
		if err != nil {
			return nil, fmt.Errorf("validate: decode the original: %w", err)
		}
		c, err := decode(out)
		if err != nil {
			return nil, fmt.Errorf("validate: decode the compacted body: %w", err)
		}
		var vs []string
		for _, v := range compact.Validate(chat.Dialect(dialect), o, c) {
			vs = append(vs, v.String())
		}
		return vs, nil
	}
}

func (a *app) benchCompactCommand() *cobra.Command {
	var data, only, primary string
	var names []string
	var asJSON, thinking bool
	var limit int
	var openAIRead float64
	cmd := &cobra.Command{
		Use:   "compact --data <dir or file>",
		Short: "Benchmark conversation compaction on recorded trajectories: tokens, cached cost, recall",
		Long: `Compact replays each recorded agent trajectory turn by turn: every
assistant message becomes the request the agent sent for it (all the
messages before it). The requests go through each compaction variant and
are priced with prompt caching, against the raw requests priced the same
way:

  - tokens_sent_ratio: input tokens sent / raw (o200k counts);
  - cached_cost_ratio: Anthropic cost with caching / raw's (reads 0.1×,
    writes 1.25×, a breakpoint at the end of each request, 1024-token
    minimum, turns within the 5-minute TTL); openai_cached_cost_ratio the
    same under OpenAI's automatic prefix caching (reads --openai-read×,
    128-token increments);
  - cache_hit_ratio: cached tokens / tokens sent;
  - violations: invariant violations of the compacted requests, from
    compact.Validate on both bodies decoded by the dialect's codec;
  - recall_probe: the share of file paths and error lines that the agent
    learned from a tool output and used later which are still in the
    request, or recoverable through a winnow:// handle, at every use.

With --thinking, every trajectory is converted to Anthropic messages
with a signed thinking block in every assistant message and replayed
once per thinking family, each with a representative model: last-turn
(claude-sonnet-4-5), keep-all (claude-opus-4-5), preserved
(claude-opus-5-5, compacted by the API's clear_tool_uses edit) and
preserved-client (claude-opus-5-5, client-side batches only). Each
request is priced as the API bills it for that model (earlier thinking
stripped on last-turn models, server edits applied, signatures not
billed), at the model's cache-read price; violations are checked with
compact.ValidateBound. --variant and --primary do not apply.

--data is a trajectory file or a directory of them (OpenAI or Anthropic
message arrays, ADP OpenHands, SWE-smith and nebius records, SWE-agent
.traj). Progress goes to stderr, the report to stdout.`,
		Example: `  winnow bench compact --data internal/compact/traj/testdata/trajectories
  winnow bench compact --data run.traj.json --variant rolling-mask --json
  winnow bench compact --data internal/compact/traj/testdata/trajectories --thinking`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if data == "" {
				return usageError{fmt.Errorf("--data is required")}
			}
			if openAIRead < 0 || openAIRead > 1 {
				return usageError{fmt.Errorf("--openai-read %g: want a multiplier between 0 and 1", openAIRead)}
			}
			if thinking && (len(names) > 0 || primary != "") {
				return usageError{fmt.Errorf("--thinking measures one compaction per model family; --variant and --primary do not apply")}
			}
			variants, err := pickVariants(compactVariants(), names)
			if err != nil {
				return usageError{err}
			}
			ts, err := traj.Load(data)
			if err != nil {
				return err
			}
			ts = filterTrajectories(ts, only, limit)
			if len(ts) == 0 {
				return fmt.Errorf("no trajectory in %s matches --only %q", data, only)
			}
			probeOpts := &probe.Options{Handle: regexp.MustCompile(compact.HandlePattern)}
			if thinking {
				rep, err := benchcompact.RunThinking(cmd.Context(), ts, benchcompact.ThinkingOptions{
					Cases:    benchcompact.ThinkingCases(compact.Options{}),
					Probe:    probeOpts,
					Progress: a.stderr,
				})
				if err != nil {
					return err
				}
				return writeReport(a.stdout, rep, asJSON)
			}
			rep, err := benchcompact.Run(cmd.Context(), ts, benchcompact.Options{
				Variants:   variants,
				Primary:    primary,
				Validate:   compactValidator(),
				OpenAIRead: openAIRead,
				Probe:      probeOpts,
				Progress:   a.stderr,
			})
			if err != nil {
				return err
			}
			return writeReport(a.stdout, rep, asJSON)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&data, "data", "", "a trajectory file or a directory of them")
	fs.BoolVar(&asJSON, "json", false, "print the report as one JSON object")
	fs.BoolVar(&thinking, "thinking", false, "replay with thinking blocks, once per Claude thinking family, priced as the API bills each")
	fs.StringSliceVar(&names, "variant", nil, "measure only this variant (repeatable; default all: "+strings.Join(variantNames(compactVariants()), ", ")+")")
	fs.StringVar(&primary, "primary", "", `the variant whose numbers lead the report (default "combined" if measured, else the first)`)
	fs.Float64Var(&openAIRead, "openai-read", benchcompact.DefaultOpenAIRead, "OpenAI's price of a cached input token, relative to an uncached one")
	fs.StringVar(&only, "only", "", "replay only trajectories whose name contains this")
	fs.IntVar(&limit, "limit", 0, "replay at most this many trajectories")
	return cmd
}

// pickVariants returns the variants named, in the order given; no names
// means all.
func pickVariants(all []benchcompact.Variant, names []string) ([]benchcompact.Variant, error) {
	if len(names) == 0 {
		return all, nil
	}
	var out []benchcompact.Variant
	for _, n := range names {
		i := slices.IndexFunc(all, func(v benchcompact.Variant) bool { return v.Name == n })
		if i < 0 {
			return nil, fmt.Errorf("--variant %s: unknown; have %s", n, strings.Join(variantNames(all), ", "))
		}
		out = append(out, all[i])
	}
	return out, nil
}

func variantNames(vs []benchcompact.Variant) []string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name
	}
	return names
}

func filterTrajectories(ts []traj.Trajectory, only string, limit int) []traj.Trajectory {
	var out []traj.Trajectory
	for _, t := range ts {
		if only != "" && !strings.Contains(t.Name, only) {
			continue
		}
		if limit > 0 && len(out) == limit {
			break
		}
		out = append(out, t)
	}
	return out
}
