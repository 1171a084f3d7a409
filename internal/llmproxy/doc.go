// Package llmproxy is an HTTP proxy in front of LLM APIs: it forwards Anthropic Messages and
// OpenAI (or OpenAI-compatible) requests to their upstreams, lets a Rewriter replace the
// request body on the way (conversation compaction, in winnow), and streams each response
// back as it arrives. Point a client at it with ANTHROPIC_BASE_URL=http://127.0.0.1:8787 or
// OPENAI_BASE_URL=http://127.0.0.1:8787/v1.
//
// It does not decode, compact or validate conversations itself (that is the Rewriter's job;
// the default, Passthrough, changes nothing), does not hold API keys of its own, does not
// retry, cache or rate-limit, and does not touch responses beyond adding x-winnow-* headers.
//
// # Routing
//
// Every upstream URL is a base to which the client's path is appended unchanged (query
// included): with the OpenAI upstream http://host/compat, POST /v1/chat/completions goes to
// http://host/compat/v1/chat/completions. Requests are routed by path, then by header:
//
//  1. /v1/messages, anything under /v1/messages/ (count_tokens, batches) and /v1/complete
//     go to the Anthropic upstream;
//  2. anything under /api/ goes to the Anthropic upstream: it is Claude Code's own API
//     (HEAD /api/hello as it starts, /api/oauth/…, /api/claude_code/…,
//     /api/event_logging/batch), which it calls without anthropic-version; OpenAI's API
//     has no /api/ paths;
//  3. any request carrying anthropic-version goes to the Anthropic upstream: every Anthropic
//     SDK sends it on its API calls, and it is what tells GET /v1/models or /v1/files, paths
//     both APIs have, where to go;
//  4. so does any request whose User-Agent names an Anthropic client: it starts with
//     claude-cli/ or claude-code/ (Claude Code: "claude-cli/2.1.328 (external, cli)") or
//     Anthropic/ ("Anthropic/JS 0.54.0", "Anthropic/Go 1.84.0"), or mentions anthropic-sdk,
//     case aside (see ClientOf);
//  5. everything else (/v1/chat/completions, /v1/responses, /v1/embeddings, GET /v1/models
//     from an OpenAI client …) goes to the OpenAI upstream.
//
// /healthz is answered by the proxy itself: {"ok":true,"version":…,"upstreams":{…}}. It does
// not call the upstreams.
//
// # Rewriting, and when it does not happen
//
// Only POST /v1/messages (dialect "anthropic"), POST /v1/chat/completions ("openai") and
// POST /v1/responses ("responses", OpenAI's Responses API, which Codex speaks) are offered
// to the Rewriter; everything else passes through as the client sent it. A rewritable request is "bypassed", that is forwarded byte for byte as
// the client sent it, with the reason in the X-Winnow-Reason response header and the log,
// when:
//
//   - its Content-Length is above MaxBodyBytes, or, without a Content-Length, it grows past
//     it: the body is streamed upstream as it arrives, never buffered whole (body_too_large);
//   - it is compressed (content_encoding) or not application/json (content_type);
//   - it is not valid UTF-8 (not_utf8);
//   - the Rewriter returns an error or panics (rewrite_failed): malformed JSON, an unknown
//     anthropic-version, an unknown content block type and any failed invariant all end
//     here, and the error is logged;
//   - the Rewriter's body is empty or not valid UTF-8 JSON (invalid_rewrite).
//
// So no request is ever lost to the proxy: it either forwards what the Rewriter produced and
// vouched for, or exactly what the client sent. The proxy does not check that a client's
// body is JSON before asking the Rewriter: the Rewriter decodes it anyway, and a second
// parse would cost ~5 ms per MB on every request. A client body that cannot be read whole
// is never forwarded whole (see Slow and broken request bodies).
//
// When the body was replaced, the outbound Content-Length is the new body's length and the
// response carries X-Winnow-Rewrite: changed; otherwise unchanged or bypassed. When the
// Rewriter counted tokens, X-Winnow-Tokens-Before, X-Winnow-Tokens-After and X-Winnow-Saved
// carry its counts. Counts are o200k tokens (see package tokens): Anthropic's tokenizer is
// not public, so for Claude they approximate what the API bills.
//
// # Server-side edits
//
// A Rewriter may ask an Anthropic upstream to edit the request itself (Rewrite.Beta: the
// compactor asks for a clear_tool_uses edit on models that bind thinking to its prefix,
// where no client-side edit inside a tool loop is valid). Request.ServerEdits says whether
// it may: Options.ServerEdits is ServerEditsAuto (only for https://api.anthropic.com, the
// default), ServerEditsOn or ServerEditsOff, and an upstream that refused one is not asked
// again. The proxy adds the Rewrite's beta values to the client's anthropic-beta header
// (never removing the client's). If the upstream answers 400 with an error that names what
// was added (context_management, the beta), the proxy sends the client's body and headers
// as they came, once, notes it in the log, and from then on tells the Rewriter that this
// upstream takes no server-side edits; the client only ever sees the retry's answer.
//
// # Streaming, errors, cancellation
//
// Responses are copied through with every write flushed at once (FlushInterval -1), so each
// server-sent event reaches the client while the upstream is still generating the next. The
// upstream's answers pass through as they are, 4xx and 5xx included: status, headers and
// body. Errors of the proxy's own are in the dialect's error shape, so SDKs show their
// message: 502 when the upstream cannot be reached, 504 when it sends no response headers
// within UpstreamTimeout (the body may then stream for as long as it takes). A client that
// goes away cancels the upstream request, mid-stream too; a response that breaks off
// mid-stream is cut off for the client as well (the connection is closed), never ended as if
// it were whole. Hop-by-hop headers (Connection and the headers it names, Keep-Alive,
// Proxy-Authorization, TE, Upgrade …) stop at the proxy; no X-Forwarded-* header is added;
// the upstream sees its own Host.
//
// # Slow and broken request bodies
//
// Request headers must arrive within 30 s. A request body must then arrive steadily and in
// time: each read waits at most BodyIdleTimeout (default 30 s) for its next byte, and the
// whole body must be in within BodyTimeout (default 2 min) of the end of the headers,
// however steadily it trickles, whether it is read for the Rewriter or streamed upstream as
// it comes (a body above MaxBodyBytes, a path that is not rewritten; a large upload over a
// slow uplink needs a longer BodyTimeout). A body that stalls or takes longer is answered
// 408; one that ends before its announced length or its last chunk (the client
// half-closed or closed its connection mid-body) is answered 400. Either answer is in the
// dialect's error shape and says how many bytes arrived; it is sent even though net/http
// already takes the client for gone (a client that half-closed is still reading). The
// request never reaches the upstream whole, the connection is closed after the answer,
// and the request has its one log line, at Warn. The timeouts bound the request body only
// and are lifted once it has arrived: a response streams for as long as the model writes.
//
// A client that sent its whole body and left (or half-closed its connection) before the
// upstream answered gets no answer: its upstream request is cancelled and the connection
// closed, never answered with an empty 200.
//
// Every forwarded request is served in full-duplex mode: the client's body may still be
// flowing upstream while the answer flows back, and net/http does not drain or close it when
// the response begins. A body that is not rewritten is handed to the transport as it streams
// in, and the transport reads it once more after its last byte; with the server closing the
// body as the response began, that read failed now and then, and the transport closed the
// upstream connection under a healthy stream (see fullDuplex in proxy.go).
//
// # Credentials
//
// Every header is forwarded to the upstream as the client sent it (but the hop-by-hop
// ones), credentials included. Only the plain headers, those known to carry no secret,
// are shown to a Rewriter and logged with their values: the protocol headers of HTTP
// (content-type, content-length, accept, user-agent …), of the APIs and their SDKs
// (anthropic-version, anthropic-beta, openai-beta, x-stainless-*, Claude Code's x-app,
// Codex's originator) and of their answers (request-id, retry-after, the rate-limit
// counts, x-winnow-*); see plainHeaders in headers.go. Header dumps at Debug level name
// every other header with the value [REDACTED], whatever its name: authorization and
// x-api-key as much as an X-Custom-Credential. Logs carry paths, never queries or bodies.
// Passwords in upstream URLs are redacted wherever the URL is shown.
//
// # Logging
//
// One line per request, when it is done (after the last byte of a stream): method, path,
// dialect, status (499 when the client left before the upstream answered), req_bytes,
// fwd_bytes, resp_bytes, ms, ttfb_ms, and for rewritable requests rewrite, reason, tokens
// before and after, saved and the Rewriter's notes, and server_edits, what the upstream
// reported its context edits cleared; error and aborted when something failed, at Warn. A
// client that hangs up after a stream's final counts (Codex closes the connection right
// after response.completed) had the whole answer: that is client_left_after_end, at Info.
// Debug adds the request and response headers, values shown for plain headers only.
//
// # Telemetry
//
// With Options.Telemetry set, each rewritable request that was forwarded gives one
// telemetry.Exchange, handed over when its response has ended (see package telemetry for
// the event it becomes): the dialect and path; the client, named by ClientOf from the
// User-Agent; the model, read from the body's "model" member (an id-shaped string of at
// most 100 bytes, else nothing); a SHA-256 digest of the conversation's opening, its
// messages (or the Responses API's input) through the first one from the user, which the
// telemetry writer keys again, so requests of one conversation hash alike and no text
// leaves the proxy; the status; the rewrite's outcome and reason; the Rewriter's token
// counts, in all and per pass (Rewrite.Passes); whether a server-side edit was asked for
// (a refused one reports the request as bypassed, edits_refused, since the client's body
// went instead); and what the upstream billed and the context edits it applied.
//
// Model and opening come from one scan of the body's top-level members that stops once it
// has both (so, for the usual body that names its model first, at the first user
// message), not from decoding it. The usage is read from the response as the proxy copies
// it to the client, never holding it back: an event stream is split into lines and only
// the data of the events that carry usage is kept (Anthropic's message_start and
// message_delta, whose counts are cumulative and whose context_management.applied_edits
// lists the edits; the Responses API's response.completed; an unnamed chat chunk with a
// "usage" member, sent for stream_options.include_usage), and the scan stops once the
// usage is complete; a JSON answer is copied aside (up to 4 MiB; gzip is decoded) and read
// at its end. A stream that breaks off before its final counts reports no usage. For
// OpenAI, cached tokens are part of the prompt's count and are split out of it.
//
// # Shutdown
//
// Serve stops on its context: it closes the listener and idle connections at once, lets
// requests in flight, streams included, run to their end for up to ShutdownTimeout, then
// cuts off what is left (cancelling those upstream requests) and returns
// ErrShutdownTimeout. Requests do not inherit Serve's context, so the shutdown signal never
// cancels a stream by itself.
package llmproxy
