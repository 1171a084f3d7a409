// Package gateway makes `winnow mcp` a gateway to other MCP servers ("upstreams"): it keeps
// one client session to each [[upstream]] of the configuration and re-exports the upstream's
// tools on winnow's MCP server as <prefix>__<tool>, with their schemas (byte for byte as the
// upstream wrote them), descriptions and annotations untouched.
//
// # Calls
//
// A tools/call of a re-exported tool is sent to the upstream with the agent's arguments as
// they came. A Shaper (the response pipeline) sees the call before it is sent and shapes the
// result on its way back. What the upstream says is an error reaches the agent unmodified:
// an error result, and a JSON-RPC error (same code, message and data). Binary content
// (images, audio, embedded resources) passes through as the SDK decodes it: the same bytes
// and MIME types. Each call has the upstream's timeout; a call that runs out gets a tool
// error saying so, and the upstream is told the call was cancelled.
//
// # The agent's client, seen by upstreams
//
// Upstreams may ask their client for roots, for a sampled message, or for user input
// (elicitation). The gateway declares all three to every upstream and forwards each request
// to the agent's client that has a call in progress to that upstream (else to the most
// recently active client), returning its answer or its JSON-RPC error as the client sent
// it: the gateway does not judge replies (the SDK would check an elicitation reply against
// the requested schema and fill in defaults; the gateway hands the upstream the reply as it
// came, and the upstream decides). A client that lacks the capability gets the request
// refused with a JSON-RPC error saying so. A roots/list no client can answer gets the roots
// last learned, or an empty list, never null. The gateway also learns
// the roots of a client when it connects and whenever it says they changed, and passes them
// on, so that upstreams that read roots (server-filesystem) follow the agent's workspace.
// Upstreams on the stateless protocol (2026-07-28) ask through input requests in a call's
// result: those go to the agent's client as the result, and its answers come back with the
// retried call, which the gateway sends on.
//
// When an upstream says its tools changed (notifications/tools/list_changed), the gateway
// lists them again and adds and removes re-exported tools; the SDK tells the agent's clients.
//
// # Structured content and output schemas
//
// Claude Code and Codex give the model a tool result's structuredContent (as JSON) when it
// has one, not its text content, so a Shaper that implements OutputSchemer (the pipeline
// does) shapes structuredContent itself and decides, when a tool is re-exported, which
// output schema it declares, per case:
//
//   - No output schema: none is declared; structuredContent is shaped as a whole. A repeat
//     is {"winnow": "[same result as ...]"}; a trimmed list keeps its wrapper and kept items
//     and holds the winnow__more hint as its "winnow" member. A text content that serialized
//     structuredContent serializes the shaped one.
//   - A text-carrier schema, an object whose properties are all strings without constraints
//     (server-filesystem's {"content": string}, on every tool but read_media_file): re-exported
//     unchanged. The strings that repeat the text content are shaped with it (a reference, a
//     line diff, a re-encoding, a trimmed view ending with the winnow__more hint), so
//     structuredContent and content say the same and the result still validates.
//   - Any other output schema (server-filesystem's read_media_file, server-everything's
//     get-structured-content): re-exported without it, since a reference or a trimmed list
//     would not validate against it; structuredContent is then shaped as a whole, as above.
//
// # The client's own cap
//
// Clients cut what they forward: Codex 0.169 cuts the middle out of a tool output over
// 12,000 bytes (its own "Wall time: …\nOutput:\n" included) and writes "…N tokens
// truncated…" in its place; Claude Code 2.1.328 saves a result over 50,000 characters to a
// file and gives the model a 2,000-character preview. Items cut that way are lost to the
// model and no winnow__more hint names them. So the gateway passes each call's client, as
// it named itself in initialize (clientInfo: "codex-mcp-client" 0.169.0, "claude-code"
// 2.1.328), to the Shaper, and the pipeline trims a result to the smaller of call_budget and
// 90% of that client's cap, the cap turned into tokens at the result's own ratio of tokens
// to the bytes the client forwards (its structuredContent escaped as JSON, else its text);
// winnow__more pages of that result keep the same budget. The caps of known clients, and
// where they come from, are in the pipeline's clientcap.go; [gateway] client_caps in the
// configuration overrides them by client name (0: the client does not cut). A client not
// in the table, or one that sent no clientInfo, has call_budget alone. With the default
// call_budget (4000 tokens) only Codex's cap binds.
//
// # Enrichment
//
// With Options.Enrich, the gateway runs a planner (package planner) after each call the
// upstream answered: it is given the session's recent calls (Enrich.History, with their
// results) and the words of their arguments as intent, and proposes the follow-up calls the
// agent is likely to make, from the follow-up edges of the tools' value models (package
// toolvalue: the built-in models, each upstream tool's MCP annotations, fed to the
// registry as the tool list arrives, and the user's [tools] rules, which `winnow mcp`
// reloads when the configuration file changes). Admitted follow-ups go to the same
// upstream as the agent's own call would. Their results are kept raw and shaped by the
// Shaper when served, so the agent reads exactly what a direct call would have given it.
//
//   - prefetch (Enrich.Mode "prefetch"): the follow-up runs in the background and lands in
//     the session's cache, keyed by planner.Key, bounded in bytes and entries
//     (Enrich.CacheBytes, CacheEntries), kept for its tool's freshness_ttl and at most
//     Enrich.MaxAge. The agent's identical call is answered from it without reaching the
//     upstream; if the follow-up is still in flight the call waits for it, and if it still
//     waits for a host slot the call goes itself and the follow-up is dropped. A result
//     answers one call. At most Enrich.MaxPrefetch follow-ups of a session are in flight,
//     and at most Enrich.HostConcurrency to one host (the tool's rate_limit_host, else its
//     upstream: a stdio upstream is one host, an HTTP one its URL's host).
//   - inline (Mode "inline"): the follow-ups the planner judges worth a model turn, within
//     Enrich.TurnBudget tokens, are waited for (at most Enrich.InlineWait, default 1 s) and
//     appended to the current result, each delimited and naming the call that produced it:
//     "[winnow: read ahead — fs__read_text_file {"path":"a.go"}]", its text, "[winnow: end
//     of ...]". They are appended as text contents and to the structured content's text
//     member, which is what Claude Code and Codex show the model; a result whose
//     structured content has no such member gets none (its follow-ups are prefetched). What
//     is inlined stays in the cache, so the agent's identical call does not reach the
//     upstream; what does not land in time lands there later. The rest are prefetched.
//   - fail-fast: for a tool with fail_fast_after_n, once that many identical calls (one
//     planner key) in a row returned unproductive results (empty text or list, "No matches
//     found" and the like, or the same result as the identical call before), the next is
//     answered from the session, saying so and that repeating it unchanged sends it; a
//     productive result or a call that makes it stale starts the count again.
//
// Only speculable tools run ahead: pure or read-only by their model, and not annotated
// destructiveHint or without readOnlyHint by their upstream, whatever the user's rules
// say; the gateway checks this itself, not only the planner. A call that makes cached
// results stale (the response pipeline's invalidation rules: a mutating tool name or the
// upstream's invalidates table; and the tool model's invalidates) drops the session's
// results it concerns before it is sent and again when it returns, and a follow-up in
// flight that it concerns is cancelled and its result discarded. A follow-up that fails,
// times out or returns an error is dropped without the agent seeing it, counted and logged
// at debug level. Everything a session has in flight is cancelled when the session ends
// (the agent's client disconnects) or the gateway closes.
//
// The telemetry record of each call (through the Shaper's pipeline.Call.Annotate) says
// what answered it in place of the upstream (a prefetch, an earlier inline, a fail-fast
// answer), its planner key and predicted size, the upstream's latency, the inline blocks
// appended, and the plan made after it: each candidate's decision and reason, including
// the gateway's own refusals.
//
// With nothing to run ahead, the planner's own work on a call is about 8 µs and 75
// allocations (BenchmarkEnrichCPU); on whole calls through a stdio upstream,
// BenchmarkEnrich measured a median added 2 to 78 µs (on/off 1.00 to 1.16, six runs of
// 3,000 calls each) on a loaded 2-core machine, under issue 12's target of 0.2 ms.
//
// # Failures
//
// An upstream whose process exits or whose HTTP session breaks is restarted with exponential
// backoff and jitter (Backoff); meanwhile its tools answer with a tool error such as
// "upstream github is restarting (attempt 3, next in 4s): <last error>". An upstream that
// cannot start because its command does not exist is reported once (logged, and in Status)
// and not retried; the other upstreams and winnow's own tools are not affected. Close stops
// every upstream: a command's stdin is closed, then it is sent SIGTERM, then SIGKILL (to its
// whole process group, so that what it started stops too), and waited for.
//
// # Secrets
//
// Credentials come from the environment through config.Upstream.Resolve: a bearer token is
// sent as an Authorization header, never logged. Everything the gateway logs, reports in
// Status or returns as an error text passes through a redactor that replaces the values that
// came from environment variables and the query values of the upstream's URL. A command
// inherits only a short list of variables (PATH, HOME, locale, proxy and CA settings) plus
// its env table, not winnow's whole environment: keys meant for other programs do not reach
// third-party servers.
//
// # Everything else an upstream serves
//
// Resources and resource templates are re-exported with their URIs as the upstream wrote
// them (URIs are what resource links in tool results refer to) and their names prefixed;
// prompts are re-exported as <prefix>__<name>. resources/read goes to the upstream that
// listed the URI, else to the one whose tool returned it as a resource link or embedded
// resource, else to the one with the template whose literal start matches most of it;
// resources/subscribe likewise, and the upstream's notifications/resources/updated reach the
// subscribed clients (the server must record subscriptions: mcpserver's does).
// completion/complete goes to the upstream of the prompt (under its own name) or template.
// Lists follow the upstream's list_changed notifications.
//
// Progress tokens are mapped both ways (see progressRoutes): the agent's token on a tool
// call, prompts/get or resources/read is replaced by one of the gateway's on its way up, and
// the upstream's notifications/progress come back with the agent's token, in the context of
// the agent's request (so over streamable HTTP they travel with its response); the tokens of
// sampling and elicitation requests are mapped the same way in the other direction.
// logging/setLevel is forwarded: every upstream that logs is asked for the most verbose
// level any connected client set; its notifications/message go to every client, which the
// SDK filters by the client's own level.
//
// The capabilities declared to a client are what the gateway can serve at that moment:
// winnow's own (tools) plus logging, completions, resources (with subscribe only if an
// upstream takes subscriptions) and prompts when a ready upstream has them. An upstream that
// becomes ready after a client initialized is not reflected in what that client was told.
//
// The gateway does not shape results itself (see the pipeline package) or cache them,
// beyond the planner's follow-ups above. The
// _meta keys MCP reserves for the protocol (io.modelcontextprotocol/…) describe one
// connection and are not forwarded; other _meta keys are.
package gateway
