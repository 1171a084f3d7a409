// Package agents is the benchmark behind `winnow bench agents`: it measures what winnow's
// proxy saves with a real agent client, not a replayed trajectory. For one client (Claude
// Code today) it writes a generated workspace, then runs the client's headless CLI twice
// through the same scripted session of tool steps: once straight at a scripted API (the
// passthrough baseline) and once through an in-process proxy wired as `winnow proxy`
// wires it (compaction on, default options). The scripted API (for Claude Code,
// internal/llmproxy/scripted/claude) decides every step, checks every request against the
// API's rules, applies the server-side context-management edits the client asks for, and
// bills the input as the API would (o200k tokens, a prompt-cache simulation).
//
// The report gives, per run: whether the session completed, main-loop and side requests,
// billed input tokens (and before server-side edits), cache reads and writes, the cached
// cost in uncached-token units, invalid requests (the API would have answered 400),
// server-side edits applied, and what the proxy did with each request; then the ratios
// winnow/passthrough of input tokens, cached cost and requests, the first against
// TargetInputRatio. Nothing is asserted: a person reads the report.
//
// It does not install the clients (see .ci/run: WINNOW_TEST_AGENTS names their
// node_modules) and never reaches a real API: the clients get a placeholder key and a
// loopback base URL.
//
// # Adding a client
//
// A Client pairs an agent CLI with the scripted API it speaks to: StartAPI starts the API
// for one session, Run runs the CLI against a base URL. Implement it and name it in
// newClient; Run does the rest. Codex (codex.go) runs against the scripted Responses
// API of internal/llmproxy/scripted/codex, reading the same files in turn.
package agents
