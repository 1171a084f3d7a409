// Package planner decides which tool calls to make before an agent asks for them. After
// every call it proposes the calls the agent is likely to make next, from the follow-up
// edges of the tools' value models (package toolvalue), and decides each: inline (run it
// now and append its result to the current one, saving the agent a model turn), prefetch
// (run it in the background so that a later identical call is answered at once) or
// declined, always with a reason.
//
// It does not run calls (the gateway does), read configuration or models (package
// toolvalue and its Registry do) or measure itself (package bench/enrich replays real
// agent runs through it; `winnow bench enrich`).
//
// # Candidates
//
// The follow-up edges of the latest call's model (Recent calls; older ones at a
// probability divided by their lag) are applied to the call and its result
// (toolvalue.FollowUp.Apply): a Grep's "result.paths" edge to Read gives one Read per hit.
// Relative paths a shell printed are resolved under the directory the call searched. The
// edge's probability is shared among its argument sets, each in proportion to
//
//	(1 + intent points)² / position
//
// where position is 1, 2, 3… in the result's order (the first hits of a search are the
// likely ones) and intent points come from the task's keywords (Keywords, most frequent
// first; the first five count double): 4 for a file named for a keyword ("arrow" and
// arrow.py), 2 for a file name that holds one, 1 for a directory so named. The PerEdge (3)
// heaviest sets become candidates; two edges that predict one call combine as
// independent chances. A single hit keeps the whole probability; a listing of twenty
// files leaves each a few percent unless the task names one.
//
// # Decisions
//
// Each candidate is checked in order, and the first rule that fails declines it:
//
//	already seen in this session      an earlier successful call, not made stale since
//	                                  (the model's invalidates, same file or path),
//	                                  holds its result: the same key, or a Read whose
//	                                  window holds it and showed every line of it
//	below probability floor F         Floor, default 0.25
//	not read-only: side_effect=S      only pure and read_only tools run ahead
//	speculation turned off for T      the model's speculate = false
//	worth nothing: value_class=...    audit_only results
//
// The rest are ranked by value per predicted token, value being probability × the value
// class's weight (1, 0.5, 0.2) × (1 + 0.25 × intent points, at most 16: field groups a
// keyword names count too) × 1/(1 + latency/2s) × 1/(1 + dollars/0.01), and admitted
// greedily. A candidate is inlined when it fits what is left of Budget.Tokens and a saved
// turn pays for its tokens under the CostModel (a prompt cache: the turn's context read
// from the cache, its output, the call's framing carried; against the inlined tokens
// written once and read on each of Horizon later turns when the agent does not use
// them); else it is prefetched while Budget.MaxPrefetch slots last ("over turn budget:
// 2573 > 2000 left", "inline does not pay: …"); else declined. Only speculable tools
// ever get this far, so nothing that changes anything is run ahead, and the inlined
// predictions never exceed the budget (TestPlanProperties checks both, and that a plan
// is deterministic, over 2,000 random worlds).
//
// # Sizes
//
// A candidate's size is predicted from what the session knows: the same call's earlier
// result; for a Read, the lines its window will show (cut to the file's length, from a
// "(N lines total)" header or a whole read) times the tokens per line of the file's
// earlier reads (else the session's, else 12); else the largest result of the session's
// calls of the tool with the same argument names; else the model's prior, the geometric
// mean of its typical (median) and max (99th percentile) sizes — the 88th percentile of
// a log-normal with that median and tail, which a result overruns by 30% about one time in
// twelve. The gateway measures the real result before it appends one: an inline that
// does not fit after all lands in the cache like a prefetch.
//
// # Speed
//
// Plan does nothing but resolve the latest call's model when it has no follow-ups; the
// rest of the history is read only for candidates (seen, sizes). BenchmarkPlan plans
// after each of the 288 calls of the shared trajectories as the gateway does (8 recent
// calls, models from a Registry): 7.1–7.9 µs a call on average, p50 1.0–1.1 µs, p50 1.0 µs
// when nothing is run ahead, against the 0.2 ms the gateway allows (≈160× the ~47 ns of
// resolving the model alone; load average 2–8 on 2 shared cores).
//
// # Tuning on the shared trajectories
//
// `winnow bench enrich --data internal/compact/traj/testdata/trajectories` (18 runs, 288
// calls, 281 tool-call turns; OpenHands, SWE-agent, SWE-smith and nebius agents) with the
// built-in models (toolvalue.Builtin: Claude Code's lag-1 probabilities, Grep→Read 0.35,
// Glob→Read 0.32, Edit→Read 0.14, Bash→Read 0.11), budget 2000 tokens and 3 prefetches.
// Targets: prefetch hit ≥ 0.60, decline recall loss ≤ 0.10, overrun ≤ 0.15, turns saved
// ≥ 0.10, net cached cost ≤ 0.95. What was tried, in order, and what each printed
// (prefetch hits/prefetches, loss, overrun, turns saved, net cost):
//
//  1. First version, before the built-ins were committed: a local layer with the
//     corpus's Read→Read self-edge, probabilities shared by position only, sizes at the
//     typical size, and a candidate used when its result held the agent's call (window
//     coverage) for every decision: 7/20 prefetches used (0.35), loss 14/48, overrun
//     1/1, 2/281 turns, net 1.007. The self-edge proposed whole files after windowed
//     reads, which agents never asked for.
//  2. Prefetches and declines judged by key, since the gateway's cache answers only an
//     identical call (inlines still by window, since their text is in the context):
//     1/36 with the local layer; with the built-in models, which have no self-edges:
//     1/5 (0.20), loss 4/133, overrun 1/1, 0 turns, net 1.000.
//  3. SWE-agent's "open F" read as asked, Read{F} (it was Read{F, limit 100} when the file
//     was longer than the window, a key no prediction has): 2/5 (0.40).
//  4. Unknown sizes at the log-normal's 88th percentile instead of the median: overrun
//     2/2 → 0/2; an unknown file's 2,573 tokens no longer fit a 2,000 budget, so no
//     blind inline.
//  5. Intent: the task is the issue inside the harness's template (the template's words
//     had filled the keywords: "command", "script", "open"), keywords by frequency, a
//     stem match worth more than a substring, bug-report words ("reproduce", "steps")
//     dropped: at floor 0.3 unchanged (2/5), but the right file now heads the fan-outs
//     (arrow/arrow.py for an Arrow issue, the test file a grep found, not reproduce.py).
//  6. Floor sweep (budget 2000): 0.12 → 6/80 (0.07; Edit→Read and Bash→Read junk
//     admitted), 0.15 → 5/10, 0.18 → 4/8, 0.20–0.25 → 4/7 (0.57, loss 3/131 = 0.023,
//     overrun 0/4), 0.30 → 2/5, 0.40 → 0/0 (loss 7/138). Default 0.25: the plateau's upper
//     end, above every edge under 0.15.
//  7. Within-3 probabilities instead of lag-1 (an experiment layer over the built-ins:
//     Grep→Read 0.69, Glob→Read 0.80, 1 − Π(1 − p_lag) over the corpus's lags 1–3): at
//     floor 0.2–0.3, 5–6 of 13–16 (0.38), loss 0.008–0.016, overrun 1/5–1/6; more
//     fan-out candidates clear the floor and most are not the file read. Not adopted.
//  8. Inlining: with the defaults the planner inlines nothing on these runs (0 turns, net
//     1.000): lag-1 probabilities ≤ 0.35 do not pay for a result's tokens at the contexts
//     seen (13,000 tokens a request on average), and a first read's predicted 2,573
//     tokens exceed the budget. Inlining whatever fits (a cost model with free cache
//     reads and writes): budget 4000 → 4/4 inlines used, 4/281 turns saved (0.014), net
//     0.993 (OpenAI 0.989); budget 8000 → 5 turns (0.018), net 1.007. BaseContext 12000
//     and budget 4000 with within-3 probabilities: 1 turn, net 0.999.
//
// Where the targets stand (defaults, budget 2000): prefetch hit 0.571 (4/7; target
// 0.60, one hit short on seven prefetches), decline recall loss 0.023 (met, but over 131
// declines of which 86 are the Edit→Read and Write→Read edges after every edit and 25
// Bash→Read, 20 of those on names a traceback prints, such as
// json.decoder.JSONDecodeError, that toolvalue.ListedPaths takes for paths; over the 20
// declines after a search or a listing it is 3/20 = 0.15), cost overrun 0.000 (0/4,
// met), turns saved 0.000 (target 0.10), net cached cost 1.000 (target 0.95). The last two are out of reach on these runs, not only for this planner:
// 87 of the 281 turns only read, search or list — the rest edit files and run tests or
// scripts, which nothing may run ahead — and of those 87 the ones a follow-up edge can
// name are the reads right after a search or a listing; inlining every admitted
// candidate that fits 8,000 tokens saves 5 turns (1.8%). The misses are reads of a window
// at a line (SWE-agent's "open F 1474" after "find_file F"; OpenHands' view_range after a
// grep -n) where the prediction is the whole file: a projection of grep's and
// search_file's line numbers into a Read's offset would let the built-in Grep→Read edge
// predict the window.
package planner
