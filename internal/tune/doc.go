// Package tune proposes changes to the tools' value models (package toolvalue) from
// what agents were seen to do: the gateway's telemetry (`winnow tune analyze`) and the
// transcripts agents keep (`winnow tune from-logs`). It proposes; it never applies a
// change by itself. Proposals are printed as [tools."<name>"] tables with a reason per
// key, and written into the user's configuration only on request, and then only where
// the user has not written the key (see Merge).
//
// It does not plan or run calls (package planner and the gateway do), nor judge the
// planner's effectiveness (package telemetry's Summary does; analyze reads it).
//
// # Observations
//
// A source is a set of sessions, each its calls in order (Step): from telemetry, the
// events of one session hash in the order of their times, with the tokens the agent
// received and the upstream's latency, but no arguments (the file holds only hashes);
// from agent logs, the calls of a Claude Code transcript, a Codex rollout or a
// trajectory, mapped to one vocabulary by package agentcalls, with arguments, results
// and result sizes counted with o200k. MCP tools are named as winnow's gateway names
// them (GatewayName: mcp__winnow__github__get_issue and mcp__github__get_issue are both
// github__get_issue).
//
// For each tool Observations keep the sizes of its results (errors, duplicates and
// answers the upstream did not give are left out: they say nothing about a fresh
// call), its latencies, and for each tool called after it the count at each lag 1 to
// Window (3), the design's window: paper3_followup_edges.csv counts the same lags. The
// probability of an edge is its lag-1 probability, count(prev→next at lag 1) /
// count(prev), the share of prev's calls that next followed at once, which is how the
// built-in models' probabilities were derived from devboy's corpus.
//
// For every lag-1 pair whose arguments are known, each argument of the later call is
// matched against what the earlier call could project into it (toolvalue.Projection):
// an equal argument of the earlier call (arg.<name>), or a path its result lists
// (result.paths, relative paths matched against absolute ones). An edge can only be
// proposed with a projection for every argument most of its calls carry; Grep→Read
// (file_path from result.paths) and Edit→Read (file_path from arg.file_path) qualify,
// Read→Read and Grep→Grep do not, since no projection predicts another file or another
// pattern.
//
// # Proposals
//
// Propose compares each tool's observations with its effective model:
//
//   - speculate = false when the planner's prefetches of the tool were used (called by
//     the agent within telemetry.UseWindow calls) less than 50% of the time over at
//     least 10 prefetches (issue 12's rule; telemetry only);
//   - cost_model.typical_tokens and max_tokens from the median and 99th percentile of
//     at least 5 result sizes, when either prior is more than a quarter away;
//   - cost_model.latency_ms from the median of at least 5 latencies, likewise;
//   - follow_up after 10 calls of the tool: the model's edges with refreshed
//     probabilities (when 0.05 or more away), dropped when the next tool was seen but
//     followed in under 5% of calls, and up to 3 new edges of at least 5% to tools
//     that may be speculated, whose arguments can be projected (seen in at least 3
//     pairs); the others are notes.
//
// Each change carries its reason in one line: the counts it rests on and what the
// model says now.
package tune
