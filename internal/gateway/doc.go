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
// recently active client), returning its answer or its JSON-RPC error. A client that lacks
// the capability gets the request refused with a JSON-RPC error saying so. The gateway also learns
// the roots of a client when it connects and whenever it says they changed, and passes them
// on, so that upstreams that read roots (server-filesystem) follow the agent's workspace.
// Upstreams on the stateless protocol (2026-07-28) ask through input requests in a call's
// result: those go to the agent's client as the result, and its answers come back with the
// retried call, which the gateway sends on.
//
// When an upstream says its tools changed (notifications/tools/list_changed), the gateway
// lists them again and adds and removes re-exported tools; the SDK tells the agent's clients.
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
// The gateway does not shape results itself (see the pipeline package), cache them, re-export
// upstream prompts or resources, or forward progress and logging notifications.
package gateway
