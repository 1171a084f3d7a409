// Package enrich is `winnow bench enrich`: it replays recorded agent runs call by call
// through the planner (package planner) and measures how well its inline and prefetch
// decisions match what the agents did next, and what enrichment would have cost under a
// prompt cache. It does not plan calls (package planner does) or run them (the gateway
// does); it mirrors what the gateway does with the planner's decisions in its "inline"
// mode.
//
// # Replay
//
// Each trajectory's calls are read in the canonical vocabulary of package agentcalls
// (Read, Grep, Glob, LS, Edit, Write, Bash). After each call the planner gets what the
// gateway would give it: the last History (8) calls it served, with their results
// (sizes in o200k tokens), the task's keywords as intent, and the budget. Its candidates
// are then judged against the agent's next Window (3) calls, counting only calls of a
// later turn (the calls of the same turn were already on their way):
//
//   - an inline decision is appended, as the gateway does, only if the result's real
//     size fits what is left of the budget, else it runs into the cache like a prefetch;
//     an appended result answers every later call whose result it holds (planner.Holds:
//     a Read of a window within an inlined file or window, and when the agent's own
//     identical read was an editor's abbreviated view, only the lines that showed),
//     since its text is in the agent's context;
//   - a prefetched result answers only a later call with its key (planner.Key), since
//     that is how the gateway's cache is looked up;
//   - a declined candidate was called when the agent made a call with its key.
//
// A call that something made stale in between (planner.Stale: an Edit of the file, a
// Bash) is answered by nothing. A call answered by an inline never reaches the gateway:
// it is not planned after and not in the history; a turn whose every call an inline
// answered is saved. The real size of a candidate is that of the agent's own call with
// its key later in the run, else the planner's prediction with the whole run known.
//
// # Numbers
//
//	prefetch_hit_rate    prefetches used / prefetches
//	inline_hit_rate      appended inlines used / appended inlines
//	decline_recall_loss  declines the agent then called and that nothing else answered
//	                     (no inline, prefetch or dedup) / declines; declines_called_rate
//	                     counts every called decline
//	cost_overrun_rate    admitted candidates whose real size, known from the agent's own
//	                     call, was ≥ 130% of the prediction / those with a known size
//	turns_saved_ratio    turns saved / tool-call turns; speculable_turns, the turns whose
//	                     every call is of a tool that may run ahead, bound it
//	turns_saved_ceiling  the turns an inline could save at most: those whose every call
//	                     is a Read that a result of an earlier turn names (a search's, a
//	                     listing's or a shell's, naming the file and, for a window, one
//	                     of its lines), with turns_saved_ceiling_ratio over tool-call
//	                     turns and named_reads the Reads counted
//	calls_saved          by bucket: inline, prefetch, dedup (an earlier successful call
//	                     with the same key, nothing stale since), fail_fast (the model's
//	                     fail_fast_after_n same-key calls in a row found nothing)
//	net_cost_ratio       cost with enrichment / without, Anthropic's cache
//	net_cost_ratio_openai  the same under OpenAI's
//
// Ratios are of sums over all runs, so long runs weigh more, as they do on a bill.
//
// # Cost
//
// Each run's requests are those its agent sent (traj.Requests: one per assistant
// message, carrying every message before it), priced by costsim's cache simulator
// (Anthropic: reads 0.1×, writes 1.25×, 1,024-token minimum; OpenAI: reads 0.5×,
// 128-token increments) plus the assistant message of each request as output (5× and
// 4× an input token: Claude Sonnet's and gpt-4o's prices). With enrichment, an appended
// result joins the context after the message holding the call it followed, in every
// later request, at its real size plus the gateway's delimiters; a saved turn's request
// is not sent, and its assistant message and results are in no later request. Prefetch
// adds no tokens (the gateway sends no hint).
package enrich
