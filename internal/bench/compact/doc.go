// Package compact is the conversation-compaction benchmark behind
// `winnow bench compact`: it replays recorded agent trajectories request
// by request, raw and through each compaction variant, and reports what
// each variant sends, what it costs with prompt caching, whether it broke
// an invariant and whether it kept what the agent went on to need; with
// --thinking, the same per Claude thinking family (see "Thinking"). It
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
//
// # Thinking
//
// `winnow bench compact --thinking` (RunThinking) measures compaction
// around thinking blocks, whose rules depend on the model's family
// (compact.Family; see internal/compact, "Thinking"). The recorded
// trajectories carry no thinking, so each is prepared in two pure,
// deterministic steps:
//
//   - ToAnthropic writes OpenAI Chat messages as Anthropic ones (leading
//     system messages become the system prompt; an assistant's text and
//     tool calls become text and tool_use blocks, whose input is the
//     arguments object, or {}; a run of tool messages becomes one user
//     message of tool_result blocks; tool definitions take the Messages
//     API's shape; a repeated call id gets a suffix, since the API
//     rejects one). Without thinking blocks, the converted
//     trajectories gave the default report's combined ratios to within
//     0.001 when this was written.
//   - WithThinking puts a signed thinking block at the start of every
//     assistant message: a paragraph of 150 to 300 tokens and a
//     300-byte base64 signature, both derived from the message's index.
//     Real blocks vary: with display "omitted" the text is empty and
//     only the signature comes back, and real thinking is often longer.
//
// Every request then asks for adaptive thinking and is replayed once
// per case (ThinkingCases), raw and compacted: last-turn
// (claude-sonnet-4-5), keep-all (claude-opus-4-5), preserved
// (claude-opus-5-5 with Options.ServerEdits, so the horizon is realised
// by a clear_tool_uses edit in context_management) and preserved-client
// (the same model, client-side batches only).
//
// Both replays are priced as the API would bill them, by the model of
// the provider in serverapi.go, which is the benchmark's and not
// winnow's: on last-turn models the thinking blocks of assistant
// messages before the last user message that is not only tool results
// are stripped, neither billed nor cached; keep-all and preserved models
// bill every block; a clear_tool_uses edit applies when the request's
// input tokens exceed its trigger and replaces the content of the
// tool_result of every tool use but the most recent keep (tools in
// exclude_tools excepted) by ClearedPlaceholder, as
// https://platform.claude.com/docs/en/build-with-claude/context-editing
// describes it. The API's placeholder text is not documented; any short
// fixed text prices within a few tokens of it. traj.Render renders
// every scalar of a block, so a signature would be tokenised as text;
// Anthropic bills a thinking block for its thinking, not for the
// signature that authenticates it, so the model drops the signature
// before rendering. The result goes through the cache simulator with
// Anthropic's pricing at each model's own cache-read price: 0.1× for
// the Claude 4.5 models, 0.05× for Opus 5.5 (Fable 5.1 reads at 0.025×);
// each case also reports its cost at 0.1×, the default report's price.
// The minimum cacheable prefix stays 1024 tokens for every model.
//
// Every compacted request is checked with compact.ValidateBound: a
// thinking block kept after a rewritten message was produced against
// the request the replay sent for its message, so the prefix rule of
// preserved models is checked against that request (as
// compact.Compactor does), and against the original when there is none.
// The recall probe reads the prompt the API model bills, where a result
// the API cleared holds only ClearedPlaceholder; that placeholder counts
// as recoverable, like a compaction placeholder that names its call,
// since the tool_use it answers, input and all, stays next to it.
//
// Per case, the report gives tokens_sent_ratio (tokens the API bills
// after its own edits and stripping over the raw requests'),
// cached_cost_ratio, violations, recall_probe, and for preserved how
// many requests carried a server edit and how many were past its
// trigger. What limits each family shows in the numbers: thinking is
// input no batch may shorten, which every request carries and every
// batch makes the provider write again; on a preserved model a
// client-side batch waits for the tool loop to end, which for a
// tool-calling agent is the end of the task; a clear_tool_uses edit
// clears every old result, small ones too, so its cache miss starts
// earlier than a client-side batch's; a text-form agent has no tool
// uses for it to clear; and at 0.05× reads a batch saves half as much
// per later request for the same write, which Payback, tuned for 0.1×,
// does not see.
package compact
