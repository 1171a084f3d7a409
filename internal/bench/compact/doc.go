// Package compact is the conversation-compaction benchmark behind
// `winnow bench compact`: it replays recorded agent trajectories request
// by request, raw and through each compaction variant, and reports what
// each variant sends, what it costs with prompt caching, whether it broke
// an invariant and whether it kept what the agent went on to need. It
// does not compact anything itself, apart from the two reference
// variants below; the real passes plug in as Variants.
//
// # Replay
//
// Each trajectory (internal/compact/traj) becomes the requests its agent
// sent: one per assistant message, holding every message before it. The
// raw replay prices those bodies as they are; a variant's replay passes
// each body through the variant's Rewriter first, in order, as a proxy
// in front of the provider would. A rewrite that fails, or returns
// something that is not a request body, is counted (rewrite_errors) and
// the original body is used instead, which is what the proxy forwards
// when compaction fails. A Validator, when given, checks every compacted
// body against its original; an error from it counts as one violation.
//
// # Measures
//
// Every part of a body that a model reads (each tool definition, the
// system prompt, each message) is rendered as text (traj.Render) and
// tokenised with o200k, once per distinct part. The simulator
// (internal/compact/costsim) prices each conversation's requests under
// Anthropic's caching (a breakpoint at the end of each request, reads
// 0.1×, writes 1.25×) and OpenAI's automatic prefix caching (reads at a
// configurable multiplier, 0.5× by default), with a fresh cache per
// conversation and every turn within the 5-minute TTL. Over all requests
// of all trajectories, per variant:
//
//   - tokens_sent_ratio: input tokens sent / the raw replay's;
//   - cached_cost_ratio: Anthropic cost / the raw replay's Anthropic
//     cost (both with caching), and openai_cached_cost_ratio likewise;
//   - cache_hit_ratio, openai_cache_hit_ratio: tokens read from the
//     cache / tokens sent;
//   - violations: the validator's count, null when there is none;
//   - recall_probe: the share of facts (file paths and error lines the
//     agent learned from a tool output and used later) still present or
//     recoverable at every use; see internal/compact/probe;
//   - ms: time spent inside the variant's Rewriter.
//
// Ratios are of sums, so long conversations weigh more, as on a bill. The
// report's top-level numbers are those of the primary variant ("combined"
// when there is one), and each variant also reports every trajectory.
//
// # Reference variants
//
// Identity sends every body unchanged: a control whose ratios and recall
// must come out at exactly 1. RollingMask(3) replaces every tool output
// older than the last three with a short placeholder, recomputed on every
// request: each turn it rewrites the output that just left its window, so
// the cached prefix ends there and everything after it is written again
// at 1.25×. On the bundled trajectories it sends well under half the
// tokens and costs well over the raw replay under Anthropic pricing: the
// cache trap that sticky, batched compaction is designed to avoid.
package compact
